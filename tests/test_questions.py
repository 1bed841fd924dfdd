"""The reconstructed FAQ questions: coverage, uniqueness, fingerprints, and that they are marked."""

from __future__ import annotations

import re

import pytest


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
    phrasings = [norm(p) for r in answered(corpus) for p in r.phrasings]
    assert len(set(phrasings)) == len(phrasings)
    assert not set(questions) & set(phrasings)


def test_at_most_eight_other_phrasings(corpus):
    from rootfaq.corpus.curated import MAX_PHRASINGS

    assert MAX_PHRASINGS == 8
    assert all(len(r.phrasings) <= MAX_PHRASINGS for r in answered(corpus))


# Questions in our own words, not the reconstructed ones nor their phrasings (none of these is indexed), and
# the entry a reader of the answers picks for each.
PARAPHRASES = {
    "is a ruin a building that the cats could build on": "faq-021",
    "my opponent attacks me where I have zero pieces, can I still throw down the ambush card": "faq-071",
    "when the alliance revolts and wipes out the cats, do they pay a card for every warrior to save them": "faq-108",
    "at what moment must I get rid of cards over the limit of five in my hand": "faq-029",
    "we blew up three of their pieces in a single fight, how many victory points is that": "faq-045",
    "the vagabond kills hired otter warriors, who does he become hostile to": "faq-196",
}


@pytest.mark.parametrize("question,faq_id", PARAPHRASES.items())
def test_a_question_in_other_words_finds_its_entry(index, question, faq_id):
    from rootfaq.search import answers

    record = index.library.records[faq_id]
    assert question not in [record.title.lower(), *record.phrasings]
    assert faq_id in [h.record.id for h in answers.ask(index, question, limit=3).hits]


def test_every_rule_and_law_record_has_curated_phrasings(corpus):
    rules = [r for r in corpus.records if r.source != "faq" and r.section]
    assert rules and all(1 <= len(r.phrasings) <= 8 for r in rules)


def test_rule_phrasings_are_unique(corpus):
    def norm(text):
        return re.sub(r"\W+", " ", text.lower()).strip()

    phrasings = [norm(p) for r in corpus.records if r.source != "faq" for p in r.phrasings]
    assert len(set(phrasings)) == len(phrasings)


def test_a_changed_rule_text_names_the_phrasings_to_reread():
    from rootfaq.corpus.build import build_corpus
    from rootfaq.corpus.files import read_corpus_files

    texts = read_corpus_files()
    texts["outsiders-rulebook.txt"] = texts["outsiders-rulebook.txt"].replace(
        "BP.2.4 Obedient. Bone Patrol warriors can only", "BP.2.4 Obedient. Bone Patrol warriors may only", 1)
    changed = build_corpus(texts)
    assert len(changed.question_problems) == 1 and "rule-BP.2.4" in changed.question_problems[0]
    assert changed.by_id()["rule-BP.2.4"].phrasings == []


def test_phrasings_are_never_shown_as_rule_text(index):
    from typer.testing import CliRunner

    from rootfaq.cli import app as cli

    record = index.library.records["rule-BP.2.2"]
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(cli.app, ["--no-pager", "show", record.id],
                                                    catch_exceptions=False).stdout
    assert record.text.split(".")[0] in shown
    assert not any(p in shown for p in record.phrasings)
