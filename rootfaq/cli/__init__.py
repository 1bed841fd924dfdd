"""The command line: the only layer that touches typer, reads the process's arguments and exits."""
