"""`rootfaq serve`: the answers as a local web page for the phones around the table.

    pages    the views the terminal shows (rootfaq/views), as HTML strings: pure, no web framework
    app      the Starlette app over one Companion: routes, security headers, one search at a time
    server   uvicorn on a socket bound here, the LAN address and its QR code, a quiet Ctrl-C

Starlette, uvicorn and segno are imported only in this package, and the package only by the `serve`
command, so no other command pays for them at start-up.
"""
