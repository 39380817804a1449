"""The PyTorch side of the network: the model trained (policy logits and a value head on one
trunk), its export to the numpy weights file the bot plays, and the check that both agree.

Only the policy is exported (the value head serves training alone): the trunk's linear layers
and the policy head, transposed to ``[in, out]``, as :mod:`xueliu.bots.neural_net` reads them.
"""

from __future__ import annotations

import copy
from typing import Any, List, Mapping, Sequence, Tuple

import numpy as np
import torch
from torch import nn

from ..bots.neural_net import ENCODERS, load_network, save_network
from ..learn.actions import NUM_ACTIONS
from ..learn.network_inputs import network_input
from ..rules import Rules
from .demos import INPUT

__all__ = ["PolicyNet", "export", "layers_of", "masked_logits"]


class PolicyNet(nn.Module):
    """``input -> hidden… (ReLU) -> 175 logits``, and a value from the last hidden layer. It is
    given ``obs_v1`` tensors; ``encoder="obs_v2"`` or ``"obs_v3"`` adds the channels computed from
    them first (numpy, no gradient: a function of the input), at the fan tables of ``presets``."""

    def __init__(self, hidden: Sequence[int], encoder: str = "obs_v1",
                 presets: Sequence[str] = ("xueliu", "xuezhan")) -> None:
        super().__init__()
        self.encoder = encoder
        self.presets = tuple(presets)
        self.input = network_input(encoder, {p: Rules.preset(p).to_dict() for p in presets})
        sizes = [ENCODERS[encoder], *hidden]
        self.hidden = list(hidden)
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.pi = nn.Linear(sizes[-1], NUM_ACTIONS)
        self.v = nn.Linear(sizes[-1], 1)

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """The last hidden layer (what both heads read)."""
        h = x.reshape(len(x), INPUT)
        if self.input is not None:
            h = torch.from_numpy(self.input(h.detach().cpu().numpy()))
        for layer in self.trunk:
            h = torch.relu(layer(h))
        return h

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        h = self.features(x)
        return self.pi(h), self.v(h).squeeze(-1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with disallowed indices at -1e9 (finite: a softmax stays defined)."""
    return logits.masked_fill(~mask, -1e9)


def layers_of(model: PolicyNet) -> List[Tuple[np.ndarray, np.ndarray]]:
    """The policy's layers as numpy ``(w [in, out], b)`` pairs."""
    out = []
    for layer in [*model.trunk, model.pi]:
        out.append((layer.weight.detach().cpu().numpy().T.copy().astype(np.float32),
                    layer.bias.detach().cpu().numpy().copy().astype(np.float32)))
    return out


def logit_tolerance(logits: np.ndarray) -> float:
    """How far numpy's logits may be from PyTorch's: the two sum the first layer in different
    orders, so float32 rounding grows with the size of the logits (1e-4 of the largest, at least
    1e-4)."""
    return 1e-4 * max(1.0, float(np.abs(logits).max()))


def load_layers(model: PolicyNet, net: Any) -> None:
    """Sets the policy's layers to those of a bot's numpy ``Network`` (the inverse of
    :func:`layers_of`; the value head is left as it is). A network of an earlier encoder whose
    channels begin the model's (``obs_v2`` into ``obs_v3``) is widened: the new inputs start with
    zero weights, so the model plays as the network did until trained. ``ValueError`` if the
    shapes or the encoders do not fit."""
    layers = [*model.trunk, model.pi]
    width = ENCODERS[model.encoder]
    sizes = [int(net.layers[0][0].shape[0])] + [int(w.shape[1]) for w, _ in net.layers]
    order = list(ENCODERS)  # each encoder's channels begin with the previous one's
    if (order.index(net.encoder) > order.index(model.encoder)
            or sizes[1:] != [*model.hidden, NUM_ACTIONS]):
        raise ValueError(f"the weights ({net.encoder}, sizes {sizes}) are not a network of this "
                         f"run ({model.encoder}, hidden {model.hidden})")
    with torch.no_grad():
        for i, (layer, (w, b)) in enumerate(zip(layers, net.layers)):
            if i == 0 and w.shape[0] < width:
                w = np.concatenate([w, np.zeros((width - w.shape[0], w.shape[1]), w.dtype)])
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))
            layer.bias.copy_(torch.from_numpy(np.array(b)))


def export(model: PolicyNet, path: str, presets: Sequence[str], training: Mapping[str, Any],
           check_inputs: np.ndarray, reference: str = "", half: bool = False) -> float:
    """Writes the weights file ``path`` and checks the numpy forward pass against the model's on
    ``check_inputs`` (``float32[n, INPUT]``); returns the largest difference (an error above
    :func:`logit_tolerance`). ``reference``, when given, receives ``(inputs as bits, logits)`` made by PyTorch: the
    default test run checks the numpy path against it without PyTorch. ``half``: the weights are
    stored in half precision, and both checks are of a copy of the model with its weights
    rounded so (what the file plays); the model itself is left as it is."""
    if half:
        model = copy.deepcopy(model)
        with torch.no_grad():
            for layer in [*model.trunk, model.pi]:
                layer.weight.copy_(layer.weight.half().float())
    save_network(path, layers_of(model), {p: Rules.preset(p) for p in presets}, training,
                 encoder=model.encoder, half=half)
    net = load_network(path)
    with torch.no_grad():
        expected = model(torch.from_numpy(check_inputs))[0].numpy()
    got = net.forward(check_inputs)
    diff = float(np.abs(got - expected).max())
    if diff > logit_tolerance(expected):
        raise AssertionError(f"numpy and torch logits differ by {diff} after export")
    if reference:
        np.savez_compressed(reference, x=np.packbits(check_inputs.astype(np.uint8), axis=1),
                            logits=expected.astype(np.float32))
    return diff
