"""The nearest headings' votes: the headings nearest the question (FAQ questions, rule titles, phrasings, the
questions players asked), by meaning and by shared stems, vote for their records, and the first stage's best
are ordered by their fitted score plus those votes (dense.neighbour_votes, ranking.word_votes, ranking.order);
confidence still reads the fitted score."""

from __future__ import annotations

import pytest

from rootfaq.search import dense, ranking
from rootfaq.search.confidence import confidence_evidence
from rootfaq.search.model import CONFIDENCE_FEATURES, FEATURES
from rootfaq.search.query import reader_of


def _rows(index, record_id: str, kind: str) -> list[int]:
    return [i for i, (rid, k) in enumerate(zip(index.vectors.record_ids, index.vectors.kinds, strict=True))
            if rid == record_id and k == kind]


def test_only_headings_of_allowed_records_vote_and_the_nearest_weigh_most(index):
    import numpy as np

    allowed = ranking.answering_ids(index)
    sims = np.full(len(index.vectors.record_ids), -1.0, dtype=np.float32)
    sims[_rows(index, "faq-071", dense.WHOLE)] = 1.0  # a whole passage is no heading: it never votes
    sims[_rows(index, "faq-072", dense.HEADING)[0]] = 0.9
    sims[_rows(index, "faq-073", dense.HEADING)[0]] = 0.8
    votes = dense.neighbour_votes(index, sims, allowed, count=10, temperature=0.1)
    assert "faq-071" not in votes
    assert votes["faq-072"] > votes["faq-073"] > 0
    assert votes["faq-072"] / votes["faq-073"] == pytest.approx(np.exp(1.0), rel=1e-4)  # exp(0.1 / 0.1)
    assert sum(votes.values()) == pytest.approx(1.0)
    assert len(votes) <= 10 and set(votes) <= allowed

    without = dense.neighbour_votes(index, sims, allowed - {"faq-072"}, count=10, temperature=0.1)
    assert "faq-072" not in without and max(without, key=without.get) == "faq-073"
    assert dense.neighbour_votes(index, sims, frozenset(), count=10, temperature=0.1) == {}


def test_a_question_gives_every_candidate_its_share_of_the_vote(index):
    reader = reader_of(index)
    understood = reader.understand("can I ambush with no warriors in the clearing")
    found = ranking.evidence(index, reader, understood, None, dense.question_vector(reader.encoder_text(understood)))
    shares = {rid: entry.neighbours for rid, entry in found.items() if entry.neighbours}
    assert 0 < len(shares) <= ranking.NEIGHBOURS
    assert sum(shares.values()) <= 1.0 + 1e-6
    assert max(shares, key=shares.get) in {"faq-071", "faq-072"}


def test_headings_sharing_the_most_stems_win_the_word_vote():
    import math

    votes = ranking.word_votes({"a": [0.9, 0.2], "b": [0.8], "c": [0.1]}, count=3, temperature=0.1)
    assert set(votes) == {"a", "b"}, "only the three best headings vote: a's 0.9, b's 0.8, a's 0.2"
    assert votes["a"] > votes["b"] > 0 and sum(votes.values()) == pytest.approx(1.0)
    assert votes["b"] / votes["a"] == pytest.approx(math.exp(-1.0) / (1 + math.exp(-7.0)))  # exp((F1 - 0.9) / 0.1)
    assert ranking.word_votes({"a": [], "b": []}, count=10, temperature=0.1) == {}
    assert ranking.word_votes({}, count=10, temperature=0.1) == {}


def test_a_question_on_words_alone_still_gets_the_word_vote(index):
    reader = reader_of(index)
    found = ranking.evidence(index, reader, reader.understand("can I ambush with no warriors in the clearing"),
                             None, None)
    shares = {rid: entry.word_neighbours for rid, entry in found.items() if entry.word_neighbours}
    assert 0 < len(shares) <= ranking.WORD_NEIGHBOURS
    assert sum(shares.values()) == pytest.approx(1.0)
    assert max(shares, key=shares.get) == "faq-071"  # "Can I ambush ... no warriors ..."
    assert all(entry.neighbours == 0 for entry in found.values()), "no vector: no vote by meaning"
    best = found["faq-071"]
    assert best.features[FEATURES.index("heading_match")] == max(best.heading_f1s)


