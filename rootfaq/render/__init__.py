"""The render layer: views laid out for a terminal with rich (the only layer besides export that does)."""
