"""The review of a hand (issue 19): ExpertBot.option_values and ``xueliu review``.

The honesty checks of the issue: a hand played by ExpertBot reviews at full agreement and no
regret; a RandomBot's hand reviews far lower with positive regret; tiles the seat could not see
never change its review.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any, Dict, List

import pytest

import xueliu
from xueliu.bots import AutoPlayBot, ExpertBot, GreedyBot, RandomBot, play_hand
from xueliu.game.actions import Action
from xueliu.review import (Decision, Review, review_json, review_record, review_text,
                           review_written)
from xueliu.review.decisions import describe
from xueliu.review.report import end_words
from xueliu.rules import Rules


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def _hand(seed: int, bots: List[Any], preset: str = "xueliu", dealer: int = 0) -> Dict[str, Any]:
    return play_hand(xueliu.new_game(preset, seed=seed, dealer=dealer), bots).record()


# -- option_values ------------------------------------------------------------------------------


class ThroughOptionValues:
    """Plays the first option of ``option_values`` (which must be what ``act`` chooses)."""

    def __init__(self, rules: Rules) -> None:
        self.bot = ExpertBot(rules=rules)
        self.asked = 0

    def act(self, observation, legal_actions):
        options = self.bot.option_values(observation, legal_actions)
        assert sorted(a.id for a, _ in options) == sorted(a.id for a in legal_actions)
        best = max(v for _, v in options)
        assert options[0][1] == best  # the choice is listed first, at the largest value
        self.asked += 1
        return options[0][0]


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_the_first_option_is_what_act_chooses_so_play_is_unchanged(preset):
    rules = Rules.preset(preset)
    for seed in range(4):
        plain = play_hand(xueliu.new_game(rules, seed=seed),
                          [ExpertBot(rules=rules) for _ in range(4)]).record()
        through = [ThroughOptionValues(rules) for _ in range(4)]
        valued = play_hand(xueliu.new_game(rules, seed=seed), through).record()
        assert valued["decisions"] == plain["decisions"]
        assert all(t.asked > 5 for t in through)


def test_values_are_payment_units_of_the_options_offered():
    state = xueliu.new_game(seed=11)
    bot = ExpertBot()
    seat = state.pending()[0]
    options = bot.option_values(state.observation(seat), state.legal_actions(seat))
    assert {a.kind for a, _ in options} == {"exchange"}
    assert all(isinstance(v, float) for _, v in options)
    values = [v for _, v in options]
    assert values[1:] == sorted(values[1:], reverse=True)


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_passing_a_win_always_costs_something(preset):
    """The expert takes every win; in its values no other option ties a win it may take."""
    rules = Rules.preset(preset)
    offers = 0
    for seed in range(6):
        state = xueliu.new_game(rules, seed=seed)
        bots = [ExpertBot(rules=rules) for _ in range(4)]
        while not state.is_over:
            decisions = {}
            for s in state.pending():
                obs, legal = state.observation(s), state.legal_actions(s)
                options = bots[s].option_values(obs, legal)
                if len(options) > 1 and options[0][0].kind == "hu":
                    offers += 1
                    assert options[1][1] < options[0][1]
                decisions[s] = options[0][0]
            state.step(decisions)
    assert offers >= 5


# -- honesty ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_a_hand_the_expert_played_reviews_at_full_agreement_and_no_regret(preset):
    rules = Rules.preset(preset)
    counted = 0
    for seed in range(5):
        seat = seed % 4
        bots: List[Any] = [RandomBot(seed), GreedyBot(), AutoPlayBot(), GreedyBot()]
        bots[seat] = ExpertBot(rules=rules)
        rec = _hand(100 + seed, bots, preset, dealer=seed % 4)
        r = review_record(rec, seat)
        assert r.agreement == 1.0
        assert r.total_regret == 0.0
        assert all(d.regret == 0.0 and d.chosen is d.best for d in r.decisions)
        assert r.costliest() == []
        counted += len(r.counted)
    assert counted >= 40


def test_a_random_hand_reviews_far_lower_with_positive_regret():
    agreements = []
    for seed in range(6):
        seat = seed % 4
        bots: List[Any] = [ExpertBot() for _ in range(4)]
        bots[seat] = RandomBot(seed)
        r = review_record(_hand(200 + seed, bots), seat)
        assert r.total_regret > 0.0
        assert 0 < len(r.costliest()) <= 5
        assert [d.regret for d in r.costliest()] == sorted(
            (d.regret for d in r.costliest()), reverse=True)
        agreements.append(r.agreement)
    assert sum(agreements) / len(agreements) < 0.6


def _deal_indices(dealer: int) -> Dict[int, List[int]]:
    """Wall indices each seat is dealt (docs/rules.md §10: 12 takes of 4, then 2 + 1 + 1 + 1)."""
    got: Dict[int, List[int]] = {s: [] for s in range(4)}
    for take in range(12):
        got[(dealer + take % 4) % 4].extend(range(4 * take, 4 * take + 4))
    got[dealer].extend([48, 49])
    for j in range(1, 4):
        got[(dealer + j) % 4].append(49 + j)
    return got


def _wall_of(state) -> List[str]:
    full = state.observation(None)
    wall = [""] * 108
    for seat, indices in _deal_indices(state.dealer).items():
        for i, tile in zip(indices, full["hands"][seat]):
            wall[i] = tile
    wall[53:] = full["wall"]
    return wall


@pytest.mark.parametrize("reviewed", [RandomBot, ExpertBot])
def test_tiles_the_seat_could_not_see_never_change_its_review(reviewed):
    """Two hands whose walls differ only in tiles dealt to other seats (swapped between their
    hands): wherever seat 0's own event stream is the same (it saw the same hand), so is its
    review, to the last digit — though the hidden tiles differ."""
    compared = 0
    for g in range(20):
        base = _wall_of(xueliu.new_game(seed=700 + g))
        rng = random.Random(g)

        def play(wall):
            bots = [reviewed(seed=g), AutoPlayBot(), AutoPlayBot(), AutoPlayBot()]
            state = play_hand(xueliu.new_game(wall=wall, seed=700 + g), bots)
            return state, json.dumps(review_json(review_record(state.record(), 0)))

        state, review = play(base)
        dealt = _deal_indices(0)
        for _ in range(3):
            i = rng.choice(dealt[1])
            j = rng.choice(dealt[2] + dealt[3])
            if base[i] == base[j]:
                continue
            other = list(base)
            other[i], other[j] = other[j], other[i]
            state_b, review_b = play(other)
            if state_b.events(0) == state.events(0):
                assert state_b.events() != state.events()  # the hidden tiles did differ
                assert review_b == review
                compared += 1
    assert compared >= 8


# -- timeouts and the summary -------------------------------------------------------------------


def test_a_timeout_is_shown_with_the_default_move_and_left_out_of_the_summary():
    state = xueliu.new_game(seed=5)
    bots = [ExpertBot() for _ in range(4)]
    asked = 0  # seat 2 times out on its 1st and 4th decision (two in a row would be 托管)
    while not state.is_over:
        pending = state.pending()
        if 2 in pending:
            asked += 1
            if asked in (1, 4):
                state.apply_timeout(2)
                continue
        state.step({s: bots[s].act(state.observation(s), state.legal_actions(s))
                    for s in pending})
    r = review_record(state.record(), 2)
    shown = [d for d in r.decisions if d.timeout]
    assert len(shown) == 2
    assert all(not d.counted for d in shown)
    assert len(r.counted) == sum(1 for d in r.decisions if len(d.options) > 1 and not d.timeout)


def test_the_json_object_has_the_contracted_top_level_keys():
    rec = _hand(9, [RandomBot(1), ExpertBot(), GreedyBot(), GreedyBot()])
    data = review_json(review_record(rec, 0))
    assert 0.0 <= data["agreement"] <= 1.0
    assert data["total_regret"] >= 0.0
    assert data["result"]["net"] == rec["result"]["net"]
    assert data["result"]["seat_net"] == rec["result"]["net"][0]
    numbers = {d["number"]: d for d in data["decisions"]}
    for n in data["costliest"]:
        d = numbers[n]
        assert d["regret"] > 0 and d["position"]["hand"] and d["options"]
        assert d["best_value"] == max(o["value"] for o in d["options"])
    counted = [d for d in data["decisions"] if d["counted"]]
    assert data["agreement"] == round(sum(d["agrees"] for d in counted) / len(counted), 6)
    assert data["total_regret"] == pytest.approx(sum(d["regret"] for d in counted), abs=1e-3)
    json.dumps(data)


def _synthetic(options, chosen: int, number: int = 1, event: int = 9, valued=None):
    """A decision among ``options`` (``(action id, value)``), choosing the ``chosen``-th;
    ``valued``: the model's flag per option (None: all valued)."""
    acts = [(Action.from_id(i), v) for i, v in options]
    return Decision(number=number, event=event, kind="discard", phase="turn", options=acts,
                    chosen=acts[chosen][0], valued=valued, position={
                        "hand": ["1m", "2m"], "drawn": None, "melds": [], "discards": [[]] * 4,
                        "other_melds": [[]] * 4, "claim": None, "void": None, "voids": None,
                        "wall_remaining": 30, "turn": 0})


