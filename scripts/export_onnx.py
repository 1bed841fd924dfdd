#!/usr/bin/env python3
"""Make rootfaq/model_data/minilm-l6-v2.layers.int8.onnx: the six transformer layers that encode a question
(the shipped model's, as tuned for questions: encoder.QUESTION_LAYERS_FILE), for onnxruntime, with 8-bit
weights.

    pip install -e '.[export]'
    python scripts/export_onnx.py

The layers are written as an ONNX graph from the shipped safetensors files (their sha256 checked), in
float32, the same operations as rootfaq/search/encoder.py's numpy question pass (this script checks that
onnxruntime gives its vectors on sample sentences); then onnxruntime's MatMulNBits quantiser makes every
weight matrix 8-bit, unsigned, with a scale and zero point per block of 32 inputs of each output column, run
with 8-bit activations per block (`accuracy_level` 4). The saved graph's MatMulNBits nodes carry
`weight_prepacked`, which onnxruntime reads from 1.28 on (1.22-1.27 refuse the file: the numpy pass then
runs; pyproject's lower bound). Measured against the float32 question pass over 300 training questions,
cosine on average (at worst):
  - these blocks: 0.9996 (0.9994), a question in 2.3-2.7 ms;
  - the same blocks with float32 activations: 0.9999, but 13 ms (no fast kernel for them);
  - `quantize_dynamic`, one scale and zero point per column, each activation tensor quantised whole (what
    shipped before): 0.993 (0.987), 1.7-1.9 ms; int8 symmetric per column: 0.929; one scale per matrix: 0.963
    (the tuned layers differ from the shipped int8 rows by less than half a step of that grid);
  - float32 weights: 1.0, but 42.6 MB, 3.9 ms a question and a session twice as slow to start.
The fit (scripts/fit.py) measures questions encoded by the float32 pass, so the closer, the truer its figures.
What is written is onnxruntime's own optimisation of that graph (checked to give the same outputs loaded as
rootfaq loads it, with no optimiser pass). The word-piece embeddings stay in numpy (a question reads a few
rows of them). The output is the same bytes every time for the same pinned versions (the `export` extra);
prints its sha256, which goes into rootfaq/search/encoder.py and rootfaq/model_data/SOURCE.md.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from rootfaq.search import encoder  # noqa: E402

OUTPUT = Path(__file__).resolve().parent.parent / "rootfaq" / "model_data" / encoder.LAYERS_FILE
SAMPLES = ["can the cats build in a ruin?", "what happens when the keep is destroyed",
           "Vagabond aid: do I get the item if the player has none to give? We argued about it all night."]


class Graph:
    """Nodes and constants of an ONNX graph, each output named after its node."""

    def __init__(self) -> None:
        self.nodes: list = []
        self.constants: list = []

    def constant(self, name: str, value) -> str:
        self.constants.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, kind: str, inputs: list[str], name: str, **attributes) -> str:
        self.nodes.append(helper.make_node(kind, inputs, [name], **attributes))
        return name


def _weight(arrays: dict, name: str):
    """A weight matrix as MatMul takes it, (in, out) float32 (from int8 rows and their scales, or float32)."""
    return encoder.dequantized(arrays, name).T.copy()


def _layer(g: Graph, arrays: dict, i: int, x: str) -> str:
    """One transformer layer over x, as encoder.Encoder._numpy_layers computes it; its output's name."""
    p, n = f"encoder.layer.{i}.", f"l{i}."

    def dense(inputs: str, matrix: str, bias: str, name: str) -> str:
        product = g.op("MatMul", [inputs, g.constant(n + name + ".w", _weight(arrays, p + matrix))], n + name + ".mm")
        return g.op("Add", [product, g.constant(n + name + ".b", arrays[p + bias])], n + name)

    def norm(inputs: str, prefix: str, name: str) -> str:
        return g.op("LayerNormalization", [inputs, g.constant(n + name + ".g", arrays[prefix + ".weight"]),
                                           g.constant(n + name + ".beta", arrays[prefix + ".bias"])],
                    n + name, axis=-1, epsilon=encoder.LAYER_NORM_EPS)

    projections = ("query", "key", "value")
    qkv_weight = np.concatenate([_weight(arrays, f"{p}attention.self.{k}.weight") for k in projections], 1)
    qkv_bias = np.concatenate([arrays[f"{p}attention.self.{k}.bias"] for k in projections])
    qkv = g.op("Add", [g.op("MatMul", [x, g.constant(n + "qkv.w", qkv_weight)], n + "qkv.mm"),
                       g.constant(n + "qkv.b", qkv_bias)], n + "qkv")
    g.nodes.append(helper.make_node("Split", [qkv, "qkv_sizes"], [n + "q", n + "k", n + "v"], axis=-1))
    q, k, v = (g.op("Transpose", [g.op("Reshape", [n + s, "split_heads"], n + s + ".heads")], n + s + ".t",
                    perm=[0, 2, 1, 3]) for s in "qkv")
    scores = g.op("MatMul", [q, g.op("Transpose", [k], n + "k.tt", perm=[0, 1, 3, 2])], n + "scores")
    scores = g.op("Add", [g.op("Mul", [scores, "attention_scale"], n + "scaled"), "key_mask"], n + "masked")
    weights = g.op("Softmax", [scores], n + "softmax", axis=-1)
    context = g.op("Transpose", [g.op("MatMul", [weights, v], n + "context")], n + "context.t", perm=[0, 2, 1, 3])
    context = g.op("Reshape", [context, "join_heads"], n + "context.joined")
    attended = dense(context, "attention.output.dense.weight", "attention.output.dense.bias", "out")
    x = norm(g.op("Add", [x, attended], n + "residual1"), p + "attention.output.LayerNorm", "norm1")
    hidden = dense(x, "intermediate.dense.weight", "intermediate.dense.bias", "up")
    erf = g.op("Erf", [g.op("Mul", [hidden, "gelu_scale"], n + "gelu.in")], n + "erf")
    gelu = g.op("Mul", [g.op("Mul", [hidden, "half"], n + "gelu.half"), g.op("Add", [erf, "one"], n + "erf1")],
                n + "gelu")
    return norm(g.op("Add", [x, dense(gelu, "output.dense.weight", "output.dense.bias", "down")], n + "residual2"),
                p + "output.LayerNorm", "norm2")


