"""Assemble the corpus: read the shipped files, parse the three sources, tag and link every record."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import refs
from .curated import (
    Asked,
    Faction,
    Phrasings,
    Question,
    Topic,
    Vocabulary,
    answer_fingerprint,
    parse_asked_questions,
    parse_factions,
    parse_questions,
    parse_rule_phrasings,
    parse_topics,
    parse_vocabulary,
)
from .faq import FaqHeader, parse_faq
from .files import (
    ASKED_FILE,
    FACTIONS_FILE,
    FAQ_FILE,
    LAW_FILE,
    OUTSIDERS_FILE,
    PHRASINGS_FILE,
    QUESTIONS_FILE,
    TOPICS_FILE,
    VOCABULARY_FILE,
)
from .law import Citation, number_law, parse_law
from .library import CorpusInfo, FaqInfo
from .outsiders import parse_outsiders
from .query_model import FAN_GROUP, NOT_A_FACTION, FactionInfo, QueryModel
from .records import FLAG_QUOTES_LAW, FLAG_RECONSTRUCTED_QUESTION, FLAG_TRUNCATED, Record
from .terms import TermMatcher, words


@dataclass
class Corpus:
    records: list[Record]
    factions: list[Faction]
    topics: list[Topic]
    vocabulary: Vocabulary
    faq_header: FaqHeader
    outsiders_title: str
    outsiders_parts: list[str]
    law_title: str
    unresolved_refs: dict[str, list[str]] = field(default_factory=dict)
    question_problems: list[str] = field(default_factory=list)

    def by_id(self) -> dict[str, Record]:
        return {r.id: r for r in self.records}


def build_corpus(texts: dict[str, str]) -> Corpus:
    """Parse, tag and link everything. Pure: the texts in, the records out."""
    factions = parse_factions(texts[FACTIONS_FILE], FACTIONS_FILE)
    numbers = refs.SectionNumbers(f.prefix for f in factions if f.prefix)
    faq_header, faq = parse_faq(texts[FAQ_FILE], FAQ_FILE)
    outsiders = parse_outsiders(texts[OUTSIDERS_FILE], numbers, OUTSIDERS_FILE)
    law_title, law = parse_law(texts[LAW_FILE], LAW_FILE)
    topics = parse_topics(texts[TOPICS_FILE], TOPICS_FILE)
    vocabulary = parse_vocabulary(texts[VOCABULARY_FILE], VOCABULARY_FILE)
    questions = parse_questions(texts[QUESTIONS_FILE], QUESTIONS_FILE)
    rule_phrasings = parse_rule_phrasings(texts[PHRASINGS_FILE], PHRASINGS_FILE)
    asked = parse_asked_questions(texts[ASKED_FILE], ASKED_FILE)

    quoted = [(r.text, r.section, r.section_title) for r in outsiders.records if FLAG_QUOTES_LAW in r.flags]
    citations: dict[str, Citation] = {}
    for record in faq:
        if record.grade == "rulebook" and record.section:
            citation = citations.setdefault(record.section, Citation(record.section, record.section_title))
            citation.answers.append(record.text)
    number_law(law, quoted, list(citations.values()))
    for record in law:
        cited = citations.get(record.section or "")
        if cited and cited.title and cited.title != record.section_title:
            record.alt_titles.append(cited.title)  # the FAQ names 1.1.3 differently from the quote
        record.title = record.section_title

    records = outsiders.records + law + faq
    problems = (attach_questions(faq, questions) + attach_rule_phrasings(outsiders.records + law, rule_phrasings)
                + attach_asked(records, asked))
    tag_records(records, factions, topics)
    unresolved = link_references(records, numbers)
    return Corpus(
        records=records,
        factions=factions,
        topics=topics,
        vocabulary=vocabulary,
        faq_header=faq_header,
        outsiders_title=outsiders.title,
        outsiders_parts=outsiders.parts,
        law_title=law_title,
        unresolved_refs=unresolved,
        question_problems=problems,
    )


def attach_questions(faq: list[Record], questions: list[Question]) -> list[str]:
    """Give each FAQ record its reconstructed question; report misfits instead of attaching them."""
    problems: list[str] = []
    by_id = {r.id: r for r in faq if r.is_answer}
    for question in questions:
        where = f"{QUESTIONS_FILE}:{question.line}"
        record = _fitting(by_id, question.faq_id, question.fingerprint, where, problems)
        if record:
            record.title = question.question
            record.phrasings = list(question.also)
            record.flags.append(FLAG_RECONSTRUCTED_QUESTION)
    return problems


def attach_rule_phrasings(records: list[Record], entries: list[Phrasings]) -> list[str]:
    """Give rule and Law records their curated phrasings; report misfits instead of attaching them."""
    problems: list[str] = []
    by_id = {r.id: r for r in records}
    for entry in entries:
        record = _fitting(by_id, entry.record_id, entry.fingerprint, f"{PHRASINGS_FILE}:{entry.line}", problems)
        if record:
            record.phrasings = list(entry.phrasings)
    return problems


def attach_asked(records: list[Record], entries: list[Asked]) -> list[str]:
    """Give each record the questions players asked that it answers; report a record id that names none."""
    problems: list[str] = []
    by_id = {r.id: r for r in records}
    for entry in entries:
        for record_id in entry.record_ids:
            if record_id in by_id:
                by_id[record_id].asked.append(entry.question)
            else:
                problems.append(f"{ASKED_FILE}:{entry.line}: no record {record_id}")
    return problems


def _fitting(by_id: dict[str, Record], record_id: str, fingerprint: str, where: str, problems: list[str]):
    """The record a curated entry was written for, if its text is still the one fingerprinted."""
    record = by_id.get(record_id)
    if record is None:
        problems.append(f"{where}: no answered record {record_id}")
    elif answer_fingerprint(record.text) != fingerprint:
        problems.append(f"{where}: {record_id}'s text changed; re-read it and update what was written for it")
    else:
        return record
    return None


def tag_records(records: list[Record], factions: list[Faction], topics: list[Topic]) -> None:
    """Factions from the Outsiders prefix, the Law chapter of the record's section and distinctive terms."""
    by_key = {f.key: f for f in factions}
    by_prefix = {f.prefix: f.key for f in factions if f.prefix}
    by_chapter = {f.law_chapter: f.key for f in factions if f.law_chapter}
    faction_terms = TermMatcher()
    for faction in factions:
        for term in faction.names + faction.terms:
            faction_terms.add(term, faction.key)
    topic_terms = TermMatcher({term: [t.key] for t in topics for term in t.terms})
    by_id = {r.id: r for r in records}
    for record in records:
        found: list[str] = []
        section = record.section or ""
        prefix = section.split(".")[0]
        if prefix in by_prefix:
            found.append(by_prefix[prefix])
        chapter = refs.chapter_of(section) if section else None
        if chapter in by_chapter:
            found.append(by_chapter[chapter])
        parent = by_id.get(record.parent or "")
        if parent is not None and parent.section:
            found.extend(parent.factions)  # a sub-item belongs to its section's faction (a part is no guide)
        # The source's words and the reconstructed question; never the search phrasings, whose context
        # ("the cats asked whether the birds ...") would tag factions the ruling is not about.
        haystack = f"{record.title or ''}\n{' '.join(record.alt_titles)}\n{record.text}"
        found.extend(faction_terms.find(haystack))
        record.factions = with_played_factions(found, by_key)
        record.topics = topic_terms.find(haystack)
    for record in records:
        # A part heading is about the faction whose prefix its sections carry, and no other
        # (the Golden Reminders quote many factions' rules but belong to none).
        if record.source == "outsiders" and record.section is None:
            prefixes = {(r.section or "").split(".")[0] for r in records if r.parent == record.id}
            record.factions = [by_prefix[p] for p in sorted(prefixes) if p in by_prefix]


