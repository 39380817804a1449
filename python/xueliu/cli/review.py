"""``xueliu review FILE --seat N``: each decision of one seat beside ExpertBot's value of every
option (docs/review.md)."""

from __future__ import annotations

import argparse
import json

from ..errors import CommandError
from .common import load_record, write_html

__all__ = ["cmd_review"]


def cmd_review(args: argparse.Namespace) -> int:
    from ..review import review_json, review_record, review_text, review_written

    rec = load_record(args.file, args.line)
    try:
        result = review_record(rec, args.seat)
    except (ValueError, TypeError) as e:
        raise CommandError(f"the record does not replay: {e}") from None
    data = review_json(result)
    if args.html:
        from ..replay_html import file_names, replay_page

        title = f"{args.file} #{args.line} · review of seat {args.seat}"
        write_html(args.html, replay_page(rec, args.seat, review=data, title=title,
                                          names=file_names(args.file, args.line)))
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    elif args.html:
        print(review_written(result, args.html))
    else:
        print(review_text(result))
    return 0
