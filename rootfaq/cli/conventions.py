"""The command line as players type it, on top of typer's click: global flags anywhere, a bare question
asked, help that names arguments (QUESTION..., REF...) instead of Python types, and click's usage errors
in rootfaq's own two lines ("rootfaq: no such option: --nope" / "hint: ...")."""

from __future__ import annotations

import sys

from typer.core import TyperCommand, TyperGroup

try:  # typer 0.2x ships its own copy of click, whose errors are its own classes
    from typer._click.exceptions import UsageError as ClickUsageError
except ImportError:  # older typer runs on click itself
    from click.exceptions import UsageError as ClickUsageError

# Options of the whole program, accepted after the command too (`rootfaq ask x --no-pager`).
GLOBAL_FLAGS = ("--debug", "--no-pager", "-V", "--version")
_ROOT_ONLY = ("-h", "--help", "--install-completion", "--show-completion")


class RootfaqGroup(TyperGroup):
    """The command line as players type it: global flags anywhere before `--`, and a bare question
    (`rootfaq "can cats build in ruins"`, `rootfaq cats build in ruins`) asked as `rootfaq ask ...`, unless
    it is one word close to a command ("lsit"), which gets the usual "Did you mean 'list'?"."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        args = hoist_global_flags(args)
        if not ctx.resilient_parsing:
            args = route_bare_question(args, self.commands)
        return super().parse_args(ctx, args)

    def make_context(self, info_name, args, parent=None, **extra):
        with plain_usage_errors(_path(info_name, parent)):
            return super().make_context(info_name, args, parent, **extra)

    def resolve_command(self, ctx, args):
        with plain_usage_errors(ctx.command_path):
            return super().resolve_command(ctx, args)


class PlainUsageError(ClickUsageError):
    """A usage error of click's (unknown option, missing argument, bad value, unknown command) shown the
    way every rootfaq error is: one line saying what is wrong, one hint, exit code 2."""

    def __init__(self, message: str, command_path: str) -> None:
        super().__init__(message)
        self.command_path = command_path

    def show(self, file=None) -> None:
        from .shell import error_lines

        message = self.message.rstrip(".")
        message = message[:1].lower() + message[1:] if message[1:2].islower() else message
        (file or sys.stderr).write(error_lines(message, f"{self.command_path} -h lists what it takes"))


def _path(info_name: str | None, parent) -> str:
    return " ".join(filter(None, [parent.command_path if parent is not None else "", info_name or "rootfaq"]))


class plain_usage_errors:  # noqa: N801 (a context manager, named for what it does where it is used)
    def __init__(self, command_path: str) -> None:
        self.command_path = command_path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, _traceback) -> bool:
        if isinstance(error, ClickUsageError) and not isinstance(error, PlainUsageError):
            raise PlainUsageError(error.format_message(), self.command_path) from None
        return False


def hoist_global_flags(args: list[str]) -> list[str]:
    """Global flags moved in front of the command; anything after `--` is left as it is."""
    end = args.index("--") if "--" in args else len(args)
    flags = [a for a in args[:end] if a in GLOBAL_FLAGS]
    return flags + [a for a in args[:end] if a not in GLOBAL_FLAGS] + args[end:]


def route_bare_question(args: list[str], commands: dict) -> list[str]:
    """`ask` put in front of a question typed without it (see RootfaqGroup)."""
    import difflib

    start = 0
    while start < len(args) and args[start] in GLOBAL_FLAGS + _ROOT_ONLY:
        start += 1
    if start == len(args) or args[start] in commands:
        return args
    first = args[start]
    if first.startswith("-") and first != "-":
        ask_options = {opt for param in commands["ask"].params for opt in param.opts}
        if first.split("=")[0] not in ask_options:
            return args  # an unknown option: click says so
    elif len(args) == start + 1 and " " not in first and difflib.get_close_matches(first, list(commands), n=1):
        return args  # "lsit" alone: a mistyped command; "cats build in ruins" is a question
    return args[:start] + ["ask"] + args[start:]


class RootfaqCommand(TyperCommand):
    """Help like ripgrep's or gh's: arguments by name (QUESTION..., REF...), without Python types; usage
    errors in rootfaq's style."""

    def make_context(self, info_name, args, parent=None, **extra):
        with plain_usage_errors(_path(info_name, parent)):
            return super().make_context(info_name, args, parent, **extra)

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [_argument_name(p, usage=True) for p in self.get_params(ctx) if _is_argument(p)]

    def format_options(self, ctx, formatter) -> None:
        arguments = [(_argument_name(p), p.help or "") for p in self.get_params(ctx) if _is_argument(p)]
        options = [p.get_help_record(ctx) for p in self.get_params(ctx) if p.param_type_name == "option"]
        for title, rows in (("Arguments", arguments), ("Options", [r for r in options if r])):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _is_argument(param) -> bool:
    return param.param_type_name == "argument"


def _argument_name(param, usage: bool = False) -> str:
    name = param.metavar or param.name.upper()
    if usage and not param.required:
        name = f"[{name}]"
    return name + ("..." if param.nargs != 1 else "")
