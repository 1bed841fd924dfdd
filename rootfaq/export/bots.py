"""The Clockwork bots (Mechanical Marquise, Automated Alliance, Vagabot, ...) as the cheat sheet sees them.

A sheet leaves bot rulings out unless asked (`--bots`, or a bot's name as the faction). The corpus knows
bots in two ways: records about them carry the `clockwork` faction tag, and each bot is its own entry in
corpus/factions.yaml with `bot_of`, the faction it plays. These two functions are the only places that
rely on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..corpus.library import Library
from ..corpus.records import Record

BOTS = "clockwork"  # the faction key of the Clockwork bots in corpus/factions.yaml


@dataclass(frozen=True)
class Bot:
    """A bot a player named: 'Mechanical Marquise' playing the Marquise; `plays` None for every bot."""

    name: str
    plays: str | None


def is_bot_ruling(record: Record) -> bool:
    """A ruling about the Clockwork bots. Outsiders rule sections that share a bot word ("order card")
    are the fan expansion's own rules, printed with --rules, not bot rulings."""
    return BOTS in record.factions and record.source != "outsiders"


def known_bots(library: Library) -> dict[str, Bot]:
    """Every name that means a bot (lower case, as players type it) and the bot it means:
    'mechanical marquise' -> Mechanical Marquise playing 'marquise'; 'bots', 'clockwork' -> all of them."""
    model = library.query_model
    umbrella = model.factions.get(BOTS)
    every = Bot(umbrella.name if umbrella else "Clockwork bots", None)
    found: dict[str, Bot] = {}
    for name, keys in model.faction_names.items():
        if BOTS not in keys:
            continue
        bot = next((model.factions[k] for k in keys if k in model.factions and model.factions[k].is_bot), None)
        found[name] = Bot(bot.name, bot.bot_of) if bot else every
    return found
