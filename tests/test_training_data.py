"""The readers' verdicts (training/also-answers.yaml) stay attached to what they judged: every one names a
training question the fit reads, the record it was written for, and answer records that exist, judged once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import fit  # noqa: E402


@pytest.fixture(scope="module")
def verdicts():
    import yaml

    return yaml.safe_load((ROOT / "training" / "also-answers.yaml").read_text("utf-8"))


def test_every_verdict_names_a_question_the_fit_reads(verdicts):
    answerable, _ = fit.load_questions()
    read = {(q.record_id, q.text) for q in answerable}
    stray = [(v["written_for"], v["q"][:60]) for v in verdicts if (v["written_for"], v["q"]) not in read]
    assert not stray, f"verdicts for questions the fit no longer reads (re-run scripts/also_queue.py): {stray[:5]}"


def test_every_verdict_names_answer_records_once(verdicts, corpus):
    answers = {r.id for r in corpus.records if r.is_answer}
    for verdict in verdicts:
        judged = [*verdict["also"], *verdict["not"]]
        assert verdict["written_for"] in answers and set(judged) <= answers, verdict
        assert len(judged) == len(set(judged)) and verdict["written_for"] not in judged, verdict


def test_the_fit_counts_a_readers_also_right_for_confidence_only():
    """A record a reader judged to answer a question too is right for confidence (`Question.judged`), never
    among the labels the ranking learns from (`also`)."""
    answerable, _ = fit.load_questions()
    judged = [q for q in answerable if q.judged]
    assert len(judged) > 300
    assert all(not set(q.judged) & {q.record_id, *q.also} for q in judged)
