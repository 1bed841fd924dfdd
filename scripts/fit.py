#!/usr/bin/env python3
"""Fit the ranking weights and the confidence model on generated questions; write rootfaq/model_data/ranking.json.

usage: python scripts/fit.py [--check-only] [--folds N]

Needs the `fit` extra, and the `train` extra (PyTorch) when the question layers tuned per fold
(scripts/tune_questions.py) are not cached in .fit-cache yet: about 6 minutes a fold on two cores.

Data (training/, never an evaluation set): player-questions.yaml, questions written for each record in
three styles and never indexed, whose right answer is the record they are listed under (or its section's
family: a sub-item counts as its section, a Law paragraph as the rulebook passage quoting it);
long-posts-*.yaml, long forum posts with each of their questions labelled by record (some by none);
blind-long-posts-*.yaml, such posts written blind;
blind-questions-*.yaml, questions written before their writer read any source, then labelled (many by
none, as real players' questions are); and negatives.yaml, questions no record answers. A post is read as
the product reads it (rootfaq/search/posts/): each question it finds is a sample, with the post's story
as its context.
Leaving a record out of the candidates turns its questions into more negatives of the hardest kind: Root
questions whose answer is missing.

Question layers: each answerable question is encoded by the layers tuned without its fold's records'
questions (scripts/tune_questions.py), as a new question is by layers that never saw it.
Ranking: a linear score over model.FEATURES, fitted by pairwise logistic regression (every right
candidate against every wrong one of the same question, L2-regularised, plain gradient descent in numpy).
Confidence: logistic regression over model.CONFIDENCE_FEATURES of the first hit, labelled 1 when that
hit is right; its threshold is the lowest probability whose confident answers are right at least
HELD_OUT_PRECISION of the time (the promise, TARGET_PRECISION, and a margin), measured on folds held out by
record, over all of them and over the questions written blind alone, each with the questions no record answers
weighed to their share of what players send. Both are fitted for the two modes: hybrid (both retrievers) and
lexical (the sentence model unavailable). Prints cross-validated figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from rootfaq.search import confidence, encoder, model, ranking, second_stage, shipped, store
from rootfaq.search.posts import Post, read_post
from rootfaq.search.query import reader_of

ROOT = Path(__file__).resolve().parent.parent

TRAINING = ROOT / "training"
CACHE = ROOT / ".fit-cache"
OUT = ROOT / "rootfaq" / "model_data" / model.RANKING_FILE
TARGET_PRECISION = 0.90  # the promise: confident answers right this often on what players send
# What the held-out rows must show, over every held-out question and over the blind-written ones: questions
# written later, never fitted, come out below our held-out rows (90% held out gave 84.5% on set AA at an earlier
# fit, and 88.8% on our seven short check sets when players_mix was first tried), so the threshold keeps this
# margin (`docs/levers.md`).
HELD_OUT_PRECISION = 0.92
L2_RANKING = 1e-3
# How far the question layers tuned on another CPU may round from the shipped ones and still be that tuning
# (same_tuning): a share of the int8 differences one step away, and float arrays' distance by their scale.
ROUNDED_SHARE = 0.001
ROUNDED_FLOAT = 1e-2
# The records split half and half between the FAQ and Law and The Outsiders' rules, and so do the generated
# questions; players ask about the base game and official expansions far more (about four in five of our
# own table questions), so a question written for a fan rule weighs this much in the fits.
FAN_QUESTION_WEIGHT = 0.25
# The questions written blind are the nearest to what players send, and their confident answers bind the
# threshold (confident_from), yet they are a third of the samples: in the confidence model's own fit they weigh
# this much more, so that it reads evidence as it holds for them (`docs/levers.md`: 1 to 1000).
BLIND_CONFIDENCE_WEIGHT = 16.0
# Of what players send, no source here answers about one question in three (the held-out sets: 45 of
# 138 blind table questions, 20 of 77 real ones). Our blind rows hold twice that share, as the answerable ones
# of most blind sets are indexed instead of fitted (corpus/asked-questions.yaml), and all our rows more than half
# (the written unanswerable questions and those whose record is left out), so the threshold judges precision
# with the rows no record answers weighed back to this share, over the blind rows and over all (players_mix).
UNANSWERED_SHARE = 1 / 3
# Base game first (a product rule, not a fitted one): when the question names no fan faction, map or bot,
# a fan rule or a bot ruling loses at least this much against an official answer on the same words. It is
# about a near tie's margin (the first answer's median lead over the second is about 3 when it is right).
BASE_FIRST_PENALTY = 1.5
BASE_FIRST_FEATURES = ("fan_unasked", "bot_unasked")
# The confidence model's L2 (on standardised features) per mode, chosen held out. With the sentence model,
# right and confident 39.2% at 1e-1, 40.9% at 1e-2, 41.6% at 3e-3, 42.1% at 1e-3, 42.6% at 1e-4 and 1e-6
# (blind-written 27.0% -> 28.8%), precision held at 90% by the threshold; 1e-4 keeps Newton's steps well posed.
# On words only, 1e-4 lost (24.3% -> 21.9%, blind-written 15.5% -> 13.9%): 1e-2 stays.
L2_CONFIDENCE = {model.HYBRID: 1e-4, model.LEXICAL: 1e-2}
# Asking back when not sure: the best candidate's text is shown in full from the probability at which
# it is right at least half the time (held out), and below the floor (where the right answer is among
# the first three candidates at most one time in five) rootfaq says nothing in the sources answers it.
SHOW_BEST_PRECISION = 0.5
FLOOR_TOP3 = 0.2
LEVEL_WINDOW = 201  # held-out answers around a probability that say how often it is right there
NEGATIVE_PAIRS = 30  # wrong candidates per question, the best-scored by a first fit
# The second stage (rootfaq/search/second_stage.py, with --second-stage): LambdaMART from the linear score
# as its start, over the first stage's best SECOND_STAGE_TOP candidates of each question. On held-out
# generated folds 300 trees of 15 leaves at 0.05 gave top-1 78.8% -> 80.9%, but on the blind eval sets it
# lost (`docs/levers.md`), so the shipped ranking.json holds none.
SECOND_STAGE_TOP = 20
SECOND_STAGE = {"objective": "lambdarank", "n_estimators": 300, "num_leaves": 15, "learning_rate": 0.05,
                "min_child_samples": 30, "subsample": 0.8, "subsample_freq": 1, "colsample_bytree": 0.8,
                "lambdarank_truncation_level": 5, "random_state": 7, "deterministic": True, "n_jobs": 2,
                "verbose": -1}


@dataclass
class Question:
    text: str
    style: str
    record_id: str | None  # None: nothing answers it; else the record that answers it (its fold's key)
    kind: str = "answerable"
    post: Post | None = None  # the post the question was found in, whose story is its context
    also: tuple[str, ...] = ()  # other records labelled with it that answer it as well
    judged: tuple[str, ...] = ()  # more records that answer it, as readers judged (training/also-answers.yaml)


def questions_of_post(text: str, style: str, labelled: list[tuple[str, list[str]]]) -> list[Question]:
    """The samples a post gives, as the product reads it: one question found, the whole post (any labelled
    record answers it); several, each labelled with the labelled question it overlaps most (the judging's
    own rule; one the product does not find is not a sample: it would not be asked)."""
    post = read_post(text)
    if len(post.questions) <= 1:  # one question found: the product searches the whole post; any label answers it
        records = list(dict.fromkeys(r for _, rs in labelled for r in rs))
        if not records:
            return [Question(post.text, style, None, "post-unanswerable")]
        return [Question(post.text, style, records[0], also=tuple(records[1:]))]
    found = post.questions
    samples = []
    for question, records in labelled:
        want = set(words_of(question))
        best = max(found, key=lambda f: len(want & set(words_of(f))))
        if not want & set(words_of(best)):
            continue
        if records:
            samples.append(Question(best, style, records[0], post=post, also=tuple(records[1:])))
        else:
            samples.append(Question(best, style, None, "post-unanswerable", post=post))
    return samples


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@dataclass
class Sample:
    """One question's candidates: features, which are right, and what confidence needs besides."""

    question: Question
    ids: list[str]
    features: np.ndarray
    right: np.ndarray  # answers it (readers' judgements included): what confidence and the figures count
    learned: np.ndarray  # answers it by its own labels: what the ranking learns to put first
    families: list[str]  # ranking.family_of of each candidate: one of a family is shown
    records: list
    understood: object
    evidence: list = field(default_factory=list)
    fold: int = 0
    weight: float = 1.0


