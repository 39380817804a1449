"""Speed of ``xueliu review`` (issue 19 target: one seat of one hand in at most 2 s on one core).

Each round reviews one seat of each of a few recorded hands (a RandomBot in that seat, so that
its decisions are as varied as a person's), from the record: the replay, the seat's observations
and ExpertBot.option_values at every decision, with the expert's caches emptied first. Nothing here asserts a time (the machines these
run on are shared and noisy): ``python -m pytest benchmarks/test_bench_review.py`` prints the
table, and ``extra_info`` has the seconds per reviewed seat.
"""

import pytest

import xueliu
from xueliu.bots import ExpertBot, GreedyBot, RandomBot, expert_plan, play_hand
from xueliu.review import review_json, review_record

HANDS = 8


def _records(preset: str):
    out = []
    for seed in range(HANDS):
        bots = [ExpertBot(), GreedyBot(), ExpertBot(), GreedyBot()]
        bots[seed % 4] = RandomBot(seed)
        state = play_hand(xueliu.new_game(preset, seed=900 + seed), bots)
        out.append((state.record(), seed % 4))
    return out


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_review_one_seat_of_one_hand(benchmark, preset):
    records = _records(preset)

    def review_all():
        # Cold: the expert's caches of hand analyses start empty (playing the hands filled them).
        expert_plan._READY.clear()
        expert_plan._WAITS.clear()
        return [review_json(review_record(rec, seat)) for rec, seat in records]

    got = benchmark.pedantic(review_all, rounds=3, iterations=1)
    assert len(got) == HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable
        return
    per_seat = stats.stats.min / HANDS
    benchmark.extra_info["seconds_per_seat"] = round(per_seat, 4)
    benchmark.extra_info["decisions_per_seat"] = sum(len(r["decisions"]) for r in got) / HANDS
