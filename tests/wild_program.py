"""A bot program for the tables with wild tiles (docs/protocol.md, docs/rules.md §12), for the tests:
it reads which tiles are wild from the ``hello`` and each request's ``wilds`` and never throws a
wild while another discard is legal.

    python wild_program.py [LOG]

It wins whenever it may; on its turn it takes 提 (``swap_back``) when offered, else discards the
first legal tile that is not wild (a wild only when nothing else may go); in a claim window it
passes. It checks that the ``hello`` of a wild table carries ``wilds`` and that every request
after it does too (exit status 2 otherwise); with LOG it appends every line it reads to that file.
Standalone: it imports nothing from xueliu.
"""

import json
import sys


def main() -> None:
    log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
    wild_table = False
    for line in iter(sys.stdin.readline, ""):
        if log is not None:
            log.write(line)
            log.flush()
        if line.startswith('{"type":"hello"'):
            hello = json.loads(line)
            knobs = hello["rules"]
            wild_table = bool(knobs.get("wild_kinds") or knobs.get("extra_wilds"))
            if wild_table != ("wilds" in hello):
                sys.stderr.write("wild_program: the hello and the rules disagree on wilds\n")
                sys.exit(2)
            continue
        if not line.startswith('{"type":"request"'):
            continue
        request = json.loads(line)
        if wild_table != ("wilds" in request):
            sys.stderr.write("wild_program: a request without the table's wilds\n")
            sys.exit(2)
        wild = set(request["wilds"]["kinds"]) if wild_table else set()
        actions = request["actions"]
        by_kind = {}
        for a in actions:
            by_kind.setdefault(a["kind"], []).append(a)
        if "hu" in by_kind:
            choice = by_kind["hu"][0]
        elif "swap_back" in by_kind:
            choice = by_kind["swap_back"][0]
        elif "discard" in by_kind:
            natural = [a for a in by_kind["discard"] if a["tile"] not in wild]
            choice = (natural or by_kind["discard"])[0]
        elif "pass" in by_kind:
            choice = by_kind["pass"][0]
        else:
            choice = actions[0]
        sys.stdout.write(json.dumps({"id": choice["id"]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
