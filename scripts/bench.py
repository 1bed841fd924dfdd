#!/usr/bin/env python3
"""Benchmark retrieval quality and latency (a script, not a test).

usage: python scripts/bench.py [SET.yaml ...] [--misses] [--no-latency]
       python scripts/bench.py --table RUN   (README's summary table of a saved run, e.g. docs/benchmark.md)

Quality: each eval set (default: ../shared/eval/dev.yaml and table-dev.yaml; skipped cleanly when absent,
as on a user's clone) is scored with the judging's own rule for a right answer (score.py beside the set):
top-1, top-3 and MRR per kind or style, for rootfaq as shipped (both retrievers, fitted ranking), rootfaq
on words only (as when the sentence model cannot load), the semantic retriever alone, reciprocal-rank fusion
of the two retrievers without fitted weights (section look-ups not included), and a plain BM25 baseline, all
over the same records in the same process; then the calibration line (confident answers and
how many are right). It also checks that no eval question appears in the curated YAML or training data.
Latency: warm question median and p95 in process (the as-shipped pass asked twice more: each pass's median,
and each question's fastest pass, overall and by set), the first index build in a fresh folder (shipped
vectors), what an edited record costs (only its texts are encoded), and a cold `rootfaq ask --json`
against `python -c pass` by the same interpreter, medians of 11 runs; run from an editable install, the same
again for a plain install of the checkout in a throwaway environment, which is what a user's `pip install .`
gives (the editable finder slows every start of its environment, `python -c pass` too).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
DEFAULT_SETS = [EVAL / "dev.yaml", EVAL / "table-dev.yaml", EVAL / "long-dev.yaml"]
# Blind questions of our own, never fitted or indexed, scored beside the eval sets (their header says more).
CHECK_SETS = sorted((ROOT / "checks").glob("*.yaml"))
CURATED = [ROOT / "corpus" / "faq-questions.yaml", ROOT / "corpus" / "rule-phrasings.yaml",
           ROOT / "corpus" / "asked-questions.yaml"]
TRAINING = [ROOT / "training" / "player-questions.yaml", ROOT / "training" / "negatives.yaml",
            *sorted((ROOT / "training").glob("*long-posts-*.yaml")),
            *sorted((ROOT / "training").glob("blind-questions-*.yaml"))]
OVERLAP_LIMIT = 85  # rapidfuzz ratio of normalised text at which a curated line repeats an eval question
CONTAINED_LIMIT = 95  # rapidfuzz partial_ratio at which a longer curated line holds an eval question
# This machine's speed wanders by a third from hour to hour and a warm median with it: the as-shipped pass is
# asked this many more times, and each question's fastest pass shows what the code costs when nothing slows it.
REPEATED_PASSES = 2


def scorer_of(eval_set: Path) -> Path:
    """The judging's scorer for a set: score.py beside it, or the eval sets' for a check set of ours."""
    beside = eval_set.parent / "score.py"
    return beside if beside.is_file() else EVAL / "score.py"


def load_scorer(eval_set: Path):
    """The judging's scorer (scorer_of), so a right answer means the same thing here."""
    spec = importlib.util.spec_from_file_location("score", scorer_of(eval_set))
    scorer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scorer)
    return scorer


def group_of(item: dict) -> str:
    return item.get("kind") or item.get("style") or "answerable"


def answerable(item: dict) -> bool:
    return item.get("answerable", True)


def summarise(name: str, items: list[dict], ranks: list[int | None]) -> dict:
    """Top-1 (law items count at top-3 only, as the judging does), top-3 and MRR per group and overall."""
    groups: dict[str, list[int | None]] = {}
    for item, rank in zip(items, ranks, strict=True):
        if answerable(item):
            groups.setdefault(group_of(item), []).append(rank)
    print(f"  {name}")
    for group, values in sorted(groups.items()):
        top1 = "  -  " if group == "law" else f"{sum(r == 0 for r in values) / len(values):5.0%}"
        top3 = sum(r is not None and r < 3 for r in values) / len(values)
        mrr = sum(1 / (r + 1) for r in values if r is not None) / len(values)
        print(f"    {group:8s} n={len(values):3d} top1={top1} top3={top3:4.0%} MRR={mrr:.3f}")
    ranked = [r for item, r in zip(items, ranks, strict=True) if answerable(item) and item.get("kind") != "law"]
    every = [r for item, r in zip(items, ranks, strict=True) if answerable(item)]
    figures = {"top1": sum(r == 0 for r in ranked) / max(1, len(ranked)),
               "top3": sum(r is not None and r < 3 for r in every) / max(1, len(every)),
               "mrr": sum(1 / (r + 1) for r in every if r is not None) / max(1, len(every))}
    print(f"    overall  top1={figures['top1']:.1%} top3={figures['top3']:.1%} MRR={figures['mrr']:.3f}")
    return figures


