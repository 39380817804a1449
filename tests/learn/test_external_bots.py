"""Programs as bots (docs/protocol.md) through ``xueliu simulate``, run as a subprocess: the
example bot in a duplicate arena, the same results for any number of workers, and bots that are
slow, answer garbage or crash — each gets docs/rules.md §8's default and is counted, and the run ends."""

from __future__ import annotations

import json
import time
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

import xueliu
from xueliu.bots import ExternalBot

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"
MISBEHAVING = f"cmd:{sys.executable} {Path(__file__).parent / 'bots' / 'misbehaving_bot.py'}"


def simulate(*args: str, out: Path = None) -> subprocess.CompletedProcess:  # type: ignore[assignment]
    argv = [sys.executable, "-m", "xueliu", "simulate", "--no-progress", *args]
    if out is not None:
        argv += ["--out", str(out)]
    return subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", timeout=300)


def defaults_row(stdout: str, bot: str) -> Dict[str, int]:
    """The counts of the summary's programs table for ``bot``."""
    lines = stdout.split("\n")
    start = lines.index("programs: decisions, and defaults taken for them (docs/rules.md §8)")
    header = lines[start + 1].split()
    for line in lines[start + 2:]:
        if line.startswith(bot + " "):
            values = line[len(bot):].split()
            return dict(zip(header[1:], map(int, values)))
    raise AssertionError(f"{bot} is not in the programs table:\n{stdout}")


