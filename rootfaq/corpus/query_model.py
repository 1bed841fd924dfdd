"""The query model: what query understanding and the screens need from the curated data (faction names,
synonyms, topics, word counts), computed once when the index is built and stored beside it
(query-model.json), so no YAML is parsed at query time. What the sources say of themselves (titles, the
FAQ's date, the problems found parsing them) is the Library's CorpusInfo (rootfaq/corpus/library.py).

Typed, with one JSON form (`to_json` / `from_json`): a stored model that lacks a field fails to load, and
the index is rebuilt, instead of each reader guessing a default.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .refs import SectionNumbers

# The faction-name key of phrases that look like a nickname but name no faction ("bird cards").
NOT_A_FACTION = "-"
# The group of The Outsiders' fan factions (factions.yaml): a question about them asks about fan rules.
FAN_GROUP = "outsiders"
# Where factions come from (factions.yaml's `group`, checked on load), with the name `rootfaq list` heads it by.
FACTION_GROUPS: dict[str, str] = {
    "base": "Base game", "riverfolk": "Riverfolk expansion", "underworld": "Underworld expansion",
    "marauder": "Marauder expansion", "homeland": "Homeland expansion", "clockwork": "Clockwork bots",
    "outsiders": "The Outsiders (fan expansion)",
}


@dataclass(frozen=True)
class FactionInfo:
    """A faction (or a Clockwork bot, which plays `bot_of`) as search and the screens know it."""

    name: str
    group: str
    prefix: str | None = None  # its section prefix in the Outsiders rulebook
    bot_of: str | None = None
    names: list[str] = field(default_factory=list)  # its printed name and the names the rules use
    nicknames: list[str] = field(default_factory=list)

    @property
    def is_bot(self) -> bool:
        return self.bot_of is not None

    def to_json(self) -> dict:
        return {"name": self.name, "group": self.group, "prefix": self.prefix, "bot_of": self.bot_of,
                "names": self.names, "nicknames": self.nicknames}


@dataclass
class QueryModel:
    synonyms: dict[str, list[str]]  # player word -> rule terms
    abbreviations: dict[str, str]  # a short form players type -> the words it stands for ("fh" -> "field hospitals")
    filler: list[str]
    fan_terms: list[str]  # words that ask about the fan expansion
    faction_names: dict[str, list[str]]  # name or nickname (lower case) -> faction keys, or [NOT_A_FACTION]
    faction_terms: dict[str, list[str]]  # a faction's distinctive terms -> its key
    factions: dict[str, FactionInfo]
    topics: dict[str, str]  # key -> name
    word_counts: dict[str, int]  # in how many records each word occurs
    # words the sources capitalise inside a sentence (cards, phases, actions): a capitalised typo may mean one
    proper_terms: list[str] = field(default_factory=list)
    _numbers: SectionNumbers | None = field(default=None, init=False, repr=False, compare=False)

    def section_numbers(self) -> SectionNumbers:
        """Section numbers as this corpus prints them (its factions' prefixes), made on first use."""
        if self._numbers is None:
            self._numbers = SectionNumbers(info.prefix for info in self.factions.values() if info.prefix)
        return self._numbers

    def faction_name(self, key: str) -> str:
        """A faction key as its printed name (the key itself when unknown)."""
        info = self.factions.get(key)
        return info.name if info else key

    def factions_called(self, name: str) -> list[FactionInfo]:
        """The factions a name or nickname (lower-case words) stands for: none, one, or several ("bats")."""
        return [self.factions[key] for key in self.faction_names.get(name, ()) if key in self.factions]

    def bot_groups(self) -> set[str]:
        """The tags that mark a bot ruling: the group of every bot (`clockwork`, see corpus/factions.yaml)."""
        return {info.group for info in self.factions.values() if info.is_bot}

    def to_json(self) -> dict:
        return {
            "synonyms": self.synonyms,
            "abbreviations": self.abbreviations,
            "filler": self.filler,
            "fan_terms": self.fan_terms,
            "faction_names": self.faction_names,
            "faction_terms": self.faction_terms,
            "factions": {key: info.to_json() for key, info in self.factions.items()},
            "topics": self.topics,
            "word_counts": self.word_counts,
            "proper_terms": self.proper_terms,
        }

    @classmethod
    def from_json(cls, data: dict) -> QueryModel:
        """The model stored with an index; KeyError or TypeError when a field is missing or malformed."""
        return cls(
            synonyms=dict(data["synonyms"]),
            abbreviations=dict(data["abbreviations"]),
            filler=list(data["filler"]),
            fan_terms=list(data["fan_terms"]),
            faction_names=dict(data["faction_names"]),
            faction_terms=dict(data["faction_terms"]),
            factions={key: FactionInfo(**info) for key, info in data["factions"].items()},
            topics=dict(data["topics"]),
            word_counts=dict(data["word_counts"]),
            proper_terms=list(data["proper_terms"]),
        )
