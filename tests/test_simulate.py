"""xueliu.simulate as a library: seeds, duplicate seating, statistics, and the Ray code path."""

from __future__ import annotations

import io
import re
import json
import sys

import pytest

import xueliu
from xueliu.simulate import hand_seed, simulate


def test_a_hand_is_a_pure_function_of_seed_and_index():
    a, b = io.StringIO(), io.StringIO()
    simulate(6, bots=["random"] * 4, seed=7, out=a)
    simulate(6, bots=["random"] * 4, seed=7, out=b, workers=2)
    assert a.getvalue() == b.getvalue()
    lines = [json.loads(x) for x in a.getvalue().splitlines()]
    assert [x["seed"] for x in lines] == [hand_seed(7, i) for i in range(6)]
    assert [x["dealer"] for x in lines] == [i % 4 for i in range(6)]
    c = io.StringIO()
    simulate(6, bots=["random"] * 4, seed=8, out=c)
    assert c.getvalue() != a.getvalue()


def test_duplicate_rotates_every_bot_through_every_seat_of_each_wall():
    out = io.StringIO()
    summary = simulate(8, bots=["greedy", "autoplay", "random", "random"], seed=2,
                       duplicate=True, out=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    for wall in (0, 1):
        plays = lines[4 * wall:4 * wall + 4]
        assert len({p["seed"] for p in plays}) == 1
        for name in ("greedy", "autoplay"):
            assert sorted(p["seats"].index(name) for p in plays) == [0, 1, 2, 3]
    names = [b.name for b in summary.bots]
    assert names == ["greedy", "autoplay", "random"]
    assert [b.seat_hands for b in summary.bots] == [8, 8, 16]


def test_statistics_add_up_to_the_hands_played():
    out = io.StringIO()
    summary = simulate(12, bots=["greedy", "random", "greedy", "random"], seed=5, out=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    by_name = {b.name: b for b in summary.bots}
    for name, b in by_name.items():
        nets = [x["net"][s] for x in lines for s in range(4) if x["seats"][s] == name]
        assert b.seat_hands == len(nets) == 24
        assert b.total == sum(nets)
        assert b.interval[0] <= b.mean <= b.interval[1]
    wins = [w for x in lines for w in xueliu.replay(x["record"]).settlement().wins]
    assert sum(b.wins for b in summary.bots) == len(wins)
    assert sum(sum(b.patterns.values()) for b in summary.bots) == len(wins)
    assert sum(b.fan_sum for b in summary.bots) == sum(w.fan_result.fan for w in wins)


class _StandInRay:
    """Just enough of the Ray API for the backend's code path, in process. It hands results back
    in reverse order, so gathering them in hand order is exercised."""

    def __init__(self):
        self.initialized = False
        self.init_kwargs = None

    def is_initialized(self):
        return self.initialized

    def init(self, **kwargs):
        self.initialized, self.init_kwargs = True, kwargs

    def shutdown(self):
        self.initialized = False

    def remote(self, fn):
        class Ref:  # hashable, like ray.ObjectRef
            def __init__(self, value):
                self.value = value

        class Task:
            @staticmethod
            def remote(*args):
                return Ref(fn(*args))
        return Task

    def wait(self, refs, num_returns=1):
        return refs[-num_returns:], refs[:-num_returns]

    def get(self, ref):
        return ref.value


def test_ray_backend_gives_the_local_results(monkeypatch):
    ray = _StandInRay()
    monkeypatch.setitem(sys.modules, "ray", ray)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    local, remote = io.StringIO(), io.StringIO()
    a = simulate(40, bots=["greedy", "random", "random", "random"], seed=3, duplicate=True,
                 workers=2, out=local)
    b = simulate(40, bots=["greedy", "random", "random", "random"], seed=3, duplicate=True,
                 workers=2, out=remote, backend="ray")
    assert remote.getvalue() == local.getvalue()
    assert b.format() == a.format()
    assert ray.init_kwargs["num_cpus"] == 2 and not ray.initialized


def test_ray_backend_without_ray_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(RuntimeError, match=r'pip install "\.\[ray\]" in the xueliu clone'):
        simulate(4, backend="ray")


@pytest.mark.parametrize("kwargs, needle", [
    (dict(games=0), "positive"),
    (dict(games=5, duplicate=True), "multiple of 4"),
    (dict(games=4, workers=0), "workers"),
    (dict(games=4, bots=["random"] * 3), "4 bots are needed"),
    (dict(games=4, backend="spark"), "unknown backend"),
    (dict(games=4, seed=-1), "seed"),
])
def test_bad_simulation_arguments(kwargs, needle):
    games = kwargs.pop("games")
    with pytest.raises(ValueError, match=needle):
        simulate(games, **kwargs)


# -- the command, as a new user runs it (subprocesses) ---------------------------------------------

import subprocess  # noqa: E402
import textwrap  # noqa: E402


def _xueliu(*argv, cwd=None):
    return subprocess.run([sys.executable, "-m", "xueliu", *argv], capture_output=True, text=True,
                          encoding="utf-8", cwd=cwd, timeout=120)


def _console_script(*argv, cwd):
    """The installed ``xueliu`` command (its sys.path starts at the script, not the cwd)."""
    import os
    import shutil
    script = shutil.which("xueliu", path=os.path.dirname(sys.executable))
    assert script is not None
    return subprocess.run([script, *argv], capture_output=True, text=True, encoding="utf-8",
                          cwd=cwd, timeout=120)


def test_a_bot_module_in_the_working_directory_is_found(tmp_path):
    (tmp_path / "mybot.py").write_text(textwrap.dedent("""
        class MyBot:
            name = "mine"

            def act(self, observation, legal_actions):
                return legal_actions[-1]
    """), "utf-8")
    p = _console_script("simulate", "--games", "4", "--no-progress", "--bots",
                        "mybot:MyBot,greedy,random,random", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "mybot:MyBot" in p.stdout


def _raising_bot(tmp_path):
    (tmp_path / "boombot.py").write_text(textwrap.dedent("""
        class BoomBot:
            def __init__(self):
                self.calls = 0

            def act(self, observation, legal_actions):
                self.calls += 1
                if observation["phase"] == "turn":
                    raise RuntimeError("boom")
                return legal_actions[0]
    """), "utf-8")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bot_that_raises_is_named_with_its_seat_and_hand(tmp_path, workers):
    _raising_bot(tmp_path)
    p = _console_script("simulate", "--games", "4", "--no-progress", "--workers", workers,
                        "--bots", "random,boombot:BoomBot,random,random", cwd=tmp_path)
    assert p.returncode == 1
    line = p.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"xueliu simulate: error: bot 'boombot:BoomBot' at seat 1 raised "
                        r"RuntimeError: boom \(hand 0, wall seed \d+\) \(run with --debug for "
                        r"the traceback\)", line), line
    assert "Traceback" not in p.stderr


def test_debug_prints_the_bots_traceback(tmp_path):
    _raising_bot(tmp_path)
    for argv in (["--debug", "simulate"], ["simulate", "--debug"]):
        p = _console_script(*argv, "--games", "4", "--no-progress", "--bots",
                            "boombot:BoomBot,random,random,random", cwd=tmp_path)
        assert p.returncode == 1
        assert "Traceback (most recent call last)" in p.stderr
        assert 'raise RuntimeError("boom")' in p.stderr  # the bot's own line
        assert "bot 'boombot:BoomBot' at seat 0 raised RuntimeError: boom" in p.stderr


def test_a_bot_answering_an_illegal_action_is_named(tmp_path):
    (tmp_path / "cheat.py").write_text(textwrap.dedent("""
        import xueliu

        class Cheat:
            def act(self, observation, legal_actions):
                return xueliu.Action("hu") if observation["phase"] == "turn" else legal_actions[0]
    """), "utf-8")
    p = _console_script("simulate", "--games", "4", "--no-progress", "--bots",
                        "random,random,cheat:Cheat,random", cwd=tmp_path)
    assert p.returncode == 1
    assert "bot 'cheat:Cheat' at seat 2 chose Action('hu'), which is not one of its legal " \
           "actions (hand 0, wall seed" in p.stderr


def test_the_cli_sits_on_top_of_simulate():
    """Nothing below the command imports it (no import circle)."""
    code = ("import sys, xueliu, xueliu.simulate, xueliu.envs, xueliu.learn; "
            "xueliu.simulate.simulate(4, bots=['random'] * 4); "
            "assert 'xueliu.cli' not in sys.modules, 'imported the CLI'")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