def records(path: Path) -> List[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def timeouts_of(rows: List[dict], bot: str) -> int:
    n = 0
    for row in rows:
        seats = {q for q, name in enumerate(row["seats"]) if name == bot}
        n += sum(1 for seat, what in row["record"]["decisions"] if seat in seats
                 and what == "timeout")
    return n


def test_the_example_bot_plays_a_duplicate_arena(tmp_path):
    p = simulate("--games", "8", "--duplicate", "--seed", "3",
                 "--bots", f"{EXAMPLE},greedy,greedy,greedy", out=tmp_path / "a.jsonl")
    assert p.returncode == 0, p.stderr
    assert re.search(rf"^{re.escape(EXAMPLE)} +8 +[-+]\d+\.\d\d +\[", p.stdout, re.M)
    counts = defaults_row(p.stdout, EXAMPLE)
    assert counts["decisions"] > 8 * 10
    assert counts["late"] == counts["garbage"] == counts["illegal"] == counts["dead"] == 0
    rows = records(tmp_path / "a.jsonl")
    assert timeouts_of(rows, EXAMPLE) == 0
    for row in rows:
        assert xueliu.replay(row["record"]).settlement().net == row["net"]


def test_a_program_gives_the_same_results_for_any_number_of_workers(tmp_path):
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        p = simulate("--games", "12", "--seed", "5", "--workers", workers,
                     "--bots", f"{EXAMPLE},random,{EXAMPLE},greedy", out=out)
        assert p.returncode == 0, p.stderr
        runs.append((p.stdout, out.read_text("utf-8")))
    assert runs[0] == runs[1]


def test_a_slow_bot_gets_the_default_for_each_late_answer(tmp_path):
    # Requests 3 and 10 answered after 4.5 s; every other answer comes in time even on a busy
    # machine (3 s for a random choice).
    bot = f"{MISBEHAVING} slow 3/10"
    p = simulate("--games", "4", "--bot-timeout", "3", "--bots", f"{bot},greedy,random,random",
                 out=tmp_path / "slow.jsonl")
    assert p.returncode == 0, p.stderr
    counts = defaults_row(p.stdout, bot)
    assert (counts["late"], counts["garbage"], counts["illegal"], counts["dead"]) == (2, 0, 0, 0)
    assert timeouts_of(records(tmp_path / "slow.jsonl"), bot) == 2


def test_garbage_and_illegal_answers_get_the_default(tmp_path):
    bot = f"{MISBEHAVING} garbage"  # four unreadable answers, then an id never offered
    p = simulate("--games", "4", "--bots", f"random,{bot},greedy,random",
                 out=tmp_path / "garbage.jsonl")
    assert p.returncode == 0, p.stderr
    counts = defaults_row(p.stdout, bot)
    assert (counts["late"], counts["garbage"], counts["illegal"], counts["dead"]) == (0, 4, 1, 0)
    assert timeouts_of(records(tmp_path / "garbage.jsonl"), bot) == 5


def test_a_bot_that_dies_is_auto_played_for_the_rest_of_the_run(tmp_path):
    bot = f"{MISBEHAVING} crash 5"  # exits at its sixth request
    p = simulate("--games", "6", "--bots", f"greedy,random,random,{bot}",
                 out=tmp_path / "crash.jsonl")
    assert p.returncode == 0, p.stderr
    counts = defaults_row(p.stdout, bot)
    assert counts["dead"] >= 1 and counts["decisions"] == 5 + counts["dead"]
    rows = records(tmp_path / "crash.jsonl")
    assert timeouts_of(rows, bot) == counts["dead"]
    last = xueliu.replay(rows[-1]["record"])
    assert last.auto_play[3]  # 托管 in the last hand, too


@pytest.mark.parametrize("bots, needle", [
    ("cmd:,greedy,greedy,greedy", "needs a command"),
    ("cmd:no-such-program-xueliu,greedy,greedy,greedy", "not a program"),
])
def test_a_bad_command_is_one_clear_line(bots, needle):
    p = simulate("--games", "4", "--bots", bots)
    assert p.returncode == 1 and needle in p.stderr and "Traceback" not in p.stderr


def test_bot_timeout_must_be_positive():
    p = simulate("--games", "4", "--bot-timeout", "0", "--bots", f"{EXAMPLE},greedy,greedy,greedy")
    assert p.returncode == 1 and "--bot-timeout" in p.stderr


def test_the_protocol_lines_a_program_reads(tmp_path):
    """What the program is sent: a hello, the seat's own event stream, requests with every
    field of each legal action — captured by a bot that copies its input to a file."""
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "copy_bot.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in iter(sys.stdin.readline, ''):\n"
        "    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'request':\n"
        "        print(json.dumps({'id': m['actions'][0]['id']}), flush=True)\n", "utf-8")
    state = xueliu.new_game("xuezhan", seed=4)
    with ExternalBot([sys.executable, str(script)], timeout=5) as bot:
        bot.start_hand(2, state.rules.to_dict(), seed=77)
        while not state.is_over:
            answers = {q: state.legal_actions(q)[-1] for q in state.pending() if q != 2}
            if 2 in state.pending():
                answers[2] = bot.decide(state, 2)
            state.step(answers)
        bot.end_hand(state, 2)
    raw = log.read_text("utf-8").splitlines()
    lines = [json.loads(x) for x in raw]
    for text, message in zip(raw, lines):  # compact, the type first: bots may read the prefix
        assert text.startswith('{"type":"%s"' % message["type"]) and ", " not in text[:40]
    hello = lines[0]
    assert hello == {"type": "hello", "protocol": "xueliu-bot", "version": 1, "seat": 2,
                     "rules": state.rules.to_dict(), "seed": 77}
    events = [m for m in lines[1:] if m["type"] != "request"]
    assert events == state.events(2)  # exactly the seat's event stream, in order
    requests = [m for m in lines if m["type"] == "request"]
    assert requests and all(set(a) == {"id", "kind", "tile", "tiles", "suit", "value"}
                            for r in requests for a in r["actions"])
    assert bot.counts["decisions"] == len(requests)


# -- the observation in each request (--bot-observation) -----------------------------------------

OBSERVING = Path(__file__).parent / "bots" / "observing_bot.py"