def calibration(items: list[dict], answers: list, ranks: list[int | None]) -> str:
    """The judging's calibration line: confident answers, how many are right, unanswerable ones answered."""
    sure = [a.confident for a in answers]
    right = [s and r == 0 for s, r in zip(sure, ranks, strict=True)]
    unanswerable = [not answerable(i) for i in items]
    confident_right = sum(r for r, u in zip(right, unanswerable, strict=True) if not u)
    precision = confident_right / max(1, sum(sure))
    return (f"  calibration: {sum(sure)} confident answers, {confident_right} right (precision {precision:.0%}); "
            f"{confident_right}/{sum(not u for u in unanswerable)} answerable right and confident; "
            f"{sum(s and u for s, u in zip(sure, unanswerable, strict=True))}/{sum(unanswerable)} "
            f"unanswerable answered confidently")


SHIPPED = "rootfaq (both retrievers"  # the names quality() gives rootfaq as shipped and the baseline, which
BASELINE = "plain BM25 baseline"  # summary_table() looks for
_SET_HEADING = re.compile(r"^([\w.-]+\.yaml): (\d+) questions$", re.M)
_OVERALL = re.compile(r"overall  top1=([\d.]+)% top3=([\d.]+)%")
_CALIBRATION = re.compile(r"calibration: (\d+) confident answers, (\d+) right \(precision \d+%\); (\d+)/(\d+) "
                          r"answerable right and confident; (\d+)/(\d+) unanswerable")
_NEXT_FIGURES = re.compile(r"\n  (?!calibration:|per question of a post:)\S")
_PARTS = re.compile(r"per question of a post: n=(\d+) top1=([\d.]+)% top3=([\d.]+)%")


def summary_table(run: str) -> str:
    """README's table of a run's output (what summarise, calibration and part_figures printed): per set,
    rootfaq as shipped beside the plain BM25 baseline. ValueError when the run holds no set, or a set
    without those figures."""
    rows = []
    headings = list(_SET_HEADING.finditer(run))
    for heading, following in zip(headings, [*headings[1:], None], strict=True):
        text = run[heading.end(): following.start() if following else len(run)]
        shipped = text[text.find(SHIPPED):]
        end = _NEXT_FIGURES.search(shipped)  # the next alternative's name
        shipped = shipped[: end.start() if end else len(shipped)]
        ours, calibrated = _OVERALL.search(shipped), _CALIBRATION.search(shipped)
        baseline = _OVERALL.search(text[text.find(BASELINE):])
        if SHIPPED not in text or BASELINE not in text or not (ours and calibrated and baseline):
            raise ValueError(f"{heading[1]}: no figures for rootfaq as shipped and the baseline")
        confident, right, sure_right, answerable_count, unanswerable_sure, unanswerable_count = calibrated.groups()
        parts = _PARTS.search(shipped)
        rows.append(f"| `{heading[1]}` | {heading[2]} | {ours[1]} / {ours[2]} | "
                    + (f"{parts[2]} / {parts[3]} ({parts[1]})" if parts else "-")
                    + f" | {right} of {confident} | {sure_right} of {answerable_count} | "
                    f"{unanswerable_sure} of {unanswerable_count} | {baseline[1]} / {baseline[2]} |")
    if not rows:
        raise ValueError("no set's figures in the run")
    return "\n".join([
        "| set | items | top-1 / top-3 (%) | each question of a post (%, n) | confident answers right "
        "| answerable right and confident | unanswerable answered confidently | plain BM25 top-1 / top-3 (%) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |", *rows])


def rank_of(scorer, item: dict, records: list) -> int | None:
    """Position of the first right record (None when none of the first ten is), as the judging decides."""
    if not answerable(item):
        return None
    from rootfaq.views.contract import record_json

    return next((i for i, r in enumerate(records[:10]) if scorer.right(item, record_json(r))), None)


