"""The views layer: what each screen shows, as plain data (no rich, no typer, no printing), and the JSON
contract for scripts. Reads records and the index; never ranks anything itself."""
