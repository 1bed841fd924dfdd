"""The corpus layer: records as plain data, the three source parsers, the curated YAML, section numbers,
and the query model the index stores for search. Imports nothing above itself (no whoosh, no rapidfuzz)."""
