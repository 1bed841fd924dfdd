#!/usr/bin/env python3
"""Benchmark retrieval quality and latency (a script, not a test).

usage: python scripts/bench.py [EVAL.yaml ...] [--no-question-field] [--misses]

Quality: for every item of an eval set in the format of shared/eval/dev.yaml, ranks the records with
rootfaq's search and with a plain BM25 baseline (whoosh, one text field, no query understanding) over the
same records in the same process, then prints top-1, top-3 and MRR per kind. Law items count at top-3
only, as in the shared scoring convention. Latency: warm query median and p95 in process, the first
index build, and a cold `rootfaq ask --json` against a bare `python -c pass`.
Skips cleanly (exit 0) when no eval file exists, as on a user's clone.
"""

from __future__ import annotations

import argparse
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
DEFAULT_EVAL = ROOT.parent / "shared" / "eval" / "dev.yaml"


def base_section(section: str | None) -> str:
    if not section:
        return ""
    m = re.match(r"^([A-Za-z]{0,3}\.?\d+(?:\.\d+)*)", section.strip().rstrip("."))
    return (m.group(1) if m else section).upper()


def is_hit(item: dict, record) -> bool:
    kind = item.get("kind", "faq")
    if kind == "faq":
        prefixes = [item["expect"], *item.get("also", [])]
        return record.source == "faq" and any(record.text.startswith(x) for x in prefixes)
    if kind == "law":
        return record.source == "law" and item["expect_text"] in record.text
    want = {s.upper() for s in [item["expect_section"], *item.get("also_sections", [])]}
    return record.source in ("outsiders", "law") and base_section(record.section) in want


def rank_of(item: dict, records: list) -> int | None:
    return next((i for i, r in enumerate(records) if is_hit(item, r)), None)


def summarise(name: str, items: list[dict], ranks: list[int | None]) -> dict:
    by_kind: dict[str, list[int | None]] = {}
    for item, rank in zip(items, ranks, strict=True):
        by_kind.setdefault(item.get("kind", "faq"), []).append(rank)
    print(f"\n{name}")
    print(f"  {'kind':8s} {'n':>4s} {'top1':>6s} {'top3':>6s} {'MRR':>6s}")
    for kind, values in sorted(by_kind.items()):
        top1 = sum(r == 0 for r in values) / len(values)
        top3 = sum(r is not None and r < 3 for r in values) / len(values)
        mrr = sum(1 / (r + 1) for r in values if r is not None) / len(values)
        shown_top1 = "  -   " if kind == "law" else f"{top1:6.1%}"
        print(f"  {kind:8s} {len(values):4d} {shown_top1} {top3:6.1%} {mrr:6.3f}")
    ranked = [r for item, r in zip(items, ranks, strict=True) if item.get("kind") != "law"]
    top1 = sum(r == 0 for r in ranked) / max(1, len(ranked))
    top3 = sum(r is not None and r < 3 for r in ranks) / max(1, len(ranks))
    mrr = sum(1 / (r + 1) for r in ranks if r is not None) / max(1, len(ranks))
    print(f"  overall: top1={top1:.1%} (faq+rule+section) top3={top3:.1%} (all) MRR={mrr:.3f}")
    return {"top1": top1, "top3": top3, "mrr": mrr}


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
        results = searcher.search(parser.parse(cleaned), limit=10)
        return [by_id[h["id"]] for h in results]

    return rank


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--no-question-field", action="store_true", help="index without reconstructed questions")
    parser.add_argument("--misses", action="store_true", help="list the items rootfaq does not rank first")
    args = parser.parse_args()
    sets = args.sets or [DEFAULT_EVAL]
    sets = [s for s in sets if s.is_file()]
    if not sets:
        print("no eval set found (looked for shared/eval/dev.yaml); nothing to benchmark")
        return 0
    items = [item for s in sets for item in yaml.safe_load(s.read_text("utf-8"))]

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ROOTFAQ_INDEX_DIR"] = tmp
        from rootfaq import corpus as corpus_mod
        from rootfaq import search

        if args.no_question_field:
            original = corpus_mod.attach_questions
            corpus_mod.attach_questions = lambda faq, questions: original(faq, [])
        started = time.perf_counter()
        index = search.open_index()
        build_seconds = time.perf_counter() - started

        ranks, latencies = [], []
        for item in items:
            started = time.perf_counter()
            answer = search.ask(index, item["q"], limit=10)
            latencies.append((time.perf_counter() - started) * 1000)
            ranks.append(rank_of(item, [h.record for h in answer.hits]))
        label = "rootfaq" + (" (without the question field)" if args.no_question_field else "")
        ours = summarise(f"{label}: {len(items)} items from {', '.join(str(s) for s in sets)}", items, ranks)

        baseline = baseline_ranker(list(index.records.values()))
        base_ranks = [rank_of(item, baseline(item["q"])) for item in items]
        theirs = summarise("plain BM25 baseline (whoosh, record text only)", items, base_ranks)

    print(f"\ngain over baseline: top1 x{ours['top1'] / max(theirs['top1'], 1e-9):.2f}, "
          f"top3 x{ours['top3'] / max(theirs['top3'], 1e-9):.2f}, MRR x{ours['mrr'] / max(theirs['mrr'], 1e-9):.2f}")
    latencies.sort()
    print(f"\nlatency: warm query median {statistics.median(latencies):.2f} ms, "
          f"p95 {latencies[int(0.95 * (len(latencies) - 1))]:.2f} ms over {len(latencies)} queries; "
          f"first index build {build_seconds:.2f} s")
    print(cold_start())
    if args.misses:
        for item, rank in zip(items, ranks, strict=True):
            if rank != 0:
                print(f"MISS [{item.get('kind')}] rank={rank} {item['q']!r}")
    return 0


def cold_start(runs: int = 11) -> str:
    """Median wall time of a cold `rootfaq ask --json` and of `python -c pass`, same interpreter."""
    exe = Path(sys.executable)
    rootfaq = exe.parent / "rootfaq"
    if not rootfaq.exists():
        return "cold start: rootfaq is not installed in this interpreter's environment; skipped"

    def timed(cmd: list[str]) -> float:
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=False)
            samples.append(time.perf_counter() - started)
        return statistics.median(samples) * 1000

    subprocess.run([str(rootfaq), "index"], capture_output=True, check=False)
    bare = timed([str(exe), "-c", "pass"])
    ask = timed([str(rootfaq), "ask", "--json", "can I ambush if I have no warriors there?"])
    return f"cold start: rootfaq ask --json {ask:.0f} ms vs python -c pass {bare:.0f} ms (x{ask / bare:.1f})"


if __name__ == "__main__":
    sys.exit(main())
