"""The arena's table (what ``xueliu arena`` prints) and its JSON (``--json``, docs/strength.md).

Neither holds a timing, so both are the same for any worker count.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .._text import table
from ..simulate.summary import DEFAULT_KINDS
from .bootstrap import REPLICATES
from .rating import PRIOR_DRAWS
from .run import ArenaResult, MatchLine
from .stats import ClusteredMean
from .tally import Line

__all__ = ["format_table", "to_json", "JSON_FORMAT"]

JSON_FORMAT = "xueliu-arena/1"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _interval(score: ClusteredMean) -> str:
    ci = score.interval
    return "[n/a]" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def _points(x: float) -> str:
    return f"{round(x) + 0:+d}"  # + 0: no "-0"


def _rating(result: ArenaResult, name: str) -> str:
    mark = {"at most": "≤", "at least": "≥", None: ""}[result.rating_bounds[name]]
    return mark + _points(result.ratings[name])


def _rating_interval(result: ArenaResult, name: str) -> str:
    if result.rating_bounds[name] is not None:
        return "[n/a]"
    lo, hi = result.rating_intervals[name]
    return f"[{_points(lo)}, {_points(hi)}]"


_COPIES = {1: "one", 2: "two", 3: "three"}  # the other seats of a 2-, 3- or 4-seat table


def _who(result: ArenaResult) -> str:
    others = _COPIES[result.players - 1]
    if result.mode == "reference":
        return f"each in one seat against {others} {result.reference}"
    return f"every pair: each bot in one seat against {others} of each other bot"


def format_table(result: ArenaResult) -> str:
    hands = result.players * result.walls
    n = len(result.bots)
    lines = [f"xueliu arena: {n} bot{'s' if n != 1 else ''}, {_who(result)}; {result.walls} "
             f"walls × {result.players} seatings ({hands} hands per match), preset {result.preset}, "
             f"seed {result.seed}", ""]
    rows = [["bot", "hands", "mean/hand", "95% interval", "win rate", "deal-ins/hand",
             "fan/win", "walls +/=/-", "rating", "95% interval"]]
    for name, line in zip(result.bots, result.lines):
        own = [m for m in result.matches if m.bot == name]
        record = "/".join(str(sum(getattr(m, k) for m in own))
                          for k in ("walls_won", "walls_drawn", "walls_lost"))
        rows.append([name, str(line.hands), _signed(line.score.mean), _interval(line.score),
                     f"{100 * line.win_rate:.1f}%", f"{line.deal_ins_per_hand:.3f}",
                     "-" if line.fan_per_win is None else f"{line.fan_per_win:.2f}", record,
                     _rating(result, name), _rating_interval(result, name)])
    lines.append(table(rows, "lrrrrrrrrr"))
    lines.append("")
    zero = (f"{result.anchor} = 0" if result.anchor is not None else "the bots' mean = 0")
    if result.mode == "reference" and result.reference not in result.bots:
        zero += " (the reference, not in the table)"
    lines.append(f"walls +/=/-: walls whose total over their {result.players} seatings the bot "
                 f"won, drew, lost. rating: Bradley–Terry fitted to them, in Elo points, {zero}; "
                 "≤/≥: a bound (no wall won/lost).")
    lines.append(f"95% intervals clustered by wall: the mean's Student t over walls, the rating's "
                 f"{REPLICATES} bootstrap replicates of the walls (docs/strength.md).")
    if result.paired:
        first = result.bots[0]
        lines.append("")
        lines.append(f"paired with {first} (the first bot) on the same walls and seatings: each "
                     f"bot's mean per hand minus {first}'s, the 95% interval over the walls' "
                     "differences")
        prows = [["bot", f"vs {first}", "95% interval"]]
        for name, d in zip(result.bots[1:], result.paired[1:]):
            assert d is not None
            prows.append([name, _signed(d.mean), _interval(d)])
        lines.append(table(prows, "lrr"))
    if result.mode == "pairs":
        lines.append("")
        others = _COPIES[result.players - 1]
        lines.append(f"mean per hand of the row bot in one seat against {others} of the column "
                     "bot (± half the 95 % interval)")
        cells: Dict[tuple[str, str], MatchLine] = {(m.bot, m.opponent): m for m in result.matches}
        grid = [["", *result.bots]]
        for a in result.bots:
            row = [a]
            for b in result.bots:
                m = cells.get((a, b))
                if m is None:
                    row.append("-")
                else:
                    half = m.line.score.half_width
                    row.append(_signed(m.line.score.mean)
                               + ("" if half is None else f" ±{half:.2f}"))
            grid.append(row)
        lines.append(table(grid, "l" + "r" * n))
    programs = [(name, line) for name, line in zip(result.bots, result.lines)
                if line.defaults is not None]
    if programs:
        lines.append("")
        lines.append("programs: decisions, and defaults taken for them (docs/rules.md §8)")
        drows = [["bot", "decisions", *DEFAULT_KINDS]]
        for name, line in programs:
            assert line.defaults is not None
            drows.append([name, str(line.decisions),
                          *(str(line.defaults[k]) for k in DEFAULT_KINDS)])
        lines.append(table(drows, "lrrrrr"))
    return "\n".join(lines)


def _line_json(line: Line) -> Dict[str, Any]:
    ci = line.score.interval
    out: Dict[str, Any] = {
        "hands": line.hands,
        "walls": line.score.clusters,
        "mean": line.score.mean,
        "ci95": None if ci is None else [ci[0], ci[1]],
        "win_rate": line.win_rate,
        "deal_ins_per_hand": line.deal_ins_per_hand,
        "fan_per_win": line.fan_per_win,
        "wins": line.wins,
    }
    if line.defaults is not None:
        out["decisions"] = line.decisions
        out["defaults"] = dict(line.defaults)
    return out


def to_json(result: ArenaResult) -> Dict[str, Any]:
    """The arena as a JSON-ready dict (schema: docs/strength.md), bots named exactly as given."""
    bots: List[Dict[str, Any]] = []
    for i, (name, line) in enumerate(zip(result.bots, result.lines)):
        lo, hi = result.rating_intervals[name]
        d = result.paired[i] if result.paired else None
        bots.append({"bot": name, **_line_json(line), "rating": result.ratings[name],
                     "rating_ci95": [lo, hi], "rating_bound": result.rating_bounds[name],
                     "paired_with_first": None if d is None else {
                         "bot": result.bots[0], "difference": d.mean,
                         "ci95": None if d.interval is None else list(d.interval)}})
    matches: List[Dict[str, Any]] = []
    for m in result.matches:
        matches.append({"bot": m.bot, "opponent": m.opponent, **_line_json(m.line),
                        "walls_won": m.walls_won, "walls_drawn": m.walls_drawn,
                        "walls_lost": m.walls_lost})
    anchor: Optional[str] = result.anchor
    return {
        "format": JSON_FORMAT,
        "mode": result.mode,
        "reference": result.reference,
        "preset": result.preset,
        "seed": result.seed,
        "walls": result.walls,
        "seatings": result.players,
        "rating": {"model": "bradley-terry", "unit": "elo", "anchor": anchor,
                   "comparisons": "walls", "prior_draws": PRIOR_DRAWS,
                   "interval": "bootstrap over walls", "replicates": REPLICATES},
        "ratings": dict(result.ratings),
        "rating_ci95": {k: list(v) for k, v in result.rating_intervals.items()},
        "bots": bots,
        "matches": matches,
    }