def load_questions() -> tuple[list[Question], list[Question]]:
    written = yaml.safe_load((TRAINING / "player-questions.yaml").read_text("utf-8"))
    answerable = []
    for record_id, entry in written.items():
        if "skip" in entry:
            continue
        for style in ("table", "ask"):
            answerable += [Question(q, style, record_id) for q in entry[style]]
        # A post written for one record: every question found in it is about that record.
        post = read_post(entry["post"])
        if len(post.questions) > 1:
            answerable += [Question(q, "post", record_id, post=post) for q in post.questions]
        else:
            answerable.append(Question(post.text, "post", record_id))
    negatives = [Question(x["q"], x["style"], None, x["kind"])
                 for x in yaml.safe_load((TRAINING / "negatives.yaml").read_text("utf-8"))]
    # Written blind (before the writer read any source), then labelled: as real players ask, many of them
    # unanswered by the sources (training/blind-questions-*.yaml).
    for path in sorted(TRAINING.glob("blind-questions-*.yaml")):
        for item in yaml.safe_load(path.read_text("utf-8")):
            for question in questions_of_post(item["q"], f"blind-{item['style']}", [(item["q"], item["records"])]):
                if question.record_id is None:
                    question.kind = "blind-unanswered"
                (answerable if question.record_id else negatives).append(question)
    # Long forum posts with each question labelled: written for the purpose (long-posts-*.yaml), or blind
    # as real posts are (blind-long-posts-*.yaml: written before reading any source, then labelled).
    for path in sorted(TRAINING.glob("*long-posts-*.yaml")):
        blind = path.name.startswith("blind-")
        for item in yaml.safe_load(path.read_text("utf-8")):
            parts = [(p["question"], p["records"]) for p in item["parts"]]
            style = ("blind-" if blind else "") + ("long-multi" if len(parts) > 1 else "long")
            for question in questions_of_post(item["post"], style, parts):
                if blind and question.record_id is None:
                    question.kind = "blind-unanswered"
                (answerable if question.record_id else negatives).append(question)
    judged = load_also()
    for question in answerable:
        verdicts = judged.get((question.record_id, question.text), {})
        question.judged = tuple(rid for rid, answers in verdicts.items() if answers and rid not in question.also)
    return answerable, negatives


