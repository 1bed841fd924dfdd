"""Entry point of `rootfaq` and `python -m rootfaq`.

`rootfaq ask --json ...` is answered by `batch.run_fast` without loading typer (see rootfaq/batch.py);
every other command line goes to the typer app in cli.py.
"""

import sys


def main():
    from .cli.batch import run_fast
    from .output import prepare_streams

    prepare_streams()  # an output encoding that cannot show everything degrades instead of failing
    code = run_fast(sys.argv[1:])
    if code is not None:
        return code
    from .cli.app import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
