"""Load and validate the curated YAML beside the sources. Errors name the file, the line and the problem."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

import yaml

from ..errors import CorpusError
from .query_model import FACTION_GROUPS
from .refs import LAW_APPENDICES, MAP_PREFIXES

_PREFIX = re.compile(r"^[A-Z]{1,3}$")
_LINES = ("__line__", "__keys__")  # what the loader adds to every mapping: its line, and each key's line


@dataclass
class Faction:
    key: str
    name: str
    group: str
    names: list[str]
    nicknames: list[str]
    terms: list[str]
    law_chapter: int | None = None
    prefix: str | None = None
    bot_of: str | None = None  # a Clockwork bot: the faction it plays

    @property
    def is_bot(self) -> bool:
        return self.bot_of is not None


@dataclass
class Topic:
    key: str
    name: str
    terms: list[str]


@dataclass
class Vocabulary:
    synonyms: dict[str, list[str]] = field(default_factory=dict)
    filler: list[str] = field(default_factory=list)
    not_factions: list[str] = field(default_factory=list)
    fan_terms: list[str] = field(default_factory=list)  # words that ask about the fan expansion
    abbreviations: dict[str, str] = field(default_factory=dict)  # a short form players type -> the words it stands for


@dataclass
class Question:
    faq_id: str
    question: str
    also: list[str]
    fingerprint: str
    line: int


# libyaml's loader when PyYAML was built with it: ten times faster on the questions file.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeLoader):
    """A safe loader that remembers the line of every mapping, as '__line__', and of each of its keys, as
    '__keys__' (key -> line)."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict:
    mapping = loader.construct_mapping(node, deep=True)
    keys = [loader.construct_object(k) for k, _ in node.value]
    duplicates = {k for k in keys if keys.count(k) > 1}
    if duplicates:
        raise CorpusError(loader.name, node.start_mark.line + 1, f"duplicate key {sorted(duplicates)[0]!r}")
    mapping["__line__"] = node.start_mark.line + 1
    mapping["__keys__"] = {key: k.start_mark.line + 1 for key, (k, _) in zip(keys, node.value, strict=True)}
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(text: str, file: str):
    """Parse YAML safely; a syntax error becomes a CorpusError with its line."""
    loader = _LineLoader(text)
    loader.name = file
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise CorpusError(file, line, f"not valid YAML: {exc.problem}") from None
    finally:
        loader.dispose()


def _strings(item: dict, key: str, file: str, required: bool = True) -> list[str]:
    value = item.get(key, None if required else [])
    if value is None or not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise CorpusError(file, item.get("__line__"), f"'{key}' must be a list of words or phrases")
    if any(isinstance(v, bool) for v in value):  # YAML reads a bare on, off, yes or no as true or false
        raise CorpusError(file, item.get("__line__"), f"'{key}' holds a bare yes/no/on/off: put it in quotes")
    return [str(v) for v in value]