def load_also() -> dict[tuple[str, str], dict[str, bool]]:
    """(record written for, question) -> {another record: whether it answers the question too}, as readers
    judged them (training/also-answers.yaml, from the queue scripts/also_queue.py writes)."""
    path = TRAINING / "also-answers.yaml"
    judged: dict[tuple[str, str], dict[str, bool]] = {}
    for item in yaml.safe_load(path.read_text("utf-8")) if path.exists() else []:
        verdicts = judged.setdefault((item["written_for"], item["q"]), {})
        verdicts.update({rid: True for rid in item.get("also", [])})
        verdicts.update({rid: False for rid in item.get("not", [])})
    return judged


def query_vectors(texts: list[str], sentences=None, name: str | None = None) -> dict[str, np.ndarray]:
    """Sentence vectors for the texts the encoder reads, encoded as the product encodes a question (or by
    `sentences`, named `name`), cached by text and by what encodes them (encoding them all takes minutes)."""
    CACHE.mkdir(exist_ok=True)
    sentences = sentences or encoder.sentence_encoder()
    path = CACHE / f"questions-{name or sentences.question_key[:12]}.npz"
    cached: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path, allow_pickle=False) as data:
            cached = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
    key = {t: hashlib.sha256(t.encode()).hexdigest()[:20] for t in texts}
    missing = [t for t in dict.fromkeys(texts) if key[t] not in cached]
    if missing:
        for start in range(0, len(missing), 64):
            chunk = missing[start : start + 64]
            for text, vector in zip(chunk, sentences.encode_questions(chunk), strict=True):
                cached[key[text]] = vector
            print(f"\rencoded {min(start + 64, len(missing))}/{len(missing)} questions", end="", file=sys.stderr)
        print(file=sys.stderr)
        np.savez(path, keys=np.array(list(cached)), vectors=np.array(list(cached.values())))
    return {t: cached[key[t]] for t in texts}


def held_out_vectors(index, answerable: list[Question], negatives: list[Question], texts: dict[int, str],
                     folds: int, check_only: bool = True) -> dict[str, np.ndarray]:
    """Each question's vector as a new question's would be: an answerable question's by the question layers
    tuned without its fold's records (scripts/tune_questions.py, trained once and cached: torch only then),
    an unanswerable one's as the product encodes it (the shipped question layers). Stops when the shipped
    question layers are not the ones tuned on all of these questions, up to another CPU's rounding (unless only
    checking)."""
    import tune_questions

    tuned, key = tune_questions.towers(index, answerable, texts, folds)
    written = encoder.read_safetensors(shipped.model_data().joinpath(encoder.QUESTION_LAYERS_FILE).read_bytes())
    if not same_tuning(written, tuned[None]):
        print("the shipped question layers were not tuned on these questions: run scripts/tune_questions.py --write, "
              "then scripts/export_onnx.py", file=sys.stderr)
        if not check_only:
            raise SystemExit(1)
    record_fold = record_folds(answerable, folds)
    by_fold = {fold: query_vectors([texts[id(q)] for q in answerable if record_fold[q.record_id] == fold],
                                   tune_questions.tower_encoder(tuned[fold]), f"tower-{key}-{fold}")
               for fold in range(folds)}
    held_out = {texts[id(q)]: by_fold[record_fold[q.record_id]][texts[id(q)]] for q in answerable}
    unanswerable = [texts[id(q)] for q in negatives if texts[id(q)] not in held_out]
    return held_out | query_vectors(unanswerable)


