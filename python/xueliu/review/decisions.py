"""Walks a record decision by decision and values each decision of one seat (docs/review.md).

The seat's observations are taken exactly where :func:`xueliu.bots.play_hand` would have asked
its bot (every time the seat is pending, in order), so the expert's memory of the hand grows as
it does in play: a hand the expert played reviews at full agreement and no regret.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..bots.autoplay import AutoPlayBot
from ..bots.expert import ExpertBot
from ..game.actions import Action
from ..game.state import GameState, restore
from ..record import CANCEL_AUTO_PLAY, apply_decision, replay
from ..rules import Rules

__all__ = ["Decision", "Review", "review_record", "describe", "EPSILON"]

EPSILON = 1e-9
"""Values closer than this are equal: a choice within it of the best agrees (ties of the model)."""

_WORDS = {"discard": "discard", "peng": "peng", "kong": "kong",
          "concealed_kong": "concealed kong", "added_kong": "added kong"}


def describe(a: Action) -> str:
    """An action in a few plain words: ``"discard 5m"``, ``"exchange 1m 2m 9m"``, ``"hu"``."""
    if a.kind in _WORDS:
        return f"{_WORDS[a.kind]} {a.tile}"
    if a.kind == "exchange":
        return "exchange " + " ".join(a.tiles or ())
    if a.kind == "void":
        return f"void {a.suit}"
    if a.kind == "multiplier":
        return f"multiplier x{a.value}"
    return a.kind


def decision_kind(legal: Sequence[Action]) -> str:
    """What kind of decision a set of legal options is: ``exchange``, ``void``, ``multiplier``
    (选倍), ``hu`` (a win is offered), ``claim`` (peng / kong of a discard, or pass), ``kong`` (a
    concealed or added kong on the seat's turn), else ``discard``."""
    kinds = {a.kind for a in legal}
    for k in ("exchange", "void", "multiplier", "hu"):
        if k in kinds:
            return k
    if "pass" in kinds:
        return "claim"
    if kinds & {"concealed_kong", "added_kong"}:
        return "kong"
    return "discard"


@dataclass
class Decision:
    """One decision of the reviewed seat. ``options`` are ``(action, value)`` as
    ``ExpertBot.option_values`` lists them (the expert's choice, ``best``, first); ``valued``,
    one flag per option in that order, whether the expert's model valued it
    (``ExpertBot.valued_options``; ``None``: every option was; an option not valued is shown
    "not valued", its value, 0.0 or a discard's danger alone, counted as it is); ``event`` is
    how many events of the hand had happened (the replay viewer's step; the seat's own stream
    has as many events as the whole log); ``timeout`` / ``auto``: the engine's default move (docs/rules.md §8)
    rather than the seat's own, shown but left out of the summary."""

    number: int
    event: int
    kind: str
    phase: str
    options: List[Tuple[Action, float]]
    chosen: Action
    position: Dict[str, Any]
    timeout: bool = False
    auto: bool = False
    valued: Optional[List[bool]] = None

    @property
    def best(self) -> Action:
        return self.options[0][0]

    @property
    def best_value(self) -> float:
        return self.options[0][1]

    @property
    def chosen_value(self) -> float:
        return next(v for a, v in self.options if a is self.chosen)

    def option_valued(self, i: int) -> bool:
        """Whether the model valued option ``i`` (of ``options``)."""
        return self.valued is None or self.valued[i]

    @property
    def chosen_valued(self) -> bool:
        return self.option_valued(next(i for i, (a, _v) in enumerate(self.options)
                                       if a is self.chosen))

    @property
    def best_valued(self) -> bool:
        return self.option_valued(0)

    @property
    def regret(self) -> float:
        r = self.best_value - self.chosen_value
        return r if r > EPSILON else 0.0

    @property
    def agrees(self) -> bool:
        return self.regret == 0.0

    @property
    def counted(self) -> bool:
        """In the summary: the seat's own choice among more than one option."""
        return len(self.options) > 1 and not self.timeout and not self.auto


@dataclass
class Review:
    """The review of one seat of one hand (docs/review.md)."""

    seat: int
    mode: str
    decisions: List[Decision]
    net: List[int]
    wins: List[Dict[str, Any]]
    end_reason: Optional[str]
    events: int
    escaped: bool = False
    by_kind: Dict[str, Dict[str, float]] = field(default_factory=dict)

    @property
    def counted(self) -> List[Decision]:
        return [d for d in self.decisions if d.counted]

    @property
    def agreement(self) -> float:
        """Share of the counted decisions where the choice was the model's best (1.0 if none)."""
        c = self.counted
        return sum(1 for d in c if d.agrees) / len(c) if c else 1.0

    @property
    def total_regret(self) -> float:
        return round(sum(d.regret for d in self.counted), 6)

    @property
    def mean_regret(self) -> float:
        c = self.counted
        return round(self.total_regret / len(c), 6) if c else 0.0

    def costliest(self, n: int = 5) -> List[Decision]:
        """The ``n`` counted decisions of the largest regret (regret > 0 only), largest first."""
        dear = [d for d in self.counted if d.regret > 0.0]
        return sorted(dear, key=lambda d: (-d.regret, d.number))[:n]

    def kinds(self) -> Dict[str, Dict[str, float]]:
        """Per decision kind: how many were counted, the share that agreed, their regret."""
        out: Dict[str, Dict[str, float]] = {}
        for d in self.counted:
            k = out.setdefault(d.kind, {"decisions": 0, "agreed": 0, "regret": 0.0})
            k["decisions"] += 1
            k["agreed"] += 1 if d.agrees else 0
            k["regret"] = round(k["regret"] + d.regret, 6)
        for k in out.values():
            k["agreement"] = k["agreed"] / k["decisions"]
        return out


def _position(obs: Mapping[str, Any]) -> Dict[str, Any]:
    """What the seat saw when it decided, in the words of its observation."""
    seat = obs["seat"]
    return {
        "hand": list(obs["hand"]), "drawn": obs.get("drawn"),
        "melds": [dict(m) for m in obs["melds"][seat]],
        "discards": [list(r) for r in obs["discards"]],
        "other_melds": [[dict(m) for m in ms] if s != seat else [] for s, ms in
                        enumerate(obs["melds"])],
        "claim": obs.get("claim"), "void": obs.get("void"), "voids": obs.get("voids"),
        "wall_remaining": obs.get("wall_remaining"), "turn": obs.get("turn"),
    }


def _start(rec: Mapping[str, Any]) -> GameState:
    rules = Rules.from_dict(rec["rules"])
    return restore(rules, seed=rec.get("seed"), wall=rec.get("wall"), dealer=rec["dealer"],
                   coins=rec.get("coins"), dice=rec.get("dice"))


def review_record(rec: Mapping[str, Any], seat: int, *,
                  expert: Optional[ExpertBot] = None) -> Review:
    """Reviews ``seat`` (``0 .. players - 1`` of the record's table) in the hand of record ``rec``
    (what ``state.record()``, ``xueliu simulate --out``'s ``"record"`` and the server store). A
    record that does not replay is a ``ValueError`` saying where (:func:`xueliu.replay`)."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"seat must be an int seat of the table, got {type(seat).__name__}")
    final = replay(rec)  # checks the whole record first: a bad one changes nothing below
    players = final.rules.players
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1} (the record's table has {players} "
                         f"seats), got {seat}")
    state = _start(rec)
    rules = state.rules
    bot = expert if expert is not None else ExpertBot(rules=rules)
    default = AutoPlayBot(rules=rules)
    decisions: List[Decision] = []
    escaped = False
    for s, what in rec["decisions"]:
        # An escape and 取消托管 are no choice among the seat's actions: nothing to value.
        if s == seat and what not in ("escape", CANCEL_AUTO_PLAY) and not escaped:
            obs = state.observation(seat)
            legal = state.legal_actions(seat)
            auto = bool(state.auto_play[seat])
            judged = bot.valued_options(obs, legal)
            chosen = default.act(obs, legal) if what == "timeout" else Action.from_id(what)
            decisions.append(Decision(
                number=len(decisions) + 1, event=state.event_count,
                kind=decision_kind(legal), phase=str(obs.get("phase")),
                options=[(o.action, o.value) for o in judged], chosen=chosen,
                position=_position(obs), timeout=what == "timeout", auto=auto,
                valued=[o.valued for o in judged]))
        apply_decision(state, s, what)
        escaped = escaped or (what == "escape" and s == seat)
    events = final.events()
    wins = [{"tile": e["pai"], "fan": e["fan"], "source": e["source"], "base": e["base"],
             "from": e["target"]} for e in events if e["type"] == "hora" and e["actor"] == seat]
    end = next((e.get("reason") for e in events if e["type"] == "end_hand"), None)
    net = list(final.settlement().net) if final.is_over else list(rec["result"]["net"])
    return Review(seat=seat, mode=rules.mode, decisions=decisions, net=[int(x) for x in net],
                  wins=wins, end_reason=end, events=len(events), escaped=escaped)
