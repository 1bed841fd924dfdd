"""Shipped data beside the model (record vectors, fitted weights): checked before use, never silently wrong."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from rootfaq.corpus.build import build_corpus
from rootfaq.corpus.files import read_corpus_files
from rootfaq.search import dense, model, shipped, store

MODEL_DATA = Path(shipped.__file__).resolve().parents[1] / "model_data"


@pytest.fixture
def model_data(tmp_path, monkeypatch):
    """A copy of the shipped data files that the package reads instead of its own, for this test."""
    copy = tmp_path / "model_data"
    copy.mkdir()
    for name in (*shipped.CHECKED, shipped.CHECKSUMS):
        shutil.copy(MODEL_DATA / name, copy / name)

    class Files:
        @staticmethod
        def files(_package):
            return copy

    monkeypatch.setattr(shipped, "resources", Files)
    shipped._checksums.cache_clear()
    model.fitted_model.cache_clear()
    yield copy
    shipped._checksums.cache_clear()
    model.fitted_model.cache_clear()


def test_the_checksums_list_matches_the_shipped_files():
    assert json.loads((MODEL_DATA / shipped.CHECKSUMS).read_text()) == shipped.checksums_of(MODEL_DATA)


def _records():
    return build_corpus(read_corpus_files()).records


def _rewrite_vectors(folder: Path, change) -> None:
    matrix = np.load(folder / dense.SHIPPED_VECTORS)
    out = io.BytesIO()
    np.save(out, change(matrix), allow_pickle=False)
    (folder / dense.SHIPPED_VECTORS).write_bytes(out.getvalue())


VECTOR_DAMAGE = {
    "rows permuted": lambda m: m[np.random.default_rng(1).permutation(len(m))],
    "a NaN": lambda m: np.where(np.arange(m.size).reshape(m.shape) == 5, np.nan, m).astype(m.dtype),
    "truncated": lambda m: m[: len(m) // 2],
}


@pytest.mark.parametrize("damage", VECTOR_DAMAGE)
def test_damaged_shipped_vectors_are_one_notice_and_words_only_never_a_long_encode(model_data, monkeypatch, damage):
    _rewrite_vectors(model_data, VECTOR_DAMAGE[damage])
    with pytest.raises(shipped.ShippedDataDamaged, match="record-vectors.npy is damaged"):
        dense.shipped_vectors()

    def no_encoder():
        raise AssertionError("the whole corpus was going to be encoded (minutes) for a question")

    monkeypatch.setattr(dense, "sentence_encoder", no_encoder)
    notices: list[str] = []
    vectors = dense.build_vectors(_records(), notices)
    assert len(vectors.record_ids) == 0
    assert len(notices) == 1 and "record-vectors.npy is damaged" in notices[0] and "words only" in notices[0]


def test_vectors_that_are_not_numbers_are_refused_even_with_a_matching_checksum(model_data):
    _rewrite_vectors(model_data, lambda m: np.full_like(m, np.inf))
    shipped.write_checksums(model_data)  # as if the checksums had been rewritten with the damage
    shipped._checksums.cache_clear()
    with pytest.raises(shipped.ShippedDataDamaged, match="not numbers"):
        dense.shipped_vectors()


def test_an_edited_weight_is_a_data_error_not_another_answer(model_data):
    data = json.loads((model_data / model.RANKING_FILE).read_text())
    data["hybrid"]["weights"][0] += 1.0
    (model_data / model.RANKING_FILE).write_text(json.dumps(data))
    with pytest.raises(model.RankingDataError, match="ranking.json is damaged"):
        model.fitted_model()


def test_the_index_key_covers_the_shipped_data(model_data):
    before = store.index_key("corpus")
    data = json.loads((model_data / model.RANKING_FILE).read_text())
    data["hybrid"]["threshold"] = 0.5
    (model_data / model.RANKING_FILE).write_text(json.dumps(data))
    shipped.write_checksums(model_data)  # a reinstall with other weights
    shipped._checksums.cache_clear()
    after = store.index_key("corpus")
    assert before["shipped"] != after["shipped"], "an index built from other shipped data is stale"


def test_an_unreadable_checksums_list_is_damage(model_data):
    (model_data / shipped.CHECKSUMS).write_text("{}")
    with pytest.raises(shipped.ShippedDataDamaged, match="does not list"):
        shipped.read_shipped(model.RANKING_FILE)
    assert shipped.shipped_digest() == "unchecked"


def test_an_index_built_without_vectors_searches_by_words_with_a_notice(tmp_path):
    from rootfaq.corpus.files import corpus_hash
    from rootfaq.search import answers

    texts = read_corpus_files()
    corpus = build_corpus(texts)
    content = store.index_content(corpus, dense.compute_record_vectors(corpus.records, {}, None))
    index = store.open_or_build(corpus_hash(texts), lambda: content, base=tmp_path)
    answer = answers.ask(index, "can I ambush when I have no warriors in the clearing")
    assert "the index holds no record vectors: searching by words only" in answer.notices
    assert answer.hits and answer.hits[0].record.source == "faq"
