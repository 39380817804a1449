"""``simulate``'s 花猪 count (the summary table's 花猪 column, ``BotStats.pigs``) is its ``--out``
records recomputed by docs/rules.md §7's definition: at the end of a hand by an empty wall, a seat
that never won and still holds three suits (concealed tiles and melds) is a flower pig; a 血战
hand ended by its third win has no end checks, so no pig. Random bots with 定缺 off end as pigs
often; greedy ones seldom do."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from typing import Dict, List

import xueliu
from xueliu.rules import Rules
from xueliu.simulate import simulate

BOTS = ["random", "greedy", "random", "greedy"]
THREE_GREEDY = ["random", "greedy", "greedy", "greedy"]  # three winners end many 血战 hands


def unwon_with_three_suits(state, seat: int) -> bool:
    """The seat never won and holds three suits in its concealed tiles and melds, as its own
    view shows them (its concealed kongs show their tile)."""
    view = state.observation(seat)
    held = list(view["hand"]) + [m["tile"] for m in view["melds"][seat]]
    return all(w.seat != seat for w in state.settlement().wins) and len({t[-1] for t in held}) == 3


def pigs_of(lines: List[dict]) -> Counter:
    """Flower pigs per bot name, from the records alone (each hand replayed to its end)."""
    pigs: Counter = Counter({name: 0 for line in lines for name in line["seats"]})
    for line in lines:
        state = xueliu.replay(line["record"])
        if state.settlement().end_reason != "wall_exhausted":
            continue
        for seat, name in enumerate(line["seats"]):
            pigs[name] += unwon_with_three_suits(state, seat)
    return pigs


def printed_pigs(table: str) -> Dict[str, int]:
    """The 花猪 column of the summary table, by bot (the last column but one)."""
    rows = [line.split() for line in table.splitlines()]
    header = next(i for i, r in enumerate(rows) if r and r[0] == "bot")
    assert rows[header][-2] == "花猪"
    return {r[0]: int(r[-2]) for r in rows[header + 1:header + 3]}  # two bots: random, greedy


def test_the_pig_count_simulate_returns_and_prints_is_its_records_recomputed():
    out = io.StringIO()
    rules = Rules.preset("xueliu").replace(declare_void=False)
    summary = simulate(12, bots=BOTS, rules=rules, seed=3, out=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(lines) == 12
    expected = pigs_of(lines)
    assert expected["random"] >= 12  # the corner is reached: many pigs, and they are counted
    assert {b.name: b.pigs for b in summary.bots} == dict(expected)
    assert printed_pigs(summary.format()) == dict(expected)


def test_the_commands_pig_column_leaves_out_hands_ended_by_the_third_win(tmp_path):
    # 血战: some hands end by three wins (no end checks), the others by an empty wall
    out = tmp_path / "hands.jsonl"
    p = subprocess.run([sys.executable, "-m", "xueliu", "simulate", "--games", "12",
                        "--preset", "xuezhan", "--knob", "declare_void=false",
                        "--bots", ",".join(THREE_GREEDY), "--seed", "3", "--no-progress",
                        "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    states = [xueliu.replay(x["record"]) for x in lines]
    ends = Counter(state.settlement().end_reason for state in states)
    assert ends["wall_exhausted"] and ends["three_wins"], ends
    assert all(unwon_with_three_suits(state, 0) for state in states)  # the random seat, seat 0
    expected = pigs_of(lines)
    assert expected["random"] > 0
    # the random seat holds three suits at the end of every hand, but is a pig only when the
    # wall ran out
    assert expected["random"] == ends["wall_exhausted"] < len(lines)
    assert printed_pigs(p.stdout) == dict(expected)
