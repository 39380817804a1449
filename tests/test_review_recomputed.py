"""The review's summary recomputed from its decisions' option values (issue 48, kind 3).

docs/review.md: a decision's regret is the best option's value less the chosen one's (0 within
1e-9); the summary counts the seat's own choices among more than one option (not a timeout's
default, not the engine's auto-play) — the agreement is the share of those with no regret, the
total regret their sum, the mean per counted decision, the same per kind, and the costliest are
the (at most five) largest regrets above 0, largest first. Each figure is computed again here in
plain Python from the raw ``options`` of each decision and compared with ``review_json``.
"""

from __future__ import annotations

import random

import pytest

import xueliu
from xueliu.bots import ExpertBot, GreedyBot, RandomBot
from xueliu.review import review_json, review_record


def _hand_with_timeouts(preset: str, seed: int):
    """Seat 1 plays at random and lets some decisions time out (after two in a row the engine
    plays the seat itself, and it decides nothing more); the others play greedy or expert."""
    rng = random.Random(seed)
    state = xueliu.new_game(preset, seed=seed)
    bots = [GreedyBot(), RandomBot(seed), ExpertBot(), GreedyBot()]
    for s, b in enumerate(bots):
        b.start_hand(s, state.rules, seed + s)
    while not state.is_over:
        pending = state.pending()
        answers = {}
        late = []
        for s in pending:
            if s == 1 and rng.random() < 0.3:
                late.append(s)
            else:
                answers[s] = bots[s].act(state.observation(s), state.legal_actions(s))
        if answers:
            state.step(answers)
        for s in late:
            if not state.is_over and s in state.pending():
                state.apply_timeout(s)
    return state


@pytest.mark.parametrize("preset,seed", [("xueliu", 1), ("xuezhan", 2), ("xueliu", 5)])
def test_the_review_summary_is_its_decisions_recomputed(preset, seed):
    state = _hand_with_timeouts(preset, seed)
    review = review_record(state.record(), 1)
    data = review_json(review)
    counted, regrets, kinds = [], {}, {}
    for d, dj in zip(review.decisions, data["decisions"]):
        values = [v for _, v in d.options]
        chosen = next(v for a, v in d.options if a is d.chosen)
        regret = max(values) - chosen
        regret = regret if regret > 1e-9 else 0.0
        is_counted = len(values) > 1 and not d.timeout and not d.auto
        assert dj["counted"] == is_counted and dj["agrees"] == (regret == 0.0)
        assert dj["regret"] == round(regret, 4)
        if is_counted:
            counted.append(d.number)
            regrets[d.number] = regret
            k = kinds.setdefault(d.kind, {"decisions": 0, "agreed": 0, "regret": 0.0})
            k["decisions"] += 1
            k["agreed"] += regret == 0.0
            k["regret"] += regret
    assert any(d.timeout for d in review.decisions)  # the corner: defaults are left out
    assert len(counted) < len(review.decisions)
    assert data["decisions_counted"] == len(counted)
    agreed = sum(1 for n in counted if regrets[n] == 0.0)
    assert data["agreement"] == pytest.approx(agreed / len(counted), abs=1e-6)
    assert data["total_regret"] == pytest.approx(sum(regrets.values()), abs=1e-4)
    assert data["mean_regret"] == pytest.approx(sum(regrets.values()) / len(counted), abs=1e-4)
    assert set(data["by_kind"]) == set(kinds)
    for kind, k in kinds.items():
        got = data["by_kind"][kind]
        assert (got["decisions"], got["agreed"]) == (k["decisions"], k["agreed"])
        assert got["regret"] == pytest.approx(k["regret"], abs=1e-5)
        assert got["agreement"] == pytest.approx(k["agreed"] / k["decisions"], abs=1e-12)
    dear = sorted((n for n in counted if regrets[n] > 0), key=lambda n: (-regrets[n], n))[:5]
    assert data["costliest"] == dear
    assert sum(regrets.values()) > 0  # a random seat regrets something