def with_played_factions(found: list[str], by_key: dict[str, Faction]) -> list[str]:
    """Faction tags in order, where a bot named stands for the faction it plays and its group (clockwork);
    the bots themselves follow, so the first tags read as they would without bot names."""
    tags: list[str] = []
    bots: list[str] = []
    for key in found:
        faction = by_key.get(key)
        if faction is not None and faction.is_bot:
            tags += [faction.bot_of, faction.group]
            bots.append(key)
        else:
            tags.append(key)
    return list(dict.fromkeys(tags + bots))


def link_references(records: list[Record], numbers: refs.SectionNumbers) -> dict[str, list[str]]:
    """Turn section numbers printed in text into links; return the references no record holds."""
    held: dict[str, list[Record]] = {}
    for record in records:
        if record.section and record.source != "faq":
            held.setdefault(record.section, []).append(record)
    unresolved: dict[str, list[str]] = {}
    for record in records:
        found = numbers.in_text(f"{record.title or ''} {record.text}")
        if record.source == "faq" and record.section:
            found.insert(0, record.section)
        record.xrefs = [ref for ref in dict.fromkeys(found) if ref != record.section or record.source == "faq"]
        for ref in record.xrefs:
            if ref not in held:
                unresolved.setdefault(ref, []).append(record.id)
                _flag_cut_list(ref, held)
    return unresolved


def _flag_cut_list(ref: str, held: dict[str, list[Record]]) -> None:
    """A reference to sub-item xvi of a section that lists only i-ix means the list was cut short."""
    parts = ref.split(".")
    if len(parts) < 2 or not re.fullmatch(r"[ivx]+", parts[-1]):
        return
    for owner in held.get(".".join(parts[:-1]), []):
        listed = [c.rsplit(".", 1)[-1].split("-")[0] for c in owner.children]
        numerals = [refs.roman_to_int(n) for n in listed if re.fullmatch(r"[ivx]+", n)]
        if numerals and refs.roman_to_int(parts[-1]) > max(numerals) and FLAG_TRUNCATED not in owner.flags:
            owner.flags.append(FLAG_TRUNCATED)