def same_tuning(written: dict, tuned: dict) -> bool:
    """Whether the shipped question layers' differences are those tuned here, up to the rounding of another
    CPU: the same training on an AMD EPYC without AVX2 left 1,519 of 10.6 million int8 differences (0.014%)
    one step away, gave the same held-out figures, and left most float arrays within 1e-7 of their scale; the
    attention's key biases, which the softmax ignores and so drift freely, moved up to 4e-3 of theirs, as
    much as under another tuning. The int8 differences are what tells tunings apart (a fold's tower: far more
    than 0.1% of them move)."""
    if written.keys() != tuned.keys():
        return False
    for name, shipped_array in written.items():
        ours = tuned[name]
        if shipped_array.shape != ours.shape or shipped_array.dtype != ours.dtype:
            return False
        if shipped_array.dtype == np.int8:
            steps = np.abs(shipped_array.astype(np.int16) - ours.astype(np.int16))
            if steps.max(initial=0) > 1 or np.count_nonzero(steps) > ROUNDED_SHARE * steps.size:
                return False
        elif np.abs(shipped_array - ours).max(initial=0) > ROUNDED_FLOAT * np.abs(shipped_array).max(initial=0):
            return False
    return True


def understand_all(index, questions: list[Question]) -> dict[int, object]:
    """What the product understands of each question (id(question) -> Understood), as it reads it."""
    reader = reader_of(index)
    return {id(q): reader.understand_in_post(q.text, q.post) for q in questions}


def answer_families(index) -> dict[str, set[str]]:
    """ranking.answer_family -> the answer records in it: any of a family answers a question about one."""
    families: dict[str, set[str]] = {}
    for record in index.library.records.values():
        if record.is_answer:
            families.setdefault(ranking.answer_family(record), set()).add(record.id)
    return families


def answers_of(index, question: Question, families: dict[str, set[str]], judged: bool = True) -> set[str]:
    """The records a right answer to the question may be (empty when nothing answers it); with `judged`
    False, only those it was written or labelled for (what the ranking and the question layers learn from)."""
    answers: set[str] = set()
    for rid in (question.record_id, *question.also, *(question.judged if judged else ())) \
            if question.record_id else ():
        if rid in index.library.records:
            answers |= families.get(ranking.answer_family(index.library.records[rid]), {rid})
    return answers


def record_folds(answerable: list[Question], folds: int) -> dict[str, int]:
    """Folds by record, so a record's questions are never both fitted and judged (question layers, ranking
    and confidence share them)."""
    return {rid: i % folds for i, rid in enumerate(sorted({q.record_id for q in answerable}))}


def collect(index, questions: list[Question], understood: dict, vectors: dict | None,
            leave_out: bool = False) -> list[Sample]:
    """Candidates and features for each question, through the product's own evidence function
    (`leave_out`: without the records that answer it, so that the question becomes unanswerable)."""
    reader = reader_of(index)
    families = answer_families(index)
    every = {rid for rid, r in index.library.records.items() if r.is_answer}
    samples = []
    for question in questions:
        read = understood[id(question)]
        answers = answers_of(index, question, families)
        allowed = every - answers if leave_out else None
        vector = vectors[reader.encoder_text(read)] if vectors is not None else None
        found = ranking.evidence(index, reader, read, allowed, vector)
        if not found:
            continue
        ids = list(found)
        right = np.array([rid in answers and not leave_out for rid in ids])
        own = answers_of(index, question, families, judged=False)
        label = Question(question.text, question.style, None if leave_out else question.record_id,
                         "left-out" if leave_out else question.kind, question.post, question.also, question.judged)
        families_shown = [ranking.family_of(index.library.records[rid]) for rid in ids]
        fan = question.record_id is not None and is_fan(index, question)
        samples.append(Sample(label, ids, np.array([found[rid].features for rid in ids], dtype=np.float64), right,
                              right & np.array([rid in own for rid in ids]), families_shown,
                              [index.library.records[rid] for rid in ids], read, [found[rid] for rid in ids],
                              weight=FAN_QUESTION_WEIGHT if fan else 1.0))
    return samples


