"""Answering a question: section look-ups, or two retrievers, fitted ranking and calibrated confidence.

A question is cleaned and understood (query.py). A section number, or a section's printed title, goes
straight to the rule and the rulings that cite it. Otherwise two retrievers propose candidates: BM25F over
the words (lexical.py) and cosine similarity over sentence vectors (encoder.py, dense.py); each candidate's
evidence is weighed by weights fitted to generated questions (ranking.py), and a logistic model says how
likely the best candidate is right (confidence.py): only above its threshold is the answer confident. A
post that asks several separate questions is searched whole, and each question is answered on its own too;
a post with one question among its story is searched whole and by that question, the likelier answer given.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from ..corpus import refs
from ..corpus.records import Record, RecordFilter
from ..corpus.terms import words
from . import model
from .confidence import confidence
from .dense import question_vector
from .encoder import ModelUnavailable, gil_free_load_under_way
from .index import OpenIndex
from .posts import Post, asks_for_advice, read_post
from .query import name_asked, prose_words, reader_of
from .ranking import ScoredHit, collapse_family, prepare, rank

# How sure an answer is, from its calibrated probability and the levels fitted with it (model.py).
NAMED_QUERY_CHARS = 120  # the longest question read for a section's title (the longest title is 34 characters)
CONFIDENT = "confident"  # the first hit answers it (precision 90% on held-out questions)
LIKELY = "likely"  # not sure, but the first hit is right at least half the time: shown in full
UNSURE = "unsure"  # not sure: candidates to choose from, one line each
UNANSWERED = "unanswered"  # below the floor: nothing in the sources answers it clearly
ADVICE_NOTICE = "a question asking how to play well gets candidates only: the sources hold rules, not strategy"


def certainty_of(probability: float, weights: model.ModeWeights) -> str:
    if probability >= weights.threshold:
        return CONFIDENT
    if probability >= weights.show_best:
        return LIKELY
    return UNSURE if probability >= weights.floor else UNANSWERED


@dataclass
class Answer:
    query: str
    confident: bool
    hits: list[ScoredHit]
    notices: list[str] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    factions: list[str] = field(default_factory=list)
    reference: str | None = None
    probability: float | None = None  # calibrated chance that the first hit is right (None for look-ups)
    playing: str | None = None  # the faction the player says they play
    parts: list[Answer] = field(default_factory=list)  # one answer per question of a multi-question post
    certainty: str = ""  # CONFIDENT, LIKELY, UNSURE or UNANSWERED for a search; "" for a look-up
    question: str | None = None  # a one-question post's question as found in it (the whole post is searched too)
    restating: tuple[int, ...] = ()  # the parts whose question the post's list of questions asks again


def ask_repairing(index: OpenIndex, raw_query: str, **options) -> Answer:
    """`ask`, with one rebuild and one retry when whoosh fails while searching (the answer says so)."""
    before = len(index.notices)
    answer = index.repairing(lambda: ask(index, raw_query, **options))
    answer.notices.extend(index.notices[before:])
    return answer


def records_for_ref(index: OpenIndex, ref: str) -> tuple[list[Record], list[Record]]:
    """(records holding exactly this section, FAQ rulings that cite it)."""
    return index.library.tables.printed_under(ref), index.library.tables.citing([ref])


def nearest_refs(index: OpenIndex, ref: str, limit: int = 5) -> list[str]:
    """Existing section numbers near a missing one (refs.nearest: same prefix, closest number)."""
    return refs.nearest(ref, index.library.tables.sections(), limit)


def ask(
    index: OpenIndex,
    raw_query: str,
    factions: list[str] | None = None,
    sources: list[str] | None = None,
    official: bool = False,
    limit: int = 5,
) -> Answer:
    """Answer a question: the best records first, each with a score, and whether we are confident.

    A post's questions are found first (posts.py): a post with one question is searched whole, its story
    included; a post with several is searched whole too and answered question by question (the story
    their context), and its answer leads with what is surest (`_answer_post`)."""
    post = read_post(raw_query)
    query, notices = post.text, post.notices
    if not query:
        return Answer(query, False, [], notices + ["empty question: type a rules question or a section number"])
    admitted = RecordFilter(sources, factions, official)
    allowed = {r.id for r in index.library.records.values() if admitted.admits(r)} if admitted else None

    corrections: dict[str, str] = {}
    ref = index.library.query_model.section_numbers().parse_query(query) or named_section(index, query)
    if not ref and len(query) <= NAMED_QUERY_CHARS:  # only then is typo fixing worth its time here
        ref, corrections = _named_as_corrected(index, query)
    if ref:
        answer = _answer_reference(index, query, ref, allowed, limit)
        answer.corrections = corrections
    elif len(post.questions) > 1:
        parts = [_unsure_of_advice(_answer_words(index, question, allowed, limit, post), question)
                 for question in post.questions]
        answer = _answer_post(_answer_words(index, query, allowed, limit), parts, limit, post.restating)
    else:
        # One question, with its story around it, is searched whole: the story names what the question
        # calls "it" (measured on generated posts: top-1 82% whole, 72% by the question with the story as
        # context). Its question is searched too, the story as context, and the likelier answer is given
        # (`_likelier`).
        answer = _answer_words(index, query, allowed, limit)
        if post.questions and post.story:
            answer = _likelier(answer, _answer_words(index, post.questions[0], allowed, limit, post))
            answer.question = post.questions[0]
        answer = _unsure_of_advice(answer, post.questions[0] if post.questions else query)
    answer.notices[:0] = notices
    return answer


def _unsure_of_advice(answer: Answer, question: str) -> Answer:
    """A question asking how to play well (`posts.asks_for_advice`) is never answered surely: a ruling on its topic
    is no answer to it, so its candidates are offered instead."""
    if not asks_for_advice(question):
        return answer
    notices = [*answer.notices, ADVICE_NOTICE]
    if answer.certainty in (CONFIDENT, LIKELY):
        return dataclasses.replace(answer, confident=False, certainty=UNSURE, notices=notices)
    return dataclasses.replace(answer, notices=notices)


def _likelier(whole: Answer, question: Answer) -> Answer:
    """A one-question post's answer: the whole post's, or its question's (read with the story as context)
    when that one is likelier; what was asked stays the whole post. Measured on our one-question posts with
    a story (77 long, 95 blind post-style): top-1 level (93.5%, 75.8%), answered right and confidently
    47 -> 55 and 18 -> 21, none wrong more; unanswerable ones confident 1 of 54 either way. The other
    reading's best comes second (`docs/levers.md`: top-3 of our post questions 94.9% -> 95.2%)."""
    chosen, other = whole, question
    if (question.probability or 0.0) > (whole.probability or 0.0) and question.hits:
        chosen, other = question, whole
    hits = list(chosen.hits)
    if other.hits and hits and other.hits[0].record.id not in {h.record.id for h in hits[:2]}:
        runner_up = other.hits[0]
        hits = [hits[0], runner_up, *(h for h in hits[1:] if h.record.id != runner_up.record.id)][:len(chosen.hits)]
    return dataclasses.replace(whole, confident=chosen.confident, hits=hits, probability=chosen.probability,
                               certainty=chosen.certainty)


