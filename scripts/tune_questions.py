#!/usr/bin/env python3
"""Fine-tune the question side of the sentence encoder (the "question tower") on the written questions.

    pip install -e '.[fit,train]'      # torch, for this script and scripts/fit.py's use of it only
    python scripts/tune_questions.py [--folds 5] [--write]

Records keep their vectors (the shipped model, encoded once); only the six layers that encode a question
move, so that a question comes nearer the rows of the records that answer it: softmax cross-entropy of its
cosines to every record row (temperature 0.05, the rows of its answers right, by its own labels), AdamW,
the word-piece, position and type embeddings frozen (they stay the shipped model's: the layers are all that
changes). Its linear form, a fitted matrix moving the encoded vector (v + vA), shipped before these layers
and was dropped once they did (`docs/levers.md`).

Trained once per fold by record (the fold's records' questions left out) and once on all of them, each
cached in .fit-cache as float32 safetensors (read back through encoder.read_safetensors: data, never a
pickle), keyed by the training questions, their labels, the settings and this code. A tower is used as it
ships: each matrix the shipped one plus the difference in int8 rows (encoder.question_arrays).
scripts/fit.py encodes a question by the tower that never saw its record, as a new question's would be.
Printed: the semantic retriever alone (each record's best row) on each held-out fold, before and after.
--write writes the tower trained on all of them as rootfaq/model_data/minilm-l6-v2.question-layers.safetensors and
prints its sha256: put it in encoder.QUESTION_LAYERS_SHA256 and model_data/SOURCE.md first (export_onnx.py loads the
layers as shipped, sha256 checked, so it refuses them until then), then run scripts/export_onnx.py, which makes
onnxruntime's layers file from it (its sha256 likewise), and scripts/fit.py.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import inspect
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cross_encoder  # noqa: E402  (the shipped MiniLM as a torch module)
import fit  # noqa: E402
from quantize_model import quantize, write_safetensors  # noqa: E402

from rootfaq.search import encoder  # noqa: E402
from rootfaq.search.encoder import LAYER_PREFIX  # noqa: E402

TUNING = {"epochs": 1.5, "rate": 2e-5, "temperature": 0.05, "batch": 32, "seed": 0}
# Shipped as differences: tuning moves the shipped int8 weights by less than half a step of their grid, so
# rounding the tuned layers back to it undid nearly all of it (held out, the semantic retriever alone: 68.9%
# top-1 as shipped, 69.7% tuned and rounded to int8 rows; `docs/levers.md`).
OUTPUT = Path(__file__).resolve().parent.parent / "rootfaq" / "model_data" / encoder.QUESTION_LAYERS_FILE


def training_items(index, answerable, texts: dict[int, str]) -> list[tuple[str, str, np.ndarray]]:
    """(record it was written for, text the encoder reads, which record rows answer it) per answerable
    question that some row answers."""
    families = fit.answer_families(index)
    row_ids = np.array(index.vectors.record_ids)
    items = []
    for question in answerable:
        right = np.isin(row_ids, list(fit.answers_of(index, question, families, judged=False)))
        if right.any():
            items.append((question.record_id, texts[id(question)], right))
    return items


def tower_key(items, rows: np.ndarray) -> str:
    digest = hashlib.sha256(json.dumps(TUNING, sort_keys=True).encode() + b"float32")
    digest.update(inspect.getsource(train_tower).encode())
    digest.update(rows.tobytes())
    for record, text, right in items:
        digest.update(f"{record}\n{text}\n".encode())
        digest.update(np.packbits(right).tobytes())
    return digest.hexdigest()[:16]


def towers(index, answerable, texts: dict[int, str], folds: int) -> tuple[dict[int | None, dict], str]:
    """(fold -> the tuned layers' differences from the shipped ones (as QUESTION_LAYERS_FILE holds them)
    trained without that fold's records' questions, None -> trained on all; the key they are cached under
    in .fit-cache)."""
    items = training_items(index, answerable, texts)
    rows = np.asarray(index.vectors.matrix, dtype=np.float32)
    key = tower_key(items, rows)
    record_fold = fit.record_folds(answerable, folds)
    found: dict[int | None, dict] = {}
    for fold in [*range(folds), None]:
        path = fit.CACHE / f"tower-{key}-{'all' if fold is None else fold}.safetensors"
        if not path.exists():
            chosen = [(text, right) for record, text, right in items if record_fold[record] != fold]
            print(f"tuning the question tower {'on all' if fold is None else f'without fold {fold}'} "
                  f"({len(chosen)} questions)", file=sys.stderr)
            fit.CACHE.mkdir(exist_ok=True)
            write_safetensors(train_tower(chosen, rows), path, "all-MiniLM-L6-v2's layers tuned for questions, float32")
        found[fold] = differences(encoder.read_safetensors(path.read_bytes()))
    return found, key


def train_tower(items: list[tuple[str, np.ndarray]], rows: np.ndarray) -> dict[str, np.ndarray]:
    """The six layers, float32, tuned so that each question's vector comes nearer its answers' rows."""
    import torch

    settings = TUNING
    random.seed(settings["seed"])
    torch.manual_seed(settings["seed"])
    torch.set_num_threads(2)
    net = cross_encoder.cross_encoder(torch)
    for name, parameter in net.named_parameters():
        parameter.requires_grad = name.startswith("layers.")
    tokenizer = encoder.sentence_encoder().tokenizer
    ids = [tokenizer.encode(text) for text, _ in items]
    right = torch.tensor(np.array([r for _, r in items]))
    matrix = torch.tensor(rows)
    trained = [p for p in net.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(trained, lr=settings["rate"], weight_decay=0.01)
    steps = max(1, int(len(items) * settings["epochs"] / settings["batch"]))
    warm = max(1, steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / warm) * max(0.0, 1 - s / steps))  # warm up, then down to 0
    order: list[int] = []
    while len(order) < steps * settings["batch"]:
        order += random.sample(range(len(items)), len(items))
    started = time.perf_counter()
    net.train()
    for step in range(steps):
        chosen = order[step * settings["batch"] : (step + 1) * settings["batch"]]
        logits = sentence_vectors(torch, net, [ids[i] for i in chosen]) @ matrix.T / settings["temperature"]
        log_p = torch.log_softmax(logits, dim=-1)
        loss = -torch.logsumexp(log_p.masked_fill(~right[chosen], -1e9), dim=-1).mean()
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trained, 1.0)
        optimiser.step()
        schedule.step()
        if step % 50 == 0 or step == steps - 1:
            print(f"  step {step + 1}/{steps}, loss {loss.item():.3f}, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    names = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
             "out": "attention.output.dense", "norm1": "attention.output.LayerNorm", "up": "intermediate.dense",
             "down": "output.dense", "norm2": "output.LayerNorm"}
    arrays = {}
    for name, value in net.state_dict().items():
        parts = name.split(".")  # layers.{i}.{module}.{weight|bias}
        if parts[0] == "layers":
            arrays[f"{LAYER_PREFIX}{parts[1]}.{names[parts[2]]}.{parts[3]}"] = value.numpy().astype(np.float32)
    return arrays


def sentence_vectors(torch, net, batch: list[list[int]]):
    """Unit sentence vectors of word-piece id lists through the torch module: the numpy pass's sums."""
    length = max(len(row) for row in batch)
    ids = torch.zeros(len(batch), length, dtype=torch.long)
    mask = torch.zeros(len(batch), length)
    for n, row in enumerate(batch):
        ids[n, : len(row)], mask[n, : len(row)] = torch.tensor(row), 1.0
    x = net.norm0(net.words(ids) + net.positions[:length] + net.segments[torch.zeros_like(ids)])
    key_mask = (1.0 - mask)[:, None, None, :] * -1e9
    for layer in net.layers:
        x = layer(x, key_mask)
    pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
    return torch.nn.functional.normalize(pooled, dim=-1)