def test_with_observation_each_request_carries_the_seats_observation(tmp_path):
    log = tmp_path / "observations.jsonl"
    state = xueliu.new_game("xueliu", seed=12)
    expected = []
    with ExternalBot([sys.executable, str(OBSERVING), str(log)], timeout=5,
                     observation=True) as bot:
        bot.start_hand(1, state.rules, seed=3)
        while not state.is_over:
            answers = {q: state.legal_actions(q)[0] for q in state.pending() if q != 1}
            if 1 in state.pending():
                expected.append(state.observation(1))
                answers[1] = bot.decide(state, 1)
                assert answers[1] is not None  # it answered from the observation, legally
            state.step(answers)
        bot.end_hand(state, 1)
        assert not bot.dead
    seen = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    assert seen == expected and len(seen) > 10  # exactly state.observation(seat), each time


def test_without_observation_a_request_lists_only_the_actions(tmp_path):
    state = xueliu.new_game("xueliu", seed=12)
    with ExternalBot([sys.executable, str(OBSERVING)], timeout=5) as bot:
        bot.start_hand(0, state.rules, seed=3)
        while 0 not in state.pending():
            state.step({q: state.legal_actions(q)[0] for q in state.pending()})
        assert bot.decide(state, 0) is None and bot.dead  # the bot refuses: exit status 2


def test_the_bot_observation_flag_reaches_the_program(tmp_path):
    bot = f"cmd:{sys.executable} {OBSERVING}"
    p = simulate("--games", "8", "--duplicate", "--bot-observation", "--bots",
                 f"{bot},greedy,random,random")
    assert p.returncode == 0, p.stderr
    counts = defaults_row(p.stdout, bot)
    assert counts["decisions"] > 50 and counts["dead"] == counts["garbage"] == 0
    assert "warning" not in p.stderr
    p = simulate("--games", "4", "--bots", f"{bot},greedy,random,random")  # without the flag
    assert defaults_row(p.stdout, bot)["dead"] > 0


# -- a program that dies is reported -------------------------------------------------------------


def test_a_bot_that_dies_is_reported_by_one_warning_line(tmp_path):
    bot = f"{MISBEHAVING} crash 5"  # exits with status 3 at its sixth request
    p = simulate("--games", "6", "--bots", f"greedy,random,random,{bot}",
                 out=tmp_path / "crash.jsonl")
    assert p.returncode == 0, p.stderr
    rows = records(tmp_path / "crash.jsonl")
    died_in = next(r["hand"] for r in rows if any(
        seat == 3 and what == "timeout" for seat, what in r["record"]["decisions"]))
    warnings = [line for line in p.stderr.splitlines() if "warning" in line]
    assert warnings == [f"xueliu: warning: bot {bot!r} at seat 3 died in hand {died_in} "
                        f"(exit status 3); docs/rules.md §8's default plays for it from now on"]


def test_a_bot_killed_by_a_signal_is_reported_with_it(tmp_path, capfd):
    script = tmp_path / "suicide_bot.py"
    script.write_text("import os, signal, sys\nsys.stdin.readline()\n"
                      "os.kill(os.getpid(), signal.SIGKILL)\n", "utf-8")
    from xueliu.envs import SingleSeatEnv

    env = SingleSeatEnv(opponents=[f"cmd:{sys.executable} {script}", "random",
                        "random"], seat=0)
    try:
        obs, _ = env.reset(seed=4)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(obs["action_mask"].nonzero()[0][0]))
        env.reset()  # the next episode: no second warning for the same death
    finally:
        env.close()
    err = capfd.readouterr().err
    assert err.count("warning") == 1
    assert "at seat 1 died in hand 0 (killed by SIGKILL)" in err


def _a_turn_where_ids_0_and_1_are_legal():
    """A state where the pending seat may discard 1m (action id 0) and 2m (id 1)."""
    for seed in range(200):
        state = xueliu.new_game("xueliu", seed=seed)
        while not state.is_over:
            for q in state.pending():
                if state.phase == "turn" and {0, 1} <= {a.id for a in state.legal_actions(q)}:
                    return state, q
            state.step({q: state.legal_actions(q)[-1] for q in state.pending()})
    raise AssertionError("no such turn in 200 hands")