def baseline_ranker(records: list):
    """Plain BM25: whoosh's default analyzer and query parser over the record text, OR of the words."""
    from whoosh import qparser
    from whoosh.fields import ID, TEXT, Schema
    from whoosh.filedb.filestore import RamStorage

    ix = RamStorage().create_index(Schema(id=ID(stored=True), text=TEXT()))
    writer = ix.writer()
    for record in records:
        if record.is_answer:
            writer.add_document(id=record.id, text=record.text)
    writer.commit()
    parser = qparser.QueryParser("text", ix.schema, group=qparser.OrGroup)
    searcher = ix.searcher()
    by_id = {r.id: r for r in records}

    def rank(query: str) -> list:
        cleaned = re.sub(r"[^\w\s]", " ", query)
        return [by_id[h["id"]] for h in searcher.search(parser.parse(cleaned), limit=10)]

    return rank


def semantic_ranker(index):
    """The semantic retriever alone: records by their best heading cosine, one per family."""
    from rootfaq.search import dense, ranking

    def rank(query: str) -> list:
        scores = dense.semantic_scores(index, dense.question_vector(query))  # as the product encodes it
        ordered = sorted(scores, key=lambda rid: -scores[rid][1])[:30]
        hits = [ranking.ScoredHit(index.library.records[rid], scores[rid][1]) for rid in ordered]
        return [h.record for h in ranking.collapse_family(hits)]

    return rank


def fusion_ranker(index):
    """Reciprocal-rank fusion of the two retrievers (k = 60), the unfitted alternative to rootfaq's score."""
    from rootfaq.search import dense, ranking
    from rootfaq.search.posts import printable
    from rootfaq.search.query import reader_of

    model = reader_of(index)

    def rank(query: str) -> list:
        understood = model.understand(printable(query))
        vector = dense.question_vector(model.encoder_text(understood))
        found = ranking.candidates(index, understood, None, vector)
        fused = {rid: sum(1 / (60 + r) for r in (e.lexical_rank, e.semantic_rank) if r is not None)
                 for rid, e in found.items()}
        records = index.library.records
        hits = [ranking.ScoredHit(records[rid], fused[rid]) for rid in sorted(fused, key=lambda r: -fused[r])]
        return [h.record for h in ranking.collapse_family(hits)]

    return rank


def whole_post(index, question: str):
    """rootfaq as it read posts before questions were found in them: the whole text as one question (then
    also cut to 300 characters; here read whole)."""
    from rootfaq.search import answers as search
    from rootfaq.search.posts import printable

    return search._answer_words(index, printable(question), None, 10)


def part_figures(scorer, items: list[dict], answers: list) -> str:
    """score.py's "per question of a post" line: each labelled question judged on the answer to it."""
    from rootfaq.views.contract import answer_json

    ranks = [r for item, a in zip(items, answers, strict=True) for r in scorer.score_parts(item, answer_json(a))]
    if not ranks:
        return ""
    top1 = sum(r == 0 for r in ranks) / len(ranks)
    top3 = sum(r is not None and r < 3 for r in ranks) / len(ranks)
    return f"  per question of a post: n={len(ranks)} top1={top1:.1%} top3={top3:.1%}"


def words_only(index, question: str):
    """rootfaq's answer as when the sentence model cannot be loaded."""
    from rootfaq.search import answers as search
    from rootfaq.search.encoder import ModelUnavailable

    def switched_off(text):
        raise ModelUnavailable("benchmark: sentence model switched off")

    loaded, search.question_vector = search.question_vector, switched_off
    try:
        return search.ask(index, question, limit=10)
    finally:
        search.question_vector = loaded


def numpy_pass(index, question: str):
    """rootfaq's answer with the question encoded by the float32 numpy pass over the question layers (as
    without onnxruntime). The process's encoder loaded onnxruntime's layers, so it never read the question
    layers' differences the numpy pass runs on: they are read here (without them it would run the records'
    layers, untuned)."""
    from rootfaq.search import answers as search
    from rootfaq.search.encoder import sentence_encoder

    model = sentence_encoder()
    saved = model.question_layers, model.question_differences
    model.question_layers, model.question_differences = None, _numpy_question_differences()
    try:
        return search.ask(index, question, limit=10)
    finally:
        model.question_layers, model.question_differences = saved


