"""A bot that plays from the observation in each request (``--bot-observation``, docs/protocol.md)
instead of rebuilding its hand from the events, for the tests of external bots.

    python observing_bot.py [LOG]

It wins whenever it may, else discards the tile of its hand that comes last in the order of the
observation's ``hand`` list among the legal discards, else takes the first legal action. It checks
that each request carries the observation of its own seat with the request's actions, and exits
with status 2 otherwise; with LOG it appends each observation to that file. Standalone: it imports
nothing from xueliu.
"""

import json
import sys


def main() -> None:
    log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
    seat = None
    for line in iter(sys.stdin.readline, ""):
        if line.startswith('{"type":"hello"'):
            seat = json.loads(line)["seat"]
            continue
        if not line.startswith('{"type":"request"'):
            continue
        request = json.loads(line)
        obs = request.get("observation")
        actions = request["actions"]
        if (not isinstance(obs, dict) or obs.get("seat") != seat
                or sorted(obs["legal_actions"]) != sorted(a["id"] for a in actions)):
            sys.stderr.write("observing_bot: the request has no observation of my seat\n")
            sys.exit(2)
        if log is not None:
            log.write(json.dumps(obs, ensure_ascii=False) + "\n")
            log.flush()
        choice = next((a for a in actions if a["kind"] == "hu"), None)
        if choice is None:
            discards = {a["tile"]: a for a in actions if a["kind"] == "discard"}
            held = [t for t in obs["hand"] if t in discards]
            choice = discards[held[-1]] if held else actions[0]
        sys.stdout.write(json.dumps({"id": choice["id"]}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