def layers_graph(arrays: dict) -> onnx.ModelProto:
    """hidden = the six layers applied to x (the normalised embeddings), key_mask added to attention scores."""
    g = Graph()
    head = encoder.DIMENSIONS // encoder.HEADS
    g.constant("split_heads", np.array([0, 0, encoder.HEADS, head], np.int64))
    g.constant("join_heads", np.array([0, 0, encoder.DIMENSIONS], np.int64))
    g.constant("qkv_sizes", np.array([encoder.DIMENSIONS] * 3, np.int64))
    g.constant("attention_scale", np.array(encoder.ATTENTION_SCALE, np.float32))
    g.constant("gelu_scale", np.array(encoder.GELU_SCALE, np.float32))
    g.constant("half", np.array(0.5, np.float32))
    g.constant("one", np.array(1.0, np.float32))
    x = "x"
    for i in range(encoder.LAYERS):
        x = _layer(g, arrays, i, x)
    g.nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        g.nodes, "minilm_l6_v2_layers",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "tokens", encoder.DIMENSIONS]),
         helper.make_tensor_value_info("key_mask", TensorProto.FLOAT, ["batch", 1, 1, "tokens"])],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "tokens", encoder.DIMENSIONS])],
        g.constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="rootfaq")
    model.ir_version = 8  # onnxruntime 1.16 and later read it
    onnx.checker.check_model(model)
    return model


def optimized_bytes(quantized: Path, output: Path) -> None:
    """Write onnxruntime's own optimisation of the quantised graph (its fused int8 kernels) to `output`,
    so that a question's session loads it as it is, with no optimiser pass (encoder.question_layers): half
    the session's start, and a graph that must give the same vectors as the one optimised at load."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    # "extended", not "all": the layout passes above it are for the machine that runs them.
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(output)
    onnxruntime.InferenceSession(str(quantized), options, providers=["CPUExecutionProvider"])
    loaded_as_is = encoder.question_layers(output.read_bytes())
    optimised_at_load = onnxruntime.InferenceSession(str(quantized), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    for length in (5, 17, 64, 256):
        feed = {"x": rng.standard_normal((1, length, encoder.DIMENSIONS), dtype=np.float32),
                "key_mask": np.zeros((1, 1, 1, length), dtype=np.float32)}
        if not np.array_equal(loaded_as_is.run(None, feed)[0], optimised_at_load.run(None, feed)[0]):
            raise SystemExit(f"the saved optimised graph does not give the same output ({length} word pieces)")


def main() -> int:
    numpy_pass = encoder.load_encoder(questions="numpy")  # the shipped files, their sha256 checked
    expected = numpy_pass.encode_questions(SAMPLES)

    def worst_cosine(model: bytes) -> float:
        numpy_pass.question_layers = encoder.question_layers(model)
        cosines = [float(expected[n] @ numpy_pass.encode_questions([s])[0]) for n, s in enumerate(SAMPLES)]
        numpy_pass.question_layers = None
        return min(cosines)

    with tempfile.TemporaryDirectory() as work:
        full = Path(work) / "layers-f32.onnx"
        onnx.save(layers_graph(encoder.question_arrays(numpy_pass._arrays, numpy_pass.question_differences)), full)
        worst = worst_cosine(full.read_bytes())
        if worst < 0.9999:
            raise SystemExit(f"the float32 graph does not match the numpy pass (cosine {worst:.5f})")
        quantized = Path(work) / "layers-int8.onnx"
        blocks = MatMulNBitsQuantizer(onnx.load(full), bits=8, block_size=32, is_symmetric=False, accuracy_level=4)
        blocks.process()
        onnx.save(blocks.model.model, quantized)
        optimized_bytes(quantized, OUTPUT)
    worst = worst_cosine(OUTPUT.read_bytes())
    print(f"wrote {OUTPUT} ({OUTPUT.stat().st_size:,} bytes), sha256 {hashlib.sha256(OUTPUT.read_bytes()).hexdigest()}")
    print(f"cosine to the numpy question pass on {len(SAMPLES)} samples: {worst:.4f} at worst")
    return 0


if __name__ == "__main__":
    sys.exit(main())
