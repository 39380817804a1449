"""A bot that misbehaves on purpose, for the tests of external bots (docs/protocol.md).

    python misbehaving_bot.py slow N1/N2/...      sleep SLEEP seconds before answering those requests
    python misbehaving_bot.py garbage             answer the first requests with garbage / bad ids
    python misbehaving_bot.py crash N             exit (status 3) after answering N requests
    python misbehaving_bot.py silent              read everything, never answer
    python misbehaving_bot.py booleans            answer {"id": true}, then {"id": false}, then well

Requests are counted from 1 over the whole run (every hand). Otherwise it answers like
examples/random_bot.py. Standalone: it imports nothing from xueliu.
"""

import json
import random
import sys
import time

SLEEP = 4.5  # tests use --bot-timeout 3: late by 1.5 s, and the next answer in time by 1.5 s
GARBAGE = [
    "this is not json",
    '{"id": "5"}',
    "[1, 2, 3]",
    '{"id": 99999}',  # an id that is never legal
    '{"choice": 1}',
]
# JSON booleans are not integers, though Python's bool is an int: true must not be read as id 1.
BOOLEANS = ['{"id": true}', '{"id": false}']


def main() -> None:
    how = sys.argv[1]
    arg = sys.argv[2] if len(sys.argv) > 2 else ""
    slow = {int(x) for x in arg.split("/")} if how == "slow" else set()
    rng = random.Random(0)
    requests = 0
    for line in iter(sys.stdin.readline, ""):
        message = json.loads(line)
        if message["type"] == "hello":
            rng.seed(message["seed"])
            continue
        if message["type"] != "request":
            continue
        requests += 1
        if how == "silent":
            continue
        if how == "crash" and requests > int(arg):
            sys.exit(3)
        answer = json.dumps({"id": rng.choice(message["actions"])["id"]})
        if how == "slow" and requests in slow:
            time.sleep(SLEEP)
        if how == "garbage" and requests <= len(GARBAGE):
            answer = GARBAGE[requests - 1]
        if how == "booleans" and requests <= len(BOOLEANS):
            answer = BOOLEANS[requests - 1]
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
