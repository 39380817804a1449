"""Per-bot statistics of a simulation, folded in hand order, and the summary table."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .._text import table
from ..patterns import PATTERN_IDS, PATTERN_NAMES

__all__ = ["BotStats", "Summary", "Aggregate"]

DEFAULT_KINDS = ("late", "garbage", "illegal", "dead")
"""Why a program's decision was replaced by docs/rules.md §8's default (see docs/protocol.md)."""


@dataclass
class BotStats:
    """Per-bot totals over every seat the bot (by name) occupied."""

    name: str
    seat_hands: int = 0
    total: int = 0
    hands_won: int = 0
    wins: int = 0
    fan_sum: int = 0
    patterns: Dict[str, int] = field(default_factory=dict)
    pigs: int = 0
    not_ready: int = 0
    unit_means: List[float] = field(default_factory=list, repr=False)
    external: bool = False
    """A program (``cmd:``): its decisions and defaults are counted below."""
    decisions: int = 0
    defaults: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(DEFAULT_KINDS, 0))
    """Decisions replaced by docs/rules.md §8's default, by cause: ``late`` (past ``--bot-timeout``),
    ``garbage`` (not an ``{"id": N}`` line), ``illegal`` (an id not offered), ``dead`` (the
    program had exited)."""

    @property
    def mean(self) -> float:
        """Mean score (net units) per hand."""
        return self.total / self.seat_hands if self.seat_hands else 0.0

    @property
    def interval(self) -> Tuple[float, float]:
        """95% interval of :attr:`mean` (normal approximation over independent walls/hands)."""
        n = len(self.unit_means)
        if n < 2:
            return (-math.inf, math.inf)
        mu = sum(self.unit_means) / n
        var = sum((x - mu) ** 2 for x in self.unit_means) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (mu - half, mu + half)

    @property
    def win_rate(self) -> float:
        """Share of the bot's hands in which it won at least once."""
        return self.hands_won / self.seat_hands if self.seat_hands else 0.0

    @property
    def mean_fan(self) -> float:
        return self.fan_sum / self.wins if self.wins else 0.0


@dataclass
class Summary:
    """What :func:`simulate` returns: per-bot statistics in the order the bots were named."""

    games: int
    preset: str
    seed: int
    duplicate: bool
    bots: List[BotStats]
    seconds: float = 0.0
    workers: int = 1
    players: int = 4
    """Seats at the table (a duplicate wall is played in this many seatings)."""

    def format(self) -> str:
        """The summary table printed by ``xueliu simulate`` (no timing: it is deterministic)."""
        walls = self.games // self.players if self.duplicate else self.games
        how = (f"duplicate: {walls} walls × {self.players} seatings" if self.duplicate else f"{walls} walls")
        lines = [f"xueliu simulate: {self.games} hands ({how}), preset {self.preset}, "
                 f"seed {self.seed}", ""]
        rows = [["bot", "hands", "mean/hand", "95% interval", "win rate", "wins/hand",
                 "fan/win", "花猪", "查大叫"]]
        for b in self.bots:
            lo, hi = b.interval
            ci = "[n/a]" if math.isinf(lo) else f"[{lo:+.2f}, {hi:+.2f}]"
            rows.append([b.name, str(b.seat_hands), f"{b.mean:+.2f}", ci, f"{100 * b.win_rate:.1f}%",
                         f"{b.wins / b.seat_hands:.2f}" if b.seat_hands else "0",
                         f"{b.mean_fan:.2f}", str(b.pigs), str(b.not_ready)])
        lines.append(table(rows, "lrrrrrrrr"))
        programs = [b for b in self.bots if b.external]
        if programs:
            lines.append("")
            lines.append("programs: decisions, and defaults taken for them (docs/rules.md §8)")
            drows = [["bot", "decisions", *DEFAULT_KINDS]]
            for b in programs:
                drows.append([b.name, str(b.decisions), *(str(b.defaults[k]) for k in
                                                          DEFAULT_KINDS)])
            lines.append(table(drows, "lrrrrr"))
        used = [p for p in PATTERN_IDS if any(b.patterns.get(p) for b in self.bots)]
        if used:
            lines.append("")
            lines.append("patterns won (share of each bot's wins)")
            prow = [["pattern"] + [b.name for b in self.bots]]
            for p in used:
                cells = [f"{PATTERN_NAMES[p]} {p}"]
                for b in self.bots:
                    n = b.patterns.get(p, 0)
                    cells.append(_share(n, b.wins))
                prow.append(cells)
            lines.append(table(prow, "l" + "r" * len(self.bots)))
        return "\n".join(lines)


def _share(n: int, total: int) -> str:
    """A share of the pattern table, one format for all (``92.61%``, ``0.00%`` for none), and
    ``<0.01%`` for a share above 0 that two decimals would write as 0."""
    if not total:
        return "-"
    shown = f"{100 * n / total:.2f}"
    return "<0.01%" if n and shown == "0.00" else f"{shown}%"


class Aggregate:
    """Folds result rows in hand order (so float sums do not depend on the worker count)."""

    def __init__(self, names: Sequence[str], duplicate: bool, players: int = 4) -> None:
        self.players = players
        self.order: List[str] = []
        for n in names:
            if n not in self.order:
                self.order.append(n)
        self.stats = {n: BotStats(n, external=n.startswith("cmd:")) for n in self.order}
        self.duplicate = duplicate
        self._unit: Dict[str, List[int]] = {}
        self._unit_id: Optional[int] = None

    def _flush(self) -> None:
        for name, vals in self._unit.items():
            self.stats[name].unit_means.append(sum(vals) / len(vals))
        self._unit = {}

    def add(self, row: Dict[str, Any]) -> None:
        unit = row["wall"] if self.duplicate else row["hand"]
        if unit != self._unit_id:
            self._flush()
            self._unit_id = unit
        won = [False] * self.players
        for seat, fan, base in row["wins"]:
            b = self.stats[row["seats"][seat]]
            b.wins += 1
            b.fan_sum += fan
            b.patterns[base] = b.patterns.get(base, 0) + 1
            won[seat] = True
        for seat, name in enumerate(row["seats"]):
            b = self.stats[name]
            net = row["net"][seat]
            b.seat_hands += 1
            b.total += net
            b.hands_won += won[seat]
            b.pigs += row["pig"][seat]
            b.not_ready += row["not_ready"][seat]
            counts: Optional[Dict[str, int]] = row["defaults"][seat]
            if counts is not None:
                b.decisions += counts["decisions"]
                for k in DEFAULT_KINDS:
                    b.defaults[k] += counts[k]
            self._unit.setdefault(name, []).append(net)

    def finish(self) -> List[BotStats]:
        self._flush()
        return [self.stats[n] for n in self.order]
