"""The library: the records and the query model read from one index, and the lookups over them.

    library = Library(records, query_model)
    library.records["faq-108"], library.query_model.faction_name("marquise")
    library.tables.holders("6.2.3")

Plain corpus data: what search derives from it (whoosh, vectors, postings) is the search index's own
(rootfaq/search/index.py), which holds one Library.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .query_model import QueryModel
from .records import Record
from .tables import RecordTables, record_tables


@dataclass(eq=False)
class Library:
    records: dict[str, Record]  # by id, in corpus order
    query_model: QueryModel

    @functools.cached_property
    def tables(self) -> RecordTables:
        """Lookups over the records (who holds a section, who cites it), built on first use."""
        return record_tables(self.records.values())
