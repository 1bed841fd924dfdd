"""scripts/fit.py refuses to write a ranking fitted for question layers other than the shipped ones, yet the
same tuning run on another CPU rounds a few of its int8 differences one step the other way: that is still
the shipped tuning (same_tuning); a retrained or different tuning is not."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import fit  # noqa: E402

SIZE = 100_000


def shipped() -> dict:
    rng = np.random.default_rng(3)
    return {"encoder.layer.0.output.dense.weight.difference": rng.integers(-127, 128, SIZE, dtype=np.int8),
            "encoder.layer.0.output.dense.weight.difference.scale": rng.random(SIZE // 100, dtype=np.float32),
            "encoder.layer.0.output.dense.bias": rng.standard_normal(384).astype(np.float32)}


def moved(name: str, change) -> dict:
    layers = shipped()
    layers[name] = change(layers[name].copy())
    return layers


def nudge(values: np.ndarray, count: int, step: int) -> np.ndarray:
    values[:count] = np.clip(values[:count].astype(np.int16) + step, -128, 127).astype(np.int8)
    return values


def test_the_same_arrays_are_the_same_tuning():
    assert fit.same_tuning(shipped(), shipped())


def test_a_few_values_rounded_one_step_away_are_the_same_tuning():
    name = "encoder.layer.0.output.dense.weight.difference"
    assert fit.same_tuning(shipped(), moved(name, lambda v: nudge(v, 14, 1)))  # 0.014%, as measured
    floats = "encoder.layer.0.output.dense.bias"
    assert fit.same_tuning(shipped(), moved(floats, lambda v: v + 0.004 * np.abs(v).max()))  # a key bias's drift


def test_two_steps_many_values_or_other_floats_are_another_tuning():
    name = "encoder.layer.0.output.dense.weight.difference"
    assert not fit.same_tuning(shipped(), moved(name, lambda v: nudge(v, 1, 2)))
    assert not fit.same_tuning(shipped(), moved(name, lambda v: nudge(v, SIZE // 100, 1)))  # 1%
    floats = "encoder.layer.0.output.dense.bias"
    assert not fit.same_tuning(shipped(), moved(floats, lambda v: v + 0.05 * np.abs(v).max()))
    scales = "encoder.layer.0.output.dense.weight.difference.scale"  # tiny numbers: judged by their own size
    assert not fit.same_tuning(shipped(), moved(scales, lambda v: v * 1e-5))
    assert not fit.same_tuning(moved(scales, lambda v: v * 1e-5), moved(scales, lambda v: v * 1.1e-5))


def test_another_layout_is_another_tuning():
    layers = shipped()
    del layers["encoder.layer.0.output.dense.bias"]
    assert not fit.same_tuning(shipped(), layers)
    name = "encoder.layer.0.output.dense.weight.difference"
    assert not fit.same_tuning(shipped(), moved(name, lambda v: v.astype(np.int16)))
