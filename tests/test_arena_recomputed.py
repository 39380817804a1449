"""The arena's and simulate's figures recomputed from the raw hands (issue 48, kind 3).

Every figure ``xueliu arena --json`` writes — a bot's hands, mean per hand and its 95 % interval
clustered by wall, win rate, deal-ins, fan per win, walls won/drawn/lost, the paired difference
with the first bot, the Bradley–Terry rating and its bootstrap interval, the bounds — is computed
again here from the hands themselves (``simulate --out`` records of the same walls), by the
formulas docs/strength.md and the docstrings of ``xueliu.arena`` state, in plain Python that
shares nothing with the arena's code: Student's t by integrating its density, the rating by
Newton's method instead of the MM iteration, the bootstrap's draws by splitmix64 on Python ints.
``simulate``'s own summary table is recomputed the same way. Then the failing hand a run reports
is the earliest for any worker count.

The 2-seat preset ``erren_yifang`` is fast and has walls won, drawn (a total of exactly 0) and lost
for every bot; a 4-seat run checks the seating of the one-seat bot.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest

import xueliu
from xueliu.arena import arena
from xueliu.arena.report import to_json
from xueliu.errors import BotError
from xueliu.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
SEED = 3
WALLS = 24
PRESET = "erren_yifang"
SEATS = 2
BOTS = ("expert", "random", "autoplay")
REFERENCE = "greedy"
REPLICATES = 200  # docs/strength.md: the rating's 200 bootstrap replicates of the walls
PRIOR_DRAWS = 1.0  # rating.py: one virtual draw for every pair that met


# -- plain-Python statistics, from the documented formulas ---------------------------------------

def t_cdf(t: float, df: int) -> float:
    """P(T <= t), Student's t: 1/2 plus Simpson's rule over the density on [0, |t|]."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def density(x: float) -> float:
        return c * (1 + x * x / df) ** (-(df + 1) / 2)

    steps = 4000
    h = abs(t) / steps
    area = density(0) + density(abs(t)) + sum(
        (4 if k % 2 else 2) * density(k * h) for k in range(1, steps))
    half = area * h / 3
    return 0.5 + half if t >= 0 else 0.5 - half


def t_975(df: int) -> float:
    lo, hi = 0.0, 50.0
    while hi - lo > 1e-12:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < 0.975 else (lo, mid)
    return (lo + hi) / 2


def clustered(totals: Sequence[int], sizes: Sequence[int]
              ) -> Tuple[float, Optional[Tuple[float, float]]]:
    """Mean per hand and its 95 % interval over G clusters (arena/stats.py's docstring):
    μ = Σy/Σn, V = G/(G−1)·Σ(y − μn)²/(Σn)², μ ± t(0.975, G−1)·√V."""
    g, hands = len(totals), sum(sizes)
    mean = sum(totals) / hands
    if g < 2:
        return mean, None
    v = g / (g - 1) * sum((y - mean * n) ** 2 for y, n in zip(totals, sizes)) / hands ** 2
    half = t_975(g - 1) * math.sqrt(v)
    return mean, (mean - half, mean + half)


def bradley_terry_elo(names: Sequence[str], wins: Dict[Tuple[str, str], float],
                      anchor: Optional[str]) -> Dict[str, float]:
    """The Bradley–Terry maximum-likelihood fit (draws as half a win, one virtual draw for each
    pair that met) by Newton's method on the log-likelihood, in Elo points: 400·log10 of the
    strength ratio to the anchor, or centred on the mean without one."""
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    games = np.zeros((k, k))
    won = np.zeros(k)
    for (a, b), x in wins.items():
        games[idx[a], idx[b]] += x
        games[idx[b], idx[a]] += x
        won[idx[a]] += x
    for i in range(k):
        for j in range(i + 1, k):
            if games[i, j] > 0:
                games[i, j] += PRIOR_DRAWS
                games[j, i] += PRIOR_DRAWS
                won[i] += PRIOR_DRAWS / 2
                won[j] += PRIOR_DRAWS / 2

    def loglik(s: np.ndarray) -> float:
        total = float(won @ s)
        for i in range(k):
            for j in range(i + 1, k):
                total -= games[i, j] * float(np.logaddexp(s[i], s[j]))
        return total

    s = np.zeros(k)
    for _ in range(200):
        p = 1 / (1 + np.exp(s[None, :] - s[:, None]))  # p[i, j]: i beats j
        grad = won - (games * p).sum(axis=1)
        w = games * p * (1 - p)
        hess = w - np.diag(w.sum(axis=1))
        step = np.zeros(k)
        step[1:] = np.linalg.solve(hess[1:, 1:], -grad[1:])  # s[0] stays 0
        t = 1.0
        while loglik(s + t * step) < loglik(s) - 1e-12 and t > 1e-6:
            t /= 2
        s = s + t * step
        if np.max(np.abs(t * step)) < 1e-13:
            break
    points = [400 * x / math.log(10) for x in s]
    zero = points[idx[anchor]] if anchor is not None else sum(points) / k
    return {n: points[i] - zero for i, n in enumerate(names)}