def test_a_boolean_id_is_garbage_never_action_1_or_0():
    """``{"id": true}`` and ``{"id": false}`` are not integer ids (JSON booleans, though Python's
    bool is an int): each takes the default and is counted as garbage, even where actions 1 and
    0 are legal — and the conversation stays in step after them."""
    state, seat = _a_turn_where_ids_0_and_1_are_legal()
    legal = state.legal_actions(seat)
    assert {a.id for a in legal} >= {0, 1}
    command = MISBEHAVING[len("cmd:"):] + " booleans"
    with ExternalBot(command, timeout=5) as bot:
        bot.start_hand(seat, state.rules.to_dict(), seed=1)
        assert bot.decide(state, seat) is None  # {"id": true}
        assert bot.decide(state, seat) is None  # {"id": false}
        assert (bot.counts["garbage"], bot.counts["illegal"], bot.counts["late"]) == (2, 0, 0)
        answer = bot.decide(state, seat)  # a well-formed answer is read again
        assert answer is not None and answer in legal
        assert bot.counts["garbage"] == 2


def test_boolean_answers_are_counted_as_garbage_in_a_run(tmp_path):
    bot = f"{MISBEHAVING} booleans"
    p = simulate("--games", "2", "--bots", f"greedy,{bot},random,random",
                 out=tmp_path / "booleans.jsonl")
    assert p.returncode == 0, p.stderr
    counts = defaults_row(p.stdout, bot)
    assert (counts["late"], counts["garbage"], counts["illegal"], counts["dead"]) == (0, 2, 0, 0)
    assert timeouts_of(records(tmp_path / "booleans.jsonl"), bot) == 2


def _program(tmp_path: Path, name: str, body: str) -> List[str]:
    script = tmp_path / name
    script.write_text("import json, sys, time\n" + body, "utf-8")
    return [sys.executable, str(script)]


ANSWER_FIRST = (
    "for line in iter(sys.stdin.readline, ''):\n"
    "    m = json.loads(line)\n"
    "    if m['type'] == 'request':\n"
    "        print(json.dumps({'id': m['actions'][0]['id']}), flush=True)\n"
    "        break\n")


def test_the_first_request_gets_the_start_up_time_and_later_ones_do_not(tmp_path):
    """A program that takes 1.5 s to start (an interpreter, a model) is not late on its first
    request with a 1 s timeout (it gets STARTUP_SECONDS more); the same pause later is late."""
    argv = _program(tmp_path, "slow_start.py", "time.sleep(1.5)\n" + (
        "for line in iter(sys.stdin.readline, ''):\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'request':\n"
        "        print(json.dumps({'id': m['actions'][0]['id']}), flush=True)\n"
        "        time.sleep(1.5)\n"))
    state, seat = _a_turn_where_ids_0_and_1_are_legal()
    with ExternalBot(argv, timeout=1.0) as bot:
        bot.start_hand(seat, state.rules.to_dict())
        assert bot.decide(state, seat) is not None
        assert bot.counts["late"] == 0
        assert bot.decide(state, seat) is None  # asked while it pauses 1.5 s: late
        assert bot.counts["late"] == 1


def test_writes_never_block_on_a_program_that_stopped_reading(tmp_path):
    """What the program has not read stays queued: a program that answered once and stopped
    reading its input (more than a pipe holds is waiting for it) costs a late answer, not a hung
    engine."""
    argv = _program(tmp_path, "deaf.py", ANSWER_FIRST + "time.sleep(60)\n")
    state, seat = _a_turn_where_ids_0_and_1_are_legal()
    with ExternalBot(argv, timeout=0.5) as bot:
        bot.start_hand(seat, state.rules.to_dict())
        assert bot.decide(state, seat) is not None
        bot.start_hand(seat, {**state.rules.to_dict(), "padding": "x" * (4 << 20)})  # 4 MiB
        start = time.monotonic()
        assert bot.decide(state, seat) is None
        assert time.monotonic() - start < 0.5 + 5.0  # the timeout, plus a busy machine's slack
        assert bot.counts["late"] == 1 and not bot.dead


