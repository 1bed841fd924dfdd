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


def test_every_training_label_names_an_answer_record(corpus):
    """Each labelled question (blind questions, long posts written for the purpose or blind) names records that
    exist and answer: a renamed or dropped record would otherwise turn its questions' labels silently wrong."""
    import yaml

    answers = {r.id for r in corpus.records if r.is_answer}
    labelled = 0
    for path in sorted((ROOT / "training").glob("*.yaml")):
        if "posts" not in path.name and "blind-questions" not in path.name:
            continue
        for item in yaml.safe_load(path.read_text("utf-8")):
            for records in [item["records"]] if "records" in item else [p["records"] for p in item["parts"]]:
                assert set(records) <= answers, (path.name, sorted(set(records) - answers))
                assert len(records) == len(set(records)), (path.name, records)
                labelled += 1
    assert labelled > 2000


def test_the_threshold_judges_blind_precision_at_players_mix():
    """The blind rows no record answers weigh UNANSWERED_SHARE of the blind rows however many our data keeps,
    so a rare confident one among many left in training does not sink the threshold."""
    import numpy as np

    styles = np.array(["blind-table"] * 12 + ["blind-unanswered"] * 18)
    unanswered = styles == "blind-unanswered"
    p = np.array([0.75] * 9 + [0.2] * 3 + [0.76] * 2 + [0.1] * 16)
    y = np.array([1.0] * 9 + [0.0] * 21)
    weight = np.ones(len(styles))
    mixed = fit.players_mix(weight, unanswered)
    share = fit.UNANSWERED_SHARE
    assert mixed[unanswered].sum() == pytest.approx(12 * share / (1 - share))
    assert (mixed[~unanswered] == 1.0).all()
    assert fit.threshold_for(p, y, weight, 0.9) == 0.99  # 9 right of 11 confident at best: never 90%
    assert fit.confident_from(p, y, weight, styles, unanswered) == 0.75  # 9 right of 9.67 at players' mix


def test_the_threshold_judges_every_row_at_players_mix_too():
    """Over every held-out row, the written questions no record answers and those whose record was left out (half
    our rows) weigh the share of what players send too: a wrong confident one among many does not set the
    threshold, while precision over the answerable rows still does."""
    import numpy as np

    styles = np.array(["table"] * 10 + ["left-out"] * 20 + ["blind-table"] * 10)
    unanswered = styles == "left-out"
    p = np.array([0.9] * 10 + [0.7] + [0.1] * 19 + [0.8] * 5 + [0.7] * 5)
    y = np.array([1.0] * 10 + [0.0] * 20 + [1.0] * 10)
    weight = np.ones(len(styles))
    # Unweighted, the left-out row at 0.7 makes 20 right of 21 confident (95%); weighed to a third of all
    # (the 20 left-out rows weigh 10), 20 of 20.5 (97.6%).
    assert fit.threshold_for(p, y, fit.players_mix(weight, unanswered), 0.97) == 0.7
    assert fit.threshold_for(p, y, weight, 0.97) == 0.8
    assert fit.confident_from(p, y, weight, styles, unanswered) == 0.7
    y[-1] = 0.0  # a blind answer wrong at 0.7: 19 of 20.5 over all (93%), but 9 of 10 blind, below the margin
    assert fit.HELD_OUT_PRECISION > 0.9
    assert fit.confident_from(p, y, weight, styles, unanswered) == 0.8


def test_a_threshold_never_splits_answers_of_the_same_probability():
    """Answers tied at one probability are all confident or none: a cut at 0.8 keeps its three right answers
    and its wrong one (4 of 5 right), never only the first rows of the tie (4 of 4)."""
    import numpy as np

    p = np.array([0.9, 0.8, 0.8, 0.8, 0.8, 0.3])
    y = np.array([1.0, 1.0, 1.0, 1.0, 0.0, 0.0])
    weight = np.ones(len(p))
    assert fit.threshold_for(p, y, weight, 0.9) == 0.9
    assert fit.threshold_for(p, y, weight, 0.75) == 0.8
