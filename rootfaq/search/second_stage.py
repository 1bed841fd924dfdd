"""The second stage: boosted trees that re-order the first stage's best candidates.

The first stage is the fitted linear score over model.FEATURES. The second reads the same features and
that score for the TOP candidates and adds a correction learnt by gradient-boosted trees (LambdaMART,
fitted by scripts/fit.py from the linear score as its starting point, on generated questions only), so
the ruling that the linear score put second can come first; candidates below TOP keep their order after
them. The trees ship as plain arrays in ranking.json, checked on load (shapes, child indices that only
point forward, feature numbers in range, finite numbers), and are walked here in numpy, every tree and
every candidate at once: no pickle, no LightGBM at run time.

    stage = fitted_model().modes[HYBRID].second_stage
    order, scores = reorder(first_scores, feature_rows, stage)
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TREES = 2000
MAX_NODES = 256  # per tree: LightGBM's trees here have 15 leaves, 29 nodes


class SecondStageError(ValueError):
    """The second stage in the fitted file is malformed."""


@dataclass(frozen=True)
class SecondStage:
    """Trees as padded arrays (trees x nodes): the feature a node splits on (-1 at a leaf), its threshold
    (go left when the value is at most it), its children, and a leaf's value."""

    top: int  # how many of the first stage's best it re-orders
    feature: object  # int64 (trees, nodes)
    threshold: object  # float64 (trees, nodes)
    left: object  # int64
    right: object  # int64
    value: object  # float64
    depth: int  # the longest path from a root to a leaf

    def correction(self, rows):
        """The trees' sum for each row of inputs (candidates x (FEATURES + first-stage score))."""
        import numpy as np

        rows = np.asarray(rows, dtype=np.float64)
        trees = np.arange(self.feature.shape[0])[:, None]
        node = np.zeros((self.feature.shape[0], len(rows)), dtype=np.int64)
        candidate = np.arange(len(rows))[None, :]
        for _ in range(self.depth):
            feature = self.feature[trees, node]
            inner = feature >= 0
            value = rows[candidate, np.where(inner, feature, 0)]
            step = np.where(value <= self.threshold[trees, node], self.left[trees, node], self.right[trees, node])
            node = np.where(inner, step, node)
        return self.value[trees, node].sum(axis=0)


def reorder(first_scores, features, stage: SecondStage | None):
    """(candidate order, score of each candidate): the first stage's order with its TOP re-ordered by
    first score + correction; without a second stage, the first stage's order and scores, in plain Python
    (search on words must work where numpy cannot be imported)."""
    if stage is None or not len(first_scores):
        scores = list(first_scores)
        return sorted(range(len(scores)), key=lambda i: -scores[i]), scores
    import numpy as np

    first = np.asarray(first_scores, dtype=np.float64)
    order = np.argsort(-first, kind="stable")
    head = order[: stage.top]
    rows = np.hstack([np.asarray(features, dtype=np.float64)[head], first[head, None]])
    scores = first.copy()
    scores[head] = first[head] + stage.correction(rows)
    head = head[np.argsort(-scores[head], kind="stable")]
    return np.concatenate([head, order[stage.top :]]), scores


def parse_second_stage(data: dict | None, inputs: int) -> SecondStage | None:
    """The second stage from its JSON form; None when the file has none; SecondStageError when malformed."""
    if data is None:
        return None
    import numpy as np

    try:
        top = int(data["top"])
        trees = data["trees"]
        if not 1 <= top <= 200 or not isinstance(trees, list) or not 1 <= len(trees) <= MAX_TREES:
            raise SecondStageError("the second stage's size is out of range")
        width = max(len(tree["feature"]) for tree in trees)
        if width > MAX_NODES:
            raise SecondStageError("a tree of the second stage is too large")
        arrays = {name: np.full((len(trees), width), -1 if name in ("feature", "left", "right") else 0.0,
                                dtype=np.int64 if name in ("feature", "left", "right") else np.float64)
                  for name in ("feature", "threshold", "left", "right", "value")}
        for t, tree in enumerate(trees):
            size = len(tree["feature"])
            for name, array in arrays.items():
                column = tree[name]
                if len(column) != size:
                    raise SecondStageError("a tree of the second stage has columns of different lengths")
                array[t, :size] = column
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SecondStageError):
            raise
        raise SecondStageError(f"the second stage cannot be read ({type(exc).__name__})") from None
    inner = arrays["feature"] >= 0
    nodes = np.arange(width)[None, :]
    forward = (arrays["left"] > nodes) & (arrays["right"] > nodes) & (arrays["left"] < width) & \
        (arrays["right"] < width)
    if (arrays["feature"] >= inputs).any() or not forward[inner].all() or \
            not np.isfinite(arrays["threshold"]).all() or not np.isfinite(arrays["value"]).all():
        raise SecondStageError("the second stage has a node that points back, out of range, or is not a number")
    depth = _depth(arrays["feature"], arrays["left"], arrays["right"])
    return SecondStage(top, arrays["feature"], arrays["threshold"], arrays["left"], arrays["right"],
                       arrays["value"], depth)


def _depth(feature, left, right) -> int:
    """The longest root-to-leaf path over all trees (children point forward, so one pass in order)."""
    deepest = 0
    for t in range(feature.shape[0]):
        level = {0: 0}
        for node in range(feature.shape[1]):
            if node not in level:
                continue
            if feature[t, node] >= 0:
                for child in (int(left[t, node]), int(right[t, node])):
                    level[child] = level[node] + 1
            else:
                deepest = max(deepest, level[node])
    return deepest

