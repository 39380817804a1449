"""The ``xueliu`` command's argument parser: every subcommand and its options, in one tree (each
subcommand's code in the module of its name)."""

from __future__ import annotations

import argparse
from typing import NoReturn

from .. import __version__
from .analyze import cmd_analyze
from .arena import cmd_arena
from .common import add_rules_options
from .play import cmd_play
from .replay import cmd_replay
from .review import cmd_review
from .serve import cmd_serve, window
from .simulate import cmd_simulate
from .train import cmd_train

__all__ = ["build_parser"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage error is one line."""

    def error(self, message: str) -> NoReturn:  # one line, exit code 2 (argparse's convention)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of the ``xueliu`` command; each subcommand sets ``func``, the code it runs."""
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
    add_rules_options(a, "the rules: hand size and suits in play come from it (default xueliu; "
                         "the wild-tile rooms too)")
    a.add_argument("--benjin", metavar="TILE", help="the hand's 本金, the tile turned up, under "
                                                    "wild_kinds benjin (docs/rules.md §12.1)")
    a.add_argument("--json", action="store_true",
                   help="print the results as one JSON object (docs/analyze-json.md)")
    a.set_defaults(func=cmd_analyze)

    s = sub.add_parser("simulate", help="play many hands with bots and summarise",
                       description="Play N hands with the given bots in local worker processes "
                                   "(or on Ray) and print per-bot statistics.")
    s.add_argument("--games", type=int, required=True, metavar="N", help="hands to play")
    add_rules_options(s)
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

    # (A description and a usage are printed as written; only an option's help is %-formatted,
    # so "95%" is written "%%" there alone.)
    ar = sub.add_parser("arena", help="rank bots: each in one seat against copies of a "
                                      "reference, on duplicate walls",
                        description="Every bot plays one seat against a copy of the reference in "
                                    "every other seat (or, with --pairs, of every other bot) on "
                                    "the same walls, each wall in each of its seatings (one per "
                                    "seat); prints the mean per hand with a 95% interval "
                                    "clustered by wall, win rate, deal-ins, fan per win and a "
                                    "Bradley-Terry rating in Elo points (docs/strength.md).")
    ar.add_argument("--bots", default="expert,greedy,random",
                    help="comma-separated bots: expert, greedy, random, autoplay, neural, "
                         "neural:WEIGHTS (a weights file), module:Class or cmd:COMMAND "
                         "(default expert,greedy,random)")
    ar.add_argument("--games", type=int, required=True, metavar="N",
                    help="walls per match; each is played in one seating per seat (4N hands "
                         "per match at four seats, 3N at three, 2N at two)")
    add_rules_options(ar)
    ar.add_argument("--reference", default=None, metavar="BOT",
                    help="the bot in every other seat against each bot, and the rating's 0 "
                         "(default greedy); with --pairs only the rating's 0")
    ar.add_argument("--pairs", action="store_true",
                    help="all pairs: every bot in one seat against a copy of every other bot "
                         "in every other seat")
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

    pl = sub.add_parser("play", help="play one hand against GreedyBots in the terminal",
                        description="One hand at the terminal against GreedyBots: each decision "
                                    "asked by number (a tile name such as 5m discards it; at the "
                                    "exchange, type the tiles, e.g. 1m 2m 5m), a move with no "
                                    "other choice taken for you, and the 查听 help (shanten, "
                                    "waits, best discards) shown for your hand before each one.")
    add_rules_options(pl)
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
                    help="write the review as a web page (the replay viewer, annotated) and "
                         "print one line saying so instead of the text")
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
    sv.add_argument("--reconnect-window", type=window, default=90.0, metavar="SECONDS",
                    help="a dropped seat escapes after this long; 'none': never (default 90)")
    sv.add_argument("--bot-delay", type=float, default=1.0, metavar="SECONDS",
                    help="a server bot answers after this long (default 1)")
    sv.add_argument("--auto-delay", type=float, default=1.0, metavar="SECONDS",
                    help="a dropped seat is auto-played after this long per decision (default 1)")
    sv.add_argument("--ready-timeout", type=float, default=30.0, metavar="SECONDS",
                    help="between hands, deal when every seated person pressed Continue or after "
                         "this long (default 30)")
    for flag, default, what in (("exchange", 15, "the exchange"), ("void", 15, "the void and the "
                                "multiplier"), ("turn", 10, "a turn"), ("claim", 10, "a claim")):
        sv.add_argument(f"--human-{flag}", type=float, default=float(default), metavar="SECONDS",
                        help=f"a person's time for {what} (default {default})")
    sv.add_argument("--lease", type=float, default=10.0, metavar="SECONDS",
                    help="another process takes a silent process's tables after this long "
                         "(default 10)")
    add_rules_options(sv, "the house rules start from this preset (default xueliu)",
                      preset_default=None)
    sv.add_argument("--stop-after", type=float, default=None, help=argparse.SUPPRESS)
    sv.add_argument("--deal-seed", type=int, default=None, help=argparse.SUPPRESS)
    sv.set_defaults(func=cmd_serve)

    # python -m xueliu.train's own parser reads the arguments (one definition of them): this
    # parser takes everything after "train" as they are (no option of its own, not even -h).
    tr = sub.add_parser("train", help="train the neural bot (the train extra; docs/training.md)",
                        add_help=False, prefix_chars="\0")
    tr.add_argument("args", nargs=argparse.REMAINDER)
    tr.set_defaults(func=cmd_train)
    return p
