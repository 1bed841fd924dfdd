"""The views layer: what each screen shows, as plain data (no rich, no typer, no printing), and the JSON
contract for scripts. Reads records from the Library; searches only through search's functions, never
ranks anything itself."""