@functools.cache
def _numpy_question_differences() -> dict:
    from rootfaq.search.encoder import load_encoder

    return load_encoder(questions="numpy").question_differences


def overlap_report(items: list[dict]) -> list[str]:
    """Eval questions that the curated YAML (or the training data) repeats, nearly or exactly."""
    from rapidfuzz import fuzz, process

    def norm(text: str) -> str:
        return " ".join(re.findall(r"[a-z0-9']+", text.lower()))

    def lines_of(path: Path) -> list[str]:
        """Every string the file holds, however it is quoted (the posts are `|-` blocks)."""
        found, pending = [], [yaml.safe_load(path.read_text("utf-8"))]
        while pending:
            value = pending.pop()
            if isinstance(value, str):
                found.append(value)
            elif isinstance(value, dict):
                pending += [*value.keys(), *value.values()]
            elif isinstance(value, list):
                pending += value
        return found

    problems = []
    for label, paths, limit in (("curated", CURATED, OVERLAP_LIMIT), ("training", TRAINING, 90)):
        texts = [norm(t) for p in paths if p.exists() for t in lines_of(p)]
        for item in items:
            question = norm(item["q"])
            match = process.extractOne(question, texts, scorer=fuzz.ratio, score_cutoff=limit)
            # A longer curated text that holds the eval question nearly word for word repeats it too.
            longer = [t for t in texts if len(t) > len(question)]  # partial_ratio aligns the shorter string
            inside = len(question.split()) >= 6 and process.extractOne(
                question, longer, scorer=fuzz.partial_ratio, score_cutoff=CONTAINED_LIMIT)
            if match or inside:
                found = match or inside
                problems.append(f"  {label} data repeats an eval question ({found[1]:.0f}): {item['q']!r}")
    return problems


def first_stage_only(index, question: str):
    """rootfaq's answer with the second stage off: the fitted linear score's order, its own confidence."""
    import dataclasses

    from rootfaq.search import answers as search
    from rootfaq.search import model

    fitted = model.fitted_model()
    plain = dataclasses.replace(fitted, modes={k: dataclasses.replace(w, second_stage=None)
                                               for k, w in fitted.modes.items()})
    loaded, model.fitted_model = model.fitted_model, lambda: plain
    try:
        return search.ask(index, question, limit=10)
    finally:
        model.fitted_model = loaded


def without_vote(index, question: str, weights: tuple[str, ...] = ("NEIGHBOUR_WEIGHT", "WORD_NEIGHBOUR_WEIGHT")):
    """rootfaq's answer with the nearest headings' votes named in `weights` off (both: the fitted score's order)."""
    from rootfaq.search import answers as search
    from rootfaq.search import ranking

    kept = {name: getattr(ranking, name) for name in weights}
    for name in weights:
        setattr(ranking, name, 0.0)
    try:
        return search.ask(index, question, limit=10)
    finally:
        for name, weight in kept.items():
            setattr(ranking, name, weight)


def alternative_figures(name: str, scorer, items: list[dict], answers: list) -> None:
    """Print an alternative's figures beside the product's: top-1 and top-3, calibration, per question of a post."""
    ranks = [rank_of(scorer, i, [h.record for h in a.hits]) for i, a in zip(items, answers, strict=True)]
    summarise(name, items, ranks)
    print(calibration(items, answers, ranks))
    parts_line = part_figures(scorer, items, answers)
    if parts_line:
        print(parts_line)


