"""The ``xueliu arena`` command (see :mod:`xueliu.cli`): arguments checked, the arena played with a
progress bar on stderr, the table on stdout, the JSON in ``--json``."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, List

from ..errors import CommandError
from ..rules import Rules
from ..simulate.progress import Progress
from .plan import plan_matches
from .report import format_table, to_json
from .run import arena

__all__ = ["run_command", "parse_bots"]


def parse_bots(text: str) -> List[str]:
    """The bots of ``--bots``: comma-separated specs, each kept exactly as written (only the
    spaces around a comma are dropped)."""
    bots = [b.strip() for b in text.split(",")]
    if not all(bots):
        raise CommandError(f"--bots needs comma-separated bots, none of them empty, got {text!r}")
    for b in bots:
        if bots.count(b) > 1:
            raise CommandError(f"--bots lists {b!r} twice")
    return bots


def _check_writable(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        raise CommandError(f"cannot write {path}: no directory {folder}")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise CommandError(f"cannot write {path}: permission denied")


def run_command(args: Any) -> int:
    bots = parse_bots(args.bots)
    if args.games < 1:
        raise CommandError(f"--games must be at least 1 (walls, each played in 4 seatings), got "
                           f"{args.games}")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, got {args.workers}")
    if args.seed < 0:
        raise CommandError(f"--seed must be non-negative, got {args.seed}")
    if not args.bot_timeout > 0:
        raise CommandError(f"--bot-timeout must be positive, got {args.bot_timeout}")
    mode = "pairs" if args.pairs else "reference"
    if mode == "pairs" and len(bots) < 2:
        raise CommandError("--pairs needs at least two bots")
    reference = (args.reference or "greedy").strip()
    if not reference:
        raise CommandError("--reference needs a bot")
    # Bots given as module:Class are found in the working directory, as `python -m` does.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    from ..bots import check_bot_spec

    for spec in (*bots, reference):
        try:
            check_bot_spec(spec)
        except ValueError as e:
            raise CommandError(str(e)) from None
    if args.json:
        _check_writable(args.json)  # before the arena is played, not after
    rules = args.rules if isinstance(getattr(args, "rules", None), Rules) else \
        Rules.preset(args.preset)  # the command line's rules (xueliu.cli reads them)
    players = rules.players
    total = players * args.games * len(plan_matches(bots, mode, reference, players))
    progress = Progress(total, sys.stderr, enabled=not args.no_progress)
    result = arena(bots, args.games, rules=rules, mode=mode, reference=reference,
                   seed=args.seed, workers=args.workers, progress=progress,
                   bot_timeout=args.bot_timeout)
    if args.json:
        # Written only once the arena is over: a run that fails leaves an earlier file as it was.
        try:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(to_json(result), out, ensure_ascii=False, indent=2)
                out.write("\n")
        except OSError as e:
            raise CommandError(f"cannot write {args.json}: {e.strerror}") from None
    print(format_table(result), flush=True)
    rate = total / result.seconds if result.seconds > 0 else 0.0
    print(f"{total} hands in {result.seconds:.1f} s ({rate:.0f} hands/s, {result.workers} "
          f"worker{'s' if result.workers != 1 else ''})", file=sys.stderr)
    return 0