def query_model(corpus: Corpus) -> QueryModel:
    """What query understanding needs at search time, computed once at index build (no YAML at query time)."""
    faction_names: dict[str, list[str]] = {}
    faction_terms: dict[str, list[str]] = {}
    for faction in corpus.factions:
        # A bot's name in a question names the bot, the faction it plays and the Clockwork group.
        keys = [faction.key, faction.bot_of, faction.group] if faction.is_bot else [faction.key]
        for name in [faction.key, faction.name, *faction.names, *faction.nicknames]:
            listed = faction_names.setdefault(name.lower(), [])
            listed.extend(k for k in keys if k not in listed)
        for term in faction.terms:
            faction_terms.setdefault(term.lower(), []).append(faction.key)
    for phrase in corpus.vocabulary.not_factions:
        faction_names[phrase] = [NOT_A_FACTION]
    counts: dict[str, int] = {}
    for record in corpus.records:
        for word in set(words(_searchable_text(record))):
            counts[word] = counts.get(word, 0) + 1
    for phrase in [*faction_names, *faction_terms, *corpus.vocabulary.synonyms]:
        for word in words(phrase):
            counts.setdefault(word, 1)
    return QueryModel(
        synonyms=corpus.vocabulary.synonyms,
        abbreviations=corpus.vocabulary.abbreviations,
        filler=corpus.vocabulary.filler,
        fan_terms=[*corpus.vocabulary.fan_terms, *_fan_faction_terms(corpus, faction_terms)],
        faction_names=faction_names,
        faction_terms=faction_terms,
        factions={
            f.key: FactionInfo(f.name, f.group, f.prefix, f.bot_of, list(dict.fromkeys([f.name, *f.names])),
                               f.nicknames)
            for f in corpus.factions
        },
        topics={t.key: t.name for t in corpus.topics},
        word_counts=counts,
        proper_terms=_proper_terms(corpus.records),
    )


# A word printed with a capital inside a sentence: after a lower-case word, a comma or a colon ("play an Ambush
# card", "at the start of Birdsong").
_INNER_WORD = re.compile(r"(?<=[a-z,;:] )[A-Za-z][a-z]+\b")
PROPER_TERM_MIN_TIMES = 2  # capitalised this often at least, and more often than not
PROPER_TERM_MIN_LETTERS = 5  # shorter ones lie one letter from first names players mention ("Mike", "mice")


def _proper_terms(records: list[Record]) -> list[str]:
    """The words the sources capitalise inside a sentence more often than not: the names of cards, phases, actions
    and factions ("Ambush", "Evening", "Outrage"), which players capitalise as the cards print them."""
    capitalised: dict[str, int] = {}
    lower: dict[str, int] = {}
    for record in records:
        for text in filter(None, [record.title, *record.alt_titles, record.section_title, record.text]):
            for match in _INNER_WORD.finditer(text):
                word = match.group()
                tally = capitalised if word[0].isupper() else lower
                tally[word.lower()] = tally.get(word.lower(), 0) + 1
    return sorted(word for word, times in capitalised.items()
                  if times >= PROPER_TERM_MIN_TIMES and times > lower.get(word, 0)
                  and len(word) >= PROPER_TERM_MIN_LETTERS)


def _searchable_text(record: Record) -> str:
    return " ".join(filter(None, [record.title, *record.alt_titles, *record.phrasings, record.section_title,
                                  record.text]))


def _fan_faction_terms(corpus: Corpus, faction_terms: dict[str, list[str]]) -> list[str]:
    """The fan factions' distinctive terms that no official record uses ("foreseen", "meltdown"): a question
    that uses one asks about the fan expansion though it names no fan faction. One an official record uses
    too ("repair", the Vagabond's) says nothing of the kind."""
    fan = {f.key for f in corpus.factions if f.group == FAN_GROUP}
    matcher = TermMatcher({term: ["fan"] for term, keys in faction_terms.items() if fan & set(keys)})
    official: set[tuple[str, ...]] = set()
    for record in corpus.records:
        if record.grade != "fan-rule":
            tokens = words(_searchable_text(record))
            official.update(tuple(tokens[start:end]) for start, end, _ in matcher.spans(tokens))
    return [term for term, keys in faction_terms.items() if fan & set(keys) and tuple(words(term)) not in official]


def corpus_info(corpus: Corpus) -> CorpusInfo:
    """What the sources say of themselves and what parsing them found, for the Library."""
    header = corpus.faq_header
    return CorpusInfo(FaqInfo(header.title, header.description, header.date), corpus.outsiders_title,
                      corpus.outsiders_parts, corpus.law_title, corpus.unresolved_refs, corpus.question_problems)
