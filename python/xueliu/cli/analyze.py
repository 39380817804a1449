"""``xueliu analyze HAND``: shanten, waits and their fan, the 查听 table, or a complete hand's fan
breakdown (the one analysis of :func:`xueliu.analysis.analyze`, laid out for a terminal)."""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, Optional

from .._text import counts_text, hand_text, table, tile_text
from ..analysis import analyze, as_json
from ..errors import CommandError
from ..hand import _STACKED, DiscardOption, FanResult
from ..patterns import ADDITIVE_NAMES
from .. import _core
from ..tiles import parse_hand, tile_name
from .common import rules_from_args, rules_name

__all__ = ["cmd_analyze"]


def _plural(n: int, noun: str) -> str:
    """``"1 tile"``, ``"3 tiles"``."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _fan_short(r: FanResult) -> str:
    """``"2番 ×2 对对胡"`` plus the gens/extras in brief."""
    extra = []
    if r.gen:
        extra.append(f"根×{r.gen}")
    extra.extend(r.extra_names)
    tail = f" ({' '.join(extra)})" if extra else ""
    return f"{r.fan}番 ×{r.multiplier}  {r.base_name}{tail}"


def cmd_analyze(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if rules.has_wilds or args.benjin is not None:
        return _cmd_analyze_wild(args, rules)
    try:
        hand = parse_hand(args.hand)
    except ValueError as e:
        raise CommandError(str(e)) from None
    void = args.void
    if void is not None and void not in ("m", "p", "s", "万", "筒", "条"):
        raise CommandError(f"--void must be m, p, s, 万, 筒 or 条, got {void!r}")
    void_letter = None if void is None else {"万": "m", "筒": "p", "条": "s"}.get(void, void)
    try:
        visible = parse_hand(args.visible).held().tolist() if args.visible else [0] * 27
    except ValueError as e:
        raise CommandError(f"--visible: {e}") from None
    try:
        result = analyze(hand, void=void_letter, visible=args.visible or None, rules=rules)
    except ValueError as e:
        raise CommandError(f"--{e}" if str(e).startswith("visible:") else str(e)) from None
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
        return 0
    out = [f"Hand    {hand_text(hand)}",
           f"Tiles   {int(sum(hand.counts))} concealed, {_plural(len(hand.melds), 'meld')}"
           f" · void {_void_text(void_letter)}"
           f" · preset {rules_name(args)}"]
    if any(visible):
        out.append(f"Seen    {counts_text(visible)}")
    out.extend(_result_lines(result))
    print("\n".join(out))
    return 0


def _cmd_analyze_wild(args: argparse.Namespace, rules: Any) -> int:
    """``analyze`` under wild tiles (docs/rules.md §12): the hand and ``--visible`` as held (红中,
    soft melds), ``--benjin`` under a 本金 rule; the same tables, the wild a wait of its own."""
    void = args.void
    void_letter = None if void is None else {"万": "m", "筒": "p", "条": "s"}.get(void, void)
    try:
        result = analyze(args.hand, void=void_letter, visible=args.visible or None, rules=rules,
                         benjin=args.benjin)
        shown = _core.format_physical(args.hand)
        counts, melds = _core.parse_physical(args.hand)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
        return 0
    wilds = " ".join("红中" if k == 27 else tile_text(tile_name(k))
                     for k in sorted(rules.wild_set(args.benjin)))
    out = [f"Hand    {shown}",
           f"Tiles   {sum(counts)} concealed, {_plural(len(melds), 'meld')}"
           f" · void {_void_text(void_letter)}"
           f" · preset {rules_name(args)} · wilds {wilds}"
           + ("" if args.benjin is None else f" (本金 {tile_text(args.benjin)})")]
    if args.visible:
        out.append(f"Seen    {_core.format_physical(args.visible)}")
    out.extend(_result_lines(result))
    print("\n".join(out))
    return 0


def _void_text(void_letter: Optional[str]) -> str:
    """``"none"`` or ``"m 万"``."""
    return "none" if void_letter is None else f"{void_letter} {tile_text('1' + void_letter)[1:]}"


def _result_lines(result: Dict[str, Any]) -> List[str]:
    """The table of an analysis: a complete hand's fan, 查听, or the waits / 进张."""
    if "fan" in result:
        return _breakdown(result["fan"], result["self_draw"])
    if "discards" in result:
        return _discard_table(result["discards"])
    return _waits_table(result)


