"""The ``xueliu`` command: analyze a hand, simulate many hands, play against bots, replay a record.

::

    xueliu analyze 1234567m123p4456s            # 查听: every discard, its waits and their fan
    xueliu analyze 11112345678999m              # a complete hand: the fan breakdown
    xueliu simulate --games 1000 --bots greedy,random,random,random --workers 2
    xueliu arena --bots expert,greedy,random --games 2000 --workers 2   # rank bots (docs/strength.md)
    xueliu play --preset xuezhan                # you (seat 0) against three GreedyBots
    xueliu replay hands.jsonl                   # the events and settlement of a record
    xueliu replay hands.jsonl --html hand.html  # the same hand in a self-contained web page
    xueliu review hands.jsonl --seat 0          # each decision of seat 0 beside ExpertBot's values
    xueliu serve --port 8700                    # the table server (the server extra)
    xueliu train --out runs/a --seed 1          # train the neural bot (the train extra; docs/training.md)

Bad input is one line on stderr (``xueliu: error: ...``) and a non-zero exit, never a traceback;
``xueliu --debug COMMAND ...`` prints the traceback of a failing bot or an internal error too.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from typing import Any, Dict, List, NoReturn, Optional, Sequence

from . import __version__
from ._text import counts_text, hand_text, meld_text, table, tile_text
from .analysis import analyze, as_json
from .errors import BotError, CommandError
from .game import new_game
from .hand import DiscardOption, FanResult
from .json_lines import LineError, read_json_line
from .patterns import ADDITIVE_NAMES, PATTERN_NAMES
from .record import replay
from .rules import PRESET_NAMES, Rules
from .tiles import parse_hand, tile_index

__all__ = ["main"]

PRESETS = tuple(PRESET_NAMES)
"""Every preset (docs/rules.md §9, §11.4): each command reads seats, suits and hand size from it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit code 2 (argparse's convention)
        self.exit(2, f"{self.prog}: error: {message}\n")


# -- analyze ---------------------------------------------------------------------------------------


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
        result = analyze(hand, void=void_letter, visible=args.visible or None, rules=args.preset)
    except ValueError as e:
        raise CommandError(f"--{e}" if str(e).startswith("visible:") else str(e)) from None
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=False))
        return 0
    void_text = "none" if void_letter is None else f"{void_letter} {tile_text('1' + void_letter)[1:]}"
    out = [f"Hand    {hand_text(hand)}",
           f"Tiles   {int(sum(hand.counts))} concealed, {_plural(len(hand.melds), 'meld')}"
           f" · void {void_text}"
           f" · preset {args.preset}"]
    if any(visible):
        out.append(f"Seen    {counts_text(visible)}")
    if "fan" in result:
        out.extend(_breakdown(result["fan"], result["self_draw"]))
    elif "discards" in result:
        out.extend(_discard_table(result["discards"]))
    else:
        out.extend(_waits_table(result))
    print("\n".join(out))
    return 0


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
        for ident, name in zip(r.extras, r.extra_names):
            rows.append([name, ident, "+1 番"])
        raw = r.base_fan + r.gen + len(r.extras)
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


# -- arena -----------------------------------------------------------------------------------------


def cmd_arena(args: argparse.Namespace) -> int:
    from . import arena

    return arena.run_command(args)


# -- simulate --------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    from . import simulate

    return simulate.run_command(args)


# -- events, play and replay ----------------------------------------------------------------------

_SUIT_NAME = {"m": "万", "p": "筒", "s": "条"}


def _t(name: Optional[str]) -> str:
    return "?" if not name or name == "?" else tile_text(name)


def _ts(names: Sequence[str]) -> str:
    return " ".join(_t(n) for n in names)


def _who(seat: int, me: Optional[int]) -> str:
    return "you" if seat == me else f"seat {seat}"


def _v(actor: int, me: Optional[int], verb: str) -> str:
    """``"seat 2 draws"`` / ``"you draw"``."""
    if actor == me:
        return "you " + (verb[:-1] if verb.endswith("s") else verb)
    return f"seat {actor} {verb}"


_TILE_ACTION_WORDS = {"discard": "打 discard", "peng": "碰 peng", "kong": "杠 kong",
                     "concealed_kong": "暗杠 concealed kong", "added_kong": "补杠 added kong"}


