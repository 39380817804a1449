"""The arena that ranks bots (issue 18): its seating, its statistics against hand-computed cases,
its rating fit, and ``xueliu arena`` end to end with real bots and a real ``cmd:`` program."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import xueliu
from xueliu.arena import arena, clustered_mean, elo, fit_bradley_terry, plan_matches, t_quantile
from xueliu.arena.bootstrap import bootstrap_ratings, draw_walls
from xueliu.arena.plan import candidate_seat
from xueliu.arena.report import JSON_FORMAT, format_table, to_json
from xueliu.simulate import simulate
from xueliu.simulate.play import Config, _seating

ROOT = Path(__file__).resolve().parent.parent
RANDOM_PROGRAM = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "xueliu", "arena", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout, cwd=ROOT)


def assert_clean_error(p: subprocess.CompletedProcess, *needles: str) -> None:
    """A non-zero exit with one line on stderr naming the problem, and no traceback."""
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "error" in lines[0]
    for n in needles:
        assert n in lines[0], lines[0]
    assert p.stdout == ""


# -- statistics: the mean and its interval clustered by wall -----------------------------------------


def test_student_t_quantiles_match_the_printed_tables():
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 2) == pytest.approx(4.3027, abs=1e-4)
    assert t_quantile(0.975, 3) == pytest.approx(3.1824, abs=1e-4)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(0.975, 100) == pytest.approx(1.9840, abs=1e-4)
    assert t_quantile(0.975, 1e7) == pytest.approx(1.9600, abs=1e-4)
    assert t_quantile(0.025, 3) == -t_quantile(0.975, 3)


def test_clustered_interval_of_four_walls_by_hand():
    # Four walls of four hands, totals 4, -4, 8, 0: mean 8/16 = 0.5; residuals y - 0.5*4 are
    # 2, -6, 6, -2, squares 80; V = 4/3 * 80 / 16² = 0.41667; half = t(0.975, 3) * sqrt(V).
    m = clustered_mean([4, -4, 8, 0], [4, 4, 4, 4])
    assert m.mean == 0.5 and m.clusters == 4 and m.hands == 16
    half = 3.182446305 * math.sqrt(4 / 3 * 80 / 256)
    assert m.interval == pytest.approx((0.5 - half, 0.5 + half), abs=1e-8)
    # With equal clusters it is the t interval of the wall means (1, -1, 2, 0 per hand).
    means = [1, -1, 2, 0]
    sd = math.sqrt(sum((x - 0.5) ** 2 for x in means) / 3)
    assert m.half_width == pytest.approx(3.182446305 * sd / 2, abs=1e-8)


def test_clustered_interval_weights_clusters_by_their_hands():
    # Totals 6 over 2 hands and 0 over 4 hands: mean 1; residuals 6 - 2 = 4 and 0 - 4 = -4;
    # V = 2/1 * 32 / 36; half = t(0.975, 1) * sqrt(V) = 12.7062 * 1.3333.
    m = clustered_mean([6, 0], [2, 4])
    assert m.mean == 1.0
    assert m.half_width == pytest.approx(12.706204736 * math.sqrt(64 / 36), abs=1e-6)


def test_one_wall_has_no_interval_and_identical_walls_have_a_zero_one():
    assert clustered_mean([5], [4]).interval is None
    assert clustered_mean([0, 0, 0], [4, 4, 4]).interval == (0.0, 0.0)
    with pytest.raises(ValueError, match="no clusters"):
        clustered_mean([], [])


def test_hands_of_one_wall_are_one_cluster_not_four_observations():
    # The same hands read as four independent hands per wall would give a narrower interval:
    # the arena's is the wall one.
    totals, sizes = [8, -8, 4, -4, 0], [4] * 5
    by_wall = clustered_mean(totals, sizes)
    by_hand = clustered_mean([t // 4 for t in totals for _ in range(4)], [1] * 20)
    assert by_wall.mean == by_hand.mean
    assert by_wall.half_width > by_hand.half_width


# -- the rating fit --------------------------------------------------------------------------------


def _splitmix(state: int):
    while True:
        state = (state + 0x9E3779B97F4A7C15) & (2 ** 64 - 1)
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2 ** 64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2 ** 64 - 1)
        yield (z ^ (z >> 31)) / 2 ** 64


def test_bradley_terry_recovers_known_strengths_from_expected_counts():
    truth = [0.0, 0.7, -0.4, 1.5]  # natural-log strengths
    wins = {}
    for i in range(4):
        for j in range(4):
            if i != j:
                p = math.exp(truth[i]) / (math.exp(truth[i]) + math.exp(truth[j]))
                wins[(i, j)] = 1000 * p
    fit = fit_bradley_terry(4, wins, prior_draws=0)
    mean = sum(truth) / 4
    assert fit == pytest.approx([t - mean for t in truth], abs=1e-8)


def test_bradley_terry_recovers_the_order_of_known_strengths_from_sampled_walls():
    truth = [-1.0, -0.3, 0.2, 0.9, 1.4]
    rng = _splitmix(2026)
    wins = {}
    for i in range(5):
        for j in range(i + 1, 5):
            p = 1 / (1 + math.exp(truth[j] - truth[i]))
            won = sum(next(rng) < p for _ in range(400))
            wins[(i, j)], wins[(j, i)] = won, 400 - won
    fit = fit_bradley_terry(5, wins)
    assert sorted(range(5), key=lambda i: fit[i]) == [0, 1, 2, 3, 4]
    mean = sum(truth) / 5
    assert fit == pytest.approx([t - mean for t in truth], abs=0.25)
    # Deterministic: the same comparisons in another order give the same floats.
    assert fit_bradley_terry(5, dict(reversed(list(wins.items())))) == fit


def test_a_star_of_matches_against_one_reference_is_the_log_odds_of_its_walls():
    # Against the reference only, the fit is closed-form: strength ratio (won + ½ draws + ½) over
    # (lost + ½ draws + ½), the ½ being the one virtual draw.
    wins = {(0, 2): 30 + 5, (2, 0): 60 + 5, (1, 2): 70 + 0, (2, 1): 10 + 0}
    points = elo(fit_bradley_terry(3, wins), 2)
    assert points[2] == 0.0
    assert points[0] == pytest.approx(400 * math.log10(35.5 / 65.5), abs=1e-6)
    assert points[1] == pytest.approx(400 * math.log10(70.5 / 10.5), abs=1e-6)


def test_a_bot_that_won_every_wall_still_has_a_finite_rating():
    points = elo(fit_bradley_terry(2, {(0, 1): 50, (1, 0): 0}), 1)
    assert points[0] == pytest.approx(400 * math.log10(50.5 / 0.5))


def test_players_that_never_met_have_no_common_scale():
    with pytest.raises(ValueError, match="never met"):
        fit_bradley_terry(4, {(0, 1): 3, (1, 0): 2, (2, 3): 1, (3, 2): 1})


def test_the_rating_interval_resamples_walls_and_brackets_the_fit():
    # Bot 0 wins 60 of 100 walls against the reference (player 1).
    outcome = [1.0] * 60 + [0.0] * 40
    (lo, hi), anchor = bootstrap_ratings(2, [(0, 1, outcome)], 1, seed=3, walls=100)
    point = elo(fit_bradley_terry(2, {(0, 1): 60, (1, 0): 40}), 1)[0]
    assert lo < point < hi
    assert anchor == (0.0, 0.0)
    # Binomial sanity: the share 0.6 has a standard error of 0.049; 0.6 ± 1.96 · 0.049 in Elo.
    share_lo, share_hi = 0.6 - 1.96 * 0.049, 0.6 + 1.96 * 0.049
    width = 400 * (math.log10(share_hi / (1 - share_hi)) - math.log10(share_lo / (1 - share_lo)))
    assert hi - lo == pytest.approx(width, rel=0.25)
    # A replicate draws as many walls as there are, and the draws are the same on every run.
    assert draw_walls(3, 0, 100).sum() == 100
    assert (draw_walls(3, 7, 100) == draw_walls(3, 7, 100)).all()
    assert (draw_walls(3, 7, 100) != draw_walls(3, 8, 100)).any()
    assert bootstrap_ratings(2, [(0, 1, outcome)], 1, seed=3, walls=100) == [(lo, hi), anchor]


def test_a_wall_is_resampled_with_every_match_on_it():
    # Two bots with the same results wall by wall: every replicate keeps them equal, so their
    # intervals are identical (comparisons resampled one by one would separate them).
    outcome = [1.0, 0.0, 0.5, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0] * 5
    a, b, _ = bootstrap_ratings(3, [(0, 2, outcome), (1, 2, outcome)], 2, seed=1, walls=50)
    assert a == b


# -- the seating plan ------------------------------------------------------------------------------


def test_the_one_seat_bot_sits_once_in_every_seat_of_a_wall():
    cfg = Config({}, ("a", "b", "b", "b"), 0, True, False)
    seats = []
    for play in range(4):
        _, entries = _seating(cfg, 4 * 7 + play)
        assert entries[candidate_seat(play)] == 0  # simulate's seating and the arena's agree
        seats.append(candidate_seat(play))
    assert sorted(seats) == [0, 1, 2, 3]


def test_reference_and_pair_plans():
    ref = plan_matches(["expert", "random"], "reference", "greedy")
    assert [m.seats for m in ref] == [("expert", "greedy", "greedy", "greedy"),
                                      ("random", "greedy", "greedy", "greedy")]
    assert [m.opponent for m in ref] == [-1, -1]
    pairs = plan_matches(["a", "b", "c"], "pairs", "greedy")
    assert [(m.bot, m.opponent) for m in pairs] == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    assert pairs[3].seats == ("b", "c", "c", "c")


# -- the arena as a library ------------------------------------------------------------------------


def test_the_arena_line_is_simulates_duplicate_run_of_the_same_bots():
    result = arena(["expert"], 3, seed=11, rules="xuezhan")
    out = io.StringIO()
    summary = simulate(12, bots=["expert", "greedy", "greedy", "greedy"], rules="xuezhan",
                       seed=11, duplicate=True, out=out)
    expert = summary.bots[0]
    line = result.lines[0]
    assert line.hands == expert.seat_hands == 12
    assert line.score.mean == pytest.approx(expert.mean)
    assert line.wins == expert.wins
    assert line.win_rate == pytest.approx(expert.win_rate)
    assert line.fan_per_win == pytest.approx(expert.mean_fan)
    # Deal-ins: the expert's discards and added kongs someone won on, read from the records'
    # events (a discard two seats win on once).
    dealt = 0
    for row in map(json.loads, out.getvalue().splitlines()):
        seat = row["seats"].index("expert")
        last, counted = None, set()
        for i, e in enumerate(xueliu.replay(row["record"]).events()):
            if e["type"] in ("dahai", "kakan"):
                last = (i, e["actor"])
            elif e["type"] == "hora" and e["source"] != "self_draw" and last[0] not in counted:
                counted.add(last[0])
                dealt += last[1] == seat
    assert dealt > 0
    assert line.deal_ins_per_hand == dealt / 12


def test_the_reference_against_itself_and_its_rating_zero():
    result = arena(["greedy", "random"], 2, seed=4)
    greedy = result.lines[0]
    # GreedyBot is deterministic: on each wall its four seats are the four seats of one game,
    # and their nets sum to 0 (no service fee in the preset).
    assert greedy.score.mean == 0.0 and greedy.score.interval == (0.0, 0.0)
    assert result.ratings["greedy"] == 0.0 and result.anchor == "greedy"
    assert result.ratings["random"] < 0


def test_bots_against_one_reference_are_paired_with_the_first_on_the_same_walls():
    # Greedy against three greedy scores 0 on every wall (above), so every other bot's paired
    # difference from it is exactly that bot's own line: mean and interval.
    result = arena(["greedy", "random", "expert"], 6, seed=4)
    assert result.paired[0] is None
    for line, d in zip(result.lines[1:], result.paired[1:]):
        assert d is not None and d.mean == line.score.mean and d.interval == line.score.interval
    # With the first bot scoring, the difference is still the difference of the means, and its
    # interval is over the walls' differences.
    other = arena(["random", "greedy", "expert"], 6, seed=4)
    assert other.paired[1] is not None and other.paired[2] is not None
    assert other.paired[1].mean == pytest.approx(-result.lines[1].score.mean)
    assert other.paired[2].mean == pytest.approx(result.lines[2].score.mean
                                                 - result.lines[1].score.mean)
    assert other.paired[2].interval is not None and result.paired[2].interval is not None
    table = format_table(other)
    assert "paired with random (the first bot)" in table
    assert f"{other.paired[2].mean:+.2f}" in table.split("paired with")[1]
    data = to_json(other)
    assert data["bots"][0]["paired_with_first"] is None
    assert data["bots"][2]["paired_with_first"] == {
        "bot": "random", "difference": other.paired[2].mean,
        "ci95": list(other.paired[2].interval)}
    # All pairs: no single reference, nothing paired.
    pairs = arena(["greedy", "random"], 1, mode="pairs", seed=5)
    assert pairs.paired == () and "paired with" not in format_table(pairs)
    assert all(b["paired_with_first"] is None for b in to_json(pairs)["bots"])


def test_a_bot_that_lost_every_wall_has_a_bound_not_an_estimate():
    result = arena(["random", "expert"], 3, seed=4)
    random_vs_greedy = result.matches[0]
    assert (random_vs_greedy.walls_won, random_vs_greedy.walls_drawn) == (0, 0)
    assert result.rating_bounds == {"random": "at most", "expert": None, "greedy": None}
    table = format_table(result)
    assert "≤" + f"{round(result.ratings['random']):+d}" in table
    assert to_json(result)["bots"][0]["rating_bound"] == "at most"


def test_all_pairs_rates_every_bot_from_both_directions():
    result = arena(["greedy", "random", "autoplay"], 2, mode="pairs", seed=5)
    assert [(m.bot, m.opponent) for m in result.matches] == [
        ("greedy", "random"), ("greedy", "autoplay"), ("random", "greedy"),
        ("random", "autoplay"), ("autoplay", "greedy"), ("autoplay", "random")]
    assert [line.hands for line in result.lines] == [16, 16, 16]
    assert all(m.walls_won + m.walls_drawn + m.walls_lost == 2 for m in result.matches)
    assert result.anchor == "greedy" and result.ratings["greedy"] == 0.0
    table = format_table(result)
    assert "row bot in one seat against three of the column bot" in table
    # Without the reference among the bots, the ratings average 0.
    other = arena(["random", "autoplay"], 1, mode="pairs", seed=5)
    assert other.anchor is None
    assert sum(other.ratings.values()) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(bots=["nobody"], walls=1), "unknown bot 'nobody'"),
    (dict(bots=["random"], walls=1, reference="nobody"), "unknown bot 'nobody'"),
    (dict(bots=["random"], walls=0), "positive int"),
    (dict(bots=["random", "random"], walls=1), "listed twice"),
    (dict(bots=[], walls=1), "at least one bot"),
    (dict(bots=["random"], walls=1, mode="pairs"), "at least two bots"),
    (dict(bots=["random"], walls=1, mode="league"), "unknown arena mode"),
    (dict(bots=["random"], walls=1, rules="riichi"), "riichi"),
])
def test_bad_arena_arguments(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        arena(**kwargs)


# -- xueliu arena end to end -----------------------------------------------------------------------


def test_the_command_ranks_real_bots_and_a_program_the_same_for_any_workers(tmp_path):
    bots = f"expert,greedy,random,{RANDOM_PROGRAM}"
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    a = run("--bots", bots, "--games", "3", "--seed", "9", "--json", str(one))
    b = run("--bots", bots, "--games", "3", "--seed", "9", "--json", str(two), "--workers", "2")
    assert a.returncode == 0, a.stderr
    assert b.returncode == 0, b.stderr
    assert a.stdout == b.stdout
    assert one.read_bytes() == two.read_bytes()
    assert "hands in" in a.stderr and "hands in" not in a.stdout  # timing on stderr only
    table = a.stdout
    assert "each in one seat against three greedy; 3 walls × 4 seatings" in table
    for name in ("expert", "greedy", "random", RANDOM_PROGRAM):
        assert any(line.startswith(name + " ") for line in table.splitlines())
    assert "programs: decisions, and defaults taken for them" in table

    data = json.loads(one.read_text(encoding="utf-8"))
    assert data["format"] == JSON_FORMAT
    assert (data["mode"], data["reference"], data["preset"], data["seed"], data["walls"],
            data["seatings"]) == ("reference", "greedy", "xueliu", 9, 3, 4)
    assert data["rating"]["model"] == "bradley-terry" and data["rating"]["anchor"] == "greedy"
    assert [x["bot"] for x in data["bots"]] == ["expert", "greedy", "random", RANDOM_PROGRAM]
    assert set(data["ratings"]) == {"expert", "greedy", "random", RANDOM_PROGRAM}
    for x in data["bots"]:
        assert set(x) >= {"bot", "hands", "walls", "mean", "ci95", "win_rate",
                          "deal_ins_per_hand", "fan_per_win", "wins", "rating"}
        assert (x["hands"], x["walls"]) == (12, 3)
        lo, hi = x["ci95"]
        assert lo <= x["mean"] <= hi
        assert 0 <= x["win_rate"] <= 1 and x["deal_ins_per_hand"] >= 0
        assert x["rating"] == data["ratings"][x["bot"]]
        assert x["rating_ci95"] == data["rating_ci95"][x["bot"]]
        assert x["rating_ci95"][0] <= x["rating"] <= x["rating_ci95"][1]
    program = data["bots"][3]
    assert program["decisions"] > 0 and program["defaults"] == {
        "late": 0, "garbage": 0, "illegal": 0, "dead": 0}
    # examples/random_bot.py draws as RandomBot does, from the seed of the same hand and seat:
    # the program and the built-in bot play the same hands.
    same = ("mean", "ci95", "win_rate", "deal_ins_per_hand", "wins", "rating")
    assert [program[k] for k in same] == [data["bots"][2][k] for k in same]
    assert [(m["bot"], m["opponent"]) for m in data["matches"]] == [
        (b, "greedy") for b in ("expert", "greedy", "random", RANDOM_PROGRAM)]
    for m in data["matches"]:
        assert m["walls_won"] + m["walls_drawn"] + m["walls_lost"] == 3


def test_the_seed_changes_the_walls():
    a = run("--bots", "random", "--games", "2", "--seed", "1", "--preset", "xuezhan")
    b = run("--bots", "random", "--games", "2", "--seed", "2", "--preset", "xuezhan")
    assert a.returncode == b.returncode == 0
    assert "preset xuezhan, seed 1" in a.stdout
    assert a.stdout.splitlines()[2:] != b.stdout.splitlines()[2:]


def test_pairs_on_the_command_line(tmp_path):
    out = tmp_path / "pairs.json"
    p = run("--bots", "greedy,random", "--pairs", "--games", "1", "--json", str(out))
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["mode"] == "pairs"
    assert [(m["bot"], m["opponent"]) for m in data["matches"]] == [("greedy", "random"),
                                                                     ("random", "greedy")]


@pytest.mark.parametrize("args, needles", [
    (["--bots", "greedy,nobody", "--games", "1"], ["unknown bot 'nobody'"]),
    (["--bots", "greedy", "--reference", "nobody", "--games", "1"], ["unknown bot 'nobody'"]),
    (["--bots", "greedy", "--games", "0"], ["--games must be at least 1"]),
    (["--bots", "greedy", "--games", "-3"], ["--games must be at least 1"]),
    (["--bots", "greedy", "--games", "1", "--preset", "riichi"], ["--preset", "riichi"]),
    (["--bots", "greedy,,random", "--games", "1"], ["--bots"]),
    (["--bots", "greedy,greedy", "--games", "1"], ["'greedy' twice"]),
    (["--bots", "greedy", "--pairs", "--games", "1"], ["--pairs needs at least two bots"]),
    (["--bots", "greedy", "--games", "1", "--workers", "0"], ["--workers"]),
    (["--bots", "greedy", "--games", "1", "--json", "/nonexistent/dir/a.json"],
     ["cannot write /nonexistent/dir/a.json", "no directory"]),
])
def test_bad_input_is_a_clear_error(args, needles):
    assert_clean_error(run(*args), *needles)


def test_a_bad_run_writes_no_json(tmp_path):
    out = tmp_path / "a.json"
    assert_clean_error(run("--bots", "nobody", "--games", "1", "--json", str(out)), "nobody")
    assert not os.path.exists(out)


def test_a_bot_failing_mid_run_leaves_an_earlier_json_as_it_was(tmp_path):
    (tmp_path / "crashing_bot.py").write_text(
        "class Bot:\n"
        "    def act(self, observation, legal_actions):\n"
        "        raise RuntimeError('boom')\n", encoding="utf-8")
    out = tmp_path / "a.json"
    out.write_text("earlier", encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "xueliu", "arena", "--bots", "crashing_bot:Bot",
                        "--games", "1", "--json", str(out)], capture_output=True, text=True,
                       encoding="utf-8", timeout=60, cwd=tmp_path)
    assert_clean_error(p, "crashing_bot:Bot", "boom")
    assert out.read_text(encoding="utf-8") == "earlier"


def test_a_directory_is_no_json_path(tmp_path):
    assert_clean_error(run("--bots", "greedy", "--games", "1", "--json", str(tmp_path)),
                       "is a directory")