def _one_review(decisions, end_reason="wall_exhausted"):
    return Review(seat=0, mode="xueliu", decisions=decisions, net=[3, -1, -1, -1],
                  wins=[{"tile": "5p", "fan": 2, "source": "discard", "base": "pinghu",
                         "from": 2}], end_reason=end_reason, events=99)


def test_an_option_the_model_does_not_value_says_so_instead_of_a_zero():
    """An option the model does not value (``ExpertBot.valued_options``' flag: a discard its
    planner does not look at) is shown "not valued" rather than as a number between real values,
    in the text and in the JSON (``valued``); its regret still counts from its value (0.0, or a
    discard's danger alone)."""
    d = _synthetic([(0, 1.5), (1, 0.0), (2, -0.25)], chosen=1, valued=[True, False, True])
    assert d.best_valued and not d.chosen_valued and d.regret == 1.5
    r = _one_review([d])
    text = review_text(r)
    assert "+0.000" not in text
    assert "chose discard 2m not valued; best discard 1m +1.500, regret 1.500" in text
    assert "options: discard 1m +1.500, discard 2m not valued, discard 3m -0.250" in text
    data = review_json(r)["decisions"][0]
    assert [o["valued"] for o in data["options"]] == [True, False, True]
    assert data["chosen_valued"] is False and data["best_valued"] is True
    assert data["chosen_value"] == 0.0  # the number stays what the model said


