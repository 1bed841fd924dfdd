"""The second stage: boosted trees that re-order the first stage's best candidates, read from plain arrays,
checked on load, walked in numpy (rootfaq/search/second_stage.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rootfaq.search import model as fitted
from rootfaq.search.second_stage import SecondStageError, parse_second_stage, reorder

# Two trees over two inputs (a feature, then the first-stage score), in pre-order, children after parents:
# tree 1: x0 <= 0.5 ? (x1 <= 1.0 ? +3 : -1) : +0.5;  tree 2: a single leaf, +0.25.
TREES = {"top": 3, "trees": [
    {"feature": [0, 1, -1, -1, -1], "threshold": [0.5, 1.0, 0, 0, 0], "left": [1, 2, -1, -1, -1],
     "right": [4, 3, -1, -1, -1], "value": [0, 0, 3.0, -1.0, 0.5]},
    {"feature": [-1], "threshold": [0], "left": [-1], "right": [-1], "value": [0.25]},
]}


def test_the_trees_are_walked_as_written():
    stage = parse_second_stage(TREES, inputs=2)
    assert stage.depth == 2
    rows = [[0.2, 0.5], [0.2, 2.0], [0.9, 0.0], [0.5, 1.0]]  # at a threshold: left, as LightGBM goes
    assert stage.correction(rows).tolist() == [3.25, -0.75, 0.75, 3.25]


def test_only_the_first_stage_best_are_reordered_and_the_rest_keep_their_place():
    stage = parse_second_stage(TREES, inputs=2)
    first = [2.0, 3.0, 1.0, 0.5, 0.9]  # first-stage order: 1, 0, 2, 4, 3; the top three are re-scored
    features = [[0.9], [0.9], [0.2], [0.2], [0.2]]
    order, scores = reorder(first, features, stage)
    assert order.tolist() == [2, 1, 0, 4, 3]  # candidate 2 jumps from third to first; 4 and 3 stay behind
    assert scores[2] == pytest.approx(1.0 + 3.25) and scores[4] == 0.9
    plain, same = reorder(first, features, None)
    assert list(plain) == [1, 0, 2, 4, 3] and list(same) == first


def test_without_a_stage_the_order_needs_no_numpy():
    """Search on words works where numpy cannot be imported: the first stage's order is plain Python."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['numpy'] = None\n"
            "from rootfaq.search.second_stage import reorder\n"
            "print(reorder([1.0, 3.0, 3.0, 2.0], [[0.0]] * 4, None)[0])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == "[1, 2, 3, 0]", result.stderr


@pytest.mark.parametrize("damage, message", [
    (lambda t: t["trees"][0]["left"].__setitem__(1, 0), "points back"),  # a cycle
    (lambda t: t["trees"][0]["feature"].__setitem__(0, 7), "out of range"),
    (lambda t: t["trees"][0]["value"].__setitem__(2, float("nan")), "not a number"),
    (lambda t: t["trees"][0]["threshold"].pop(), "different lengths"),
    (lambda t: t.__setitem__("top", 0), "size"),
    (lambda t: t["trees"][1].pop("value"), "cannot be read"),
])
def test_a_damaged_stage_is_refused_never_walked(damage, message):
    trees = json.loads(json.dumps(TREES))
    damage(trees)
    with pytest.raises(SecondStageError, match=message):
        parse_second_stage(trees, inputs=2)


def test_a_fitted_file_with_a_stage_loads_it_and_a_damaged_one_is_a_data_error():
    """The shipped ranking.json holds no second stage (it lost on the blind sets: README); a file that
    holds one gets it, checked, in each mode."""
    data = json.loads((Path(fitted.__file__).parents[1] / "model_data" / fitted.RANKING_FILE).read_text("utf-8"))
    assert all(fitted.fitted_model().modes[m].second_stage is None for m in (fitted.HYBRID, fitted.LEXICAL))
    staged = json.loads(json.dumps(data))
    staged["hybrid"]["second_stage"] = TREES
    loaded = fitted.parse_ranking_model(staged)
    assert loaded.modes[fitted.HYBRID].second_stage.top == 3 and loaded.modes[fitted.LEXICAL].second_stage is None
    staged["hybrid"]["second_stage"]["trees"][0]["feature"][0] = len(fitted.FEATURES) + 1
    with pytest.raises(fitted.RankingDataError, match="second stage"):
        fitted.parse_ranking_model(staged)