def quality(sets: list[Path], show_misses: bool, repeated_passes: int = 0) -> dict:
    """Each set's figures, printed; the latencies measured on the way, and `repeated_passes` more as-shipped
    passes over all the questions (for `repeated_figures`)."""
    from rootfaq.search import answers as search
    from rootfaq.search import model, store

    index = store.open_index()
    baseline = baseline_ranker(list(index.library.records.values()))
    semantic = semantic_ranker(index)
    fusion = fusion_ranker(index)
    latencies: list[float] = []
    first_latencies: list[float] = []
    numpy_latencies: list[float] = []
    by_set: dict[str, list[float]] = {}  # the as-shipped latencies of each set: sets of other lengths move the median
    asked: list[tuple[str, str]] = []  # (set, question) in the order the as-shipped pass asked them
    staged = any(w.second_stage is not None for w in model.fitted_model().modes.values())
    for eval_set in sets:
        scorer = load_scorer(eval_set)
        items = yaml.safe_load(eval_set.read_text("utf-8"))
        for item in items:
            item["q"] = " ".join(item["q"].split())  # as score.py sends them
        print(f"\n{eval_set.name}: {len(items)} questions")
        answers = []
        for item in items:
            started = time.perf_counter()
            answers.append(search.ask(index, item["q"], limit=10))
            latencies.append((time.perf_counter() - started) * 1000)
        by_set[eval_set.name] = latencies[-len(items):]
        asked += [(eval_set.name, item["q"]) for item in items]
        ours = [rank_of(scorer, i, [h.record for h in a.hits]) for i, a in zip(items, answers, strict=True)]
        mine = summarise(SHIPPED + ", fitted ranking" + (", second stage)" if staged else ")"),
                         items, ours)
        print(calibration(items, answers, ours))
        parts_line = part_figures(scorer, items, answers)
        if parts_line:
            print(parts_line)
        first = []
        for item in items if staged else []:
            started = time.perf_counter()
            first.append(first_stage_only(index, item["q"]))
            first_latencies.append((time.perf_counter() - started) * 1000)
        if staged:
            alternative_figures("rootfaq, first stage alone (the fitted linear score, second stage off)", scorer,
                                items, first)
        alternative_figures("rootfaq without the vote by words (the vote by meaning only)", scorer, items,
                            [without_vote(index, i["q"], ("WORD_NEIGHBOUR_WEIGHT",)) for i in items])
        alternative_figures("rootfaq without the nearest headings' votes (the fitted score's order)", scorer, items,
                            [without_vote(index, i["q"]) for i in items])
        if any(len(i["q"]) > 300 or i.get("parts") for i in items):
            whole = [whole_post(index, i["q"]) for i in items]
            ranks = [rank_of(scorer, i, [h.record for h in a.hits]) for i, a in zip(items, whole, strict=True)]
            summarise("rootfaq reading the whole post as one question (no questions found)", items, ranks)
            print(calibration(items, whole, ranks))
        by_numpy = []
        for item in items:
            started = time.perf_counter()
            by_numpy.append(numpy_pass(index, item["q"]))
            numpy_latencies.append((time.perf_counter() - started) * 1000)
        numpy_ranks = [rank_of(scorer, i, [h.record for h in a.hits]) for i, a in zip(items, by_numpy, strict=True)]
        summarise("rootfaq with questions encoded by the numpy float32 pass (no onnxruntime)", items, numpy_ranks)
        print(calibration(items, by_numpy, numpy_ranks))
        lexical = [words_only(index, i["q"]) for i in items]
        summarise("rootfaq on words only (sentence model off)", items,
                  [rank_of(scorer, i, [h.record for h in a.hits]) for i, a in zip(items, lexical, strict=True)])
        print(calibration(items, lexical, [rank_of(scorer, i, [h.record for h in a.hits])
                                           for i, a in zip(items, lexical, strict=True)]))
        summarise("semantic retriever alone", items, [rank_of(scorer, i, semantic(i["q"])) for i in items])
        summarise("reciprocal-rank fusion of the two (k=60), no fitted weights", items,
                  [rank_of(scorer, i, fusion(i["q"])) for i in items])
        base = summarise(BASELINE + " (whoosh, record text only)", items,
                         [rank_of(scorer, i, baseline(i["q"])) for i in items])
        print(f"  gain over the baseline: top1 x{mine['top1'] / max(base['top1'], 1e-9):.2f}, "
              f"top3 x{mine['top3'] / max(base['top3'], 1e-9):.2f}")
        problems = overlap_report(items)
        print("\n".join(problems) if problems else "  no eval question repeated in the curated YAML or training data")
        if show_misses:
            for item, answer, rank in zip(items, answers, ours, strict=True):
                if answerable(item) and rank != 0:
                    print(f"  MISS [{group_of(item)}] rank={rank} {item['q'][:100]!r} -> "
                          f"{[h.record.id for h in answer.hits[:3]]}")
    passes = [list(latencies)]
    for _ in range(repeated_passes):
        passes.append([])
        for _, question in asked:
            started = time.perf_counter()
            search.ask(index, question, limit=10)
            passes[-1].append((time.perf_counter() - started) * 1000)
    return {"latencies": latencies, "first_latencies": first_latencies, "numpy_latencies": numpy_latencies,
            "by_set": by_set, "repeated": (asked, passes)}


