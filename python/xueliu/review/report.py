"""A review as text (the terminal) and as the ``--json`` object (docs/review.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ..game.actions import Action
from .decisions import Decision, Review, describe

__all__ = ["review_json", "review_text", "review_written", "decision_json", "end_words",
           "REVIEW_FORMAT", "REVIEW_VERSION", "END_WORDS"]

REVIEW_FORMAT = "xueliu-review"
REVIEW_VERSION = 1

END_WORDS = {
    "wall_exhausted": "wall exhausted (牌墙摸完)",
    "three_wins": "three seats won (三家胡牌)", "two_wins": "two seats won (两家胡牌)",
    "one_win": "one seat won (一家胡牌)", "first_win": "the first win (倒倒胡)",
}
"""Why a hand ended (the ``end_hand`` event's ``reason``) in words; the replay viewer says the same."""

_SOURCE_WORDS = {"self_draw": "self-drawn", "discard": "on a discard",
                 "robbed_kong": "robbing a kong"}


def end_words(reason: Optional[str]) -> str:
    """``"wall_exhausted"`` -> ``"wall exhausted (牌墙摸完)"``; a hand not over: ``"not over"``."""
    if reason is None:
        return "not over"
    return END_WORDS.get(reason, reason.replace("_", " "))


def _count(n: int, noun: str) -> str:
    """``1 decision``, ``2 decisions``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _value(v: float, valued: bool) -> str:
    """A value for the terminal, or "not valued" when the model did not value the option
    (``Decision.valued``)."""
    return f"{v:+.3f}" if valued else "not valued"


def _win_words(w: Mapping[str, Any]) -> str:
    how = _SOURCE_WORDS.get(w["source"], str(w["source"]).replace("_", " "))
    if w["source"] != "self_draw" and isinstance(w.get("from"), int):
        how += f" from seat {w['from']}"
    return f"{w['tile']} {w['fan']} fan ({how})"


def _action(a: Action) -> Dict[str, Any]:
    return {"id": a.id, "kind": a.kind, "text": describe(a)}


def _v(x: float) -> float:
    return round(float(x), 4)


def decision_json(d: Decision) -> Dict[str, Any]:
    return {
        "number": d.number, "event": d.event, "kind": d.kind,
        "phase": d.phase, "chosen": _action(d.chosen), "chosen_value": _v(d.chosen_value),
        "chosen_valued": d.chosen_valued,
        "best": _action(d.best), "best_value": _v(d.best_value), "best_valued": d.best_valued,
        "regret": _v(d.regret),
        "agrees": d.agrees, "counted": d.counted, "timeout": d.timeout, "auto": d.auto,
        "options": [{**_action(a), "value": _v(v), "valued": d.option_valued(i)}
                    for i, (a, v) in enumerate(d.options)],
        "position": d.position,
    }


def review_json(r: Review) -> Dict[str, Any]:
    """The review as one JSON-serialisable object; ``agreement`` and ``total_regret`` are
    top-level (a contract, docs/review.md)."""
    return {
        "format": REVIEW_FORMAT, "version": REVIEW_VERSION, "seat": r.seat, "mode": r.mode,
        "agreement": round(r.agreement, 6), "total_regret": _v(r.total_regret),
        "mean_regret": _v(r.mean_regret), "decisions_counted": len(r.counted),
        "by_kind": r.kinds(),
        "costliest": [d.number for d in r.costliest()],
        "result": {"net": r.net, "seat_net": r.net[r.seat], "wins": r.wins,
                   "end_reason": r.end_reason, "escaped": r.escaped, "events": r.events},
        "decisions": [decision_json(d) for d in r.decisions],
    }


def review_written(r: Review, path: str) -> str:
    """The one line ``xueliu review --html`` prints (as ``replay --html`` does): the page written
    and the summary it opens with."""
    return (f"wrote {path} ({_count(len(r.decisions), 'decision')} of seat {r.seat}, "
            f"{len(r.counted)} counted: agreement {r.agreement:.1%}, total regret "
            f"{r.total_regret:.3f})")


def _position_lines(d: Decision) -> List[str]:
    p = d.position
    hand = " ".join(p["hand"])
    lines = [f"    hand: {hand}" + (f"  (drew {p['drawn']})" if p.get("drawn") else "")]
    if p["melds"]:
        lines.append("    melds: " + ", ".join(f"{m['type']} {m['tile']}" for m in p["melds"]))
    if p.get("claim"):
        c = p["claim"]
        lines.append(f"    offered: {c['tile']} from seat {c['from']}")
    for s, river in enumerate(p["discards"]):
        if river:
            lines.append(f"    discards of seat {s}: {' '.join(river)}")
    lines.append(f"    wall: {p['wall_remaining']}")
    lines.append("    options: " + ", ".join(f"{describe(a)} {_value(v, d.option_valued(i))}"
                                           for i, (a, v) in enumerate(d.options[:8]))
                 + (" ..." if len(d.options) > 8 else ""))
    return lines


def review_text(r: Review) -> str:
    """The review for a person: every decision, then the summary and the costliest five."""
    out = [f"Review of seat {r.seat} ({r.mode}): values in expected payment units "
           "(ExpertBot's model, from the seat's own view)"]
    for d in r.decisions:
        mark = "=" if d.agrees else "!"
        note = " (timeout)" if d.timeout else " (auto-play)" if d.auto else ""
        if len(d.options) == 1:
            note += " (only option)"
        line = (f"{d.number:3d} {mark} {d.kind:<10} chose {describe(d.chosen)} "
                f"{_value(d.chosen_value, d.chosen_valued)}")
        if not d.agrees:
            line += (f"; best {describe(d.best)} {_value(d.best_value, d.best_valued)}, "
                     f"regret {d.regret:.3f}")
        out.append(line + note)
    out.append("")
    c = r.counted
    out.append(f"Agreement: {r.agreement:.1%} of {_count(len(c), 'decision')}; total regret "
               f"{r.total_regret:.3f}, per decision {r.mean_regret:.3f}")
    for kind, k in sorted(r.kinds().items()):
        n = int(k["decisions"])
        out.append(f"  {kind:<10} {n:3d} decision{'' if n == 1 else 's'}, "
                   f"{k['agreement']:.0%} agree, regret {k['regret']:.3f}")
    dear = r.costliest()
    if dear:
        out.append("The costliest decision:" if len(dear) == 1 else "The costliest decisions:")
        for d in dear:
            out.append(f"  #{d.number} {d.kind}: chose {describe(d.chosen)}, best "
                       f"{describe(d.best)}, regret {d.regret:.3f}")
            out.extend(_position_lines(d))
    wins = ", ".join(_win_words(w) for w in r.wins) or "none"
    out.append(f"Result: seat {r.seat} net {r.net[r.seat]:+d}; wins: {wins}; "
               f"all seats {r.net}; ended: {end_words(r.end_reason)}")
    return "\n".join(out)