def _text(item: dict, key: str, file: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CorpusError(file, item.get("__line__"), f"'{key}' must be a non-empty string")
    return value.strip()


def _check_keys(item: dict, allowed: set[str], file: str) -> None:
    unknown = set(item) - allowed - set(_LINES)
    if unknown:
        raise CorpusError(file, item.get("__line__"), f"unknown field '{sorted(unknown)[0]}'")


def _list_of_mappings(data, file: str) -> list[dict]:
    if not isinstance(data, list) or not all(isinstance(i, dict) for i in data):
        raise CorpusError(file, 1, "expected a list of entries, one mapping each")
    return data


_FACTION_KEY = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def parse_factions(text: str, file: str = "factions.yaml") -> list[Faction]:
    """The factions, checked: fields, unique keys, a name that tags one faction only, and bots that play
    a listed faction and belong to a group that is itself listed (its umbrella entry, such as clockwork)."""
    factions: list[Faction] = []
    lines: dict[str, int] = {}
    for item in _list_of_mappings(load_yaml(text, file), file):
        faction = _faction(item, file)
        if faction.key in lines:
            raise CorpusError(file, item["__line__"], f"faction key '{faction.key}' is used twice")
        lines[faction.key] = item["__line__"]
        factions.append(faction)
    _check_across(factions, lines, file)
    return factions


_FACTION_FIELDS = {"key", "name", "group", "names", "nicknames", "terms", "law_chapter", "prefix", "bot_of"}


def _faction(item: dict, file: str) -> Faction:
    """One entry of factions.yaml, its fields checked on their own."""
    _check_keys(item, _FACTION_FIELDS, file)
    line = item["__line__"]
    key = _text(item, "key", file)
    if not _FACTION_KEY.match(key):
        raise CorpusError(file, line, f"faction key '{key}' must be lower-case words joined by hyphens")
    chapter = item.get("law_chapter")
    if chapter is not None and (isinstance(chapter, bool) or not isinstance(chapter, int) or chapter < 1):
        raise CorpusError(file, line, "'law_chapter' must be the number of a Law of Root chapter, such as 6")
    prefix = item.get("prefix")
    if prefix is not None and (not isinstance(prefix, str) or not _PREFIX.match(prefix)):
        raise CorpusError(file, line, "'prefix' must be the Outsiders section prefix in capitals, such as BP")
    if prefix in (*LAW_APPENDICES, *MAP_PREFIXES):
        raise CorpusError(file, line, f"prefix '{prefix}' is a Law appendix or map letter, not a faction's")
    group = _text(item, "group", file)
    if group not in FACTION_GROUPS:
        raise CorpusError(file, line, f"group '{group}' is none of: {', '.join(FACTION_GROUPS)}")
    bot_of = item.get("bot_of")
    if bot_of is not None and not isinstance(bot_of, str):
        raise CorpusError(file, line, "'bot_of' must be the key of the faction the bot plays")
    return Faction(
        key=key,
        name=_text(item, "name", file),
        group=group,
        names=_strings(item, "names", file),
        nicknames=_strings(item, "nicknames", file, required=False),
        terms=_strings(item, "terms", file, required=False),
        law_chapter=chapter,
        prefix=prefix,
        bot_of=bot_of,
    )


def _check_across(factions: list[Faction], lines: dict[str, int], file: str) -> None:
    """What no entry can check alone: names, prefixes and chapters used once, bots that play a faction."""
    name_owner: dict[str, str] = {}
    for faction in factions:
        for name in dict.fromkeys(n.lower() for n in [faction.name, *faction.names]):
            owner = name_owner.setdefault(name, faction.key)
            if owner != faction.key:
                raise CorpusError(file, lines[faction.key], f"'{name}' is a name of both {owner} and {faction.key}; "
                                  "a name tags one faction (put a shared word under nicknames)")
    for attribute in ("prefix", "law_chapter"):
        owners: dict[object, str] = {}
        for faction in factions:
            value = getattr(faction, attribute)
            if value is not None and owners.setdefault(value, faction.key) != faction.key:
                raise CorpusError(file, lines[faction.key], f"{attribute} {value} is also {owners[value]}'s")
    by_key = {f.key: f for f in factions}
    for faction in factions:
        if faction.bot_of is None:
            continue
        played = by_key.get(faction.bot_of)
        if played is None or played.is_bot:
            raise CorpusError(file, lines[faction.key], f"bot_of '{faction.bot_of}' must be the key of a faction "
                              "listed in this file (not a bot)")
        if faction.group not in by_key or by_key[faction.group].is_bot:
            raise CorpusError(file, lines[faction.key], f"a bot's group '{faction.group}' must be the key of its "
                              "umbrella entry (such as clockwork)")


def parse_topics(text: str, file: str = "topics.yaml") -> list[Topic]:
    topics = []
    for item in _list_of_mappings(load_yaml(text, file), file):
        _check_keys(item, {"key", "name", "terms"}, file)
        topics.append(Topic(_text(item, "key", file), _text(item, "name", file), _strings(item, "terms", file)))
    return topics


def parse_vocabulary(text: str, file: str = "vocabulary.yaml") -> Vocabulary:
    data = load_yaml(text, file)
    if not isinstance(data, dict):
        raise CorpusError(file, 1, "expected a mapping with 'synonyms' and 'filler'")
    _check_keys(data, {"synonyms", "filler", "not_factions", "fan_terms", "abbreviations"}, file)
    synonyms, key_lines = _keyed(data, "synonyms", file, "map a word to a list of rule terms")
    cleaned: dict[str, list[str]] = {}
    for word, terms in synonyms.items():
        line = key_lines.get(word)
        if isinstance(word, bool) or not isinstance(word, (str, int)):
            raise CorpusError(file, line, f"synonym '{word}' must be a word: put a bare yes/no/on/off in quotes")
        if not isinstance(terms, list) or not terms:
            raise CorpusError(file, line, f"synonym '{word}' must list at least one rule term")
        if not all(isinstance(t, (str, int)) and not isinstance(t, bool) for t in terms):
            raise CorpusError(file, line, f"synonym '{word}' lists a bare yes/no/on/off or a non-word: quote it")
        cleaned[str(word).lower()] = [str(t).lower() for t in terms]
    return Vocabulary(
        cleaned,
        [str(w).lower() for w in _strings(data, "filler", file, required=False)],
        [str(w).lower() for w in _strings(data, "not_factions", file, required=False)],
        [str(w).lower() for w in _strings(data, "fan_terms", file, required=False)],
        _abbreviations(data, file),
    )


def _keyed(data: dict, key: str, file: str, shape: str) -> tuple[dict, dict]:
    """A mapping of the vocabulary (empty when absent) and the line of each of its keys."""
    given = data.get(key) or {}
    if not isinstance(given, dict):
        raise CorpusError(file, data["__line__"], f"'{key}' must {shape}")
    given.pop("__line__", None)
    return given, given.pop("__keys__", {})


def _abbreviations(data: dict, file: str) -> dict[str, str]:
    """`abbreviations`: one word -> the words it stands for, read in its place."""
    given, key_lines = _keyed(data, "abbreviations", file, "map a short form to the words it stands for")
    cleaned: dict[str, str] = {}
    for short, full in given.items():
        line = key_lines.get(short)
        if not isinstance(short, str) or not re.fullmatch(r"[a-z0-9]+", short.lower()):
            raise CorpusError(file, line, f"abbreviation '{short}' must be one word of letters or digits")
        if not isinstance(full, str) or not full.strip():
            raise CorpusError(file, line, f"abbreviation '{short}' must stand for words: write them after it")
        cleaned[short.lower()] = " ".join(full.lower().split())
    return cleaned


def answer_fingerprint(answer: str) -> str:
    """The answer's first six words and a short hash of the whole: a changed answer no longer matches."""
    opening = " ".join(answer.split()[:6])
    digest = hashlib.sha256(answer.encode("utf-8")).hexdigest()[:8]
    return f"{opening} #{digest}".strip()  # an empty text has only its hash


_FAQ_ID = re.compile(r"^faq-\d{3}$")
_RULE_ID = re.compile(r"^(?:rule|law)-\S+$")


@dataclass
class Phrasings:
    record_id: str
    phrasings: list[str]
    fingerprint: str
    line: int


def _fingerprinted_entries(text: str, file: str, id_pattern: re.Pattern[str], id_example: str, fields: set[str]):
    """(id, mapping) for each entry of a curated file keyed by record id, checked: shape, id and fields."""
    data = load_yaml(text, file)
    if not isinstance(data, dict):
        raise CorpusError(file, 1, f"expected a mapping from record id (such as {id_example}) to its entry")
    data.pop("__line__", None)
    key_lines = data.pop("__keys__", {})
    for record_id, item in data.items():
        line = key_lines.get(record_id)
        if not id_pattern.match(str(record_id)):
            raise CorpusError(file, line, f"'{record_id}' is not an id such as {id_example}")
        if not isinstance(item, dict):
            raise CorpusError(file, line, f"{record_id}: expected {', '.join(sorted(fields))}")
        _check_keys(item, fields, file)
        yield str(record_id), item


MAX_PHRASINGS = 8  # ways players ask for one record: enough to cover their words, few enough to read


def parse_rule_phrasings(text: str, file: str = "rule-phrasings.yaml") -> list[Phrasings]:
    """Curated player phrasings for rule and Law records, keyed by record id."""
    entries = []
    for record_id, item in _fingerprinted_entries(text, file, _RULE_ID, "rule-BP.2.5", {"phrasings", "fingerprint"}):
        phrasings = _strings(item, "phrasings", file)
        if not 1 <= len(phrasings) <= MAX_PHRASINGS:
            raise CorpusError(file, item["__line__"], f"{record_id}: one to {MAX_PHRASINGS} phrasings")
        entries.append(Phrasings(record_id, phrasings, _text(item, "fingerprint", file), item["__line__"]))
    return entries


@dataclass
class Asked:
    question: str  # as the player wrote it, spaces collapsed
    record_ids: list[str]
    line: int


MAX_ASKED_CHARACTERS = 2000  # a short forum post at most: longer ones would drown a record's headings


def parse_asked_questions(text: str, file: str = "asked-questions.yaml") -> list[Asked]:
    """Questions players asked, each with the records that answer it, in the file's order."""
    data = load_yaml(text, file)
    if not isinstance(data, list):
        raise CorpusError(file, 1, "expected a list of questions, each {q: ..., records: [...]}")
    entries = []
    for item in data:
        if not isinstance(item, dict):
            raise CorpusError(file, None, "expected {q: ..., records: [...]} for each question")
        _check_keys(item, {"q", "records"}, file)
        question = " ".join(_text(item, "q", file).split())
        if len(question) > MAX_ASKED_CHARACTERS:
            raise CorpusError(file, item["__line__"], f"a question of at most {MAX_ASKED_CHARACTERS} characters")
        record_ids = _strings(item, "records", file)
        if not record_ids or not all(_FAQ_ID.match(r) or _RULE_ID.match(r) for r in record_ids):
            raise CorpusError(file, item["__line__"], "'records' must list record ids such as faq-042 or rule-4.3.2")
        entries.append(Asked(question, record_ids, item["__line__"]))
    return entries


def parse_questions(text: str, file: str = "faq-questions.yaml") -> list[Question]:
    """The reconstructed FAQ questions, keyed by FAQ id."""
    questions = []
    fields = {"question", "also", "fingerprint"}
    for faq_id, item in _fingerprinted_entries(text, file, _FAQ_ID, "faq-042", fields):
        also = _strings(item, "also", file, required=False)
        if len(also) > MAX_PHRASINGS:
            raise CorpusError(file, item["__line__"], f"{faq_id}: at most {MAX_PHRASINGS} other phrasings")
        questions.append(
            Question(faq_id, _text(item, "question", file), also, _text(item, "fingerprint", file), item["__line__"])
        )
    return questions
