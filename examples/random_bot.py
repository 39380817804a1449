#!/usr/bin/env python3
"""A bot for xueliu in plain Python: it answers every request with a random legal action.

It speaks the JSON-lines protocol of docs/protocol.md over stdin/stdout and imports nothing from
xueliu, so it is a template for a bot in any language:

    xueliu simulate --games 400 --duplicate --bots "cmd:python3 examples/random_bot.py,greedy,greedy,greedy"

Each line it reads is one JSON object: a "hello" at the start of every hand (its seat, the rules
and a seed), then the events its seat may see, and a "request" with the legal actions whenever
it must decide. It answers each request, and only requests, with one line {"id": N}.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in iter(sys.stdin.readline, ""):
        # Every line starts with its type ('{"type":"request"', ...), so a bot can skip the
        # lines it does not need without parsing them.
        if line.startswith('{"type":"request"'):
            action = rng.choice(json.loads(line)["actions"])
            sys.stdout.write(json.dumps({"id": action["id"]}) + "\n")
            sys.stdout.flush()
        elif line.startswith('{"type":"hello"'):
            # Reseeding per hand makes every hand's choices a function of the hand alone, so a
            # run gives the same results however many worker processes share the hands.
            rng.seed(json.loads(line)["seed"])
        # Every other line is an event of the hand (docs/events.md); this bot ignores them.


if __name__ == "__main__":
    main()
