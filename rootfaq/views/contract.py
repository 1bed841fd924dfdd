"""The JSON contract that scripts and bots rely on. Changing a key here is a breaking change."""

from __future__ import annotations

from ..corpus.records import FLAG_RECONSTRUCTED_QUESTION, Record
from ..search.answers import Answer

HIT_KEYS = ("id", "source", "section", "section_title", "title", "text", "grade", "year", "factions", "score",
            "origin")


def record_json(record: Record, score: float | None = None) -> dict:
    """One record as a hit: the keys in HIT_KEYS, plus what a script needs to cite it."""
    return {
        "id": record.id,
        "source": record.source,
        "section": record.section,
        "section_title": record.section_title,
        "title": record.title,
        "title_reconstructed": FLAG_RECONSTRUCTED_QUESTION in record.flags,
        "text": record.text,
        "grade": record.grade,
        "grade_sentence": record.grade_sentence,
        "year": record.year,
        "factions": record.factions,
        "score": score,
        "origin": f"{record.origin.file}:{record.origin.line}",
    }


def answer_json(answer: Answer) -> dict:
    """`rootfaq ask --json`: {"query", "confident", "probability", "hits": [...]} plus notices, corrections,
    the factions named, the one the player plays, and for a post asking several questions, one answer each."""
    return {
        "query": answer.query,
        "confident": answer.confident,
        "certainty": answer.certainty or None,
        "probability": answer.probability,
        "hits": [record_json(h.record, h.score) for h in answer.hits],
        "notices": answer.notices,
        "corrections": answer.corrections,
        "factions": answer.factions,
        "playing": answer.playing,
        "reference": answer.reference,
        "parts": [answer_json(part) for part in answer.parts],
    }


def failed_answer_json(query: str, notice: str) -> dict:
    """The object a batch line gets when answering it failed: the same keys as every answer, no hits."""
    return answer_json(Answer(query, False, [], [notice]))