def describe_action(a: Any) -> str:
    """An action as a player reads it: ``"打 discard 5万"``, ``"碰 peng 7条"``, ``"胡 win"``."""
    k = a.kind
    if k in _TILE_ACTION_WORDS:
        return f"{_TILE_ACTION_WORDS[k]} {_t(a.tile)}"
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
        return f"{_v(e['actor'], me, how)} {_t(e['pai'])}"
    if t == "dahai":
        tag = " (auto)" if e.get("auto") else ""
        return f"{_v(e['actor'], me, 'discards')} {_t(e['pai'])}{tag}"
    if t == "pon":
        return f"{_v(e['actor'], me, '碰 pengs')} {_t(e['pai'])} from {_who(e['target'], me)}"
    if t == "daiminkan":
        return f"{_v(e['actor'], me, '杠 kongs')} {_t(e['pai'])} from {_who(e['target'], me)}"
    if t == "ankan":
        return f"{_v(e['actor'], me, 'declares')} 暗杠 a concealed kong {_t(e['consumed'][0])}"
    if t == "kakan":
        return f"{_v(e['actor'], me, '补杠 adds')} {_t(e['pai'])} to a peng"
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
        return (f"{_v(e['actor'], me, '胡 wins')} {_t(e['pai'])} {how}: {' + '.join(fans)} = "
                f"{e['fan']}番 ×{e['multiplier']}{hand}")
    if t == "pay":
        payee = "the house" if e["payee"] is None else _who(e["payee"], me)
        return f"    {_v(e['payer'], me, 'pays')} {payee} {e['amount']} ({e['reason']})"
    if t in ("timeout", "auto_play", "escape"):
        return f"{_who(e['actor'], me)}: {t.replace('_', ' ')}"
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


def _print_events(events: Sequence[Dict[str, Any]], me: Optional[int], out: Any) -> None:
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


def _show_table(obs: Dict[str, Any], me: int, out: Any) -> None:
    """The table as seat ``me`` sees it before a decision."""
    print("", file=out)
    print(f"wall {obs['wall_remaining']} left · phase {obs['phase']}", file=out)
    rows = []
    for s in range(len(obs["discards"])):  # one river per seat
        v = obs["voids"][s] if obs.get("voids") else None
        if s == me and obs.get("void"):
            v = obs["void"]
        melds = " ".join(meld_text(m["type"], m["tile"]) if m["tile"] != "?" else "[????]"
                         for m in obs["melds"][s])
        won = " 胡" * len(obs["wins"][s]) if obs.get("wins") else ""
        rows.append([_who(s, me) + (" (dealer)" if s == obs["dealer"] else ""),
                     f"缺{_SUIT_NAME[v]}" if v else "",
                     melds, ("discards " + " ".join(_t(t) for t in obs["discards"][s])) + won])
    print(table(rows, indent="  "), file=out)
    counts = [0] * 27
    for t in obs["hand"]:
        counts[tile_index(t)] += 1
    drawn = obs.get("drawn")
    hand_line = counts_text(counts)
    if drawn:
        hand_line += f"   (drew {_t(drawn)})"
    print(f"your hand: {hand_line}", file=out)
    if obs.get("claim"):
        c = obs["claim"]
        print(f"on the table: {_t(c['tile'])} from {_who(c['from'], me)}", file=out)


def _ask(legal: Sequence[Any], inp: Any, out: Any) -> Any:
    """Prompt until the person picks a legal action (a number, or e.g. ``5m`` for a discard)."""
    for i, a in enumerate(legal):
        print(f"  {i:2d}  {describe_action(a)}", file=out)
    while True:
        print(f"choose 0-{len(legal) - 1}: ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise CommandError("input ended before the hand was over")
        text = line.strip()
        if not getattr(inp, "isatty", lambda: False)():
            print(text, file=out)  # piped answers: keep the transcript readable
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        for a in legal:  # a tile name picks the discard of that tile
            if a.kind == "discard" and text in (a.tile, _t(a.tile)):
                return a
        if text in ("q", "quit", "exit"):
            raise CommandError("you left the table")
        print(f"not a choice: {text!r}", file=out)


def cmd_play(args: argparse.Namespace) -> int:
    import random

    from .bots import GreedyBot, bot_seed, end_hand_for, start_hand_for

    rules = Rules.preset(args.preset)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 63)
    me = args.seat
    if me >= rules.players:
        raise CommandError(f"--seat must be 0..{rules.players - 1} at {args.preset} "
                           f"({rules.players} seats), got {me}")
    state = new_game(rules, seed=seed, dealer=0)
    bots = {s: GreedyBot(rules=rules) for s in rules.shape.seats if s != me}
    for s, bot in bots.items():  # the one bot lifecycle, as play_hand and simulate run it
        start_hand_for(bot, s, rules, bot_seed(seed, 0, s))
    out = sys.stdout
    print(f"xueliu play — {args.preset}, seed {seed}; you are seat {me}, the others are "
          "GreedyBots. Answer with the number of a choice (or a tile such as 5m to discard it).",
          file=out)
    shown = 0
    while not state.is_over:
        decisions = {}
        for seat in state.pending():
            if seat == me:
                _print_events(state.events(me, since=shown), me, out)
                shown = state.event_count
                _show_table(state.observation(me), me, out)
                decisions[seat] = _ask(state.legal_actions(me), sys.stdin, out)
            else:
                decisions[seat] = bots[seat].act(state.observation(seat), state.legal_actions(seat))
        state.step(decisions)
    for s, bot in bots.items():
        end_hand_for(bot, state, s)
    if args.out is not None:  # the record, as the server stores it: xueliu replay/review read it
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(state.record(), f, ensure_ascii=False)
    _print_events(state.events(me, since=shown), me, out)
    print("", file=out)
    print(state.settlement().report(), file=out)
    return 0


