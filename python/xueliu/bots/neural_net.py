"""The neural bot's network in numpy: the weights file, its checks, and the forward pass.

A weights file is one ``.npz`` (docs/training.md, "The weights file"):

- ``meta``: a JSON text (as ``uint8`` bytes) with ``format`` (``"xueliu-neural-v1"``),
  ``encoder`` (``"obs_v1"``; ``"obs_v2"``: ``obs_v1`` and its analysis channels,
  :mod:`xueliu.learn.analysis`; ``"obs_v3"``: ``obs_v2`` and the won-wait channels,
  :mod:`xueliu.learn.won_waits`), ``sizes`` (the layer widths, input first:
  ``[2484, h1, …, 175]`` for ``obs_v1``, ``[2997, …]`` for ``obs_v2``, ``[3186, …]`` for
  ``obs_v3``),
  ``presets`` (the rules the weights were trained for: preset name → ``Rules.to_dict()``) and
  ``training`` (how they were made: command, seed, steps — informative only);
- ``w0, b0, w1, b1, …``: matrices ``[in, out]`` (``float32``, or ``float16`` to halve the file:
  read as ``float32``) and ``float32`` biases ``[out]`` of a plain multi-layer perceptron, ReLU
  between layers, the last layer's outputs the logits of the 175 indices of
  :mod:`xueliu.learn.actions`;
- optionally ``danger`` in ``meta``: ``{"penalty": B}``. The last layer then has 27
  more outputs, the logits of the network's estimate of the chance that discarding each kind
  deals in at once (its danger head, trained on
  :func:`xueliu.game.deal_in_costs.deal_in_costs` ``> 0``), and the policy's logit of
  discarding kind ``k`` is its logit minus ``B`` times that chance: the learned price of a
  deal-in, weighed against the imitated choice;
- optionally ``views`` in ``meta``: ``{"margin": M}``. :class:`~xueliu.bots.NeuralBot`
  then asks the network about the table under the twelve renamings of its tiles at its close
  calls — the decisions whose first choice leads the second by under ``M`` nats of
  log-probability — and plays the twelve answers' average there (:mod:`.neural_views`).

The training code (:mod:`xueliu.train`, PyTorch) writes exactly this; :func:`forward` is the one
inference path (numpy and the native core's first layer, ``_core.first_layer_01``: the default
install needs nothing more), so what the tests check here is what plays.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from .. import _core
from ..learn.actions import NUM_ACTIONS
from ..learn.channels import OBS_V1
from ..learn.network_inputs import INPUT_WIDTHS, network_input
from ..rules import Rules

__all__ = ["FORMAT", "ENCODERS", "INPUT_SIZE", "Network", "load_network", "save_network", "DEFAULT_WEIGHTS",
           "UntrainedRulesError", "WILD_TILES_REFUSED", "DANGER_KINDS"]

FORMAT = "xueliu-neural-v1"
INPUT_SIZE = len(OBS_V1) * 27
"""The input of the bot's network calls: the ``obs_v1`` tensor of the seat, flattened (92 × 27);
an ``obs_v2`` or ``obs_v3`` network adds its channels itself (:meth:`Network.forward`)."""
ENCODERS = dict(INPUT_WIDTHS)
"""The encoders a weights file may name, with the width of its first layer."""
DEFAULT_WEIGHTS = os.path.join(os.path.dirname(__file__), "weights", "neural_v1.npz")
"""The weights shipped in the package (``xueliu/bots/weights/neural_v1.npz``)."""


class UntrainedRulesError(ValueError):
    """The rules in play are not among those the weights were trained for."""


WILD_TILES_REFUSED = (
    "the neural bot does not play wild tiles (docs/rules.md §12): its input (obs_v1) has no "
    "wild kinds, 红中 or soft melds, and no weights are trained for a wild-tile table; play "
    "these rules with the expert or greedy bot")
""":class:`UntrainedRulesError`'s message for rules with wild tiles (``Rules.has_wilds``)."""


DANGER_KINDS = 27
"""Outputs of a danger head: one per kind (its discard is index ``k``)."""

_PLANE = 27
"""Inputs per plane (one per tile kind; flags and bars fill a plane's first n)."""


