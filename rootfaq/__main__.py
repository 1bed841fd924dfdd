"""`python -m rootfaq`: the same entry point as the `rootfaq` script (rootfaq.cli.main)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
