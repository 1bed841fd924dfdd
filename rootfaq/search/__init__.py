"""The search layer: the index (the only module that touches whoosh), the retrievers, query understanding,
ranking, confidence, and answering a question. Imports the corpus layer, never views, render or cli."""
