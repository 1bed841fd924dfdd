"""`python -m rootfaq`: the same entry point as the `rootfaq` script (rootfaq.cli.run)."""

from .cli import run

if __name__ == "__main__":
    run()
