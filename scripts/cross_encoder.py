#!/usr/bin/env python3
"""Measure a cross-encoder re-ranker (issue 17, item 2): the shipped MiniLM fine-tuned here to score a
(question, record) pair, over the first stage's best candidates. Measured, not shipped (`docs/levers.md`).

    pip install -e '.[fit,train]'     # LightGBM is not needed; torch is, for this script only
    python scripts/cross_encoder.py [--fold 0] [--epochs 2] [--tokens 128]

Candidates are scripts/fit.py's own samples (training/ only, never an evaluation set): each answerable
question's first-stage order under ranking weights fitted without its fold, its vector encoded by question
layers tuned without its fold (folds by record, as in fit.py). The cross-encoder starts from the shipped weights
(their sha256 checked by encoder.load_encoder), reads "[CLS] question [SEP] record [SEP]" (the record as
its vector's whole text, cut to fit), and mean-pools its last layer into one score. It learns on the
questions of the other folds: the right candidate against three wrong ones of the first eight, softmax
cross-entropy, AdamW. Printed for the held-out fold: the first stage; the cross-encoder alone over its
best K; and first stage + w x cross-encoder over the best K, w chosen on half of the held-out records and
reported on the other half; then per style.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fit  # noqa: E402

from rootfaq.search import dense, encoder, model, store  # noqa: E402

CANDIDATES = 12  # first-stage candidates kept per question
TRAIN_CANDIDATES = 8  # the wrong ones a question learns against are among its first eight
WRONG = 3
BATCH = 8  # questions per step
QUESTION_TOKENS = 40


def candidate_lists(folds: int) -> list[dict]:
    """Per answerable question: its fold, style, word pieces and first-stage candidates (out of fold)."""
    answerable, negatives = fit.load_questions()
    index = store.open_index()
    understood = fit.understand_all(index, answerable + negatives)
    reader = fit.reader_of(index)
    texts = {key: reader.encoder_text(u) for key, u in understood.items()}
    record_fold = fit.record_folds(answerable, folds)
    vectors = fit.held_out_vectors(index, answerable, negatives, texts, folds)
    samples = fit.collect(index, answerable, understood, vectors)
    tokenizer = encoder.sentence_encoder().tokenizer
    active = np.ones(len(model.FEATURES), dtype=bool)
    lists = []
    for fold in range(folds):
        train = [s for s in samples if record_fold[s.question.record_id] != fold]
        weights = fit.fit_ranking(train, active, fit.fit_ranking(train, active))
        for sample in (s for s in samples if record_fold[s.question.record_id] == fold):
            scores = sample.features @ weights
            order = np.argsort(-scores, kind="stable")[:CANDIDATES]
            lists.append({
                "fold": fold, "style": sample.question.style, "record": sample.question.record_id,
                "question": tokenizer.encode(reader.encoder_text(sample.understood), QUESTION_TOKENS + 2),
                "candidates": [{"right": bool(sample.right[i]), "score": float(scores[i]),
                                "family": sample.families[i],
                                "text": tokenizer.encode(dense.embedding_texts(sample.records[i])[0][1])}
                               for i in order]})
    return lists


def cross_encoder(torch):
    """The shipped MiniLM as a torch module with a one-number head, from the shipped weights."""
    nn, functional = torch.nn, torch.nn.functional
    arrays = encoder.load_encoder(questions=None)._arrays

    def tensor(name: str):
        value = arrays[name].astype(np.float32)
        if f"{name}.scale" in arrays:
            value = value * arrays[f"{name}.scale"][:, None]
        return torch.tensor(value)

    def linear(prefix: str, inputs: int, outputs: int):
        layer = nn.Linear(inputs, outputs)
        with torch.no_grad():
            layer.weight.copy_(tensor(f"{prefix}.weight"))
            layer.bias.copy_(tensor(f"{prefix}.bias"))
        return layer

    def norm(prefix: str):
        layer = nn.LayerNorm(encoder.DIMENSIONS, eps=encoder.LAYER_NORM_EPS)
        with torch.no_grad():
            layer.weight.copy_(tensor(f"{prefix}.weight"))
            layer.bias.copy_(tensor(f"{prefix}.bias"))
        return layer

    width, heads = encoder.DIMENSIONS, encoder.HEADS

    class Layer(nn.Module):
        def __init__(self, i: int) -> None:
            super().__init__()
            p = f"encoder.layer.{i}."
            self.q, self.k, self.v = (linear(f"{p}attention.self.{n}", width, width) for n in ("query", "key", "value"))
            self.out = linear(f"{p}attention.output.dense", width, width)
            self.norm1 = norm(f"{p}attention.output.LayerNorm")
            self.up = linear(f"{p}intermediate.dense", width, 4 * width)
            self.down = linear(f"{p}output.dense", 4 * width, width)
            self.norm2 = norm(f"{p}output.LayerNorm")

        def forward(self, x, key_mask):
            size, length, _ = x.shape

            def split(y):
                return y.view(size, length, heads, width // heads).transpose(1, 2)

            attention = split(self.q(x)) @ split(self.k(x)).transpose(-1, -2) * encoder.ATTENTION_SCALE + key_mask
            context = (attention.softmax(-1) @ split(self.v(x))).transpose(1, 2).reshape(size, length, width)
            x = self.norm1(x + self.out(context))
            return self.norm2(x + self.down(functional.gelu(self.up(x))))

    class CrossEncoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.words = nn.Embedding.from_pretrained(tensor("embeddings.word_embeddings.weight"), freeze=True)
            self.positions = nn.Parameter(tensor("embeddings.position_embeddings.weight"))
            self.segments = nn.Parameter(tensor("embeddings.token_type_embeddings.weight"))
            self.norm0 = norm("embeddings.LayerNorm")
            self.layers = nn.ModuleList(Layer(i) for i in range(encoder.LAYERS))
            self.head = nn.Linear(width, 1)
            nn.init.zeros_(self.head.weight)
            nn.init.zeros_(self.head.bias)

        def forward(self, ids, segments, mask):
            x = self.norm0(self.words(ids) + self.positions[: ids.shape[1]] + self.segments[segments])
            key_mask = (1.0 - mask)[:, None, None, :] * -1e9
            for layer in self.layers:
                x = layer(x, key_mask)
            pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
            return self.head(pooled).squeeze(-1)

    return CrossEncoder()


def batch_of(torch, questions_and_records: list[tuple[list[int], list[int]]], tokens: int):
    """Word-piece ids, segment ids and mask for "[CLS] question [SEP] record [SEP]" pairs, padded."""
    rows = []
    for encoded, record in questions_and_records:
        cls, sep, question = encoded[0], encoded[-1], encoded[1:-1][:QUESTION_TOKENS]
        ids = [cls, *question, sep]
        ids += record[1:-1][: tokens - len(ids) - 1] + [sep]
        rows.append((ids, [0] * (len(question) + 2) + [1] * (len(ids) - len(question) - 2)))
    length = max(len(ids) for ids, _ in rows)
    ids = torch.zeros(len(rows), length, dtype=torch.long)
    segments, mask = torch.zeros_like(ids), torch.zeros(len(rows), length)
    for i, (row, segment) in enumerate(rows):
        ids[i, : len(row)], segments[i, : len(row)], mask[i, : len(row)] = \
            torch.tensor(row), torch.tensor(segment), 1.0
    return ids, segments, mask


def train(torch, lists: list[dict], epochs: float, tokens: int, seed: int = 0):
    random.seed(seed)
    torch.manual_seed(seed)
    net = cross_encoder(torch)
    usable = [d for d in lists if any(c["right"] for c in d["candidates"][:TRAIN_CANDIDATES])]
    body = [p for name, p in net.named_parameters() if p.requires_grad and not name.startswith("head")]
    optimiser = torch.optim.AdamW([{"params": body, "lr": 3e-5}, {"params": net.head.parameters(), "lr": 1e-3}],
                                  weight_decay=0.01)
    steps = int(len(usable) * epochs / BATCH)
    warm = max(1, steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / warm) * max(0.0, 1 - s / steps))  # warm up, then down to 0
    order: list[int] = []
    while len(order) < steps * BATCH:
        order += random.sample(range(len(usable)), len(usable))
    started, losses = time.perf_counter(), []
    net.train()
    for step in range(steps):
        pairs = []
        for j in order[step * BATCH : (step + 1) * BATCH]:
            chosen = usable[j]["candidates"][:TRAIN_CANDIDATES]
            wrong = [c for c in chosen if not c["right"]]
            group = [random.choice([c for c in chosen if c["right"]]), *random.sample(wrong, min(WRONG, len(wrong)))]
            group += [group[-1]] * (WRONG + 1 - len(group))
            pairs += [(usable[j]["question"], c["text"]) for c in group]
        scores = net(*batch_of(torch, pairs, tokens)).view(-1, WRONG + 1)
        loss = torch.nn.functional.cross_entropy(scores, torch.zeros(len(scores), dtype=torch.long))
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        losses.append(loss.item())
        if step % 100 == 0 or step == steps - 1:
            elapsed = time.perf_counter() - started
            print(f"  step {step + 1}/{steps}, loss {np.mean(losses[-100:]):.3f}, {elapsed:.0f} s", file=sys.stderr)
    net.eval()
    return net


def reordered(item: dict, cross: list[float], best: int, weight: float | None) -> list[int]:
    """The first `best` candidates by the cross-encoder alone (weight None) or by the sum, the rest after."""
    first = np.array([c["score"] for c in item["candidates"]])
    k = min(best, len(first))
    key = np.array(cross[:k]) if weight is None else first[:k] + weight * np.array(cross[:k])
    return [*np.argsort(-key, kind="stable").tolist(), *range(k, len(first))]


def shown(figures: tuple[float, float]) -> str:
    return f"top-1 {figures[0]:.1%}, top-3 {figures[1]:.1%}"


def top1_top3(items, best: int, weight: float | None) -> tuple[float, float]:
    positions = [fit.first_right(reordered(d, s, best, weight) if best else range(len(s)),
                                 [c["family"] for c in d["candidates"]], [c["right"] for c in d["candidates"]])
                 for d, s in items]
    return (float(np.mean([p == 0 for p in positions])),
            float(np.mean([p is not None and p < 3 for p in positions])))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fold", type=int, default=0, help="the fold held out (of 5, by record)")
    parser.add_argument("--epochs", type=float, default=2.0)
    parser.add_argument("--tokens", type=int, default=128, help="word pieces of a pair")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("scripts/cross_encoder.py needs torch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    torch.set_num_threads(2)
    lists = candidate_lists(5)
    held = [d for d in lists if d["fold"] == args.fold]
    print(f"training on {sum(d['fold'] != args.fold for d in lists)} questions, judging {len(held)}", file=sys.stderr)
    net = train(torch, [d for d in lists if d["fold"] != args.fold], args.epochs, args.tokens)
    with torch.no_grad():
        cross = [net(*batch_of(torch, [(d["question"], c["text"]) for c in d["candidates"]], args.tokens)).tolist()
                 for d in held]
    items = list(zip(held, cross, strict=True))
    records = sorted({d["record"] for d in held})
    half = {r: i % 2 for i, r in enumerate(records)}
    tuning, judged = ([x for x in items if half[x[0]["record"]] == h] for h in (0, 1))
    print(f"first stage: {shown(top1_top3(items, 0, None))}")
    for best in (3, 5, 8):
        print(f"cross-encoder alone over the first {best}: {shown(top1_top3(items, best, None))}")
    weights = (0.125, 0.25, 0.5, 1.0, 2.0)
    best, weight = max(((b, w) for b in (5, 8) for w in weights), key=lambda bw: top1_top3(tuning, *bw)[0])
    print(f"sum over the first {best}, w = {weight} (chosen on half the held-out records): "
          f"the other half {shown(top1_top3(judged, 0, None))} -> {shown(top1_top3(judged, best, weight))}")
    for style in sorted({d["style"] for d in held}):
        chosen = [x for x in items if x[0]["style"] == style]
        print(f"  {style:12s} n={len(chosen):4d} first stage {shown(top1_top3(chosen, 0, None))} "
              f"-> sum {shown(top1_top3(chosen, best, weight))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