def p95(values: list[float]) -> float:
    """The value 95% of the way up the sorted values (the lower one where it falls between two)."""
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def repeated_figures(asked: list[tuple[str, str]], passes: list[list[float]]) -> list[str]:
    """The as-shipped warm pass repeated: each pass's median, then each question's fastest pass (what this machine
    gives when nothing else slows it), its median and p95, over all questions and by set."""
    fastest = [min(times) for times in zip(*passes, strict=True)]
    by_set: dict[str, list[float]] = {}
    for (name, _), value in zip(asked, fastest, strict=True):
        by_set.setdefault(name, []).append(value)
    return [f"warm question as shipped, the same {len(asked)} questions asked {len(passes)} times in one process: "
            "each pass's median " + ", ".join(f"{statistics.median(p):.1f}" for p in passes) + " ms; each question's "
            f"fastest pass: median {statistics.median(fastest):.1f} ms, p95 {p95(fastest):.1f} ms",
            "warm question as shipped, each question's fastest pass, median by set: "
            + ", ".join(f"{name} {statistics.median(values):.1f} ms" for name, values in by_set.items())]


def latency(latencies: list[float], first_latencies: list[float], numpy_latencies: list[float],
            by_set: dict[str, list[float]], repeated: tuple[list[tuple[str, str]], list[list[float]]]) -> None:
    from rootfaq.search.encoder import sentence_encoder

    timed = [("first stage alone (both retrievers and the fitted score)", first_latencies),
             ("both stages (as shipped)", latencies)] if first_latencies else \
        [("as shipped: both retrievers and the fitted score (ranking.json holds no second stage), questions "
          f"by {sentence_encoder().question_pass}", latencies)]
    timed.append(("the same, questions by the numpy float32 pass (no onnxruntime)", numpy_latencies))
    for name, values in timed:
        print(f"\nwarm question, {name}: median {statistics.median(values):.1f} ms, "
              f"p95 {p95(values):.1f} ms over {len(values)} questions (in process)")
    print("warm question as shipped, median by set: "
          + ", ".join(f"{name} {statistics.median(values):.1f} ms" for name, values in by_set.items() if values))
    print("\n".join(repeated_figures(*repeated)))
    rootfaq = Path(sys.executable).parent / "rootfaq"
    if not rootfaq.exists():
        print("cold start and first build: rootfaq is not installed in this environment; skipped")
        return
    with tempfile.TemporaryDirectory() as fresh:
        started = time.perf_counter()
        subprocess.run([str(rootfaq), "index"], capture_output=True, check=False,
                       env={**os.environ, "ROOTFAQ_INDEX_DIR": fresh})
        print(f"first index build (fresh folder, shipped vectors, a new process): "
              f"{time.perf_counter() - started:.2f} s")
    print(edited_record_cost())
    print(cold_start(rootfaq))
    if editable_install():
        with tempfile.TemporaryDirectory() as work:
            plain = plain_install(Path(work))
            print(cold_start(plain, "a plain install of this checkout (what `pip install .` gives a user)")
                  if plain else "cold start, plain install: the wheel could not be built here; skipped")


def editable_install() -> bool:
    """rootfaq is installed editable in this environment (`pip install -e`): then every interpreter of it,
    `python -c pass` included, imports setuptools' editable-install finder (pathlib, re, urllib: about 12 ms),
    which flatters the cold start's ratio to it. Read from this environment's own site-packages (a checkout's
    rootfaq.egg-info would answer for it otherwise)."""
    import sysconfig
    from importlib import metadata

    found = metadata.distributions(name="rootfaq", path=[sysconfig.get_paths()["purelib"]])
    return any('"editable": true' in (dist.read_text("direct_url.json") or "") for dist in found)


