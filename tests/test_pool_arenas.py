"""tools/pool_arenas.py (docs/strength.md, "On more walls than the gate's"): one bot's mean
pooled over arenas on different seeds — the mean of the seeds' means, the standard errors added
in quadrature."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xueliu.arena.report import to_json
from xueliu.arena.run import arena

TOOL = os.path.join(os.path.dirname(__file__), "..", "tools", "pool_arenas.py")


def _arena_file(tmp_path: Path, seed: int) -> Path:
    path = tmp_path / f"a{seed}.json"
    path.write_text(json.dumps(to_json(arena(["greedy"], 12, reference="random", seed=seed))))
    return path


def _pool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def two_seeds(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    tmp = tmp_path_factory.mktemp("pool")
    return [_arena_file(tmp, 3), _arena_file(tmp, 4)]


def test_pooled_mean_is_the_seeds_mean_and_its_interval_narrows(two_seeds: list[Path]) -> None:
    lines = [next(b for b in json.loads(p.read_text())["bots"] if b["bot"] == "greedy")
             for p in two_seeds]
    p = _pool(*map(str, two_seeds), "--bot", "greedy")
    assert p.returncode == 0, p.stderr
    pooled = p.stdout.splitlines()[-1]
    assert pooled.startswith("pooled 2 seeds")
    mean = (lines[0]["mean"] + lines[1]["mean"]) / 2
    half = math.hypot(*[(b["ci95"][1] - b["ci95"][0]) / 2 for b in lines]) / 2
    assert pooled.split()[3] == f"{mean:+.3f}"
    assert pooled.split("[")[1] == f"{mean - half:+.3f}, {mean + half:+.3f}]"
    assert 2 * half < min(b["ci95"][1] - b["ci95"][0] for b in lines)


def test_a_bot_named_otherwise_in_one_file(two_seeds: list[Path]) -> None:
    p = _pool(f"{two_seeds[0]}=greedy", str(two_seeds[1]), "--bot", "greedy")
    assert p.returncode == 0, p.stderr
    assert p.stdout == _pool(*map(str, two_seeds), "--bot", "greedy").stdout


def test_refuses_a_missing_bot_and_a_seed_counted_twice(two_seeds: list[Path]) -> None:
    p = _pool(str(two_seeds[0]), "--bot", "expert")
    assert p.returncode != 0 and "no bot 'expert'" in p.stderr and "greedy" in p.stderr
    p = _pool(str(two_seeds[0]), str(two_seeds[0]), "--bot", "greedy")
    assert p.returncode != 0 and "appears twice" in p.stderr