@dataclass(frozen=True)
class Network:
    """A loaded weights file: ``layers`` (``(w, b)`` pairs, ``float32``), ``presets`` (preset
    name → the rules dict it was trained for), ``meta`` (the whole JSON header; its
    ``encoder``, default ``"obs_v1"``, says what the first layer reads)."""

    layers: Tuple[Tuple[np.ndarray, np.ndarray], ...]
    presets: Mapping[str, Mapping[str, Any]]
    meta: Mapping[str, Any]
    first_rows: np.ndarray = field(init=False, repr=False, compare=False)
    """The first layer's row table (:func:`_first_layer_rows`, read-only): what its sums read."""
    _input: Optional[Callable[[np.ndarray], np.ndarray]] = field(init=False, repr=False,
                                                                 compare=False)
    danger_penalty: Optional[float] = field(init=False, repr=False, compare=False)
    """``B`` of a network with a danger head (the module docstring), else None: read from
    ``meta`` once, not on every forward pass."""
    views_margin: float = field(init=False, repr=False, compare=False)
    """``M`` of a file with ``views`` (the module docstring), else 0: never ask the views."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "first_rows", _first_layer_rows(self.layers[0][0]))
        object.__setattr__(self, "_input", network_input(self.encoder, self.presets))
        d = self.meta.get("danger")
        object.__setattr__(self, "danger_penalty", None if d is None else float(d["penalty"]))
        v = self.meta.get("views")
        object.__setattr__(self, "views_margin", 0.0 if v is None else float(v["margin"]))

    @property
    def encoder(self) -> str:
        return str(self.meta.get("encoder", "obs_v1"))

    def inputs(self, x: np.ndarray) -> np.ndarray:
        """The first layer's input of ``obs_v1`` tensors ``x``: themselves (``obs_v1``), or
        ``obs_v2`` or ``obs_v3`` (with the channels computed from them, at the trained presets'
        fan tables)."""
        if self._input is not None:
            return self._input(x)
        return np.asarray(x, np.float32).reshape(len(x), INPUT_SIZE)

    def outputs(self, x: np.ndarray) -> np.ndarray:
        """The last layer of ``obs_v1`` inputs ``x``: the 175 logits, then the danger head's 27
        logits (of the chance each discard deals in) when the network has one."""
        return self.outputs_of_inputs(self.inputs(x))

    def outputs_of_inputs(self, h: np.ndarray) -> np.ndarray:
        """The last layer of first-layer inputs ``h`` (:meth:`inputs`' rows)."""
        return self.outputs_of_sums(_first_layer(h, self.layers[0][0], self.first_rows))

    def outputs_of_sums(self, h: np.ndarray,
                        product: Optional[Callable[[np.ndarray, np.ndarray], np.ndarray]] = None
                        ) -> np.ndarray:
        """The last layer of the first layer's sums ``h`` (its inputs times its weights, before
        the bias; float32, overwritten): what the renamed tables' views start from. ``product``
        multiplies by each later layer's weights (default ``_product``; the row-exact batch passes
        its own)."""
        multiply = _product if product is None else product
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            if i:
                h = multiply(h, w)
            h += b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return h

    def forward(self, x: np.ndarray) -> np.ndarray:
        """``float32[n, 175]`` logits of ``obs_v1`` inputs ``x`` (``float32[n, 2484]`` or
        ``[n, 92, 27]``), each discard's less its danger penalty when the network has one."""
        h = self.outputs(x)
        penalty = self.danger_penalty
        if penalty is None:
            return h
        logits = h[:, :NUM_ACTIONS]
        chance = 1.0 / (1.0 + np.exp(-h[:, NUM_ACTIONS:]))
        logits[:, :DANGER_KINDS] -= np.float32(penalty) * chance
        return np.ascontiguousarray(logits)

    def preset_of(self, rules: Rules) -> str:
        """The name of the trained preset ``rules`` are, else :class:`UntrainedRulesError`
        naming what differs from the nearest trained preset (or, for rules with wild tiles,
        saying that the bot does not play them)."""
        if rules.has_wilds:
            raise UntrainedRulesError(WILD_TILES_REFUSED)
        d = rules.to_dict()
        for name, trained in self.presets.items():
            if _same(d, trained):
                return name
        nearest = min(self.presets.items(), key=lambda kv: len(_differences(d, kv[1])))
        diff = _differences(d, nearest[1])
        raise UntrainedRulesError(
            f"the neural bot's weights were trained for the presets {', '.join(self.presets)} "
            f"only; these rules are not one of them (nearest: {nearest[0]!r}, which differs in "
            f"{', '.join(diff[:6])}{' …' if len(diff) > 6 else ''}); train weights for them with "
            "python -m xueliu.train (docs/training.md)")


_BLOCK = 8
"""Rows per matrix product: OpenBLAS runs a product this small on the calling thread."""


def _product(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``x @ w`` in blocks of :data:`_BLOCK` rows (see :func:`_first_layer` for why)."""
    if len(x) <= _BLOCK:
        return x @ w  # type: ignore[no-any-return]
    out = np.empty((len(x), w.shape[1]), np.float32)
    for i in range(0, len(x), _BLOCK):
        np.matmul(x[i:i + _BLOCK], w, out=out[i:i + _BLOCK])
    return out


def _first_layer_rows(w: np.ndarray) -> np.ndarray:
    """The rows :func:`_first_layer` sums: ``w``'s own (2,484 for ``obs_v1``), then for each
    plane ``p`` and ``n`` in 1..27 the sum of the plane's first ``n`` rows, then a row of zeros
    (padding)."""
    prefix = np.cumsum(w.reshape(len(w) // _PLANE, _PLANE, -1), axis=1, dtype=np.float64)
    rows = np.concatenate([w, prefix.reshape(len(w), -1).astype(np.float32),
                           np.zeros((1, w.shape[1]), np.float32)])
    rows.setflags(write=False)
    return rows


_COLUMN = np.arange(_PLANE)
_ROWS_A_GATHER = 32
"""Inputs summed per gather: bounds the temporary array (``32 × rows × width`` floats)."""


def _first_layer(x: np.ndarray, w: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``x @ w`` for the 0/1 planes of ``obs_v1`` as sums of rows of ``w``, no BLAS call.

    Why no BLAS: OpenBLAS threads a product this size, and on a loaded machine its threads wait
    for cores — a single decision took 50 ms instead of 0.5 ms (measured here). Why not the rows
    of all inputs on (about 400 of 2,484): a plane whose ones are its first ``n`` inputs (every
    flag, bar and count plane, many tile planes) is one precomputed prefix sum
    (:func:`_first_layer_rows`), so about 105 rows are summed per input of a played hand instead
    (16 prefix rows, 90 single ones, measured on the benchmark's hands) — the sum is
    memory-bound, its cost the number of rows. The sums are the native core's
    (``_core.first_layer_01``, cpp/dense.hpp: what :func:`_first_layer_numpy` does, in the same
    order, without its index tables — about half of a batched game's time was those tables).
    Inputs that are not 0/1 take the plain product."""
    x = np.ascontiguousarray(x, np.float32)
    out = np.empty((len(x), rows.shape[1]), np.float32)
    if _core.first_layer_01(x, rows, out):
        return out
    return _product(x, rows[:len(w)])  # rows begin with the weights they were made of


def _first_layer_numpy(x: np.ndarray, w: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """:func:`_first_layer`'s sums in numpy, in the native kernel's order: the reference
    tests/test_neural_native.py holds the kernel to."""
    n, size = len(x), len(w)
    planes = size // _PLANE
    on = x.reshape(n, planes, _PLANE) != 0
    if not (x.reshape(n, planes, _PLANE)[on] == 1.0).all():
        return _product(x, w)
    counts = on.sum(axis=2)
    prefix = (on == (_COLUMN < counts[..., None])).all(axis=2)
    p_row, p_plane = np.nonzero(prefix & (counts > 0))
    o_row, o_col = np.nonzero((on & ~prefix[..., None]).reshape(n, size))
    row = np.concatenate([p_row, o_row])
    index = np.concatenate([size + p_plane * _PLANE + counts[p_row, p_plane] - 1, o_col])
    order = np.argsort(row, kind="stable")
    row, index = row[order], index[order]
    start = np.searchsorted(row, np.arange(n))
    table = np.full((n, int(np.bincount(row, minlength=n).max(initial=0))), len(rows) - 1,
                    np.int64)
    table[row, np.arange(len(row)) - start[row]] = index
    out = np.empty((n, w.shape[1]), np.float32)
    for i in range(0, n, _ROWS_A_GATHER):
        rows[table[i:i + _ROWS_A_GATHER]].sum(axis=1, out=out[i:i + _ROWS_A_GATHER])
    return out


def _canonical(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=_json_default))


def _json_default(o: Any) -> Any:
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    if isinstance(o, tuple):
        return list(o)
    raise TypeError(f"not JSON: {type(o).__name__}")


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return bool(_canonical(a) == _canonical(b))


def _differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> List[str]:
    ca, cb = _canonical(a), _canonical(b)
    return sorted(k for k in set(ca) | set(cb) if ca.get(k) != cb.get(k))


def _number_at(entry: Any, key: str) -> bool:
    """Whether ``entry`` is a dict whose ``key`` is a finite number >= 0 (a meta knob)."""
    value = entry.get(key) if isinstance(entry, dict) else None
    return (not isinstance(value, bool) and isinstance(value, (int, float))
            and bool(np.isfinite(value)) and value >= 0)


def _meta_array(meta: Mapping[str, Any]) -> np.ndarray:
    data: np.ndarray = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)
    out: np.ndarray = data.copy()
    return out


def save_network(path: str, layers: List[Tuple[np.ndarray, np.ndarray]],
                 presets: Mapping[str, Rules], training: Mapping[str, Any],
                 encoder: str = "obs_v1", half: bool = False,
                 danger_penalty: Optional[float] = None,
                 views_margin: Optional[float] = None) -> None:
    """Writes a weights file (the format of the module docstring); ``half`` stores the ``w``
    matrices as ``float16`` (half the file; they are read back as ``float32``, so the network
    played is the one with its weights rounded to half precision); ``danger_penalty``: the last
    layer ends with a danger head, whose chances this weighs against the discards' logits;
    ``views_margin``: the bot asks the renamed tables about its close calls within it."""
    sizes = [int(layers[0][0].shape[0])] + [int(w.shape[1]) for w, _ in layers]
    meta: Dict[str, Any] = {
        "format": FORMAT, "encoder": encoder, "sizes": sizes,
        "presets": {name: _canonical(r.to_dict()) for name, r in presets.items()},
        "training": _canonical(dict(training))}
    if danger_penalty is not None:
        meta["danger"] = {"penalty": float(danger_penalty)}
    if views_margin is not None:
        meta["views"] = {"margin": float(views_margin)}
    arrays: Dict[str, np.ndarray] = {"meta": _meta_array(meta)}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.ascontiguousarray(w, np.float16 if half else np.float32)
        arrays[f"b{i}"] = np.ascontiguousarray(b, np.float32)
    _check(meta, [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(len(layers))], path)
    tmp = path + ".tmp.npz"
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def _check(meta: Mapping[str, Any], layers: List[Tuple[np.ndarray, np.ndarray]],
           path: str) -> None:
    def bad(what: str) -> ValueError:
        return ValueError(f"{path}: not a neural bot weights file: {what}")

    if meta.get("format") != FORMAT:
        raise bad(f"format {meta.get('format')!r}, expected {FORMAT!r}")
    if meta.get("encoder") not in ENCODERS:
        raise bad(f"encoder {meta.get('encoder')!r}, expected one of {', '.join(ENCODERS)}")
    width = ENCODERS[meta["encoder"]]
    presets = meta.get("presets")
    if not isinstance(presets, dict) or not presets:
        raise bad("no trained presets")
    for name, d in presets.items():
        try:
            Rules.from_dict(d)
        except (TypeError, ValueError) as e:
            raise bad(f"preset {name!r}: {e}") from None
    sizes = meta.get("sizes")
    if not layers:
        raise bad("no layers")
    danger = meta.get("danger")
    if danger is not None and not _number_at(danger, "penalty"):
        raise bad(f"danger {danger!r}, expected {{'penalty': a number >= 0}}")
    views = meta.get("views")
    if views is not None:
        if not _number_at(views, "margin"):
            raise bad(f"views {views!r}, expected {{'margin': a number >= 0}}")
        if danger is not None:
            raise bad("views are asked of networks without a danger head")
    outputs = NUM_ACTIONS + (DANGER_KINDS if danger is not None else 0)
    if sizes != [width] + [int(w.shape[1]) for w, _ in layers] or sizes[-1] != outputs:
        raise bad(f"layer sizes {sizes}, expected {width} inputs ({meta['encoder']}) and "
                  f"{outputs} outputs" + (" (175 logits and a danger head)" if danger else ""))
    prev = width
    for i, (w, b) in enumerate(layers):
        if w.dtype not in (np.float32, np.float16) or b.dtype != np.float32 or w.ndim != 2 \
                or w.shape[0] != prev or b.shape != (w.shape[1],):
            raise bad(f"layer {i}: w {w.shape} {w.dtype}, b {b.shape} {b.dtype}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise bad(f"layer {i} is not finite")
        prev = w.shape[1]


_LOADED: Dict[Tuple[str, float], Network] = {}


def load_network(path: Optional[Union[str, os.PathLike[str]]] = None) -> Network:
    """The network of the weights file ``path`` (default: the shipped :data:`DEFAULT_WEIGHTS`),
    read once per process and file version (simulate makes a bot per hand)."""
    p = os.fspath(DEFAULT_WEIGHTS if path is None else path)
    try:
        key = (os.path.abspath(p), os.stat(p).st_mtime)
    except OSError as e:
        raise FileNotFoundError(f"neural bot weights {p!r}: {e.strerror}") from None
    net = _LOADED.get(key)
    if net is None:
        meta, layers = _read(p)
        _check(meta, layers, p)
        layers = [(w.astype(np.float32, copy=False), b) for w, b in layers]  # float16 files too
        for w, b in layers:
            w.setflags(write=False)
            b.setflags(write=False)
        net = _LOADED[key] = Network(tuple(layers), meta["presets"], meta)
    return net


def _read(p: str) -> Tuple[Dict[str, Any], List[Tuple[np.ndarray, np.ndarray]]]:
    """The meta and the ``(w, b)`` arrays of the weights file ``p``; a file that is not one is a
    ValueError naming ``p`` and what it is instead (never numpy's own words: for a file that is
    not a zip archive they are advice to load it unsafely, as a pickle)."""
    try:
        with open(p, "rb") as f:
            magic = f.read(4)
    except OSError as e:
        raise FileNotFoundError(f"neural bot weights {p!r}: {e.strerror}") from None
    if magic != b"PK\x03\x04":  # every .npz is a zip archive
        raise ValueError(f"{p}: not a neural bot weights file (not an .npz archive)")
    try:
        with np.load(p, allow_pickle=False) as z:
            files = set(z.files)
            if "meta" not in files:
                raise ValueError(f"{p}: not a neural bot weights file: no meta")
            n = sum(1 for f in files if f.startswith("w"))
            missing = [k for i in range(n) for k in (f"w{i}", f"b{i}") if k not in files]
            if missing:
                raise ValueError(f"{p}: not a neural bot weights file: no array "
                                 f"{', '.join(missing)} (its layers are w0, b0, w1, b1, …)")
            raw = z["meta"]
            layers = [(z[f"w{i}"], z[f"b{i}"]) for i in range(n)]
    except ValueError as e:
        if str(e).startswith(f"{p}: "):
            raise
        # numpy's refusal of an object array, or an entry that is no .npy array
        raise ValueError(f"{p}: not a neural bot weights file: an array that is not plain "
                         "numbers") from None
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error):
        raise ValueError(f"{p}: not a neural bot weights file (a truncated or damaged .npz "
                         "archive)") from None
    try:
        meta = json.loads(bytes(raw).decode())
    except (ValueError, TypeError):
        meta = None
    if not isinstance(meta, dict):
        raise ValueError(f"{p}: not a neural bot weights file: meta is not a JSON object")
    return meta, layers