def plain_install(work: Path) -> Path | None:
    """The `rootfaq` script of a plain (not editable) install of this checkout in a throwaway environment
    that reads its dependencies from this one (a path line in a .pth file, which imports nothing), or None
    when the wheel cannot be built offline."""
    import shutil
    import sysconfig

    source, venv, wheels = work / "source", work / "venv", work / "wheel"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):  # built from a copy: a build writes build/ beside its source
        shutil.copy2(ROOT / name, source / name)
    for name in ("rootfaq", "corpus"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    steps = [[sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels),
              str(source)],
             [sys.executable, "-m", "venv", "--without-pip", str(venv)]]
    for step in steps:
        if subprocess.run(step, capture_output=True, check=False).returncode:
            return None
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
               *map(str, wheels.glob("*.whl"))]
    if subprocess.run(install, capture_output=True, check=False).returncode:
        return None
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=False).stdout.strip()
    Path(purelib, "rootfaq-bench-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin" / "rootfaq"


def edited_record_cost() -> str:
    """What a corpus edit costs a build: only the edited record's texts are encoded."""
    from rootfaq.corpus.build import build_corpus
    from rootfaq.corpus.files import read_corpus_files
    from rootfaq.search import dense, encoder

    records = build_corpus(read_corpus_files()).records
    edited = next(r for r in records if r.id == "faq-108")
    edited.text += " (edited)"
    encoded: list[str] = []

    def encode(texts):
        encoded.extend(texts)
        return encoder.sentence_encoder().encode(texts)

    started = time.perf_counter()
    dense.compute_record_vectors(records, dense.shipped_vectors(), encode)
    return (f"vectors after editing one record: {len(encoded)} text(s) encoded, "
            f"{time.perf_counter() - started:.2f} s")


def cold_start(rootfaq: Path, where: str = "", runs: int = 11) -> str:
    """Median wall time of a cold `rootfaq ask --json` and of `python -c pass` by the same environment's
    interpreter, interleaved, run outside the checkout (so its package is the one installed). The package's
    bytecode is compiled first, as `pip install` does (a checkout under PYTHONDONTWRITEBYTECODE would
    otherwise compile every module on every run: about 25 ms)."""
    import compileall

    import rootfaq as package

    compileall.compile_dir(Path(package.__file__).parent, quiet=1)
    python = rootfaq.parent / "python"
    outside = tempfile.gettempdir()
    subprocess.run([str(rootfaq), "index"], capture_output=True, check=False, cwd=outside)
    question = [str(rootfaq), "ask", "--json", "can I ambush if I have no warriors there?"]
    first = subprocess.run(question, capture_output=True, text=True, check=False, cwd=outside)
    if first.returncode not in (0, 1) or '"hits": [{' not in first.stdout:  # a quick failure is no cold start
        return f"cold start, {where or 'this environment'}: the question was not answered (exit {first.returncode})"
    bare, ask = [], []
    for _ in range(runs):
        for samples, cmd in ((bare, [str(python), "-c", "pass"]),
                             (ask, question)):
            started = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=False, cwd=outside)
            samples.append(time.perf_counter() - started)
    b, a = statistics.median(bare) * 1000, statistics.median(ask) * 1000
    kind = where or ("this environment, an editable install" if editable_install() else "this environment")
    return (f"cold start, {kind}: rootfaq ask --json {a:.0f} ms vs python -c pass {b:.0f} ms (x{a / b:.1f}), "
            f"medians of {runs}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--misses", action="store_true", help="list the answerable questions not answered first")
    parser.add_argument("--no-latency", action="store_true", help="quality only")
    parser.add_argument("--table", type=Path, metavar="RUN", help="print README's summary table of a saved run")
    args = parser.parse_args()
    if args.table:
        try:
            print(summary_table(args.table.read_text("utf-8")))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            print(f"cannot read a run's figures from {args.table}: {error}", file=sys.stderr)
            return 2
        return 0
    sets = [s for s in (args.sets or DEFAULT_SETS + CHECK_SETS) if s.is_file() and scorer_of(s).is_file()]
    if not sets:
        print("no eval set or scorer found (looked in ../shared/eval); nothing to benchmark")
        return 0
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as index_dir:
        os.environ["ROOTFAQ_INDEX_DIR"] = index_dir
        measured = quality(sets, args.misses, 0 if args.no_latency else REPEATED_PASSES)
    if not args.no_latency:
        latency(measured["latencies"], measured["first_latencies"], measured["numpy_latencies"], measured["by_set"],
                measured["repeated"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