MASK = 2 ** 64 - 1


def splitmix64(state: int) -> int:
    z = state & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def wall_draws(seed: int, replicate: int, walls: int) -> List[int]:
    """How often each wall is drawn in a replicate (bootstrap.py): ``walls`` draws, draw k of
    replicate r the output number r·walls + k of splitmix64 seeded from blake2b of the arena's
    seed, taken modulo ``walls``."""
    digest = hashlib.blake2b(f"xueliu-arena-bootstrap:{seed}".encode(), digest_size=8).digest()
    state = int.from_bytes(digest, "big")
    counts = [0] * walls
    for k in range(walls):
        n = replicate * walls + k + 1  # splitmix64 adds its constant before each output
        counts[splitmix64(state + n * 0x9E3779B97F4A7C15) % walls] += 1
    return counts


# -- the raw hands ----------------------------------------------------------------------------------

def wall_results(bot: str, opponent: str, walls: int = WALLS, preset: str = PRESET,
                 seats: int = SEATS, seed: int = SEED) -> Dict[str, Any]:
    """``bot`` in one seat against ``seats - 1`` copies of ``opponent``, hand by hand, read off
    ``simulate --duplicate --out``'s records (the same walls and seatings as the arena's match):
    per wall the bot's summed score, and its hands won, wins, fan and deal-ins."""
    out = io.StringIO()
    simulate(seats * walls, bots=(bot,) + (opponent,) * (seats - 1), rules=preset, seed=seed,
             duplicate=True, out=out)
    totals = [0] * walls
    hands = [0] * walls
    r = {"hands_won": 0, "wins": 0, "fan": 0, "deal_ins": 0}
    for row in map(json.loads, out.getvalue().splitlines()):
        seat = row["seats"].index(bot)
        events = xueliu.replay(row["record"]).events()
        end = next(e for e in events if e["type"] == "end_hand")
        assert end["net"][seat] == row["net"][seat]
        totals[row["wall"]] += end["net"][seat]
        hands[row["wall"]] += 1
        mine = [e for e in events if e["type"] == "hora" and e["actor"] == seat]
        r["hands_won"] += bool(mine)
        r["wins"] += len(mine)
        r["fan"] += sum(e["fan"] for e in mine)
        # A deal-in: a discard (or an added kong) of the bot that somebody won on, once however
        # many won on it.
        last: Optional[Tuple[int, int]] = None
        counted = set()
        for i, e in enumerate(events):
            if e["type"] in ("dahai", "kakan"):
                last = (i, e["actor"])
            elif e["type"] == "hora" and e["source"] != "self_draw":
                assert last is not None
                if last[0] not in counted:
                    counted.add(last[0])
                    r["deal_ins"] += last[1] == seat
    assert hands == [seats] * walls
    r.update(totals=totals, sizes=hands)
    return r


def outcome(total: int) -> float:
    """A wall of a match, as the rating counts it: won above 0, drawn at exactly 0, lost below."""
    return 1.0 if total > 0 else 0.5 if total == 0 else 0.0


def record_of(totals: Sequence[int]) -> Tuple[int, int, int]:
    return (sum(t > 0 for t in totals), sum(t == 0 for t in totals),
            sum(t < 0 for t in totals))


