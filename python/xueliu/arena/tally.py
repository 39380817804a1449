"""What the arena keeps of each hand, and the per-match and per-bot lines made from it.

Only the one-seat bot of a match is measured (its three opponents are the yardstick). Of each of
its hands the arena keeps the net score, whether and how often it won, the fan of those wins, how
many of its discards or added kongs others won on (its deal-ins: a 一炮多响 discard counts once,
as in docs/expert-bot.md; in 血流 the automatic discards of a won hand count too), and for a ``cmd:`` program how many of its
decisions got docs/rules.md §8's default. Everything is an int, stored by wall, so the lines do not depend
on the order in which workers return the hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..simulate.summary import DEFAULT_KINDS
from .plan import candidate_seat
from .stats import ClusteredMean, clustered_mean

__all__ = ["HandResult", "hand_result", "MatchTally", "Line", "line_of"]

HandResult = Tuple[int, int, int, int, Optional[Dict[str, int]]]
"""(net, wins, fan of those wins, deal-ins, a program's decision counts or None) of the one-seat
bot in one hand."""


def hand_result(row: Dict[str, Any]) -> HandResult:
    """The one-seat bot's part of a ``simulate`` result row of a duplicate hand."""
    n = len(row["seats"])  # one per seat: rules.players
    seat = candidate_seat(row["hand"] % n, n)
    wins = [(fan, base) for s, fan, base in row["wins"] if s == seat]
    return (row["net"][seat], len(wins), sum(f for f, _ in wins), row["dealt_in"].count(seat),
            row["defaults"][seat])


@dataclass
class MatchTally:
    """The hands of one match folded by wall."""

    walls: int
    wall_totals: List[int] = field(default_factory=list)
    wall_hands: List[int] = field(default_factory=list)
    hands_won: int = 0
    wins: int = 0
    fan_sum: int = 0
    deal_ins: int = 0
    decisions: int = 0
    defaults: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(DEFAULT_KINDS, 0))
    external: bool = False

    def __post_init__(self) -> None:
        if not self.wall_totals:
            self.wall_totals = [0] * self.walls
            self.wall_hands = [0] * self.walls

    def add(self, wall: int, result: HandResult) -> None:
        net, wins, fan, dealt, counts = result
        self.wall_totals[wall] += net
        self.wall_hands[wall] += 1
        self.hands_won += wins > 0
        self.wins += wins
        self.fan_sum += fan
        self.deal_ins += dealt
        if counts is not None:
            self.external = True
            self.decisions += counts["decisions"]
            for k in DEFAULT_KINDS:
                self.defaults[k] += counts[k]

    def wall_record(self) -> Tuple[int, int, int]:
        """(walls won, drawn, lost): the wall's four-seat total above, at or below 0."""
        won = sum(t > 0 for t in self.wall_totals)
        lost = sum(t < 0 for t in self.wall_totals)
        return won, self.walls - won - lost, lost


@dataclass(frozen=True)
class Line:
    """One line of the arena's table: a bot's figures over some of its matches."""

    hands: int
    score: ClusteredMean
    win_rate: float
    deal_ins_per_hand: float
    fan_per_win: Optional[float]
    wins: int
    decisions: Optional[int]
    defaults: Optional[Dict[str, int]]


def line_of(tallies: Sequence[MatchTally]) -> Line:
    """The figures of a bot over ``tallies`` (its matches on the same walls): a wall's cluster
    holds the bot's hands of that wall in every one of these matches."""
    walls = tallies[0].walls
    totals = [sum(t.wall_totals[w] for t in tallies) for w in range(walls)]
    sizes = [sum(t.wall_hands[w] for t in tallies) for w in range(walls)]
    hands = sum(sizes)
    wins = sum(t.wins for t in tallies)
    fan = sum(t.fan_sum for t in tallies)
    external = any(t.external for t in tallies)
    defaults = ({k: sum(t.defaults[k] for t in tallies) for k in DEFAULT_KINDS} if external
                else None)
    return Line(hands=hands, score=clustered_mean(totals, sizes),
                win_rate=sum(t.hands_won for t in tallies) / hands,
                deal_ins_per_hand=sum(t.deal_ins for t in tallies) / hands,
                fan_per_win=fan / wins if wins else None, wins=wins,
                decisions=sum(t.decisions for t in tallies) if external else None,
                defaults=defaults)