def fit_ranking(samples: list[Sample], active: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """Pairwise logistic regression: each right candidate should outscore the wrong ones of its question, by
    the question's own labels (`Sample.learned`). Fitted on the readers' wider labels too, it was no better
    judged by them on held-out folds (top-1: blind post 72.7% -> 70.2%, blind table 77.2% -> 76.6%, the rest
    within half a point), so they count only for confidence and the figures."""
    weights = np.zeros(len(model.FEATURES)) if start is None else start.copy()
    diffs, pair_weights = [], []
    for sample in samples:
        if not sample.learned.any():
            continue
        scores = sample.features @ weights
        wrong = np.where(~sample.learned)[0]
        wrong = wrong[np.argsort(-scores[wrong])][:NEGATIVE_PAIRS]
        if not len(wrong):
            continue
        for good in np.where(sample.learned)[0][:2]:
            diffs.append(sample.features[good] - sample.features[wrong])
            pair_weights.append(np.full(len(wrong), sample.weight / len(wrong)))
    x = np.vstack(diffs)[:, active]
    capped = np.array([n in BASE_FIRST_FEATURES for n, a in zip(model.FEATURES, active, strict=True) if a])
    pw = np.concatenate(pair_weights)
    pw /= pw.mean()
    w = weights[active]
    rate = 0.5
    for _ in range(3000):
        margin = np.clip(x @ w, -30, 30)
        gradient = -(x * (pw / (1.0 + np.exp(margin)))[:, None]).mean(axis=0) + L2_RANKING * w
        w -= rate * gradient
        w[capped] = np.minimum(w[capped], -BASE_FIRST_PENALTY)
    weights = np.zeros(len(model.FEATURES))
    weights[active] = w
    return weights


def fit_second_stage(samples: list[Sample], weights: np.ndarray) -> tuple[dict, object]:
    """LambdaMART over each question's best SECOND_STAGE_TOP first-stage candidates, started from the
    first-stage score: (its JSON form for ranking.json, the stage as the product reads it). Checked: the
    product's tree walk gives LightGBM's own predictions."""
    import lightgbm

    rows, labels, groups, start = [], [], [], []
    for sample in samples:
        first = sample.features @ weights
        head = np.argsort(-first, kind="stable")[:SECOND_STAGE_TOP]
        if not sample.learned[head].any():
            continue
        rows.append(np.hstack([sample.features[head], first[head, None]]))
        labels.append(sample.learned[head].astype(int))
        groups.append(len(head))
        start.append(first[head])
    x = np.vstack(rows)
    ranker = lightgbm.LGBMRanker(**SECOND_STAGE)
    ranker.fit(x, np.concatenate(labels), group=groups, init_score=np.concatenate(start))
    data = {"top": SECOND_STAGE_TOP,
            "trees": [_flat_tree(t["tree_structure"]) for t in ranker.booster_.dump_model()["tree_info"]]}
    stage = second_stage.parse_second_stage(data, x.shape[1])
    if not np.allclose(stage.correction(x[:2000]), ranker.predict(x[:2000], raw_score=True), atol=1e-6):
        raise SystemExit("the second stage's trees walk differently from LightGBM's: not written")
    return data, stage


def _flat_tree(root: dict) -> dict:
    """A LightGBM tree (dump_model) as arrays in pre-order, children after their parent."""
    tree: dict[str, list] = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}

    def add(node: dict) -> int:
        at = len(tree["feature"])
        for column in tree.values():
            column.append(0)
        if "leaf_value" in node:
            tree["feature"][at], tree["left"][at], tree["right"][at] = -1, -1, -1
            tree["value"][at] = round(float(node["leaf_value"]), 9)
            return at
        if node["decision_type"] != "<=" or node.get("missing_type", "None") not in ("None", "NaN"):
            raise SystemExit(f"a split the product does not walk: {node['decision_type']} {node.get('missing_type')}")
        tree["feature"][at], tree["threshold"][at] = int(node["split_feature"]), float(node["threshold"])
        tree["left"][at] = add(node["left_child"])
        tree["right"][at] = add(node["right_child"])
        return at

    add(root)
    return tree


def ranked_positions(sample: Sample, weights: np.ndarray, stage=None) -> tuple[np.ndarray, int | None]:
    """Candidate order as the product ranks them (both stages, then the vote), and the position of the first right one
    after collapsing families."""
    order, _ = ranking.order(sample.evidence, sample.features @ weights, stage)
    return order, first_right(order, sample.families, sample.right)


def first_right(order, families, right) -> int | None:
    """Where the first right candidate stands in `order` once each family shows only its best (as the
    product shows them), or None."""
    seen: set[str] = set()
    for i in order:
        if families[i] in seen:
            continue
        seen.add(families[i])
        if right[i]:
            return len(seen) - 1
    return None


def confidence_rows(samples: list[Sample], weights: np.ndarray,
                    stage=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Confidence evidence of each question's first hit, whether that hit is right, and the sample weights."""
    rows, labels = [], []
    for sample in samples:
        order, scores = ranking.order(sample.evidence, sample.features @ weights, stage)
        position = first_right(order, sample.families, sample.right)
        ranked = [(ranking.ScoredHit(sample.records[i], scores[i]), sample.evidence[i]) for i in order]
        rows.append(confidence.confidence_evidence(ranked, sample.understood))
        labels.append(position == 0)
    return (np.array(rows, dtype=np.float64), np.array(labels, dtype=np.float64),
            np.array([s.weight for s in samples], dtype=np.float64))


def style_of(sample: Sample) -> str:
    """How a sample's question was written (`table`, `blind-post`, ...), or for an unanswerable one, its kind."""
    return sample.question.style if sample.question.record_id else sample.question.kind


def leaning_blind(samples: list[Sample], weight: np.ndarray) -> np.ndarray:
    """The confidence fit's sample weights: the blind-written questions BLIND_CONFIDENCE_WEIGHT times their own."""
    blind = blind_written(np.array([style_of(s) for s in samples]))
    return weight * np.where(blind, BLIND_CONFIDENCE_WEIGHT, 1.0)


def fit_logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Weighted logistic regression by Newton's method (features standardised inside, coefficients raw)."""
    weight = weight / weight.mean()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    beta = np.zeros(z.shape[1])
    penalty = l2 * np.eye(z.shape[1])
    penalty[0, 0] = 0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -30, 30)))
        gradient = z.T @ (weight * (p - y)) / len(y) + penalty @ beta
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z / len(y) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    coefficients = beta[1:] / scale
    return coefficients, float(beta[0] - (coefficients * mean).sum())


