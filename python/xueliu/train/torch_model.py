"""The PyTorch side of the network: the model trained (policy logits and a value head on one
trunk), its export to the numpy weights file the bot plays, and the check that both agree.

Only the policy is exported (the value head serves training alone): the trunk's linear layers
and the policy head, transposed to ``[in, out]``, as :mod:`xueliu.bots.neural_net` reads them —
with the danger head's 27 outputs after the policy's when the model has one (``--danger-loss``).
"""

from __future__ import annotations

import copy
from typing import Any, List, Mapping, Sequence, Tuple, cast

import numpy as np
import torch
from torch import nn

from ..bots.neural_net import DANGER_KINDS, ENCODERS, load_network, save_network
from ..learn.actions import NUM_ACTIONS
from ..learn.network_inputs import network_input
from ..rules import Rules
from .demos import INPUT

__all__ = ["PolicyNet", "export", "layers_of", "masked_logits", "penalised"]


class PolicyNet(nn.Module):
    """``input -> hidden… (ReLU) -> 175 logits``, and a value from the last hidden layer. It is
    given ``obs_v1`` tensors; ``encoder="obs_v2"`` or ``"obs_v3"`` adds the channels computed from
    them first (numpy, no gradient: a function of the input), at the fan tables of ``presets``.
    ``danger``: a third head, 27 logits of the chance that discarding each kind deals in."""

    def __init__(self, hidden: Sequence[int], encoder: str = "obs_v1",
                 presets: Sequence[str] = ("xueliu", "xuezhan"), danger: bool = False) -> None:
        super().__init__()
        self.encoder = encoder
        self.presets = tuple(presets)
        self.input = network_input(encoder, {p: Rules.preset(p).to_dict() for p in presets})
        sizes = [ENCODERS[encoder], *hidden]
        self.hidden = list(hidden)
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.pi = nn.Linear(sizes[-1], NUM_ACTIONS)
        self.v = nn.Linear(sizes[-1], 1)
        self.danger = nn.Linear(sizes[-1], DANGER_KINDS) if danger else None

    def features(self, x: torch.Tensor) -> torch.Tensor:
        """The last hidden layer (what both heads read)."""
        h = x.reshape(len(x), INPUT)
        if self.input is not None:
            h = torch.from_numpy(self.input(h.detach().cpu().numpy()))
        for layer in self.trunk:
            h = torch.relu(layer(h))
        return h

    def trunk_layers(self) -> List[nn.Linear]:
        """The trunk's linear layers, in order."""
        return [cast(nn.Linear, layer) for layer in self.trunk]

    def exported_heads(self) -> List[nn.Linear]:
        """The heads the weights file holds, in its last layer's order."""
        return [self.pi] if self.danger is None else [self.pi, self.danger]

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        h = self.features(x)
        return self.pi(h), self.v(h).squeeze(-1)


