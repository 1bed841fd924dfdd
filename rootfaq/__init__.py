"""rootfaq: an offline rules companion for the board game Root."""

__version__ = "0.1.0"
