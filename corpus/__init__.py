"""Data package: the three sources, byte for byte, and the curated YAML beside them."""
