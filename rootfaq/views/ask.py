"""`rootfaq ask`: the best answer in full, then the next few, one line each; when not sure, "Did you mean"
with up to three candidates, one line each (the likeliest in full only when it is likely enough), and
below the floor, that nothing in the sources answers it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..corpus.query_model import NOT_A_FACTION
from ..search.answers import ADVICE_NOTICE, LIKELY, UNANSWERED, Answer
from .common import HitLine, faction_display, hit_line
from .record import RELATED_TEXT_CHARS, RecordView, linked_records, record_view

if TYPE_CHECKING:  # a view reads only the index's library and hands the index on to search's functions
    from ..search.index import OpenIndex


@dataclass
class AskView:
    """An answer as `rootfaq ask` shows it: the best record in full, then the next few, one line each."""

    query: str
    confident: bool
    best: RecordView | None
    others: list[HitLine]
    notices: list[str] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    asked_about: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    reference: str | None = None
    used: int = 0  # hits this view went through (the best, the others, those already named above them)
    probability: float | None = None  # how likely the best is right (calibrated); None for a look-up
    candidates: list[HitLine] = field(default_factory=list)  # when not sure: "Did you mean", one line each
    unanswered: bool = False  # below the floor: nothing in the sources answers it clearly
    question: str | None = None  # a one-question post's question, quoted back instead of the whole post
    browse_faction: str | None = None  # the faction the question names, for the "where to look" hint
    parts: list[AskView] = field(default_factory=list)  # a post asking several questions: one view each
    asked_again: bool = False  # one of a post's questions that the post's list of questions asks again

    @property
    def found(self) -> bool:
        return self.best is not None or bool(self.candidates)

    def part_heading(self, number: int) -> str:
        """The heading of this view as the numberth question of a post."""
        again = " (asked again in your list)" if self.asked_again else ""
        return f"Question {number}: {self.query}{again}"

    @property
    def asked(self) -> str:
        """What the screen quotes back as asked: a post's question rather than the whole post, and past
        ECHO_CHARS characters only their start, cut at a word (the player pasted it: it need not come back)."""
        text = self.question or self.query
        if len(text) <= ECHO_CHARS:
            return text
        return text[:ECHO_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"

    @property
    def likely_note(self) -> str:
        """' (the best match is 40% likely to be right)', from the calibrated probability; '' for a look-up, and
        for a question asking how to play well (its note says why a ruling does not answer it, however likely)."""
        if self.probability is None or ADVICE_NOTICE in self.notices:
            return ""
        return f" (the best match is {round(100 * self.probability)}% likely to be right)"



ECHO_CHARS = 200  # what was asked is quoted back in a message up to this long
CANDIDATES = 3  # when not sure: "Did you mean" with this many, one line each (the right one is often 2nd)
PART_OTHERS = 2  # further hits, one line each, under each question of a multi-question post


def ask_view(index: OpenIndex, answer: Answer, others: int = 4, filters: list[str] | None = None) -> AskView:
    """The view of a search answer; `others` is how many further hits get one line each.

    When the search is not sure, the first candidates are offered one line each, and the likeliest is
    shown in full only when it is likely enough (answers.LIKELY); below the floor, none is offered. No
    record is named twice: a hit already under the answer's related rules (a ruling citing the same
    section) is not repeated among the others, and the records on the same topic are neither. A post
    asking several questions gets one view per question in `parts`.
    """
    hits = answer.hits
    best = None
    rest: list[HitLine] = []
    candidates: list[HitLine] = []
    used = 0
    unanswered = bool(hits) and not answer.confident and answer.certainty == UNANSWERED
    if hits and not answer.confident and answer.reference is None:  # not sure: ask back
        if not unanswered:
            candidates = [hit_line(h.record, h.score) for h in hits[:CANDIDATES]]
            used = len(candidates)
        if answer.certainty == LIKELY:
            best = record_view(index, hits[0].record)
    elif hits:
        linked = linked_records(index.library, hits[0].record, RELATED_TEXT_CHARS).shown_ids()
        used += 1
        for hit in hits[1:]:
            if len(rest) == others:
                break
            used += 1
            if hit.record.id not in linked:
                rest.append(hit_line(hit.record, hit.score))
        best = record_view(index, hits[0].record, RELATED_TEXT_CHARS, elsewhere={h.id for h in rest})
    return AskView(
        query=answer.query,
        confident=answer.confident,
        best=best,
        others=rest,
        notices=list(answer.notices),
        corrections=dict(answer.corrections),
        asked_about=faction_display(index.library, answer.factions),
        filters=filters or [],
        reference=answer.reference,
        used=used,
        probability=answer.probability,
        candidates=candidates,
        unanswered=unanswered,
        question=answer.question,
        browse_faction=next((key for key in answer.factions if key and key != NOT_A_FACTION), None),
        parts=[replace(ask_view(index, part, others=PART_OTHERS), asked_again=n in answer.restating)
               for n, part in enumerate(answer.parts)],
    )