def _answer_post(whole: Answer, parts: list[Answer], limit: int, restating: tuple[int, ...] = ()) -> Answer:
    """A post of several questions: its answer's confidence is its first hit's, so it leads with what is
    surest. When every question is answered confidently (those asking for advice aside, `_rules_questions`) and
    the whole post is not, the questions' bests lead, and the post is confident (exit 0) with their probability
    together. Otherwise the likeliest best of the whole post's and each question's leads (the whole post's on a
    tie: its story says what the post is about), then the others in order (measured on our generated
    multi-question posts: top-1 94% against 89% when the whole post's best always led, and 83% for the first
    question's). The post stays confident only as a whole: when the whole post's answer is, or every rules
    question's is, questions led by one ruling counted once (`_surest_per_best`; `docs/levers.md`)."""
    rules = _rules_questions(parts)
    parts_first = _each_question_sure(rules) and not whole.confident
    # A question the post's list asks again has its answer (`parts`) but no second place among the bests, nor
    # has one asking for advice beside rules questions.
    asked = {id(part) for part in rules}
    bests = [part.hits[0] for n, part in enumerate(parts) if part.hits and n not in restating and id(part) in asked]
    lead = whole
    if not parts_first:
        lead = max([whole, *(p for p in rules if p.hits)], key=lambda a: a.probability or 0.0)  # first max: whole
    ordered = bests + whole.hits if parts_first else lead.hits[:1] + whole.hits[:1] + bests + whole.hits[1:]
    hits: list[ScoredHit] = []
    for hit in ordered:
        if all(h.record.id != hit.record.id for h in hits):
            hits.append(hit)
    probability = lead.probability or 0.0
    if parts_first:
        probability = 1.0
        for part in _surest_per_best(rules):
            probability *= part.probability or 0.0
    confident = whole.confident or parts_first
    certainty = CONFIDENT if confident else (LIKELY if lead.certainty == CONFIDENT else lead.certainty)
    return Answer(whole.query, confident, hits[:limit],
                  # a question's own note stays in its block (`ADVICE_NOTICE`)
                  list(dict.fromkeys(n for p in [whole, *parts] for n in p.notices if n != ADVICE_NOTICE)),
                  {k: v for p in [whole, *parts] for k, v in p.corrections.items()}, whole.factions,
                  probability=round(probability, 4), playing=whole.playing, parts=parts, certainty=certainty,
                  restating=restating)


