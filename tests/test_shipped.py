"""Shipped data beside the model (record vectors, fitted weights): checked before use, never silently wrong."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from rootfaq.corpus.build import build_corpus
from rootfaq.corpus.files import read_corpus_files
from rootfaq.search import dense, encoder, model, shipped, store

MODEL_DATA = Path(shipped.__file__).resolve().parents[1] / "model_data"


@pytest.fixture
def model_data(tmp_path, monkeypatch):
    """A copy of the shipped data files that the package reads instead of its own, for this test."""
    copy = tmp_path / "model_data"
    copy.mkdir()
    for name in (*shipped.CHECKED, shipped.CHECKSUMS):
        shutil.copy(MODEL_DATA / name, copy / name)
    monkeypatch.setattr(shipped, "model_data", lambda: copy)
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


def test_pickled_vectors_are_refused_never_unpickled_even_with_a_matching_checksum(model_data):
    """An .npy file may hold pickled objects, and loading a pickle can run code: it is refused unread."""
    out = io.BytesIO()
    np.save(out, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    (model_data / dense.SHIPPED_VECTORS).write_bytes(out.getvalue())
    shipped.write_checksums(model_data)  # as if the checksums had been rewritten with it
    shipped._checksums.cache_clear()
    with pytest.raises(shipped.ShippedDataDamaged, match="cannot be read"):
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
    assert "the index holds no record vectors (`rootfaq index --vectors` encodes them): searching by words only" \
        in answer.notices
    assert answer.hits and answer.hits[0].record.source == "faq"


# --- vectors encoded here when the shipped ones are damaged (rootfaq index --vectors) ----------------------


def _some_texts(count: int) -> list[str]:
    return [text for r in _records() if r.is_answer for _, text in dense.embedding_texts(r)][:count]


def test_vectors_encoded_here_resume_where_a_killed_run_stopped(tmp_path, monkeypatch):
    """A run killed midway keeps the chunks it wrote; the next encodes only the rest, and what is kept is
    what the model gives."""
    from rootfaq.search import vector_cache
    from rootfaq.search.encoder import MODEL_SHA256, sentence_encoder

    monkeypatch.setattr(vector_cache, "CHUNK_TEXTS", 4)
    texts, folder, encoder = _some_texts(12), tmp_path / "vectors", sentence_encoder()
    calls: list[int] = []

    def killed_after_one_chunk(chunk):
        if calls:
            raise KeyboardInterrupt  # as Ctrl-C or a kill between two chunks
        calls.append(len(chunk))
        return encoder.encode(chunk)

    with pytest.raises(KeyboardInterrupt):
        vector_cache.encode_missing(texts, {}, killed_after_one_chunk, folder, MODEL_SHA256, dense.fingerprint)
    kept = vector_cache.cached_vectors(folder, MODEL_SHA256)
    assert len(kept) == 4
    seen: list[tuple[int, int]] = []
    encoded = vector_cache.encode_missing(texts, kept, encoder.encode, folder, MODEL_SHA256, dense.fingerprint,
                                          lambda done, total: seen.append((done, total)))
    assert encoded == 8 and seen == [(4, 8), (8, 8)]
    kept = vector_cache.cached_vectors(folder, MODEL_SHA256)
    direct = encoder.encode(texts)
    assert np.allclose([kept[dense.fingerprint(t)] for t in texts], direct, atol=1e-5)
    assert not [p for p in folder.iterdir() if p.name.startswith(".")], "no temporary file is left"


def test_a_damaged_or_planted_chunk_is_skipped_never_read_as_vectors(tmp_path):
    import os

    from rootfaq.search import vector_cache
    from rootfaq.search.encoder import MODEL_SHA256

    folder = tmp_path / "vectors"
    folder.mkdir()
    unit = np.ones((1, vector_cache.DIMENSIONS), dtype=np.float32) / np.sqrt(vector_cache.DIMENSIONS)
    kept = [dense.fingerprint(t) for t in ("a", "b")]
    vector_cache.write_chunk(folder, MODEL_SHA256, kept, np.vstack([unit, unit]))
    assert set(vector_cache.cached_vectors(folder, MODEL_SHA256)) == set(kept)
    assert vector_cache.cached_vectors(folder, "another model") == {}
    before = set(folder.glob("*.npy"))
    vector_cache.write_chunk(folder, MODEL_SHA256, [dense.fingerprint("flipped")], unit)
    flipped = (set(folder.glob("*.npy")) - before).pop()
    data = bytearray(flipped.read_bytes())
    data[-1] ^= 0xFF  # its sha256 no longer matches
    flipped.write_bytes(bytes(data))
    vector_cache.write_chunk(folder, MODEL_SHA256, [dense.fingerprint("nan")], np.full_like(unit, np.nan))
    os.mkfifo(folder / "chunk-0000000000000000.json")  # a FIFO where a chunk belongs: refused, never waited on
    (folder / "chunk-1111111111111111.json").symlink_to(next(folder.glob("*.json")))  # a link: not followed
    assert set(vector_cache.cached_vectors(folder, MODEL_SHA256)) == set(kept)


def test_damaged_shipped_vectors_are_served_from_vectors_encoded_here(model_data, monkeypatch, tmp_path):
    """After `rootfaq index --vectors`, a build takes the vectors encoded here: no notice, vectors again."""
    from rootfaq.search import vector_cache
    from rootfaq.search.encoder import MODEL_SHA256

    _rewrite_vectors(model_data, VECTOR_DAMAGE["rows permuted"])
    records = [r for r in _records() if r.is_answer][:6]
    monkeypatch.setattr(dense, "ENCODE_AT_BUILD", 3)  # six records are a corpus's worth here
    notices: list[str] = []
    assert len(dense.build_vectors(records, notices, folder=tmp_path / "vectors").record_ids) == 0
    assert "rootfaq index --vectors" in notices[0] and "resumes" in notices[0]
    encoded, texts = dense.encode_vectors(records, folder=tmp_path / "vectors")
    assert encoded == texts > 3
    assert dense.encode_vectors(records, folder=tmp_path / "vectors") == (0, texts)  # nothing left to do
    notices.clear()
    vectors = dense.build_vectors(records, notices, folder=tmp_path / "vectors")
    assert notices == [] and len(set(vectors.fingerprints)) == texts
    assert len(vector_cache.cached_vectors(tmp_path / "vectors", MODEL_SHA256)) == texts


def test_source_md_names_the_sha256_the_code_checks():
    """The model's SOURCE.md table gives each shipped file's sha256: the very value encoder.py checks on load
    (a refreshed file whose table row was not refreshed would send a reader after the wrong bytes)."""
    source = (encoder.model_data() / "SOURCE.md").read_text("utf-8")
    rows = dict(re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$", source, re.MULTILINE))
    assert rows == {encoder.MODEL_FILE: encoder.MODEL_SHA256, encoder.VOCAB_FILE: encoder.VOCAB_SHA256,
                    encoder.LAYERS_FILE: encoder.LAYERS_SHA256,
                    encoder.QUESTION_LAYERS_FILE: encoder.QUESTION_LAYERS_SHA256}