def probabilities(x: np.ndarray, coefficients: np.ndarray, intercept: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x @ coefficients + intercept, -30, 30)))


def threshold_for(p: np.ndarray, y: np.ndarray, weight: np.ndarray, precision: float) -> float:
    """The lowest probability cut whose confident answers are right at least `precision` of the time."""
    order = np.argsort(-p)
    right = np.cumsum((weight * y)[order])
    counts = np.cumsum(weight[order])
    # A cut keeps every answer at its probability: precision is read only where a run of ties ends.
    ordered = p[order]
    whole = np.append(ordered[1:] != ordered[:-1], True)
    good = np.where((right / counts >= precision) & whole)[0]
    if not len(good):
        return 0.99
    cut = ordered[good.max()]
    return float(min(0.99, max(0.05, cut)))


def blind_written(styles: np.ndarray) -> np.ndarray:
    """The held-out questions written blind, answered by a record or not (`blind-*` styles, `blind-unanswered`):
    the nearest we have to what players send."""
    return np.char.startswith(styles.astype(str), "blind")


def players_mix(weight: np.ndarray, unanswered: np.ndarray) -> np.ndarray:
    """The weights with the rows no record answers scaled to UNANSWERED_SHARE of all the rows given."""
    answered = weight[~unanswered].sum()
    scaled = weight.copy()
    if answered > 0 and weight[unanswered].sum() > 0:
        scaled[unanswered] *= UNANSWERED_SHARE / (1 - UNANSWERED_SHARE) * answered / weight[unanswered].sum()
    return scaled


def confident_from(p: np.ndarray, y: np.ndarray, weight: np.ndarray, styles: np.ndarray,
                   unanswered: np.ndarray) -> float:
    """The threshold: the lowest probability whose confident answers are right HELD_OUT_PRECISION of the time
    at players' mix (players_mix) over every held-out question and over the blind-written ones alone. The mix is
    mostly questions written while reading their record, which are easier to be sure of than players' own: with
    the readers' wider labels (training/also-answers.yaml), 90% over the mix came at 0.71, where blind-written
    questions' confident answers were right 81% of the time. Over every question, the rows no record answers
    weigh their share of what players send, not the half of our rows they are: else the questions whose
    record is left out (the hardest unanswerable ones, whose other candidates nobody judged) set the threshold
    (`docs/levers.md`)."""
    blind = blind_written(styles)
    return max(threshold_for(p, y, players_mix(weight, unanswered), HELD_OUT_PRECISION),
               threshold_for(p[blind], y[blind], players_mix(weight[blind], unanswered[blind]), HELD_OUT_PRECISION))


def local_rate(p: np.ndarray, value: np.ndarray, weight: np.ndarray, window: int = LEVEL_WINDOW):
    """(probabilities in increasing order, the weighted mean of `value` among the `window` held-out answers
    nearest each): how often something holds at a given probability, not above or below it."""
    order = np.argsort(p)
    kernel = np.ones(min(window, len(p)))
    rate = np.convolve((weight * value)[order], kernel, "same") / np.convolve(weight[order], kernel, "same")
    return p[order], rate


def show_best_for(p: np.ndarray, y: np.ndarray, weight: np.ndarray, threshold: float) -> float:
    """The lowest probability from which, up to the threshold, the first hit is right at least
    SHOW_BEST_PRECISION of the time where it stands."""
    levels, rate = local_rate(p, y, weight)
    below = np.where((rate < SHOW_BEST_PRECISION) & (levels < threshold))[0]
    if not len(below) or below.max() + 1 >= len(levels):
        return threshold
    return float(min(threshold, levels[below.max() + 1]))


def floor_for(p: np.ndarray, top3: np.ndarray, weight: np.ndarray) -> float:
    """The highest probability up to which the right answer is among the first three candidates at most
    FLOOR_TOP3 of the time where it stands: under it, candidates would mislead more than help."""
    levels, rate = local_rate(p, top3, weight)
    above = np.where(rate > FLOOR_TOP3)[0]
    return float(levels[above.min() - 1]) if len(above) and above.min() > 0 else 0.0