def test_the_models_flag_and_not_the_number_says_whether_an_option_was_valued():
    """A value of exactly 0.0 the model did compute is a number; a skipped discard showing its
    danger alone (a small negative number) is "not valued"."""
    d = _synthetic([(0, 0.0), (1, 0.0), (2, -0.25), (3, -0.5)], chosen=2,
                   valued=[True, False, False, True])
    assert d.best_valued and not d.chosen_valued and d.regret == 0.25
    text = review_text(_one_review([d]))
    assert "chose discard 3m not valued; best discard 1m +0.000, regret 0.250" in text
    assert ("options: discard 1m +0.000, discard 2m not valued, discard 3m not valued, "
            "discard 4m -0.500") in text
    data = review_json(_one_review([d]))["decisions"][0]
    assert [o["valued"] for o in data["options"]] == [True, False, False, True]
    assert data["chosen_valued"] is False and data["best_valued"] is True
    assert data["chosen_value"] == -0.25 and data["best_value"] == 0.0
    agreed = _synthetic([(0, 0.0), (1, 0.0)], chosen=1, valued=[True, True])
    assert agreed.chosen_valued and agreed.agrees
    assert "chose discard 2m +0.000" in review_text(_one_review([agreed]))


def test_real_hands_have_options_the_model_leaves_unvalued_and_the_json_marks_them():
    marked = 0
    for seed in range(3):
        rec = _hand(seed, [RandomBot(seed), GreedyBot(), ExpertBot(), RandomBot(seed)])
        for seat in (0, 1):
            r = review_record(rec, seat)
            for d, shown in zip(r.decisions, review_json(r)["decisions"]):
                assert d.valued is not None and len(d.valued) == len(d.options)
                assert [o["valued"] for o in shown["options"]] == d.valued
                assert shown["chosen_valued"] == d.valued[[a for a, _ in d.options].index(
                    d.chosen)]
                assert shown["best_valued"] == d.valued[0]
                marked += sum(not o["valued"] for o in shown["options"])
    assert marked >= 5


