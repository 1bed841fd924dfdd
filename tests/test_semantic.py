"""The semantic retriever, the fitted ranking and confidence, word fixes, base game first, multi-question posts.

Everything here runs the shipped model and the shipped weights: nothing is mocked. The questions are ours,
written for these tests (never taken from an evaluation set).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rootfaq.corpus.build import build_corpus
from rootfaq.corpus.files import read_corpus_files
from rootfaq.errors import RootfaqError
from rootfaq.search import answers as search
from rootfaq.search import dense, encoder, query
from rootfaq.search import model as fitted
from rootfaq.search.query import reader_of

HOSTILE = Path(__file__).parent / "data" / "hostile-inputs.txt"
ROOTFAQ = Path(sys.executable).parent / "rootfaq"


# --- the model and its vectors ------------------------------------------------------------------------------


def test_the_encoder_reads_checked_weights_and_gives_sentence_vectors():
    model = encoder.sentence_encoder()
    food, bread, baby = model.encode(["A man is eating food.", "A man is eating a piece of bread.",
                                      "The girl is carrying a baby."])
    assert abs(float(food @ food) - 1.0) < 1e-4, "unit vectors"
    assert 0.70 < float(food @ bread) < 0.80, "all-MiniLM-L6-v2 gives these two 0.75"
    assert float(food @ baby) < 0.1


def test_the_tokenizer_splits_like_bert():
    pieces = encoder.WordPiece(
        (Path(encoder.__file__).parents[1] / "model_data" / encoder.VOCAB_FILE).read_text("utf-8").splitlines())
    assert pieces.encode("Can the Vagabond’s Slip move into forests? naïve café") == [
        101, 2064, 1996, 12436, 3654, 11735, 2094, 1521, 1055, 7540, 2693, 2046, 6138, 1029, 15743, 7668, 102]


def test_a_damaged_model_file_is_refused(tmp_path):
    shipped = Path(encoder.__file__).parents[1] / "model_data"
    for name in (encoder.MODEL_FILE, encoder.VOCAB_FILE):
        shutil.copy(shipped / name, tmp_path / name)
    data = bytearray((tmp_path / encoder.MODEL_FILE).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (tmp_path / encoder.MODEL_FILE).write_bytes(bytes(data))
    with pytest.raises(encoder.ModelUnavailable, match="damaged"):
        encoder.load_encoder(tmp_path)
    (tmp_path / encoder.MODEL_FILE).unlink()
    with pytest.raises(encoder.ModelUnavailable, match="cannot be read"):
        encoder.load_encoder(tmp_path)


def test_questions_run_through_their_own_layers_in_onnxruntime_close_to_the_numpy_pass():
    """A question goes through the layers tuned for questions, in onnxruntime (2.3-2.7 ms against 12 ms
    here); without onnxruntime the numpy pass runs the same layers, and the two agree to a cosine near 1
    (0.9996 on average over 300 training questions, 0.9997 on these: the fit measures the numpy pass's
    vectors, so the product must give them). Records go through the shipped layers, which are not these."""
    model = encoder.sentence_encoder()
    assert model.question_pass == "onnxruntime int8" and model.question_key == encoder.LAYERS_SHA256
    numpy_pass = encoder.load_encoder(questions="numpy")
    assert numpy_pass.question_pass == "numpy float32" and numpy_pass.question_key == encoder.QUESTION_LAYERS_SHA256
    questions = ["can the cats build in a ruin?", "vaga aid with no items",
                 "We played the Eyrie and turmoil hit twice. Do I lose points for every bird card in the decree?"]
    fast, exact = model.encode_questions(questions), numpy_pass.encode_questions(questions)
    cosines = (exact * fast).sum(axis=1)
    assert cosines.min() > 0.999, cosines
    assert (abs((fast * fast).sum(axis=1) - 1.0) < 1e-4).all(), "unit vectors"
    as_records = (model.encode(questions) * exact).sum(axis=1)
    assert (as_records < 0.97).all(), f"the question layers are the records' ({as_records})"  # 0.85-0.92
    alone = model.encode_questions(questions[:1])
    assert (alone[0] == fast[0]).all(), "a question's vector does not depend on the questions beside it"


def test_the_question_layers_are_the_shipped_ones_moved_by_checked_differences():
    import numpy as np

    model = encoder.load_encoder(questions="numpy")
    name = "encoder.layer.0.output.dense.weight"
    moved = encoder.question_arrays(model._arrays, model.question_differences)
    assert np.allclose(moved[name], encoder.dequantized(model._arrays, name)
                       + encoder.dequantized(model.question_differences, name + encoder.DIFFERENCE))
    assert moved["embeddings.word_embeddings.weight"] is model._arrays["embeddings.word_embeddings.weight"]
    wrong_shape = {**model.question_differences, "encoder.layer.0.output.dense.bias": np.zeros(3, np.float32)}
    not_a_layer = {**model.question_differences, "embeddings.LayerNorm.bias": np.zeros(384, np.float32)}
    for differences in (wrong_shape, not_a_layer):
        with pytest.raises(ValueError):
            encoder.check_differences(model._arrays, differences)


def test_a_damaged_layers_file_is_refused_like_the_weights(tmp_path):
    shipped = Path(encoder.__file__).parents[1] / "model_data"
    for name in (encoder.MODEL_FILE, encoder.VOCAB_FILE, encoder.LAYERS_FILE, encoder.QUESTION_LAYERS_FILE):
        shutil.copy(shipped / name, tmp_path / name)
    assert encoder.load_encoder(tmp_path).question_pass == "onnxruntime int8"
    for name, questions in ((encoder.LAYERS_FILE, "onnxruntime"), (encoder.QUESTION_LAYERS_FILE, "numpy")):
        data = bytearray((tmp_path / name).read_bytes())
        data[len(data) // 3] ^= 0xFF
        (tmp_path / name).write_bytes(bytes(data))
        with pytest.raises(encoder.ModelUnavailable, match=f"{name} is damaged"):
            encoder.load_encoder(tmp_path, questions=questions)
    records_only = encoder.load_encoder(tmp_path, questions=None)
    assert records_only.question_layers is None and records_only.question_differences is None, \
        "records need no question layers"


def _ask_where_blocked(module: str, check: str = "") -> tuple[dict, str]:
    """`rootfaq ask --json` in a process where `module` cannot be imported: (its answer, its stderr)."""
    code = (f"import sys; sys.modules[{module!r}] = None\n{check}"
            "from rootfaq.cli import main\n"
            "sys.argv = ['rootfaq', 'ask', '--json', 'does field hospitals work against a revolt']\n"
            "main()")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout), proc.stderr


def test_a_layers_file_this_onnxruntime_cannot_run_leaves_questions_to_the_numpy_pass():
    """Bytes that passed their sha256 but that the installed onnxruntime cannot load (a version too old)."""
    assert encoder._question_layers(b"\x08\x07 not an onnx graph") is None


def test_where_onnxruntime_cannot_be_imported_questions_take_the_numpy_pass(index):
    """onnxruntime blocked in the process (a platform with no wheel): the same answer, by meaning, no notice."""
    answer, stderr = _ask_where_blocked("onnxruntime", "from rootfaq.search import encoder\n"
                                        "assert encoder.sentence_encoder().question_pass == 'numpy float32'\n")
    assert answer["hits"][0]["id"] == "faq-108" and answer["notices"] == [], stderr


def test_loading_begun_on_a_second_thread_is_waited_for_and_done_once():
    """`ask` starts loading the model before it opens the index; the question then waits for that load."""
    code = ("import threading, time\n"
            "from rootfaq.search import encoder\n"
            "loads = []\n"
            "real = encoder.load_encoder\n"
            "def counted(*a, **k):\n"
            "    time.sleep(0.3); loads.append(1); return real(*a, **k)\n"
            "encoder.load_encoder = counted\n"
            "encoder.start_loading()\n"
            "time.sleep(0.05)\n"
            "model = encoder.sentence_encoder()\n"
            "assert encoder.sentence_encoder() is model and len(loads) == 1, loads\n"
            "assert not any(t.name == 'rootfaq-encoder-load' and t.is_alive() for t in threading.enumerate())\n"
            "print(model.question_pass)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "onnxruntime int8", proc.stderr


def test_a_cold_question_ranks_beside_the_session_set_up_and_never_waits_on_a_failed_load(tmp_path):
    """While onnxruntime sets up its session (the GIL released), a cold `ask` works out ranking's lexical
    side; a load that fails before that point ends the wait at once instead of holding the question."""
    code = ("import time\n"
            "from rootfaq.search import encoder\n"
            "assert not encoder.gil_free_load_under_way(timeout=30), 'no load begun: nothing to wait for'\n"
            "encoder.start_loading()\n"
            "started = time.perf_counter()\n"
            "under_way = encoder.gil_free_load_under_way(timeout=30)\n"
            "print(under_way, time.perf_counter() - started < 10)")
    shipped = Path(encoder.__file__).parents[1] / "model_data"
    shutil.copy(shipped / encoder.VOCAB_FILE, tmp_path / encoder.VOCAB_FILE)
    (tmp_path / encoder.MODEL_FILE).write_bytes(b"not a model")
    broken = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "ROOTFAQ_MODEL_DIR": str(tmp_path)})
    assert broken.stdout.split() == ["False", "True"], broken.stderr


def test_without_the_model_search_works_on_words_and_says_so(tmp_path):
    """ROOTFAQ_MODEL_DIR points at a damaged copy: the answer still comes, from BM25F, with one notice."""
    shipped = Path(encoder.__file__).parents[1] / "model_data"
    shutil.copy(shipped / encoder.VOCAB_FILE, tmp_path / encoder.VOCAB_FILE)
    (tmp_path / encoder.MODEL_FILE).write_bytes(b"not a model")
    env = {**os.environ, "ROOTFAQ_MODEL_DIR": str(tmp_path)}
    proc = subprocess.run([str(ROOTFAQ), "ask", "--json", "does field hospitals work against a revolt"],
                          capture_output=True, text=True, env=env, timeout=120)
    answer = json.loads(proc.stdout)
    assert answer["hits"][0]["id"] == "faq-108"
    (notice,) = answer["notices"]
    assert notice.startswith(f"the sentence model file {encoder.MODEL_FILE} is damaged (sha256 ")
    assert notice.endswith("): searching by words only")
    assert "Traceback" not in proc.stderr


def test_where_numpy_cannot_be_imported_an_existing_index_answers_by_words(index):
    """numpy blocked in the process (as where it cannot be installed): the index built before answers
    from BM25F with one notice, no second-stage or vector code needs numpy on the way."""
    answer, stderr = _ask_where_blocked("numpy")
    assert answer["hits"][0]["id"] == "faq-108", stderr
    assert answer["notices"] == ["numpy cannot be imported: searching by words only"]


def test_shipped_vectors_cover_every_record_so_a_build_encodes_nothing(corpus):
    known = dense.shipped_vectors()
    assert known, "record-vectors.npy and .json ship with the package and match the model"
    assert dense.missing_count(corpus.records, known) == 0, "run scripts/encode_corpus.py after a corpus change"


def test_a_changed_record_is_the_only_one_encoded(corpus):
    known = dense.shipped_vectors()
    records = build_corpus(read_corpus_files()).records
    changed = next(r for r in records if r.id == "faq-108")
    changed.text += " (edited)"
    encoded: list[str] = []

    def encode(texts):
        encoded.extend(texts)
        return encoder.sentence_encoder().encode(texts)

    vectors = dense.compute_record_vectors(records, known, encode)
    assert encoded == [dense.embedding_texts(changed)[0][1]], "only the edited record's whole text"
    assert len(vectors.record_ids) == len(vectors.matrix) == sum(
        len(dense.embedding_texts(r)) for r in records if r.is_answer)


def test_the_index_stores_the_vectors_and_serves_them(index):
    vectors = index.vectors
    assert vectors.matrix.shape[1] == encoder.DIMENSIONS
    assert set(vectors.record_ids) == {r.id for r in index.library.records.values() if r.is_answer}
    scores = dense.semantic_scores(index, encoder.sentence_encoder().encode(["Field Hospitals"])[0])
    assert max(scores, key=lambda rid: scores[rid][1]) in {"rule-6.2.3", "faq-107", "faq-108", "faq-109"}


def test_a_question_is_compared_as_its_question_layers_encode_it(index):
    """Ranking and confidence read the question's own vector, nothing moves it after the encoder (a fitted
    adapter did, until the question layers made it a loss: `docs/levers.md`)."""
    import numpy as np

    vector = dense.question_vector("field hospitals")
    encoded = encoder.sentence_encoder().encode_questions(["field hospitals"])[0]
    assert vector.shape == (encoder.DIMENSIONS,) and np.array_equal(vector, encoded)
    scores = dense.semantic_scores(index, vector)
    rows = [i for i, rid in enumerate(index.vectors.record_ids) if rid == "rule-6.2.3"]
    cosines = index.vectors.matrix[rows] @ vector
    assert scores["rule-6.2.3"][1] == pytest.approx(float(cosines.max()), abs=1e-6), "best row of the record"
    assert max(scores, key=lambda rid: scores[rid][1]) in {"rule-6.2.3", "faq-107", "faq-108", "faq-109"}


# --- fitted weights -----------------------------------------------------------------------------------------


def test_the_fitted_weights_load_from_data_and_match_the_code():
    loaded = fitted.fitted_model()
    assert loaded is fitted.fitted_model(), "read and checked once per process"
    for mode in (fitted.HYBRID, fitted.LEXICAL):
        weights = loaded.modes[mode]
        assert len(weights.weights) == len(fitted.FEATURES)
        assert len(weights.confidence) == len(fitted.CONFIDENCE_FEATURES)
        assert 0.0 <= weights.floor <= weights.show_best <= weights.threshold < 1.0
    assert loaded.modes[fitted.HYBRID].weights != loaded.modes[fitted.LEXICAL].weights
    assert "generated" in loaded.fitted_on


def test_weights_for_other_features_are_refused():
    data = json.loads((Path(fitted.__file__).parents[1] / "model_data" / fitted.RANKING_FILE).read_text("utf-8"))
    renamed = {**data, "features": [*data["features"][:-1], "something_else"]}
    with pytest.raises(fitted.RankingDataError, match="other features"):
        fitted.parse_ranking_model(renamed)
    bad_threshold = {**data, "hybrid": {**data["hybrid"], "threshold": 1.5}}
    with pytest.raises(fitted.RankingDataError, match="threshold"):
        fitted.parse_ranking_model(bad_threshold)
    assert issubclass(fitted.RankingDataError, RootfaqError)


def test_the_levels_of_certainty_follow_the_fitted_probability(index):
    """Each level is a band of the calibrated probability, with the fitted levels as its edges."""
    weights = fitted.fitted_model().modes[fitted.HYBRID]
    for probability, level in ((weights.threshold, search.CONFIDENT), (weights.show_best, search.LIKELY),
                               (weights.floor, search.UNSURE), (weights.floor / 2, search.UNANSWERED)):
        assert search.certainty_of(probability, weights) == level
    sure = search.ask(index, "does field hospitals work against a revolt")
    assert sure.confident and sure.certainty == search.CONFIDENT and sure.probability >= weights.threshold


# --- confidence on what the sources do not answer -----------------------------------------------------------


@pytest.mark.parametrize("question", [
    "how do I castle in chess",
    "who won the world cup in 2018",
    "what is the best faction for a brand new player",
    "is there an official app to track victory points",
    "how long does a four player game take",
    "can I trade sheep for ore in catan",
])
def test_questions_the_sources_do_not_answer_are_not_confident(index, question):
    assert not search.ask(index, question).confident


def test_no_hostile_input_is_answered_confidently(index):
    lines = HOSTILE.read_text("utf-8").splitlines()
    assert len(lines) >= 50
    confident = [line for line in lines if search.ask(index, line).confident]
    assert confident == []


# --- word fixes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["blow", "recovered", "working", "dont", "doesnt", "isnt", "cant", "wont",
                                  # forms the English list leaves out, and a word far from every corpus word
                                  "newts", "realised", "colours", "craftable", "codebreakers", "alot"])
def test_english_words_are_not_rewritten(index, word):
    assert reader_of(index).understand(f"does a {word} change anything").corrections == {}


@pytest.mark.parametrize("typo,fixed", [("teh", "the"), ("warirors", "warriors"), ("ambsuh", "ambush"),
                                        ("sawmil", "sawmill"), ("vagabnod", "vagabond")])
def test_real_typos_are_fixed(index, typo, fixed):
    assert reader_of(index).understand(f"{typo} question").corrections == {typo: fixed}


@pytest.mark.parametrize("text", ["../../../../etc/passwd", "C:\\Windows\\hosts", "rm -rf /tmp/wodo",
                                  "x=warirors", "field:hospitls", "123warirors"])
def test_paths_numbers_and_query_syntax_are_never_fixed(index, text):
    assert reader_of(index).understand(text).corrections == {}


def test_the_sentence_encoder_reads_the_fixed_question(index):
    model = reader_of(index)
    understood = model.understand("can I ambsuh with no warirors")
    assert model.corrected("can I ambsuh with no warirors", understood.corrections) == \
        "can I ambush with no warriors"
    answer = search.ask(index, "can I ambsuh with no warirors")
    assert answer.hits[0].record.id == search.ask(index, "can I ambush with no warriors").hits[0].record.id


# --- base game first, factions in posts ---------------------------------------------------------------------


def test_without_a_fan_faction_named_official_rules_come_before_fan_rules(index):
    answer = search.ask(index, "hand limit", limit=5)
    grades = [h.record.grade for h in answer.hits]
    assert grades[0] != "fan-rule" and grades[1] != "fan-rule"
    first_fan = grades.index("fan-rule") if "fan-rule" in grades else len(grades)
    assert all(g != "fan-rule" for g in grades[:first_fan])


def test_naming_the_fan_faction_brings_its_rules_forward(index):
    answer = search.ask(index, "bone patrol hand limit draw and discard", limit=3)
    assert answer.hits[0].record.grade == "fan-rule" and "bone-patrol" in answer.hits[0].record.factions


def test_a_bot_ruling_does_not_outrank_the_base_game_unless_a_bot_is_named(index):
    plain = search.ask(index, "when does the eyrie fall into turmoil", limit=3)
    assert "clockwork" not in plain.hits[0].record.factions
    bot = search.ask(index, "when does the electric eyrie bot fall into turmoil", limit=3)
    assert "clockwork" in bot.hits[0].record.factions


def test_the_faction_a_player_plays_is_read_from_a_post(index):
    model = reader_of(index)
    assert model.understand("I'm on the Eyrie and the cats attacked my roost").playing == "eyrie"
    assert model.understand("Playing as the cats, I built a sawmill").playing == "marquise"
    assert model.understand("the cats attacked my roost").playing is None


def test_a_suit_is_not_a_faction(index):
    model = reader_of(index)
    assert model.understand("can I pay with bird cards").factions == []
    assert model.understand("do the birds score for roosts").factions == ["eyrie"]


# --- a post asking several questions ------------------------------------------------------------------------


POST = ("Vagabond questions from last night. Does the vagabond need a torch to explore a ruin? "
        "And is he allowed to aid a hostile faction?")


def test_each_question_of_a_post_is_answered(index):
    answer = search.ask(index, POST)
    assert [p.query for p in answer.parts] == [
        "Vagabond questions from last night. Does the vagabond need a torch to explore a ruin?",  # its lead-in
        "And is he allowed to aid a hostile faction?"]
    # The post's answer holds each question's best among its first three (which they are:
    # tests/test_ranking_regression.py), and is confident when the whole post's answer is or every one's is.
    assert {p.hits[0].record.id for p in answer.parts} <= {h.record.id for h in answer.hits[:3]}
    whole = search._answer_words(index, POST, None, 5)
    assert answer.confident == (whole.confident or all(p.confident for p in answer.parts))


def test_the_json_answer_carries_the_parts(index):
    from rootfaq.views.contract import answer_json

    data = answer_json(search.ask(index, POST))
    assert [p["query"] for p in data["parts"]] == [p.query for p in search.ask(index, POST).parts]
    assert len(data["parts"]) == 2
    assert all({"confident", "probability", "hits"} <= set(p) for p in data["parts"])
    assert json.loads(json.dumps(data)) == data


def test_query_understanding_knows_nothing_of_ranking():
    """query.py reads the question; the weights and features live in ranking.py and model.py only."""
    import ast

    tree = ast.parse(Path(query.__file__).read_text("utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"ranking", "model", "confidence"}, imported
    assert not {"rank", "features", "evidence"} & set(dir(query))


THREAD_PROBE = """
import os
import numpy  # imported first, before rootfaq, with no thread variable set
from threadpoolctl import threadpool_info
from rootfaq.search import encoder