def _load_record(path: str, line: int) -> Dict[str, Any]:
    try:
        data = read_json_line(path, line)
    except LineError as e:
        raise CommandError(str(e)) from None
    if isinstance(data, dict) and "record" in data and isinstance(data["record"], dict):
        data = data["record"]  # a line of `xueliu simulate --out`
    if not isinstance(data, dict):
        raise CommandError(f"{path}: a record is a JSON object, got {type(data).__name__}")
    return data


def _write_html(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    rec = _load_record(args.file, args.line)
    try:
        state = replay(rec)
    except (ValueError, TypeError) as e:
        raise CommandError(f"the record does not replay: {e}") from None
    seat = args.seat
    if seat is not None and seat >= state.rules.players:
        raise CommandError(f"--seat must be 0..{state.rules.players - 1}: the record's table has "
                           f"{state.rules.players} seats, got {seat}")
    if getattr(args, "html", None):
        from .replay_html import replay_page

        view = "all hands open" if seat is None else f"seat {seat}'s view"
        _write_html(args.html, replay_page(rec, seat, title=f"{args.file} #{args.line} · {view}"))
        print(f"wrote {args.html} ({len(state.events())} events, {view})")
        return 0
    _print_events(state.events(seat), seat, sys.stdout)
    print("")
    print(state.settlement().report())
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from .review import review_json, review_record, review_text

    rec = _load_record(args.file, args.line)
    try:
        result = review_record(rec, args.seat)
    except (ValueError, TypeError) as e:
        raise CommandError(f"the record does not replay: {e}") from None
    data = review_json(result)
    if args.html:
        from .replay_html import replay_page

        title = f"{args.file} #{args.line} · review of seat {args.seat}"
        _write_html(args.html, replay_page(rec, args.seat, review=data, title=title))
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(review_text(result))
        if args.html:
            print(f"wrote {args.html}")
    return 0


# -- entry point -----------------------------------------------------------------------------------


def _window(text: str) -> Optional[float]:
    return None if text.lower() == "none" else float(text)


def cmd_serve(args: argparse.Namespace) -> int:
    try:  # the server's libraries are the optional "server" extra
        from .server import ServerConfig, serve
    except ImportError as e:
        raise CommandError(f"{e}; install the server extra: pip install \".[server]\" in the "
                           "clone") from None
    return serve(ServerConfig(
        host=args.host, port=args.port, db=args.db, time_scale=args.time_scale,
        starting_coins=args.starting_coins, reconnect_window=args.reconnect_window,
        bot_delay=args.bot_delay, auto_delay=args.auto_delay, lease=args.lease,
        stop_after=args.stop_after))


def cmd_train(args: argparse.Namespace) -> int:
    from .train.__main__ import main as train_main  # numpy only until the arguments are read

    return train_main(args.args, prog="xueliu train")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="xueliu", description="Sichuan mahjong: 血流成河 (xueliu) and 血战到底 (xuezhan).")
    p.add_argument("--version", action="version", version=f"xueliu {__version__}")
    p.add_argument("--debug", action="store_true",
                   help="print the traceback of a failing bot or an internal error")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    a = sub.add_parser("analyze", help="shanten, waits, 查听 or the fan of one hand",
                       description="13 - 3k tiles: shanten and waits with their fan; 14 - 3k: the "
                                   "查听 table, or the fan breakdown of a complete hand.")
    a.add_argument("hand", metavar="HAND", help="docs/rules.md §1 notation, e.g. 1234567m123p4456s or "
                                                "11p345m(777s)")
    a.add_argument("--void", metavar="SUIT", help="the declared void suit: m, p or s (万/筒/条)")
    a.add_argument("--visible", metavar="TILES", help="tiles seen elsewhere (discards, melds), "
                                                      "notation, e.g. 4s44p")
    a.add_argument("--preset", choices=PRESETS, default="xueliu",
                   help="the rules: hand size and suits in play come from it (default xueliu)")
    a.add_argument("--json", action="store_true",
                   help="print the results as one JSON object (docs/analyze-json.md)")
    a.set_defaults(func=cmd_analyze)

    s = sub.add_parser("simulate", help="play many hands with bots and summarise",
                       description="Play N hands with the given bots in local worker processes "
                                   "(or on Ray) and print per-bot statistics.")
    s.add_argument("--games", type=int, required=True, metavar="N", help="hands to play")
    s.add_argument("--preset", choices=PRESETS, default="xueliu")
    s.add_argument("--bots", default=None,
                   help="one bot per seat, comma-separated: expert, greedy, random, autoplay, "
                        "neural, neural:WEIGHTS (a weights file), module:Class (a module in the "
                        "working directory or on the path) or "
                        "cmd:COMMAND (a program speaking docs/protocol.md) (default "
                        "greedy,greedy,random,random; at 3 seats greedy,greedy,random, at 2 "
                        "greedy,random)")
    s.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    s.add_argument("--workers", type=int, default=1, metavar="K",
                   help="worker processes (default 1); results do not depend on it")
    s.add_argument("--duplicate", action="store_true",
                   help="play each wall 4 times with the bots rotated through the seats")
    s.add_argument("--out", metavar="FILE.jsonl", help="write one JSON line per hand")
    s.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local worker processes (default) or a Ray cluster (in the clone: pip "
                        "install \".[ray]\"; RAY_ADDRESS selects the cluster)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    s.add_argument("--bot-timeout", type=float, default=5.0, metavar="SECONDS",
                   help="seconds a cmd: bot has for each decision before docs/rules.md §8's default is "
                        "taken for it (default 5)")
    s.add_argument("--bot-observation", action="store_true",
                   help="put the seat's observation (state.observation(seat), docs/events.md) in "
                        "each request to a cmd: bot (docs/protocol.md)")
    s.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                   help="print the traceback when a bot fails (same as xueliu --debug)")
    s.set_defaults(func=cmd_simulate)

    ar = sub.add_parser("arena", help="rank bots: each in one seat against three of a reference, "
                                      "on duplicate walls",
                        description="Every bot plays one seat against three copies of the "
                                    "reference (or, with --pairs, of every other bot) on the same "
                                    "walls, each wall in its four seatings; prints the mean per "
                                    "hand with a 95%% interval clustered by wall, win rate, "
                                    "deal-ins, fan per win and a Bradley-Terry rating in Elo "
                                    "points (docs/strength.md).")
    ar.add_argument("--bots", default="expert,greedy,random",
                    help="comma-separated bots: expert, greedy, random, autoplay, neural, "
                         "neural:WEIGHTS (a weights file), module:Class or cmd:COMMAND "
                         "(default expert,greedy,random)")
    ar.add_argument("--games", type=int, required=True, metavar="N",
                    help="walls per match; each is played in its 4 seatings (4N hands per match)")
    ar.add_argument("--preset", choices=PRESETS, default="xueliu")
    ar.add_argument("--reference", default=None, metavar="BOT",
                    help="the three opponents of every bot, and the rating's 0 (default greedy); "
                         "with --pairs only the rating's 0")
    ar.add_argument("--pairs", action="store_true",
                    help="all pairs: every bot in one seat against three copies of every other bot")
    ar.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    ar.add_argument("--workers", type=int, default=1, metavar="K",
                    help="worker processes (default 1); results do not depend on it")
    ar.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    ar.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    ar.add_argument("--bot-timeout", type=float, default=5.0, metavar="SECONDS",
                    help="seconds a cmd: bot has for each decision (default 5)")
    ar.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                    help="print the traceback when a bot fails (same as xueliu --debug)")
    ar.set_defaults(func=cmd_arena)

    pl = sub.add_parser("play", help="play one hand against GreedyBots in the terminal")
    pl.add_argument("--preset", choices=PRESETS, default="xueliu")
    pl.add_argument("--seed", type=int, default=None, help="seed of the wall (default: random)")
    pl.add_argument("--seat", type=int, default=0, choices=range(4),
                    help="your seat, 0..players-1 of the preset (default 0)")
    pl.add_argument("--out", metavar="FILE.json", default=None,
                    help="write the hand's record there when it ends (for xueliu replay/review)")
    pl.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="replay a record and print its events and settlement")
    r.add_argument("file", metavar="FILE", help="a record (JSON) or a --out file (JSON lines)")
    r.add_argument("--line", type=int, default=0, metavar="N",
                   help="which line of a JSON-lines file, counting from 0 like the \"hand\" "
                        "field and bot-error messages (default 0)")
    r.add_argument("--seat", type=int, default=None, choices=range(4),
                   help="show the hand as this seat saw it, 0..players-1 of the record's table "
                        "(default: everything)")
    r.add_argument("--html", metavar="OUT.html", default=None,
                   help="write the hand as a self-contained web page (the replay viewer) instead")
    r.set_defaults(func=cmd_replay)

    rv = sub.add_parser("review", help="each decision of one seat beside ExpertBot's value of "
                                       "every option (docs/review.md)")
    rv.add_argument("file", metavar="FILE", help="a record (JSON) or a --out file (JSON lines)")
    rv.add_argument("--line", type=int, default=0, metavar="N",
                    help="which line of a JSON-lines file, counting from 0 as for replay "
                         "(default 0)")
    rv.add_argument("--seat", type=int, required=True, choices=range(4),
                    help="the seat whose decisions are reviewed, 0..players-1 of the record's "
                         "table")
    rv.add_argument("--html", metavar="OUT.html", default=None,
                    help="also write the review as a web page: the replay viewer, annotated")
    rv.add_argument("--json", action="store_true",
                    help="print the review as one JSON object (docs/review.md)")
    rv.set_defaults(func=cmd_review)

    sv = sub.add_parser("serve", help="run the table server (HTTP + websocket; docs/server.md)")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8700, help="port (default 8700; 0: any free port)")
    sv.add_argument("--db", default="sqlite:///xueliu.db",
                    help="sqlite:///PATH (default sqlite:///xueliu.db) or postgresql://...")
    sv.add_argument("--time-scale", type=float, default=1.0, metavar="X",
                    help="multiply every timer by X (e.g. 0.01 for tests; default 1)")
    sv.add_argument("--starting-coins", type=int, default=1000, metavar="N",
                    help="coins of a new player (default 1000)")
    sv.add_argument("--reconnect-window", type=_window, default=90.0, metavar="SECONDS",
                    help="a dropped seat escapes after this long; 'none': never (default 90)")
    sv.add_argument("--bot-delay", type=float, default=1.0, metavar="SECONDS",
                    help="a server bot answers after this long (default 1)")
    sv.add_argument("--auto-delay", type=float, default=1.0, metavar="SECONDS",
                    help="a dropped seat is auto-played after this long per decision (default 1)")
    sv.add_argument("--lease", type=float, default=10.0, metavar="SECONDS",
                    help="another process takes a silent process's tables after this long "
                         "(default 10)")
    sv.add_argument("--stop-after", type=float, default=None, help=argparse.SUPPRESS)
    sv.set_defaults(func=cmd_serve)

    # python -m xueliu.train's own parser reads the arguments (one definition of them): this
    # parser takes everything after "train" as they are (no option of its own, not even -h).
    tr = sub.add_parser("train", help="train the neural bot (the train extra; docs/training.md)",
                        add_help=False, prefix_chars="\0")
    tr.add_argument("args", nargs=argparse.REMAINDER)
    tr.set_defaults(func=cmd_train)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``xueliu`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except CommandError as e:
        print(f"xueliu {args.command}: error: {e}", file=sys.stderr)
        return 1
    except BotError as e:
        if args.debug:
            traceback.print_exception(type(e), e, e.__traceback__)
        print(f"xueliu {args.command}: error: {e}"
              + ("" if args.debug else " (run with --debug for the traceback)"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"xueliu {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except (ValueError, TypeError, OSError) as e:
        print(f"xueliu {args.command}: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug: still one line, the traceback only on request
        if args.debug:
            traceback.print_exception(type(e), e, e.__traceback__)
        print(f"xueliu {args.command}: internal error: {type(e).__name__}: {e}"
              + ("" if args.debug else " (run with --debug for the traceback)"), file=sys.stderr)
        return 3
    sys.stdout.flush()
    return code or 0
