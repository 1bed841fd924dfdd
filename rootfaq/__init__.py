"""rootfaq: an offline rules companion for the board game Root.

    import rootfaq
    rootfaq.ask("can the cats build in a ruin?")   # the `ask --json` object

The library's functions live in rootfaq/api.py (ask, section, record, records, Companion, Request); they
load on first use, so importing rootfaq, or starting the command line, costs nothing for them.
"""

__version__ = "0.1.0"

_API = ("ask", "section", "record", "records", "Companion", "Request")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'rootfaq' has no attribute '{name}'")