def _waits_table(result: Dict[str, Any]) -> List[str]:
    sh, jz, total = result["shanten"], result["jinzhang"], result["jinzhang_total"]
    if sh == 0:
        out = [f"Shanten 0 — ready (听牌) on {_plural(len(jz), 'kind')}, "
               f"{_plural(total, 'tile')} left", ""]
        rows = [["wait", "left", "discard win 点炮", "self-draw 自摸"]]
        for w in result["waits"]:
            rows.append([tile_text(w.tile), str(w.remaining), _fan_short(w.discard_win),
                         _fan_short(w.self_draw)])
        out.append(table(rows, "lrll", indent="  "))
        return out
    return [f"Shanten {sh} — {_plural(sh, 'tile')} from ready",
            f"进张    {_plural(len(jz), 'kind')}, {_plural(total, 'tile')} left: "
            + " ".join(f"{tile_text(t)}×{left}" for t, left in jz)]


def _breakdown(discard_win: FanResult, self_draw: FanResult) -> List[str]:
    out = ["Complete hand (胡牌)", ""]
    views = [("discard win 点炮 or self-draw 自摸", discard_win)] if discard_win == self_draw else \
        [("discard win 点炮", discard_win), ("self-draw 自摸", self_draw)]
    for label, r in views:
        rows = [[r.base_name, r.base, f"{r.base_fan} 番"]]
        if r.gen:
            rows.append([ADDITIVE_NAMES["gen"], f"gen ×{r.gen}", f"+{r.gen} 番"])
        # Extras are +1 each; an additive 天胡 / 地胡 or 无鸡 (docs/rules.md §11.3, §12.2) adds
        # more, which the result holds as stacked_fan (shown on the first of them).
        stacked = r.stacked_fan
        for ident, name in zip(r.extras, r.extra_names):
            more = stacked if ident in _STACKED else 0
            stacked -= more
            rows.append([name, ident, f"+{1 + more} 番"])
        raw = r.base_fan + r.gen + len(r.extras) + r.stacked_fan
        capped = "" if raw == r.fan else f" (capped from {raw})"
        rows.append(["合计 total", "", f"{r.fan} 番"])
        rows.append(["倍数 multiplier", "", f"×{r.multiplier}{capped}"])
        out.append(f"As a {label}: {r.describe()}")
        out.append(table(rows, "llr", indent="  "))
        out.append("")
    return out[:-1]


def _discard_table(options: List[DiscardOption]) -> List[str]:
    """查听 in best_discards' order: ready discards with each wait and its fan, the others with
    their 进张."""
    ready = [o for o in options if o.shanten == 0]
    if ready:
        head = (f"查听 — {len(ready)} discard{'s leave' if len(ready) != 1 else ' leaves'} "
                "the hand ready")
    else:
        head = f"查听 — best shanten after a discard: {min(o.shanten for o in options)}"
    out = [head, ""]
    rows = [["discard", "shanten", "left", "wait", "left", "discard win 点炮", "self-draw 自摸"]]
    for o in options:
        if o.shanten == 0:
            first = True
            for w in o.waits:
                rows.append([tile_text(o.discard) if first else "", "0" if first else "",
                             str(o.total_remaining) if first else "", tile_text(w.tile),
                             str(w.remaining), _fan_short(w.discard_win), _fan_short(w.self_draw)])
                first = False
        else:
            rows.append([tile_text(o.discard), str(o.shanten), str(o.jinzhang_total),
                         f"进张 {_plural(len(o.jinzhang), 'kind')}", "", "", ""])
    out.append(table(rows, "lrrlrll", indent="  "))
    return out
