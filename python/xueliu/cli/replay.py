"""``xueliu replay FILE``: a record's events and settlement, or the hand as a web page."""

from __future__ import annotations

import argparse
import sys

from ..errors import CommandError
from ..record import replay
from .common import load_record, write_html
from .events import print_events

__all__ = ["cmd_replay"]


def cmd_replay(args: argparse.Namespace) -> int:
    rec = load_record(args.file, args.line)
    try:
        state = replay(rec)
    except (ValueError, TypeError) as e:
        raise CommandError(f"the record does not replay: {e}") from None
    seat = args.seat
    if seat is not None and seat >= state.rules.players:
        raise CommandError(f"--seat must be 0..{state.rules.players - 1}: the record's table has "
                           f"{state.rules.players} seats, got {seat}")
    if getattr(args, "html", None):
        from ..replay_html import file_names, replay_page

        view = "all hands open" if seat is None else f"seat {seat}'s view"
        write_html(args.html, replay_page(rec, seat, title=f"{args.file} #{args.line} · {view}",
                                          names=file_names(args.file, args.line)))
        print(f"wrote {args.html} ({len(state.events())} events, {view})")
        return 0
    print_events(state.events(seat), seat, sys.stdout)
    print("")
    print(state.settlement().report())
    return 0