def assert_interval(got: Optional[Sequence[float]], want: Optional[Tuple[float, float]],
                    tol: float = 1e-9) -> None:
    if want is None:
        assert got is None
    else:
        assert got is not None and got == pytest.approx(list(want), abs=tol)


def assert_line(got: Dict[str, Any], raw: Sequence[Dict[str, Any]]) -> None:
    """A bot's line over the matches of ``raw`` (one wall's cluster: its hands of that wall in
    every one of them)."""
    totals = [sum(r["totals"][w] for r in raw) for w in range(WALLS)]
    sizes = [sum(r["sizes"][w] for r in raw) for w in range(WALLS)]
    hands = sum(sizes)
    wins = sum(r["wins"] for r in raw)
    mean, interval = clustered(totals, sizes)
    assert got["hands"] == hands and got["walls"] == WALLS
    assert got["mean"] == pytest.approx(mean, abs=1e-12)
    assert_interval(got["ci95"], interval)
    assert got["win_rate"] == pytest.approx(sum(r["hands_won"] for r in raw) / hands, abs=1e-12)
    assert got["deal_ins_per_hand"] == pytest.approx(sum(r["deal_ins"] for r in raw) / hands,
                                                     abs=1e-12)
    assert got["wins"] == wins
    if wins:
        assert got["fan_per_win"] == pytest.approx(sum(r["fan"] for r in raw) / wins, abs=1e-12)
    else:
        assert got["fan_per_win"] is None


def recomputed_ratings(names: Sequence[str], matches: Sequence[Tuple[str, str, List[int]]],
                       anchor: Optional[str]) -> Tuple[Dict[str, float],
                                                       Dict[str, List[float]],
                                                       Dict[str, Optional[str]]]:
    """Ratings, their 95 % bootstrap intervals and bounds, from each match's per-wall totals of
    its one-seat bot (``matches``: bot, opponent, totals)."""
    def wins_of(weights: Sequence[int]) -> Dict[Tuple[str, str], float]:
        wins: Dict[Tuple[str, str], float] = {}
        for a, b, totals in matches:
            if a == b:
                continue  # the reference against itself compares nothing
            x = sum(c * outcome(t) for c, t in zip(weights, totals))
            wins[(a, b)] = wins.get((a, b), 0.0) + x
            wins[(b, a)] = wins.get((b, a), 0.0) + sum(weights) - x
        return wins

    wins = wins_of([1] * WALLS)
    ratings = bradley_terry_elo(names, wins, anchor)
    samples: Dict[str, List[float]] = {n: [] for n in names}
    for r in range(REPLICATES):
        for n, p in bradley_terry_elo(names, wins_of(wall_draws(SEED, r, WALLS)),
                                      anchor).items():
            samples[n].append(p)
    # Nearest rank: the ceil(0.025·200) = 5th and the ceil(0.975·200) = 195th of 200 sorted.
    lo_rank, hi_rank = math.ceil(0.025 * REPLICATES), math.ceil(0.975 * REPLICATES)
    intervals = {n: [sorted(s)[lo_rank - 1], sorted(s)[hi_rank - 1]] for n, s in samples.items()}
    bounds: Dict[str, Optional[str]] = {}
    for n in names:
        scored = sum(x for (a, _), x in wins.items() if a == n)
        conceded = sum(x for (_, b), x in wins.items() if b == n)
        bounds[n] = ("at most" if scored == 0 and conceded > 0 else
                     "at least" if conceded == 0 and scored > 0 else None)
    return ratings, intervals, bounds