def _surest_per_best(parts: list[Answer]) -> list[Answer]:
    """One answer per record that leads a question: the surest of the questions it answers first. Two
    questions answered first by the same ruling (a title and the body asking it again) ask one thing."""
    surest: dict[str, Answer] = {}
    for n, part in enumerate(parts):
        best = part.hits[0].record.id if part.hits else f"nothing found for question {n}"  # each apart
        if best not in surest or (part.probability or 0.0) > (surest[best].probability or 0.0):
            surest[best] = part
    return list(surest.values())


def _each_question_sure(rules: list[Answer]) -> bool:
    """Whether every rules question of a post (`_rules_questions`) is answered confidently, questions led by one
    ruling counted once."""
    return all(part.confident for part in _surest_per_best(rules))


def _rules_questions(parts: list[Answer]) -> list[Answer]:
    """A post's questions but those asking for advice ("any tips for the otters?", `posts.asks_for_advice`),
    which no ruling settles: "nothing answers it" from such a question must not make a post of rules questions
    answered surely unsure (our post checks: right and confident 214 -> 220 of 731, none wrong more). All of
    them when each asks for advice."""
    rules = [part for part in parts if not asks_for_advice(part.query)]
    return rules or parts


def _answer_words(index: OpenIndex, question: str, allowed: set[str] | None, limit: int,
                  post: Post | None = None) -> Answer:
    """Rank the records for a question in words and decide whether the first one is sure enough."""
    reader = reader_of(index)
    understood = reader.understand_in_post(question, post)
    notices: list[str] = []
    try:
        if not len(index.vectors.record_ids):  # built without vectors (the shipped ones were damaged)
            raise ModelUnavailable("the index holds no record vectors (`rootfaq index --vectors` encodes them)")
        if gil_free_load_under_way():
            # A cold start: while the encoder's session is set up, what ranking needs before the vector is
            # worked out beside it (measured: 15 to 25 ms off a cold `ask`, `docs/levers.md`).
            prepare(index, reader, understood, allowed)
        query_vector = question_vector(reader.encoder_text(understood))
        mode = model.HYBRID
    except ModelUnavailable as problem:
        query_vector, mode = None, model.LEXICAL
        notices.append(f"{problem.message}: searching by words only")
    weights = model.fitted_model().modes[mode]
    ranked = rank(index, reader, understood, allowed, query_vector, weights)
    hits = collapse_family([h for h, _ in ranked])[:limit]
    probability = confidence(ranked, understood, weights) if hits else 0.0
    certainty = certainty_of(probability, weights) if hits else UNANSWERED
    return Answer(question, certainty == CONFIDENT, hits, notices, understood.corrections, understood.factions,
                  probability=round(probability, 4), playing=understood.playing, certainty=certainty)


def named_section(index: OpenIndex, query: str) -> str | None:
    """The section a question names exactly by its printed title ("field hospitals", "Lords of the Forest"),
    when one section has that title; a look-up like a section number. A question that asks what a Law
    section is ("what is outrage", "how does field hospitals work") goes there too; a fan rule's title
    inside such a question does not (base game first: "what does explore do" is not a fan faction's), but a
    fan faction's own name does: it opens the faction's overview."""
    if len(query) > NAMED_QUERY_CHARS:  # a post or a long question names no title and its frame alone
        return None
    if index.derived.section_titles is None:
        index.derived.section_titles = _section_titles(index)
    titles = index.derived.section_titles
    exact = titles.get(" ".join(words(query)))
    if exact:
        return exact[0]
    name = name_asked(query)
    framed = titles.get(name)
    if framed and framed[1]:
        return framed[0]
    owned = _named_with_its_faction(index, name, titles)
    return owned or _overview_of_faction(index, name)


