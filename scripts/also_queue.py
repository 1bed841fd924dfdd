#!/usr/bin/env python3
"""List the training questions whose first answers need a reader's verdict: does this record answer it too?

usage: python scripts/also_queue.py OUT.yaml [--folds N] [--top N]

A training question is labelled with the record it was written for; another record often answers it just as
well (an FAQ ruling and the rule it cites, two rulings on one point), and the fit then counts that answer
wrong. This script ranks every training question as scripts/fit.py judges it (held out by record, hybrid
mode) and writes, for each answerable one, the records shown above its first right answer among the first
`--top` positions, and for each question whose record was left out (fit.py's hardest unanswerable ones), the
record shown first. Pairs already judged in training/also-answers.yaml are not listed again. A reader (who
never sees an evaluation set) then writes the verdicts into training/also-answers.yaml.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fit  # noqa: E402  (the fit's own loading and ranking, so the queue is what the fit sees)

from rootfaq.search import model, store  # noqa: E402
from rootfaq.search.query import reader_of  # noqa: E402


def shown(sample: fit.Sample, weights: np.ndarray) -> list[int]:
    """Candidate positions in the order the product shows them: one of each family."""
    order, _ = fit.ranked_positions(sample, weights)
    seen: set[str] = set()
    kept = []
    for i in order:
        if sample.families[i] not in seen:
            seen.add(sample.families[i])
            kept.append(int(i))
    return kept


def record_view(record) -> dict:
    view = {"id": record.id, "grade": record.grade}
    if record.section:
        view["section"] = f"{record.section} {record.section_title or ''}".strip()
    if record.source == "faq":
        view["reconstructed question"] = record.title
    elif record.title:
        view["title"] = record.title
    view["text"] = record.text
    return view


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--top", type=int, default=3)
    args = parser.parse_args(argv)
    judged = fit.load_also()
    answerable, negatives = fit.load_questions()
    index = store.open_index()
    understood = fit.understand_all(index, answerable + negatives)
    reader = reader_of(index)
    texts = {key: reader.encoder_text(u) for key, u in understood.items()}
    vectors = fit.held_out_vectors(index, answerable, negatives, texts, args.folds)
    active = np.ones(len(model.FEATURES), dtype=bool)
    positive = fit.collect(index, answerable, understood, vectors)
    left_out = fit.collect(index, random.Random(7).sample(answerable, len(answerable) // 3), understood, vectors,
                           leave_out=True)
    record_fold = fit.record_folds(answerable, args.folds)
    records = index.library.records
    written_for = {(q.text, q.style): q.record_id for q in answerable}
    queue = []
    for fold in range(args.folds):
        train = [s for s in positive if record_fold[s.question.record_id] != fold]
        weights = fit.fit_ranking(train, active, fit.fit_ranking(train, active))
        for sample in positive:
            if record_fold[sample.question.record_id] != fold:
                continue
            wanted = []
            for i in shown(sample, weights)[: args.top]:
                if sample.right[i]:
                    break
                wanted.append(sample.ids[i])
            add(queue, judged, sample, wanted, records)
        for sample in left_out:
            key = written_for[sample.question.text, sample.question.style]
            if record_fold[key] == fold:
                first = shown(sample, weights)[:1]
                add(queue, judged, sample, [sample.ids[i] for i in first], records, written_for=key)
    args.out.write_text(yaml.safe_dump(queue, sort_keys=False, allow_unicode=True, width=110), "utf-8")
    print(f"{len(queue)} questions, {sum(len(q['candidates']) for q in queue)} records to judge -> {args.out}")
    return 0


def add(queue: list, judged: dict, sample: fit.Sample, wanted: list[str], records, written_for: str | None = None):
    question = sample.question
    written_for = written_for or question.record_id
    verdicts = judged.get((written_for, question.text), {})
    wanted = [rid for rid in wanted if rid not in verdicts and rid != written_for]
    if not wanted:
        return
    item = {"q": question.text, "written_for": record_view(records[written_for])}
    if question.post is not None and question.post.story:
        item["post"] = question.post.text
    item["candidates"] = [record_view(records[rid]) for rid in wanted]
    queue.append(item)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