def penalised(logits: torch.Tensor, danger: torch.Tensor, penalty: float) -> torch.Tensor:
    """The policy's logits with each discard's less ``penalty`` times its chance of dealing in
    (the sigmoid of the danger head): what :meth:`xueliu.bots.neural_net.Network.forward`
    plays."""
    return torch.cat([logits[:, :DANGER_KINDS] - penalty * torch.sigmoid(danger),
                      logits[:, DANGER_KINDS:]], dim=1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with disallowed indices at -1e9 (finite: a softmax stays defined)."""
    return logits.masked_fill(~mask, -1e9)


def layers_of(model: PolicyNet) -> List[Tuple[np.ndarray, np.ndarray]]:
    """The policy's layers as numpy ``(w [in, out], b)`` pairs (the danger head's outputs after
    the policy's in the last)."""
    out = []
    for layer in model.trunk_layers():
        out.append((layer.weight.detach().cpu().numpy().T.copy().astype(np.float32),
                    layer.bias.detach().cpu().numpy().copy().astype(np.float32)))
    heads = model.exported_heads()
    out.append((np.concatenate([h.weight.detach().cpu().numpy().T for h in heads], axis=1)
                .astype(np.float32),
                np.concatenate([h.bias.detach().cpu().numpy() for h in heads]).astype(np.float32)))
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
    shapes or the encoders do not fit. A network with a danger head gives it to a model that has
    one; one without starts the model's at zero — the same chance for every kind, so the network
    plays as it did whatever the penalty, and no gradient reaches the trunk through the head's
    first steps (a randomly started head's did: it undid half of BC in the first hundred steps).
    A network narrower than the model (each hidden layer at most the model's, as many of them) is
    widened the same way: its units are the model's first, the model's others start at random but
    are read with zero weights, so again the model plays as the network did until trained."""
    width = ENCODERS[model.encoder]
    sizes = [int(net.layers[0][0].shape[0])] + [int(w.shape[1]) for w, _ in net.layers]
    order = list(ENCODERS)  # each encoder's channels begin with the previous one's
    outputs = NUM_ACTIONS + (DANGER_KINDS if model.danger is not None else 0)
    if (order.index(net.encoder) > order.index(model.encoder)
            or len(sizes) - 2 != len(model.hidden)
            or any(a > b for a, b in zip(sizes[1:-1], model.hidden))
            or sizes[-1] not in (NUM_ACTIONS, outputs)):
        raise ValueError(f"the weights ({net.encoder}, sizes {sizes}) are not a network of this "
                         f"run ({model.encoder}, hidden {model.hidden})")
    *hidden, (w_last, b_last) = net.layers
    pairs = [*zip(model.trunk_layers(), hidden), (model.pi, (w_last[:, :NUM_ACTIONS], b_last[:NUM_ACTIONS]))]
    if model.danger is not None and w_last.shape[1] == outputs:
        pairs.append((model.danger, (w_last[:, NUM_ACTIONS:], b_last[NUM_ACTIONS:])))
    with torch.no_grad():
        if model.danger is not None and w_last.shape[1] != outputs:
            model.danger.weight.zero_()
            model.danger.bias.zero_()
        for i, (layer, (w, b)) in enumerate(pairs):
            if i == 0 and w.shape[0] < width:
                w = np.concatenate([w, np.zeros((width - w.shape[0], w.shape[1]), w.dtype)])
            # A wider layer keeps its random start in its new units' inputs and bias; the next
            # layer reads those units with zero weights, so the model plays as the network did.
            rows, cols = w.shape
            if i > 0:
                layer.weight[:, rows:] = 0.0
            layer.weight[:cols, :rows] = torch.from_numpy(np.ascontiguousarray(w.T))
            layer.bias[:cols] = torch.from_numpy(np.array(b))


def export(model: PolicyNet, path: str, presets: Sequence[str], training: Mapping[str, Any],
           check_inputs: np.ndarray, reference: str = "", half: bool = False,
           danger_penalty: float = 0.0) -> float:
    """Writes the weights file ``path`` and checks the numpy forward pass against the model's on
    ``check_inputs`` (``float32[n, INPUT]``); returns the largest difference (an error above
    :func:`logit_tolerance`). ``reference``, when given, receives ``(inputs as bits, logits)`` made by PyTorch: the
    default test run checks the numpy path against it without PyTorch. ``half``: the weights are
    stored in half precision, and both checks are of a copy of the model with its weights
    rounded so (what the file plays); the model itself is left as it is. A model with a danger
    head is exported with it and ``danger_penalty`` (the logits checked are the penalised ones)."""
    if half:
        model = copy.deepcopy(model)
        with torch.no_grad():
            for layer in [*model.trunk_layers(), *model.exported_heads()]:
                layer.weight.copy_(layer.weight.half().float())
    save_network(path, layers_of(model), {p: Rules.preset(p) for p in presets}, training,
                 encoder=model.encoder, half=half,
                 danger_penalty=None if model.danger is None else danger_penalty)
    net = load_network(path)
    with torch.no_grad():
        h = model.features(torch.from_numpy(check_inputs))
        expected_t = model.pi(h)
        if model.danger is not None:
            expected_t = penalised(expected_t, model.danger(h), danger_penalty)
        expected = expected_t.numpy()
    got = net.forward(check_inputs)
    diff = float(np.abs(got - expected).max())
    if diff > logit_tolerance(expected):
        raise AssertionError(f"numpy and torch logits differ by {diff} after export")
    if reference:
        np.savez_compressed(reference, x=np.packbits(check_inputs.astype(np.uint8), axis=1),
                            logits=expected.astype(np.float32))
    return diff
