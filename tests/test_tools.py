"""tools/ holds the scripts that reproduce something the project ships, each saying what in its
docstring: the tile artwork (make_tiles.py, tested by tests/browser/test_tile_pictures.py), the
likely-hands prior, the pooled 血流 figure of docs/strength.md (tests/test_pool_arenas.py) and
the views margin of the shipped weights. The last two without a test elsewhere are run here on
real data."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from xueliu.bots import NeuralBot
from xueliu.bots.neural_net import DEFAULT_WEIGHTS, load_network
from xueliu.game import likely_hands
from xueliu.train import hand_prior

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"

# Each tool and the shipped file (or page) it reproduces, which its docstring names.
REPRODUCES = {
    "make_tiles.py": "python/xueliu/server/static/tiles",
    "make_likely_hands.py": "python/xueliu/game/likely_hands.npz",
    "pool_arenas.py": "docs/strength.md",
    "views_margin.py": "python/xueliu/bots/weights/neural_v1.npz",
}


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOLS / tool), *args], capture_output=True,
                          text=True, cwd=ROOT)


def _meta(path: Path) -> dict:
    with np.load(path) as z:
        return json.loads(bytes(z["meta"]).decode())


def test_every_tool_says_what_shipped_file_it_reproduces():
    assert sorted(p.name for p in TOOLS.iterdir() if p.suffix == ".py") == sorted(REPRODUCES)
    for tool, shipped in REPRODUCES.items():
        doc = ast.get_docstring(ast.parse((TOOLS / tool).read_text("utf-8")))
        assert doc and shipped in doc, tool
        assert (ROOT / shipped).exists(), shipped


def test_views_margin_makes_the_shipped_file_again_from_its_network(tmp_path):
    out = tmp_path / "again.npz"
    done = _run("views_margin.py", str(DEFAULT_WEIGHTS), "0.5", str(out))
    assert done.returncode == 0, done.stderr
    assert _meta(out) == _meta(Path(DEFAULT_WEIGHTS))
    with np.load(out) as made, np.load(DEFAULT_WEIGHTS) as shipped:
        assert made.files == shipped.files
        for name in shipped.files:
            np.testing.assert_array_equal(made[name], shipped[name])
            assert made[name].dtype == shipped[name].dtype, name


def test_views_margin_sets_another_margin_or_none(tmp_path):
    shipped = load_network()
    for margin, expected in (("0.3", 0.3), ("0", 0.0)):
        out = tmp_path / f"m{margin}.npz"
        done = _run("views_margin.py", str(DEFAULT_WEIGHTS), margin, str(out))
        assert done.returncode == 0, done.stderr
        net = load_network(out)
        assert net.views_margin == expected and NeuralBot(weights=str(out)).views_margin == expected
        assert ("views" in _meta(out)) == (expected > 0)
        assert net.meta["training"] == shipped.meta["training"]
        assert net.presets == shipped.presets and net.encoder == shipped.encoder
        for (w, b), (w0, b0) in zip(net.layers, shipped.layers):
            np.testing.assert_array_equal(w, w0)
            np.testing.assert_array_equal(b, b0)


def test_make_likely_hands_writes_the_prior_measured_round_by_round(tmp_path):
    out = tmp_path / "likely.npz"
    done = _run("make_likely_hands.py", "--hands", "2", "--rounds", "2", "--seed", "3",
                "--workers", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert _meta(out) == {"presets": list(likely_hands.PRESETS), "hands": 2, "rounds": 2,
                          "seed": 3}
    with np.load(out) as z:
        for preset in likely_hands.PRESETS:
            first = likely_hands.ratios_from_counts(*hand_prior.measure(preset, 2, 3), None)
            real, dealt = hand_prior.measure(preset, 2, 3, first)  # the second round deals by it
            np.testing.assert_array_equal(z[f"{preset}_real"], real)
            np.testing.assert_array_equal(z[f"{preset}_dealt"], dealt)
            np.testing.assert_array_equal(
                z[preset], likely_hands.ratios_from_counts(real, dealt, first))


def test_the_shipped_prior_was_made_by_the_documented_command():
    # docs/training.md and the tool's docstring: --hands 2000 --rounds 3 --seed 15
    assert _meta(likely_hands.TABLE_PATH) == {"presets": ["xueliu", "xuezhan"], "hands": 2000,
                                              "rounds": 3, "seed": 15}
    assert "--hands 2000 --rounds 3 --seed 15" in (ROOT / "docs" / "training.md").read_text("utf-8")
