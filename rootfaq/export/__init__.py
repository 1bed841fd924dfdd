"""The printable cheat sheet: the rulings that matter for the factions at the table, as HTML, PDF or Markdown.

One concern per module, imports pointing down the list:

    echo       `shown`: user input echoed to a terminal with its control characters spelled out
    sheet      the plain data a sheet is made of (entries, groups, legend, section index) and the papers
    bots       which records are rulings about the Clockwork bots, and which names mean a bot
    selection  which records go on a sheet and in what order: filters in, a `Sheet` out (pure)
    html       the sheet as a self-contained HTML page with its print CSS (prints from a browser)
    markdown   the sheet as Markdown for wikis and chat
    pdf_layout a small two-column flowing layout engine over fpdf2
    pdf        the sheet drawn with that engine (PDF without a browser)
    files      safe file writing: atomic, never over a device or FIFO, no leftovers from a killed run
    command    what `rootfaq cheatsheet` calls: format from option or suffix, select, render, write

    $ rootfaq cheatsheet --faction cats --official --format pdf -o cats.pdf
"""
