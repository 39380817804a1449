"""Events and actions as a player reads them: the lines of ``xueliu play`` and ``xueliu replay``,
and the table as one seat sees it before a decision."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from .._text import counts_text, meld_text, table, tile_text
from ..patterns import ADDITIVE_NAMES, PATTERN_NAMES
from ..tiles import tile_index

__all__ = ["describe_action", "describe_event", "print_events", "show_table", "tile_label"]

_SUIT_NAME = {"m": "万", "p": "筒", "s": "条"}


def tile_label(name: Optional[str]) -> str:
    """A tile as the lines write it (``5万``), ``?`` for a hidden one."""
    return "?" if not name or name == "?" else tile_text(name)


def _ts(names: Sequence[str]) -> str:
    return " ".join(tile_label(n) for n in names)


def _who(seat: int, me: Optional[int]) -> str:
    return "you" if seat == me else f"seat {seat}"


def _v(actor: int, me: Optional[int], verb: str) -> str:
    """``"seat 2 draws"`` / ``"you draw"``."""
    if actor == me:
        return "you " + (verb[:-1] if verb.endswith("s") else verb)
    return f"seat {actor} {verb}"


_TILE_ACTION_WORDS = {"discard": "打 discard", "peng": "碰 peng", "kong": "杠 kong",
                     "concealed_kong": "暗杠 concealed kong", "added_kong": "补杠 added kong",
                     "swap_back": "提 take the wild back from the meld of"}


def describe_action(a: Any) -> str:
    """An action as a player reads it: ``"打 discard 5万"``, ``"碰 peng 7条"``, ``"胡 win"``."""
    k = a.kind
    if k in _TILE_ACTION_WORDS:
        return f"{_TILE_ACTION_WORDS[k]} {tile_label(a.tile)}"
    if k == "hu":
        return "胡 win"
    if k == "pass":
        return "过 pass"
    if k == "exchange":
        return f"{_exchange_word(len(a.tiles or ()))} give {_ts(a.tiles)}"
    if k == "void":
        return f"定缺 void {_SUIT_NAME[a.suit]} ({a.suit})"
    if k == "multiplier":
        return f"选倍 ×{a.value}"
    return repr(a)


def _exchange_word(count: int) -> str:
    """换三张, or 换四张 on a table that exchanges four (docs/rules.md §11.1 ``exchange_count``)."""
    return "换四张" if count == 4 else "换三张"


def describe_event(e: Dict[str, Any], me: Optional[int] = None) -> Optional[str]:
    """One line for an event of the event log (``None`` for events not worth a line)."""
    t = e.get("type")
    if t == "start_hand":
        d = e.get("dice") or []
        return (f"— new hand: {e.get('mode')}, dealer seat {e.get('dealer')}, dice "
                f"{'+'.join(map(str, d))}, wall broken at wall {e['break']['wall']} stack "
                f"{e['break']['stack']}")
    if t == "huansanzhang":
        word = _exchange_word(len(e["given"][0]))
        line = f"{word} exchange: each seat receives from its {e['direction']} seat (die {e['die']})"
        if me is not None:
            line += f"; you gave {_ts(e['given'][me])}, received {_ts(e['received'][me])}"
        return line
    if t == "dingque":
        return "定缺 voids: " + ", ".join(
            f"{_who(s, me)} {_SUIT_NAME.get(v, '?')}" for s, v in enumerate(e["voids"]))
    if t == "xuanbei":
        return "选倍 multipliers: " + ", ".join(f"{_who(s, me)} ×{v}"
                                              for s, v in enumerate(e["values"]))
    if t == "tsumo":
        if e["actor"] != me and me is not None:
            return None
        how = "draws a replacement" if e.get("rinshan") else "draws"
        return f"{_v(e['actor'], me, how)} {tile_label(e['pai'])}"
    if t == "dahai":
        tag = " (auto)" if e.get("auto") else ""
        return f"{_v(e['actor'], me, 'discards')} {tile_label(e['pai'])}{tag}"
    if t == "benjin":
        return f"本金 turned up: {tile_label(e['pai'])} (its neighbours are wild this hand)"
    if t == "huansanzhang_skipped":
        return "换三张 skipped: a seat holds too few natural tiles to give"
    if t == "ti":
        return (f"{_v(e['actor'], me, '提 puts')} {tile_label(e['pai'])} into its meld and takes "
                f"back {tile_label(e['wild'])}")
    if t == "pon":
        return (f"{_v(e['actor'], me, '碰 pengs')} {tile_label(e['pai'])} from "
                f"{_who(e['target'], me)}{_with_wilds(e, e['pai'])}")
    if t == "daiminkan":
        return (f"{_v(e['actor'], me, '杠 kongs')} {tile_label(e['pai'])} from "
                f"{_who(e['target'], me)}{_with_wilds(e, e['pai'])}")
    if t == "ankan":
        return f"{_v(e['actor'], me, 'declares')} 暗杠 a concealed kong {tile_label(e['consumed'][0])}"
    if t == "kakan":
        return f"{_v(e['actor'], me, '补杠 adds')} {tile_label(e['pai'])} to a peng"
    if t == "hora":
        src = e.get("source")
        frm = e["target"]
        how = ("自摸 self-draw" if src == "self_draw" else
               f"抢杠 robbing {_who(frm, me)}" if src == "robbed_kong" else
               f"on {_who(frm, me)}'s discard")
        fans = [f"{PATTERN_NAMES.get(e['base'], e['base'])} {e['base_fan']}"]
        if e.get("gen"):
            fans.append(f"根 ×{e['gen']}")
        fans += [ADDITIVE_NAMES.get(x, x) for x in e.get("extras", ())]
        hand = f" [{e['hand']}]" if e.get("hand") else ""
        return (f"{_v(e['actor'], me, '胡 wins')} {tile_label(e['pai'])} {how}: {' + '.join(fans)} = "
                f"{e['fan']}番 ×{e['multiplier']}{hand}")
    if t == "pay":
        payee = "the house" if e["payee"] is None else _who(e["payee"], me)
        return f"    {_v(e['payer'], me, 'pays')} {payee} {e['amount']} ({e['reason']})"
    if t in ("timeout", "auto_play", "escape"):
        return f"{_who(e['actor'], me)}: {t.replace('_', ' ')}"
    if t == "auto_play_cancelled":
        return f"{_who(e['actor'], me)}: 取消托管 auto-play cancelled, plays again"
    if t == "end_checks":
        parts = []
        for c in e["seats"]:
            if c["won"]:
                continue
            state = "花猪 flower pig" if c["pig"] else ("ready" if c["ready"] else "not ready")
            parts.append(f"{_who(c['seat'], me)} {state}")
        return "查叫 end checks: " + (", ".join(parts) if parts else "every seat won")
    if t == "end_hand":
        net = ", ".join(f"{_who(s, me)} {n:+d}" for s, n in enumerate(e["net"]))
        return f"— hand over ({str(e['reason']).replace('_', ' ')}): {net}"
    return None


def _with_wilds(e: Dict[str, Any], kind: str) -> str:
    """`` with 1条`` for the wilds a soft meld's event lists (docs/rules.md §12.3), else nothing."""
    wilds = [t for t in e.get("consumed", ()) if t != kind]
    return f" with {_ts(wilds)}" if wilds else ""