@functools.cache
def _shipped():
    return encoder.load_encoder(questions=None)


def differences(layers: dict) -> dict:
    """Tuned float32 layers as QUESTION_LAYERS_FILE holds them: each matrix's difference from the shipped
    one in int8 rows (scripts/quantize_model.py's grid: the differences are small, so the grid is fine),
    biases and norms as they are."""
    shipped = _shipped()._arrays
    found = {}
    for name, value in sorted(layers.items()):
        if value.ndim == 2:
            found |= {k.replace(name, name + encoder.DIFFERENCE, 1): v
                      for k, v in quantize({name: value - encoder.dequantized(shipped, name)}).items()}
        else:
            found[name] = value
    return found


def tower_encoder(question_differences: dict):
    """The shipped encoder with these question layers (what load_encoder gives without onnxruntime)."""
    shipped = _shipped()
    vocabulary = sorted(shipped.tokenizer.ids, key=shipped.tokenizer.ids.get)
    return encoder.Encoder(shipped._arrays, vocabulary, question_differences)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--write", action="store_true", help=f"write the tower trained on all as {OUTPUT.name}")
    args = parser.parse_args(argv)
    fit.refuse_eval_repeats()
    from rootfaq.search import store
    from rootfaq.search.query import reader_of

    answerable, _ = fit.load_questions()
    index = store.open_index()
    reader = reader_of(index)
    understood = fit.understand_all(index, answerable)
    texts = {key: reader.encoder_text(u) for key, u in understood.items()}
    tuned, _ = towers(index, answerable, texts, args.folds)
    if args.write:
        blob = write_safetensors(tuned[None], OUTPUT, "all-MiniLM-L6-v2's layers tuned for questions by rootfaq: "
                                 "differences from minilm-l6-v2.int8.safetensors")
        print(f"wrote {OUTPUT} ({len(blob) / 1e6:.1f} MB), sha256 {hashlib.sha256(blob).hexdigest()}")
    items = training_items(index, answerable, texts)
    record_fold = fit.record_folds(answerable, args.folds)
    row_ids = np.array(index.vectors.record_ids)
    rows = np.asarray(index.vectors.matrix, dtype=np.float32)
    shipped = _shipped()
    for name, by in (("shipped model", lambda fold: shipped), ("tuned tower", lambda fold: tower_encoder(tuned[fold]))):
        ranks = []
        for fold in range(args.folds):
            held = [(text, right) for record, text, right in items if record_fold[record] == fold]
            vectors = by(fold).encode_questions([text for text, _ in held])
            ranks += [first_right_record(vector @ rows.T, right, row_ids)
                      for vector, (_, right) in zip(vectors, held, strict=True)]
        top1 = np.mean([r == 0 for r in ranks])
        top5 = np.mean([r is not None and r < 5 for r in ranks])
        print(f"semantic retriever alone, {name}, held out by record: top-1 {top1:.1%}, top-5 {top5:.1%}")
    return 0


def first_right_record(cosines: np.ndarray, right: np.ndarray, row_ids: np.ndarray, depth: int = 20) -> int | None:
    """The position of the first record with a right row, records ordered by their best row's cosine."""
    seen: set[str] = set()
    for row in np.argsort(-cosines):
        if row_ids[row] not in seen:
            seen.add(row_ids[row])
            if right[row]:
                return len(seen) - 1
            if len(seen) > depth:
                return None
    return None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
