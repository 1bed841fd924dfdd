"""The reconstructed FAQ questions: coverage, uniqueness, fingerprints, and that they are marked."""

from __future__ import annotations

import re


def answered(corpus):
    return [r for r in corpus.records if r.source == "faq" and r.is_answer]


def test_every_answered_entry_has_a_reconstructed_question(corpus):
    entries = answered(corpus)
    assert len(entries) == 283
    assert all(r.title and r.title.endswith("?") for r in entries)
    assert all("reconstructed-question" in r.flags for r in entries)
    assert corpus.question_problems == []


def test_the_entry_without_answer_gets_no_question(corpus):
    missing = [r for r in corpus.records if r.source == "faq" and not r.is_answer]
    assert missing and missing[0].title is None


def test_no_two_questions_alike(corpus):
    def norm(text):
        return re.sub(r"\W+", " ", text.lower()).strip()

    questions = [norm(r.title) for r in answered(corpus)]
    assert len(set(questions)) == len(questions)
    phrasings = [norm(p) for r in answered(corpus) for p in r.alt_titles]
    assert len(set(phrasings)) == len(phrasings)
    assert not set(questions) & set(phrasings)


def test_at_most_three_other_phrasings(corpus):
    assert all(len(r.alt_titles) <= 3 for r in answered(corpus))


def test_questions_are_searched(index):
    from rootfaq import search

    # A question's own wording finds its own answer first, for every entry: the quality bar's
    # "its own answer is the best answer to it in the whole corpus".
    misses = []
    for record in index.records.values():
        if record.source == "faq" and record.is_answer:
            top = search.ask(index, record.title, limit=1).hits
            if not top or top[0].record.id != record.id:
                misses.append(record.id)
    assert len(misses) <= 3, misses