def test_real_hands_show_options_valued_at_zero_and_skipped_ones_carrying_danger():
    """Late in a hand (no draw left) the model values discards at exactly 0.0: shown +0.000,
    ``valued`` true; a discard it skips shows its danger alone, ``valued`` false."""
    zero = danger = 0
    for seed in (5, 9, 10):
        rec = _hand(seed, [RandomBot(seed), GreedyBot(), ExpertBot(), RandomBot(seed)])
        r = review_record(rec, 0)
        text = review_text(r)
        for d, shown in zip(r.decisions, review_json(r)["decisions"]):
            for (_a, v), o in zip(d.options, shown["options"]):
                zero += v == 0.0 and o["valued"]
                danger += v < 0.0 and not o["valued"]
            if d.chosen_value == 0.0 and d.chosen_valued:
                mark = "=" if d.agrees else "!"
                assert f"{d.number:3d} {mark} {d.kind:<10} chose {describe(d.chosen)} +0.000" in text
    assert zero >= 5 and danger >= 5


def test_the_summary_counts_in_the_singular_and_ends_in_words():
    one = _one_review([_synthetic([(0, 1.0), (1, 0.5)], chosen=1)])
    text = review_text(one)
    assert "of 1 decision;" in text and "1 decisions" not in text
    assert "discard      1 decision, 0% agree" in text
    assert "The costliest decision:" in text
    assert "ended: wall exhausted (牌墙摸完)" in text and "wall_exhausted" not in text
    assert "wins: 5p 2 fan (on a discard from seat 2)" in text
    two = _one_review([_synthetic([(0, 1.0), (1, 0.5)], chosen=1),
                       _synthetic([(0, 1.0), (1, 0.25)], chosen=1, number=2)], "two_wins")
    text = review_text(two)
    assert "of 2 decisions;" in text and "The costliest decisions:" in text
    assert "ended: two seats won (两家胡牌)" in text
    assert end_words(None) == "not over" and end_words("someday") == "someday"
    assert review_written(one, "r.html") == ("wrote r.html (1 decision of seat 0, 1 counted: "
                                             "agreement 0.0%, total regret 0.500)")
    assert review_written(two, "r.html").startswith("wrote r.html (2 decisions of seat 0, ")


def test_a_bad_seat_or_a_record_that_does_not_replay_is_a_clear_error():
    rec = _hand(3, [GreedyBot() for _ in range(4)])
    with pytest.raises(ValueError, match="seat must be 0..3"):
        review_record(rec, 4)
    with pytest.raises(TypeError):
        review_record(rec, "1")  # type: ignore[arg-type]
    broken = dict(rec, decisions=rec["decisions"][:5] + [[0, 135]])
    with pytest.raises(ValueError, match="decision 5"):
        review_record(broken, 0)


def test_the_seats_a_review_takes_are_those_of_the_records_table():
    rec = _hand(3, [GreedyBot() for _ in range(3)], preset="sanren_liangfang")
    assert review_record(rec, 2).decisions
    with pytest.raises(ValueError, match=r"seat must be 0\.\.2 \(the record's table has 3 seats\)"):
        review_record(rec, 3)


# -- the command --------------------------------------------------------------------------------


def test_review_reads_a_line_of_a_simulate_file_as_replay_does(tmp_path):
    out = tmp_path / "hands.jsonl"
    p = run("simulate", "--games", "3", "--bots", "random,expert,greedy,greedy", "--seed", "4",
            "--out", str(out), "--no-progress")
    assert p.returncode == 0, p.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[1])["record"]
    assert json.loads(lines[1])["hand"] == 1  # line N is hand N, as for replay
    p = run("review", str(out), "--line", "1", "--seat", "1", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data == review_json(review_record(rec, 1))
    assert data["agreement"] == 1.0 and data["total_regret"] == 0.0  # seat 1 is the expert
    text = run("review", str(out), "--line", "1", "--seat", "0")
    assert text.returncode == 0, text.stderr
    assert "Agreement:" in text.stdout and "Result: seat 0 net" in text.stdout


def test_review_of_a_record_file_and_its_errors(tmp_path):
    rec = _hand(8, [RandomBot(2), GreedyBot(), GreedyBot(), GreedyBot()])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    p = run("review", str(path), "--seat", "0", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["total_regret"] > 0
    bad = run("review", str(path), "--seat", "7")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    path.write_text(json.dumps(dict(rec, decisions=rec["decisions"][:3] + [[1, 135]])),
                    encoding="utf-8")
    broken = run("review", str(path), "--seat", "0")
    assert broken.returncode == 1 and "does not replay" in broken.stderr
    assert "Traceback" not in broken.stderr