def test_a_line_without_end_is_a_broken_program(tmp_path):
    """More than a MiB without a newline is no answer: the program is treated as dead (the
    default for this and every later decision), and the engine does not buffer without end."""
    argv = _program(tmp_path, "endless.py", (
        "for line in iter(sys.stdin.readline, ''):\n"
        "    if json.loads(line)['type'] == 'request':\n"
        "        while True:\n"
        "            sys.stdout.write('x' * 65536); sys.stdout.flush()\n"))
    state, seat = _a_turn_where_ids_0_and_1_are_legal()
    with ExternalBot(argv, timeout=30) as bot:
        bot.start_hand(seat, state.rules.to_dict())
        assert bot.decide(state, seat) is None
        assert bot.dead and bot.counts["dead"] == 1
        assert bot.decide(state, seat) is None and bot.counts["dead"] == 2


def test_close_ends_a_program_that_ignores_the_end_of_its_input(tmp_path):
    argv = _program(tmp_path, "stubborn.py", ANSWER_FIRST + "while True:\n    time.sleep(1)\n")
    state, seat = _a_turn_where_ids_0_and_1_are_legal()
    bot = ExternalBot(argv, timeout=5)
    bot.start_hand(seat, state.rules.to_dict())
    assert bot.decide(state, seat) is not None
    proc = bot._proc
    assert proc is not None
    bot.close()  # closes its stdin, waits a moment, then kills it
    assert proc.poll() is not None and bot.dead


def test_a_three_seat_hand_with_a_real_program(tmp_path):
    """三人两房: the hello carries the table's rules (``players`` 3, suits p s), and the example
    program plays a whole hand from seat 2 of three, its events exactly its seat's stream."""
    log = tmp_path / "seen.jsonl"
    script = tmp_path / "tee_bot.py"
    example = ROOT / "examples" / "random_bot.py"
    script.write_text(  # copies its input to a file and hands it on to the example bot
        "import subprocess, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        f"bot = subprocess.Popen([sys.executable, {str(example)!r}], stdin=subprocess.PIPE, "
        "text=True)\n"
        "for line in iter(sys.stdin.readline, ''):\n"
        "    log.write(line); log.flush()\n"
        "    bot.stdin.write(line); bot.stdin.flush()\n"
        "bot.stdin.close(); bot.wait()\n", "utf-8")
    # 三人两房 as the preset has it: 3 seats, 筒 条, 起胡番 2
    rules = xueliu.Rules.preset("sanren_liangfang")
    for seed in (4, 5):
        state = xueliu.new_game(rules, seed=seed)
        with ExternalBot([sys.executable, str(script)], timeout=5) as bot:
            bot.start_hand(2, rules, seed=77)
            while not state.is_over:
                answers = {q: state.legal_actions(q)[-1] for q in state.pending() if q != 2}
                if 2 in state.pending():
                    answers[2] = bot.decide(state, 2)
                    assert answers[2] is not None  # answered in time, legally
                state.step(answers)
            bot.end_hand(state, 2)
            assert bot.counts["decisions"] > 0
            assert all(v == 0 for k, v in bot.counts.items() if k != "decisions")  # no default
        lines = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
        hello = lines[0]
        assert hello["seat"] == 2 and hello["rules"] == rules.to_dict()
        assert hello["rules"]["players"] == 3 and hello["rules"]["suits"] == ["p", "s"]
        assert [m for m in lines[1:] if m["type"] != "request"] == state.events(2)