def run_arena(tmp_path: Path, *args: str) -> Tuple[Dict[str, Any], str]:
    path = tmp_path / "arena.json"
    p = subprocess.run([sys.executable, "-m", "xueliu", "arena", "--games", str(WALLS),
                        "--preset", PRESET, "--seed", str(SEED), "--json", str(path),
                        "--no-progress", "--workers", "2", *args],
                       capture_output=True, text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return json.loads(path.read_text(encoding="utf-8")), p.stdout


@pytest.fixture(scope="module")
def raw() -> Dict[Tuple[str, str], Dict[str, Any]]:
    """Every (bot, opponent) match of the tests below, from simulate's records."""
    pairs = [(b, REFERENCE) for b in BOTS] + [(a, b) for a in BOTS for b in BOTS if a != b]
    return {(a, b): wall_results(a, b) for a, b in pairs}


# -- the tests ------------------------------------------------------------------------------------

def test_the_reference_arena_is_its_hands_recomputed(tmp_path, raw):
    data, table = run_arena(tmp_path, "--bots", ",".join(BOTS), "--reference", REFERENCE)
    assert data["walls"] == WALLS and data["seatings"] == SEATS
    assert data["rating"]["replicates"] == REPLICATES
    assert data["rating"]["prior_draws"] == PRIOR_DRAWS
    drawn_somewhere = 0
    for bot, got in zip(BOTS, data["bots"]):
        r = raw[(bot, REFERENCE)]
        assert got["bot"] == bot
        assert_line(got, [r])
        match = next(m for m in data["matches"] if m["bot"] == bot)
        assert match["opponent"] == REFERENCE
        assert_line(match, [r])
        won, drawn, lost = record_of(r["totals"])
        assert (match["walls_won"], match["walls_drawn"], match["walls_lost"]) == (won, drawn,
                                                                                   lost)
        drawn_somewhere += drawn
        # The printed table shows the same figures.
        row = next(line for line in table.splitlines() if line.startswith(bot + " "))
        assert f"{won}/{drawn}/{lost}" in row.split()
        assert f"{got['mean']:+.2f}" in row.split()
    assert drawn_somewhere > 0  # a total of exactly 0 is met, and counted a draw
    # The paired difference from the first bot: per wall, this bot's total less the first's.
    first = raw[(BOTS[0], REFERENCE)]
    assert data["bots"][0]["paired_with_first"] is None
    for bot, got in zip(BOTS[1:], data["bots"][1:]):
        r = raw[(bot, REFERENCE)]
        mean, interval = clustered([a - b for a, b in zip(r["totals"], first["totals"])],
                                   r["sizes"])
        d = got["paired_with_first"]
        assert d["bot"] == BOTS[0]
        assert d["difference"] == pytest.approx(mean, abs=1e-12)
        assert_interval(d["ci95"], interval)
    # The rating: Bradley–Terry over the walls, the reference at 0, and its bootstrap.
    names = [*BOTS, REFERENCE]
    ratings, intervals, bounds = recomputed_ratings(
        names, [(b, REFERENCE, raw[(b, REFERENCE)]["totals"]) for b in BOTS], REFERENCE)
    assert data["rating"]["anchor"] == REFERENCE and data["ratings"][REFERENCE] == 0.0
    for n in names:
        assert data["ratings"][n] == pytest.approx(ratings[n], abs=1e-6), n
        assert data["rating_ci95"][n] == pytest.approx(intervals[n], abs=1e-3), n
    for got in data["bots"]:
        assert got["rating"] == data["ratings"][got["bot"]]
        assert got["rating_ci95"] == data["rating_ci95"][got["bot"]]
        assert got["rating_bound"] == bounds[got["bot"]]


def test_all_pairs_is_its_hands_recomputed(tmp_path, raw):
    data, _ = run_arena(tmp_path, "--bots", ",".join(BOTS), "--pairs")
    matches = [(a, b) for a in BOTS for b in BOTS if a != b]
    assert [(m["bot"], m["opponent"]) for m in data["matches"]] == matches
    for m in data["matches"]:
        r = raw[(m["bot"], m["opponent"])]
        assert_line(m, [r])
        assert (m["walls_won"], m["walls_drawn"], m["walls_lost"]) == record_of(r["totals"])
    # A bot's line: all its matches, a wall's cluster holding its hands of that wall in each.
    for bot, got in zip(BOTS, data["bots"]):
        assert_line(got, [raw[(bot, o)] for o in BOTS if o != bot])
        assert got["paired_with_first"] is None
    # The reference is not among the bots: no anchor, the ratings average 0; both directions of
    # a pair feed one comparison count, with one virtual draw.
    ratings, intervals, bounds = recomputed_ratings(
        BOTS, [(a, b, raw[(a, b)]["totals"]) for a, b in matches], None)
    assert data["rating"]["anchor"] is None
    for n in BOTS:
        assert data["ratings"][n] == pytest.approx(ratings[n], abs=1e-6), n
        assert data["rating_ci95"][n] == pytest.approx(intervals[n], abs=1e-3), n
    assert [b["rating_bound"] for b in data["bots"]] == [bounds[n] for n in BOTS]


def test_a_four_seat_arena_measures_the_one_seat_bot_in_each_of_its_seats():
    # At four seats the bot moves seat by seat through a wall's seatings (plan.py); its line is
    # its own hands, recomputed from simulate's records where it is found by name.
    walls = 5
    result = to_json(arena(["expert"], walls, rules="xueliu", seed=SEED))
    r = wall_results("expert", REFERENCE, walls=walls, preset="xueliu", seats=4)
    got = result["bots"][0]
    mean, interval = clustered(r["totals"], r["sizes"])
    assert got["hands"] == 4 * walls and got["mean"] == pytest.approx(mean, abs=1e-12)
    assert_interval(got["ci95"], interval)
    assert got["wins"] == r["wins"]
    assert got["win_rate"] == pytest.approx(r["hands_won"] / (4 * walls), abs=1e-12)
    assert got["deal_ins_per_hand"] == pytest.approx(r["deal_ins"] / (4 * walls), abs=1e-12)
    m = result["matches"][0]
    assert (m["walls_won"], m["walls_drawn"], m["walls_lost"]) == record_of(r["totals"])


@pytest.mark.parametrize("preset,bots,games", [
    (PRESET, ("expert", "random"), 2 * WALLS),
    ("xueliu", ("greedy", "random", "greedy", "random"), 16),  # 查大叫 happens here
])
def test_simulates_summary_is_its_records_recomputed(preset, bots, games):
    # Every bot in every seat of each wall (duplicate) and, without duplicate, hand by hand.
    flagged = 0
    for duplicate in (True, False):
        out = io.StringIO()
        summary = simulate(games, bots=bots, rules=preset, seed=SEED, duplicate=duplicate,
                           out=out, workers=2)
        rows = [json.loads(line) for line in out.getvalue().splitlines()]
        assert [row["hand"] for row in rows] == list(range(games))
        for b in summary.bots:
            nets: Dict[int, List[int]] = {}  # per unit (wall, or hand), the bot's scores
            won = wins = fan = pigs = not_ready = 0
            patterns: Dict[str, int] = {}
            for row in rows:
                state = xueliu.replay(row["record"])
                checks = state.settlement().end_checks
                for seat, name in enumerate(row["seats"]):
                    if name != b.name:
                        continue
                    unit = row["wall"] if duplicate else row["hand"]
                    nets.setdefault(unit, []).append(row["net"][seat])
                    mine = [e for e in state.events()
                            if e["type"] == "hora" and e["actor"] == seat]
                    won += bool(mine)
                    wins += len(mine)
                    fan += sum(e["fan"] for e in mine)
                    for e in mine:
                        patterns[e["base"]] = patterns.get(e["base"], 0) + 1
                    if checks:
                        pigs += checks[seat]["pig"]
                        not_ready += (not checks[seat]["won"] and not checks[seat]["pig"]
                                      and not checks[seat]["ready"])
            hands = sum(len(v) for v in nets.values())
            assert b.seat_hands == hands == games * bots.count(b.name)
            flagged += pigs + not_ready
            assert b.mean == pytest.approx(sum(map(sum, nets.values())) / hands, abs=1e-12)
            # The summary's interval (summary.py): normal, 1.96 standard errors of the unit means.
            means = [sum(v) / len(v) for _, v in sorted(nets.items())]
            mu = sum(means) / len(means)
            sd = math.sqrt(sum((x - mu) ** 2 for x in means) / (len(means) - 1))
            half = 1.96 * sd / math.sqrt(len(means))
            assert b.interval == pytest.approx((mu - half, mu + half), abs=1e-9)
            assert b.win_rate == pytest.approx(won / hands, abs=1e-12)
            assert (b.wins, b.fan_sum, b.pigs, b.not_ready) == (wins, fan, pigs, not_ready)
            assert b.patterns == patterns
        text = summary.format()
        for b in summary.bots:
            row = next(line for line in text.splitlines() if line.startswith(b.name + " "))
            assert f"{b.mean:+.2f}" in row.split() and f"{100 * b.win_rate:.1f}%" in row.split()
    assert flagged > 0 or preset == PRESET  # one suit, no 定缺: every hand ends ready there


# -- the failing hand a run reports ----------------------------------------------------------------

FAILING_BOT = '''
import time

from xueliu.bots import GreedyBot, bot_seed

# (hand, seat) -> how the bot fails there: the earlier one slowly, so that with two workers the
# later one fails first.
FAIL = {bot_seed(%(seed)d, %(early)d, %(early_seat)d): 1.5,
        bot_seed(%(seed)d, %(late)d, %(late_seat)d): 0.0}


class FailingBot(GreedyBot):
    def start_hand(self, seat, rules, seed):
        self.fail = FAIL.get(seed)

    def act_view(self, view, legal):
        if self.fail is not None:
            time.sleep(self.fail)
            raise RuntimeError("planned failure")
        return super().act_view(view, legal)
'''


def _failing_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, early: int, late: int) -> str:
    # The one-seat bot of play r of a wall sits in seat (n - r) % n (plan.candidate_seat); at
    # two seats, in seat r.
    (tmp_path / "failing_bot.py").write_text(FAILING_BOT % {
        "seed": SEED, "early": early, "early_seat": early % SEATS, "late": late,
        "late_seat": late % SEATS}, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "failing_bot:FailingBot"


@pytest.mark.parametrize("run", ["arena", "simulate"])
def test_the_failing_hand_reported_is_the_earliest_for_any_worker_count(tmp_path, monkeypatch,
                                                                        run):
    early, late = 2 * 2 + 1, 2 * 9  # hands of walls 2 and 9
    spec = _failing_bot(tmp_path, monkeypatch, early, late)
    messages = []
    for workers in (1, 2):
        with pytest.raises(BotError) as caught:
            if run == "arena":
                arena([spec], 12, rules=PRESET, seed=SEED, workers=workers)
            else:
                simulate(24, bots=(spec, REFERENCE), rules=PRESET, seed=SEED, duplicate=True,
                         workers=workers)
        messages.append(str(caught.value))
    assert f"(hand {early}, " in messages[0], messages[0]
    assert messages[1] == messages[0]


def test_the_command_reports_the_earliest_failing_hand_for_any_worker_count(tmp_path,
                                                                           monkeypatch):
    early, late = 2 * 1, 2 * 7 + 1
    _failing_bot(tmp_path, monkeypatch, early, late)
    lines = []
    for workers in ("1", "2"):
        p = subprocess.run([sys.executable, "-m", "xueliu", "arena", "--bots",
                            "failing_bot:FailingBot", "--games", "10", "--preset", PRESET,
                            "--seed", str(SEED), "--workers", workers, "--no-progress"],
                           capture_output=True, text=True, encoding="utf-8", timeout=300,
                           cwd=tmp_path)
        assert p.returncode != 0
        lines.append(p.stderr.strip().splitlines()[-1])
    assert f"(hand {early}, " in lines[0] and lines[1] == lines[0], lines


def test_the_independent_formulas_agree_with_printed_tables():
    # The recomputation's own Student t, against the printed tables: it is a yardstick only if
    # it is right.
    assert t_975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t_975(10) == pytest.approx(2.2281, abs=1e-4)
    assert t_975(23) == pytest.approx(2.0687, abs=1e-4)
    # ...and its Bradley–Terry, against the closed form of two players: the log-odds of the
    # comparisons, each side given half the virtual draw.
    got = bradley_terry_elo(["a", "b"], {("a", "b"): 7.5, ("b", "a"): 2.5}, "b")
    assert got["a"] == pytest.approx(400 * math.log10(8 / 3), abs=1e-9)
    # ...and its splitmix64: the reference outputs of the generator seeded with 1234567.
    assert splitmix64(1234567 + 0x9E3779B97F4A7C15) == 6457827717110365317
    assert splitmix64(1234567 + 2 * 0x9E3779B97F4A7C15) == 3203168211198807973

