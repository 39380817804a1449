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

Commands that play or read hands under some rules take ``--preset``, ``--rules FILE.json`` (knobs
on the preset, what ``Rules.to_dict()`` writes) and ``--knob NAME=VALUE`` (repeatable; the value
JSON, or a bare word as a string): ``xueliu simulate --games 100 --knob max_fan=3``.

Bad input is one line on stderr (``xueliu: error: ...``) and a non-zero exit, never a traceback;
``xueliu --debug COMMAND ...`` prints the traceback of a failing bot or an internal error too.

The package: :mod:`.parser` builds the argument tree, each subcommand's code is the module of its
name (:mod:`.analyze`, :mod:`.simulate`, :mod:`.arena`, :mod:`.play`, :mod:`.replay`,
:mod:`.review`, :mod:`.serve`, :mod:`.train`), :mod:`.events` writes events and actions for a
player, and :mod:`.common` holds what several commands share (the rules from the command line,
records read and pages written).
"""

from __future__ import annotations

import sys
import traceback
from typing import Optional, Sequence

from .._text import tile_text as tile_text  # (the CLI's way to write a tile, for its tests)
from ..errors import BotError, CommandError
from .common import PRESETS as PRESETS
from .common import RulesOptionError, rules_from_args
from .events import describe_action as describe_action, describe_event as describe_event
from .parser import build_parser

__all__ = ["main"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``xueliu`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "knobs"):  # the rules of the command line, read before anything runs
        try:
            args.rules = rules_from_args(args)
        except RulesOptionError as e:  # a usage error, as argparse reports one
            print(f"xueliu {args.command}: error: {e}", file=sys.stderr)
            return 2
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