def print_events(events: Sequence[Dict[str, Any]], me: Optional[int], out: Any) -> None:
    """Event lines; a draw and the discard that follows it share one line."""
    held: Optional[str] = None
    for e in events:
        line = describe_event(e, me)
        if line is None:
            continue
        if e.get("type") == "tsumo":
            if held is not None:
                print(held, file=out)
            held = line
            continue
        if held is not None:
            if e.get("type") == "dahai" and held.startswith(_who(e["actor"], me) + " "):
                line = held + ", " + line.split(" ", 1 if e["actor"] == me else 2)[-1]
            else:
                print(held, file=out)
            held = None
        print(line, file=out)
    if held is not None:
        print(held, file=out)


def show_table(obs: Dict[str, Any], me: int, out: Any) -> None:
    """The table as seat ``me`` sees it before a decision."""
    print("", file=out)
    print(f"wall {obs['wall_remaining']} left · phase {obs['phase']}", file=out)
    wilds = obs.get("wilds")
    if wilds:  # docs/rules.md §12.1: which tiles are wild this hand, and the 本金
        line = "wild tiles: " + _ts(wilds["kinds"])
        if wilds.get("benjin"):
            line += f" (本金 {tile_label(wilds['benjin'])} turned up)"
        print(line, file=out)
    rows = []
    for s in range(len(obs["discards"])):  # one river per seat
        v = obs["voids"][s] if obs.get("voids") else None
        if s == me and obs.get("void"):
            v = obs["void"]
        melds = " ".join(meld_text(m["type"], m["tile"], m.get("wilds") or ())
                         if m["tile"] != "?" else "[????]" for m in obs["melds"][s])
        won = " 胡" * len(obs["wins"][s]) if obs.get("wins") else ""
        rows.append([_who(s, me) + (" (dealer)" if s == obs["dealer"] else ""),
                     f"缺{_SUIT_NAME[v]}" if v else "",
                     melds, ("discards " + " ".join(tile_label(t) for t in obs["discards"][s])) + won])
    print(table(rows, indent="  "), file=out)
    counts = [0] * 28
    for t in obs["hand"]:
        counts[27 if t == "7z" else tile_index(t)] += 1
    drawn = obs.get("drawn")
    hand_line = counts_text(counts)
    if drawn:
        hand_line += f"   (drew {tile_label(drawn)})"
    print(f"your hand: {hand_line}", file=out)
    if obs.get("claim"):
        c = obs["claim"]
        print(f"on the table: {tile_label(c['tile'])} from {_who(c['from'], me)}", file=out)