def blas_threads():
    return max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")

before = blas_threads()
seen = []
forward = encoder.Encoder._forward
def probe(self, batch, layers):
    seen.append(blas_threads())
    return forward(self, batch, layers)
encoder.Encoder._forward = probe
encoder.sentence_encoder().encode(["can I ambush with no warriors"])
print(before, seen[0], blas_threads(), os.environ.get("OPENBLAS_NUM_THREADS"))
"""


def test_the_forward_pass_runs_one_blas_thread_even_when_numpy_came_first():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", THREAD_PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    before, inside, after, variable = out.stdout.split()
    assert inside == "1", "the forward pass ran with more than one BLAS thread"
    assert after == before, "the caller's own thread count is given back after the pass"
    assert variable == "None", "importing rootfaq must not change the process environment"


BUSY_PROBE = """
import os, time
import numpy  # imported first, with no thread variable set
from rootfaq.search import answers, store

index = store.open_index()
questions = ["can I ambush with no warriors", "cats keep destroyed", "vagabond hostile", "eyrie turmoil points",
             "what is the hand limit", "does a ruin count for rule"] * 5
answers.ask(index, questions[0])
cpu, wall = sum(os.times()[:2]), time.perf_counter()
for question in questions:
    answers.ask(index, question)
print(round((sum(os.times()[:2]) - cpu) / (time.perf_counter() - wall), 2), os.cpu_count())
"""


def test_questions_in_a_row_leave_no_thread_spinning():
    """Search holds BLAS to one thread around the record vectors' product too: a two-thread product left
    OpenBLAS's second thread spinning on the other core between questions (measured: twice the CPU time of
    the wall time, on a two-core machine where phones share a `serve`). onnxruntime's second thread works
    only inside a question's layers (1.15-1.25 here)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", BUSY_PROBE], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    ratio, cores = out.stdout.split()
    assert float(ratio) < 1.5, f"{ratio} cores busy while answering one question at a time ({cores} cores)"


def test_the_shipped_layers_are_onnxruntimes_optimised_graph_already():
    """scripts/export_onnx.py ships the graph as onnxruntime optimises it, and a question's session loads it
    with no optimiser pass (half the session's start): running the optimiser again changes no output."""
    import numpy as np
    import onnxruntime

    model = (Path(encoder.__file__).parents[1] / "model_data" / encoder.LAYERS_FILE).read_bytes()
    as_shipped = encoder.question_layers(model)
    assert as_shipped.get_session_options().graph_optimization_level == \
        onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    optimised_again = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(7)
    for length in (3, 40, 256):
        feed = {"x": rng.standard_normal((1, length, encoder.DIMENSIONS), dtype=np.float32),
                "key_mask": np.zeros((1, 1, 1, length), dtype=np.float32)}
        assert np.array_equal(as_shipped.run(None, feed)[0], optimised_again.run(None, feed)[0]), length