def _named_as_corrected(index: OpenIndex, query: str) -> tuple[str | None, dict[str, str]]:
    """`named_section` of a question with its typos fixed ("how does out rage work", "what is outrgae"), so a
    look-up reads what search reads: the section, and the corrections that found it."""
    reader = reader_of(index)
    corrections = reader.fix_typos(prose_words(query))[1]  # what `understand` fixes, without the rest of its reading
    ref = named_section(index, reader.corrected(query, corrections)) if corrections else None
    return ref, corrections if ref else {}


# "outrage in the woodland alliance rules", "field hospitals for the cats": a name asked with whose it is.
_OF_FACTION = re.compile(r"(?P<name>.+?) (?:in|for|of) (?:the )?(?P<whose>.+?)(?: (?:rules?|faction|board|player))?")


def _named_with_its_faction(index: OpenIndex, name: str, titles: dict[str, tuple[str, bool]]) -> str | None:
    """The Law section a question asks about by its title and its faction's name, before or after it ("what is
    outrage in the woodland alliance rules", "how does the wa's outrage work"), when the section is that faction's."""
    query_model = index.library.query_model
    splits = []
    if tail := _OF_FACTION.fullmatch(name):
        splits.append((tail["name"], tail["whose"]))
    named = name.split()
    for size in range(1, min(4, len(named))):
        splits.append((" ".join(named[size:]), " ".join(named[:size])))
    for title, whose in splits:
        found = titles.get(name_asked(title))  # "field hospitals work" for the marquise
        factions = set(query_model.faction_names.get(whose.removesuffix("'s"), ()))  # "the wa's outrage"
        record = index.library.records.get(f"rule-{found[0]}") if found and found[1] else None
        if record is not None and factions & set(record.factions):
            return found[0]
    return None


def _overview_of_faction(index: OpenIndex, name: str) -> str | None:
    """The overview section of the Outsiders faction a question names and asks nothing more of ("bone patrol",
    "what are the dogs", "the order of the forest explained"): naming the fan faction asks about it, so base
    game first does not hold. None for a base faction (the sources hold no chapter of theirs) or a name two
    factions share ("bats")."""
    called = index.library.query_model.factions_called(name)
    info = called[0] if len(called) == 1 else None
    if info is None or not info.prefix:
        return None
    overview = f"{info.prefix}.1"
    found = index.library.records.get(f"rule-{overview}")
    return overview if found is not None and found.section_title == "Overview" else None


def _section_titles(index: OpenIndex) -> dict[str, tuple[str, bool]]:
    """Printed title (lower-case words) -> (section number, whether it is Law text), for titles that name
    one section only. A title that is a faction's name counts only in that faction's own part: "vagabond"
    is not the Advanced Setup step titled Vagabond (A.8.1.iii), "turtles" is the Twelve Colonies' TC.2.2."""
    query_model = index.library.query_model
    sections: dict[str, set[tuple[str, bool]]] = {}
    for record in index.library.records.values():
        if record.source != "faq" and record.section and record.section_title and record.is_answer:
            key = " ".join(words(record.section_title))
            named = {info.prefix for info in query_model.factions_called(key)}
            if len(key) > 3 and (not named or record.section.split(".")[0] in named):
                sections.setdefault(key, set()).add((refs.base_ref(record.section), record.grade == "law"))
    return {title: (next(iter(found))[0], any(law for _, law in found))
            for title, found in sections.items() if len({section for section, _ in found}) == 1}


def _answer_reference(index: OpenIndex, query: str, ref: str, allowed: set[str] | None, limit: int) -> Answer:
    holding, citing = records_for_ref(index, ref)
    found = [ScoredHit(r, 10.0) for r in holding]
    found += [ScoredHit(r, 5.0) for r in citing]
    if allowed is not None:
        found = [h for h in found if h.record.id in allowed]
    if holding:
        # A filter that leaves none of the section's records found nothing: not confident.
        notices = [] if found else [f"section {ref} exists, but nothing under it passes the filter"]
        return Answer(query, bool(found), found[:limit], notices, reference=ref)
    nearest = nearest_refs(index, ref)
    notice = f"no section {ref} in the corpus; " + (f"nearest: {', '.join(nearest)}" if nearest else "nothing near it")
    return Answer(query, False, found[:limit], [notice], reference=ref)