def fit_mode(index, answerable, negatives, understood, vectors, folds: int,
             with_stage: bool = False) -> tuple[dict, dict]:
    """Weights, confidence and cross-validated figures for one mode (and its second stage, when asked)."""
    hybrid = vectors is not None
    l2 = L2_CONFIDENCE[model.HYBRID if hybrid else model.LEXICAL]
    active = np.array([hybrid or not name.startswith("semantic") for name in model.FEATURES])
    started = time.perf_counter()
    positive = collect(index, answerable, understood, vectors)
    left_out = collect(index, random.Random(7).sample(answerable, len(answerable) // 3), understood, vectors,
                       leave_out=True)
    unanswerable = collect(index, negatives, understood, vectors)
    # Questions whose record was left out are the hardest unanswerable questions, not the commonest:
    # together they weigh as much as the written unanswerable questions.
    scale = sum(s.weight for s in unanswerable) / sum(s.weight for s in left_out)
    for sample in left_out:
        sample.weight *= scale
    print(f"  collected {len(positive)} + {len(left_out)} + {len(unanswerable)} samples "
          f"in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    record_fold = record_folds(answerable, folds)
    for sample in positive:
        sample.fold = record_fold[sample.question.record_id]
    for i, sample in enumerate(left_out + unanswerable):
        sample.fold = i % folds
    held_p, held_y, held_w, held_style, held_pos, held_top3, first_pos = [], [], [], [], [], [], []
    held_x, held_fold = [], []  # the confidence evidence, for trying confidence models without refitting
    held_unanswered = []  # the rows no record answers (written so, or their record left out)
    held_text, ranked_text = [], []  # which question each held-out row and position is, for looking at subsets
    fan_pos = []  # the same positions for the questions about a fan rule, reported apart
    for fold in range(folds):
        train = [s for s in positive if s.fold != fold]
        weights = fit_ranking(train, active, fit_ranking(train, active))
        stage = fit_second_stage(train, weights)[1] if with_stage else None
        test = [s for s in positive if s.fold == fold]
        for sample in test:
            held_pos.append((sample.question.style, ranked_positions(sample, weights, stage)[1]))
            ranked_text.append(sample.question.text)
            if is_fan(index, sample.question):
                fan_pos.append(held_pos[-1])
            first_pos.append((sample.question.style, ranked_positions(sample, weights)[1]))
        held_top3 += [position is not None and position < 3 for _, position in held_pos[-len(test):]]
        held_top3 += [False] * sum(1 for s in left_out + unanswerable if s.fold == fold)
        fitted_on = train + [s for s in left_out + unanswerable if s.fold != fold]
        held_out = test + [s for s in left_out + unanswerable if s.fold == fold]
        cx, cy, cw = confidence_rows(fitted_on, weights, stage)
        coefficients, intercept = fit_logistic(cx, cy, leaning_blind(fitted_on, cw), l2)
        tx, ty, tw = confidence_rows(held_out, weights, stage)
        held_p.append(probabilities(tx, coefficients, intercept))
        held_x.append(tx)
        held_fold += [fold] * len(tx)
        held_y.append(ty)
        held_w.append(tw)
        held_style += [style_of(s) for s in held_out]
        held_text += [s.question.text for s in held_out]
        held_unanswered += [s.question.record_id is None for s in held_out]
    p, y, pw = np.concatenate(held_p), np.concatenate(held_y), np.concatenate(held_w)
    unanswered = np.array(held_unanswered)
    threshold = confident_from(p, y, pw, np.array(held_style), unanswered)
    # Kept for looking at the levels without refitting (.fit-cache is not checked in).
    np.savez(CACHE / f"held-out-{'hybrid' if hybrid else 'lexical'}.npz", p=p, y=y, weight=pw,
             top3=np.array(held_top3), style=np.array(held_style), text=np.array(held_text),
             ranked_text=np.array(ranked_text), ranked_style=np.array([s for s, _ in held_pos]),
             ranked=np.array([-1 if r is None else r for _, r in held_pos]),
             x=np.concatenate(held_x), fold=np.array(held_fold), unanswered=unanswered)
    show_best = show_best_for(p, y, pw, threshold)
    floor = min(show_best, floor_for(p, np.array(held_top3, dtype=np.float64), pw))
    weights = fit_ranking(positive, active, fit_ranking(positive, active))
    stage_data, stage = fit_second_stage(positive, weights) if with_stage else (None, None)
    every = positive + left_out + unanswerable
    cx, cy, cw = confidence_rows(every, weights, stage)
    coefficients, intercept = fit_logistic(cx, cy, leaning_blind(every, cw), l2)
    figures = summarise(held_pos, p, y, pw, held_style, threshold, fan_pos)
    if with_stage:
        first = [position for _, position in first_pos]
        figures["first stage alone, top1"] = sum(r == 0 for r in first) / len(first)
        figures["first stage alone, top3"] = sum(r is not None and r < 3 for r in first) / len(first)
        figures["both stages, top1"] = sum(r == 0 for _, r in held_pos) / len(held_pos)
        figures["both stages, top3"] = sum(r is not None and r < 3 for _, r in held_pos) / len(held_pos)
    fitted = {"weights": [round(float(w), 5) for w in weights],
              "confidence": [round(float(c), 5) for c in coefficients], "intercept": round(intercept, 5),
              "threshold": round(threshold, 4), "show_best": round(show_best, 4), "floor": round(floor, 4)}
    if stage_data is not None:
        fitted["second_stage"] = stage_data
    return fitted, figures


def rank_figures(ranks: list[int | None]) -> dict:
    return {"n": len(ranks), "top1": sum(r == 0 for r in ranks) / len(ranks),
            "top3": sum(r is not None and r < 3 for r in ranks) / len(ranks)}


def is_fan(index, question: Question) -> bool:
    return index.library.records[question.record_id].grade == "fan-rule"


def summarise(positions, p, y, weight, styles, threshold, fan_positions=()) -> dict:
    """Per style: top-1 and top-3 of the held-out questions (and of those about a fan rule alone); then,
    weighted as in the fit, the precision of confident answers, the share of answerable ones right and
    confident, and of unanswerable ones confident."""
    figures: dict = {}
    for style in sorted({s for s, _ in positions}):
        figures[style] = rank_figures([r for s, r in positions if s == style])
    for style in sorted({s for s, _ in fan_positions}):
        figures[f"{style}, fan rules"] = rank_figures([r for s, r in fan_positions if s == style])
    sure = p >= threshold
    answerable = np.array([s in figures for s in styles])
    figures["confident_precision"] = float((weight * y)[sure].sum() / weight[sure].sum()) if sure.any() else 0.0
    figures["answerable_right_and_confident"] = float(
        (weight * (sure & (y == 1) & answerable)).sum() / max(1e-9, weight[answerable].sum()))
    figures["unanswerable_confident"] = float(
        (weight * (sure & ~answerable)).sum() / max(1e-9, weight[~answerable].sum()))
    blind = blind_written(np.array(styles))
    figures["blind_confident_precision"] = float(
        (weight * y)[sure & blind].sum() / max(1e-9, weight[sure & blind].sum()))
    figures["blind_answerable_right_and_confident"] = float(
        (weight * (sure & (y == 1) & answerable & blind)).sum() / max(1e-9, weight[answerable & blind].sum()))
    figures["blind_unanswerable_confident"] = float(
        (weight * (sure & ~answerable & blind)).sum() / max(1e-9, weight[~answerable & blind].sum()))
    mixed = players_mix(weight, ~answerable)
    figures["confident_precision_at_players_mix"] = float((mixed * y)[sure].sum() / max(1e-9, mixed[sure].sum()))
    mixed = players_mix(weight[blind], ~answerable[blind])
    figures["blind_confident_precision_at_players_mix"] = float(
        (mixed * y[blind])[sure[blind]].sum() / max(1e-9, mixed[sure[blind]].sum()))
    return figures


def refuse_eval_repeats() -> None:
    """Stop before any training when the training data or the curated YAML repeats an eval question: bench.py's
    own check (every string of a post, its questions included), over the eval sets beside the project when they
    are there and our own check sets. Found after the question layers' hour of training, a repeat costs that hour."""
    import bench

    items = [item for path in bench.DEFAULT_SETS + bench.CHECK_SETS if path.is_file()
             for item in yaml.safe_load(path.read_text("utf-8"))]
    problems = bench.overlap_report(items)
    if problems:
        print("\n".join(["eval questions repeated; remove them before fitting:", *problems]), file=sys.stderr)
        raise SystemExit(1)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--check-only", action="store_true", help="print the figures, do not write the file")
    parser.add_argument("--second-stage", action="store_true",
                        help="also fit the second stage's trees (needs the fit extra: LightGBM); not shipped now")
    args = parser.parse_args(argv)
    refuse_eval_repeats()
    answerable, negatives = load_questions()
    index = store.open_index()
    understood = understand_all(index, answerable + negatives)
    reader = reader_of(index)
    texts = {key: reader.encoder_text(u) for key, u in understood.items()}
    vectors = held_out_vectors(index, answerable, negatives, texts, args.folds, args.check_only)
    result = {"features": list(model.FEATURES), "confidence_features": list(model.CONFIDENCE_FEATURES)}
    report = {}
    for mode, mode_vectors in ((model.HYBRID, vectors), (model.LEXICAL, None)):
        print(f"fitting {mode} ...", file=sys.stderr)
        result[mode], report[mode] = fit_mode(index, answerable, negatives, understood, mode_vectors, args.folds,
                                              args.second_stage)
    result["fitted_on"] = (f"{len(answerable)} generated player questions (posts read as the product reads them) "
                           f"and {len(negatives)} unanswerable ones "
                           f"(training/), {args.folds} folds by record; target precision {TARGET_PRECISION}, "
                           f"{HELD_OUT_PRECISION} held out")
    for mode, figures in report.items():
        print(f"\n{mode} (held-out folds):")
        for key, value in figures.items():
            print(f"  {key:32s} {json.dumps(value) if isinstance(value, dict) else f'{value:.1%}'}")
        print(f"  threshold {result[mode]['threshold']}, best shown in full from {result[mode]['show_best']}, "
              f"floor {result[mode]['floor']}")
        pairs = zip(model.FEATURES, result[mode]["weights"], strict=True)
        print("  weights " + ", ".join(f"{n}={w:+.2f}" for n, w in pairs))
    if not args.check_only:
        OUT.write_text(json.dumps(result, indent=1) + "\n", "utf-8")
        shipped.write_checksums(OUT.parent)
        print(f"\nwrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