def _evidence(votes: list[float], words: list[float] | None = None) -> list[ranking.Evidence]:
    words = words or [0.0] * len(votes)
    return [ranking.Evidence(neighbours=v, word_neighbours=w, features=(0.0,) * len(FEATURES))
            for v, w in zip(votes, words, strict=True)]


def test_the_vote_reorders_only_the_first_stage_best_and_keeps_their_fitted_scores():
    count = ranking.NEIGHBOUR_CANDIDATES
    first = [10.0 - i * 0.1 for i in range(count + 2)]  # first-stage order: 0, 1, 2, ...
    votes = [0.0] * len(first)
    votes[2] = 0.6  # + weight x 0.6 (1.2): from third to first
    votes[count] = 1.0  # outside the best: it stays where it was
    found = _evidence(votes)
    order, scores = ranking.order(found, first, None)
    assert order[:3] == [2, 0, 1] and order[count:] == [count, count + 1]
    assert scores[2] == pytest.approx(first[2] + ranking.NEIGHBOUR_WEIGHT * 0.6)
    assert scores[count] == first[count]
    assert [entry.fitted for entry in found] == first
    assert all(scores[a] >= scores[b] for a, b in zip(order, order[1:], strict=False)), "shown scores fall in order"

    unvoted, same = ranking.order(_evidence([0.0] * len(first)), first, None)
    assert unvoted == list(range(len(first))) and same == first

    words = [0.0] * len(first)
    words[1] = 0.5  # + weight x 0.5 (1.0) by the word vote alone: from second to first
    by_words, scores = ranking.order(_evidence([0.0] * len(first), words), first, None)
    assert by_words[:2] == [1, 0]
    assert scores[1] == pytest.approx(first[1] + ranking.WORD_NEIGHBOUR_WEIGHT * 0.5)


def test_confidence_reads_the_fitted_score_of_the_candidate_the_vote_put_first(index):
    records = [index.library.records[rid] for rid in ("faq-071", "faq-106")]
    first = [4.0, 5.0]
    found = _evidence([0.9, 0.0])  # the vote lifts 4.0 to 5.8, above 5.0
    order, scores = ranking.order(found, first, None)
    assert order == [0, 1]
    ranked = [(ranking.ScoredHit(records[i], scores[i]), found[i]) for i in order]
    evidence = dict(zip(CONFIDENCE_FEATURES, confidence_evidence(ranked, reader_of(index).understand("ambush")),
                        strict=True))
    assert evidence["score"] == 4.0 and evidence["margin"] == -1.0
    assert evidence["neighbours"] == 0.9 and evidence["word_neighbours"] == 0.0  # the votes are read apart


def test_the_allowed_records_mask_is_remembered_per_set_and_kept_bounded(index):
    """Which records a filter allows is worked out once per set (a Python loop over every record), for the
    vote and the semantic order; a new set gets its own mask, and the table stays small."""
    allowed = ranking.answering_ids(index)
    records = dense.prepare_vectors(index).record_ids
    mask = dense.allowed_records(index, allowed)
    assert mask.tolist() == [rid in allowed for rid in records]
    assert dense.allowed_records(index, set(allowed)) is mask  # the same set, as a set: the same mask
    fewer = dense.allowed_records(index, allowed - {records[0]})
    assert not fewer[0] and fewer[1:].tolist() == mask[1:].tolist()
    for n in range(2 * dense.ALLOWED_MASKS_KEPT):
        dense.allowed_records(index, {records[n]})
    assert len(index.derived.allowed_masks) <= dense.ALLOWED_MASKS_KEPT
    assert dense.allowed_records(index, allowed).tolist() == mask.tolist()
