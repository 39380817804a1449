"""Training works: demonstrations are a pure function of the seed and the hands, and a small
network trained from scratch for about a minute (numpy behaviour cloning of GreedyBot: the default
test run has no PyTorch, docs/training.md) beats three RandomBots in a short duplicate arena."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources

import numpy as np
import pytest

import xueliu
from xueliu.bots import NeuralBot
from xueliu.bots.neural_net import save_network
from xueliu.learn.actions import EXCHANGE_PICK
from xueliu.train import branches, demos
from xueliu.train.evaluate import duplicate_nets, duplicate_strength
from xueliu.train.numpy_bc import train_numpy

from branch_points import assert_the_networks_best_candidates
from near_ties import assert_same_choices, bot_near_ties

PRESETS = ("xueliu", "xuezhan")
SHIPPED = str(resources.files("xueliu.bots") / "weights" / "neural_v1.npz")


def test_demonstrations_are_a_function_of_the_seed_and_the_hands():
    whole = demos.generate("greedy", PRESETS, range(0, 4), seed=5)
    parts = demos.concat([demos.generate("greedy", PRESETS, range(0, 2), seed=5),
                          demos.generate("greedy", PRESETS, range(2, 4), seed=5)])
    for key in ("x", "mask", "index", "preset"):
        assert np.array_equal(whole[key], parts[key])
    assert not np.array_equal(demos.generate("greedy", PRESETS, range(0, 2), seed=6)["index"],
                              parts["index"][:len(demos.generate("greedy", PRESETS, range(0, 2),
                                                                 seed=6)["index"])])
    masks = demos.unpack_mask(whole["mask"])
    index = whole["index"].astype(np.int64)
    assert masks[np.arange(len(index)), index].all()  # every target is allowed by its mask
    assert (masks.sum(axis=1) > 1).all()  # forced moves are left out
    assert set(whole["preset"]) == {0, 1}
    # each hand's exchange comes as its three picks for each seat that had a choice
    picks = (index >= EXCHANGE_PICK) & (index < EXCHANGE_PICK + 27)
    assert picks.sum() % 3 == 0 and picks.sum() > 0


def test_dagger_demonstrations_are_the_teachers_labels_on_the_states_the_network_reaches():
    # DAgger (--dagger): the network plays two seats of each hand, and what is recorded at every
    # seat is still the teacher's answer. With the network as its own teacher that is exactly the
    # network's own demonstrations...
    plain = demos.generate("neural", PRESETS, range(0, 2), seed=5)
    same = demos.generate("neural", PRESETS, range(0, 2), seed=5, actor=SHIPPED)
    for key in ("x", "mask", "index", "preset"):
        assert np.array_equal(plain[key], same[key])
    # ... and under greedy the hands go where the network takes them (other states than greedy's
    # own demonstrations), labelled by greedy: not the network's choices there
    greedy = demos.generate("greedy", PRESETS, range(0, 2), seed=5)
    taught = demos.generate("greedy", PRESETS, range(0, 2), seed=5, actor=SHIPPED)
    assert taught["x"].shape != greedy["x"].shape or not np.array_equal(taught["x"], greedy["x"])
    again = demos.generate("greedy", PRESETS, range(0, 2), seed=5, actor=SHIPPED)
    assert all(np.array_equal(taught[k], again[k]) for k in ("x", "mask", "index", "preset"))
    net = NeuralBot(weights=SHIPPED)
    masks = demos.unpack_mask(taught["mask"])
    index = taught["index"].astype(np.int64)
    assert masks[np.arange(len(index)), index].all()
    assert (net.choose(demos.unpack_x(taught["x"]), masks) != index).mean() > 0.05
    # the network's own choices again, now all rows in one batch (the hands decided them one
    # row at a time): the same but at near ties (tests/near_ties.py)
    x, m = demos.unpack_x(plain["x"]), demos.unpack_mask(plain["mask"])
    assert_same_choices(net.choose(x, m), plain["index"], bot_near_ties(net, x, m))


def test_dagger_rounds_each_play_walls_of_their_own_after_the_teachers():
    # --dagger A,B --dagger-hands 5,3 --chunk 2: the teacher's 4 hands, then round A's 5 and
    # round B's 3 on the walls after them; the first round keeps the file name it had when
    # there was one round (dagger_*), so a one-round run's chunks are the first round's
    plan = demos.chunk_plan(4, (5, 3), 2)
    assert [(k, c, list(h), r) for k, c, h, r in plan] == [
        ("chunk", 0, [0, 1], -1), ("chunk", 1, [2, 3], -1),
        ("dagger", 0, [4, 5], 0), ("dagger", 1, [6, 7], 0), ("dagger", 2, [8], 0),
        ("dagger2", 0, [9, 10], 1), ("dagger2", 1, [11], 1)]
    assert demos.chunk_plan(4, (5,), 2) == plan[:5]
    assert demos.chunk_plan(3, (), 2) == [("chunk", 0, range(0, 2), -1),
                                         ("chunk", 1, range(2, 3), -1)]


def test_demonstrations_with_values_record_the_teachers_value_of_every_option_it_was_offered():
    plain = demos.generate("expert", PRESETS, range(0, 4), seed=5)
    valued = demos.generate("expert", PRESETS, range(0, 4), seed=5, values=True)
    # the same decisions (option_values chooses as act does), now with the values
    for key in ("x", "mask", "index", "preset", "cost"):
        assert np.array_equal(plain[key], valued[key])
    value = valued["value"].astype(np.float32)
    mask = demos.unpack_mask(valued["mask"])
    index = valued["index"].astype(np.int64)
    rows = np.isfinite(value).any(axis=1)
    exchange = (index >= EXCHANGE_PICK) & (index < EXCHANGE_PICK + 27)
    assert np.array_equal(rows, ~exchange)  # an exchange's picks are not single options
    assert np.array_equal(np.isfinite(value[rows]), mask[rows])  # every allowed option valued
    best = np.nanmax(value[rows], axis=1)
    assert (value[rows, index[rows]] == best).all()  # the teacher's choice is a best one
    # a part without values joins one with them as NaN rows
    both = demos.concat([plain, valued])
    assert np.isnan(both["value"][:len(plain["index"])].astype(np.float32)).all()
    with pytest.raises(ValueError, match="option values"):
        demos.generate("greedy", PRESETS, range(0, 1), seed=5, values=True)


def test_branch_points_are_the_networks_best_candidates_each_played_out_on_the_same_wall():
    net = NeuralBot(weights=SHIPPED).network
    # verify: the network's own choice is also played on a copy of hand and bots and must win
    # what the hand itself won (it raises otherwise) — so a candidate's value is what that
    # decision wins on this wall, everything else as it was
    points = branches.generate(net, "greedy", PRESETS, range(0, 6), seed=3, rate=0.5, top=3,
                               verify=True)
    assert len(points["preset"]) > 20 and set(points["preset"]) == {0, 1}
    assert_the_networks_best_candidates(net, points)
    again = branches.generate(net, "greedy", PRESETS, range(3, 6), seed=3, rate=0.5, top=3)
    tail = branches.generate(net, "greedy", PRESETS, range(0, 6), seed=3, rate=0.5, top=3)
    k = len(again["preset"])
    assert all(np.array_equal(again[key], tail[key][-k:], equal_nan=key == "value")
               for key in ("x", "mask", "cand", "value", "preset"))


def test_the_teacher_indices_of_an_exchange_are_its_three_picks_smallest_first():
    state = xueliu.new_game("xueliu", seed=1)
    legal = state.legal_actions(0)
    action = next(a for a in legal if a.tiles == ("2m", "2m", "7m"))
    assert demos.teacher_indices(action, legal) == [EXCHANGE_PICK + 1, EXCHANGE_PICK + 1,
                                                   EXCHANGE_PICK + 6]


def test_a_minute_of_training_from_scratch_beats_three_random_bots(tmp_path):
    samples = demos.generate("greedy", PRESETS, range(0, 40), seed=1)
    assert len(samples["index"]) > 1500
    layers = train_numpy(samples, hidden=(64,), steps=300, seed=1, batch=128, lr=2e-3)
    path = str(tmp_path / "tiny.npz")
    save_network(path, layers, {p: xueliu.Rules.preset(p) for p in PRESETS}, {"test": True})
    bot = NeuralBot(weights=path)
    for preset in PRESETS:
        s = duplicate_strength(bot.choose, "random", preset, walls=12, seed=2026)
        assert s.low > 0, s.line()  # the whole 95 % interval above zero


@pytest.mark.parametrize("preset", PRESETS)
def test_the_batched_arena_plays_simulates_own_hands(preset):
    """evaluate.duplicate_nets (the policy's seats batched across hands) gives the policy the
    nets ``xueliu simulate --duplicate --bots neural,greedy,greedy,greedy`` gives NeuralBot."""
    from xueliu.simulate import simulate
    import io
    import json

    out = io.StringIO()
    simulate(8, bots=("neural", "greedy", "greedy", "greedy"), rules=preset, seed=77,
             duplicate=True, out=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    expected = np.array([[row["net"][row["seats"].index("neural")] for row in rows[4 * w:4 * w + 4]]
                         for w in range(2)])
    # each row decided as simulate decides it, alone: the hands are then the same to the bit
    # (a batch's products differ from a lone row's in their last bits and could break a near
    # tie the other way; that the batched decisions are the same but at near ties is
    # test_act_act_view_and_act_batch_decide_alike's)
    bot = NeuralBot()

    def alone(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.concatenate([bot.choose(x[i:i + 1], mask[i:i + 1]) for i in range(len(x))])

    got = duplicate_nets(alone, "greedy", preset, walls=2, seed=77, batch=3)
    assert np.array_equal(got, expected)


def test_the_training_command_refuses_bad_arguments_before_starting(tmp_path, capsys):
    from xueliu.train.__main__ import main

    assert main(["--out", str(tmp_path / "run"), "--demo-hands", "0"]) == 2
    assert "--demo-hands must be at least 1" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "run"), "--hidden", "64,x"])
    assert main(["--out", str(tmp_path / "run"), "--dagger-hands", "10"]) == 2
    assert "--dagger and --dagger-hands go together" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "run"), "--dagger", str(tmp_path / "none.npz"),
                 "--dagger-hands", "10"]) == 2
    assert capsys.readouterr().err.startswith(f"--dagger {tmp_path / 'none.npz'}: ")
    assert main(["--out", str(tmp_path / "run"), "--dagger", f"{SHIPPED},{SHIPPED}",
                 "--dagger-hands", "10"]) == 2
    assert "one hand count per weights file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "run"), "--dagger", SHIPPED, "--dagger-hands", "0"])
    assert main(["--out", str(tmp_path / "run"), "--improve-actor", "bc", "--improve-hands",
                 "10"]) == 2
    assert "--improve-actor, --improve-hands and --improve-epochs go together" in (
        capsys.readouterr().err)
    assert main(["--out", str(tmp_path / "run"), "--improve-actor", "bc", "--improve-hands",
                 "10", "--improve-epochs", "1", "--improve-opponents", "expert,nobody"]) == 2
    assert "--improve-opponents: unknown bot 'nobody'" in capsys.readouterr().err
    improve = ["--out", str(tmp_path / "run"), "--improve-actor", "bc", "--improve-hands", "10",
               "--improve-epochs", "1", "--improve-opponents"]
    for bad in (["redeal,expert"], ["redeal:expert,greedy"], ["redeal", "--improve-redeals", "0"],
                ["redeal", "--improve-gap", "0"], ["redeal", "--improve-gap", "nan"]):
        assert main(improve + bad) == 2
        assert "redeal or redeal:BOT go without plain bots" in capsys.readouterr().err
    assert main(improve + ["redeal,redeal:nobody"]) == 2
    assert "--improve-opponents: unknown bot 'nobody'" in capsys.readouterr().err
    assert main(improve + ["expert", "--improve-won-hands", "redeal"]) == 2
    assert "--improve-won-hands redeal, --improve-decisions and --improve-redeal-hands are " \
        "for the close calls" in capsys.readouterr().err
    assert main(improve + ["expert", "--improve-redeal-hands", "likely"]) == 2
    assert "--improve-redeal-hands are for the close calls" in capsys.readouterr().err
    assert main(improve + ["expert", "--improve-decisions", "melds"]) == 2
    assert "--improve-decisions and --improve-redeal-hands are" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(improve + ["redeal", "--improve-decisions", "exchange"])
    with pytest.raises(SystemExit):
        main(improve + ["redeal", "--improve-won-hands", "guess"])
    for weight in ("0", "-1", "nan"):
        assert main(["--out", str(tmp_path / "run"), "--bc-weight-won", weight]) == 2
        assert "--bc-weight-won must be positive" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "run"), "--distill",
                 f"{SHIPPED},{tmp_path / 'none.npz'}"]) == 2
    assert capsys.readouterr().err.startswith(f"--distill {tmp_path / 'none.npz'}: ")
    for option in ("--danger-loss", "--danger-penalty"):
        for weight in ("-1", "nan", "inf"):
            assert main(["--out", str(tmp_path / "run"), option, weight]) == 2
            assert "must be finite and not negative" in capsys.readouterr().err
    for temperature in ("-1", "nan", "inf"):
        assert main(["--out", str(tmp_path / "run"), "--bc-soft", temperature]) == 2
        assert "--bc-soft must be finite and not negative" in capsys.readouterr().err
    for temperature in ("0", "-1", "nan", "inf"):
        assert main(["--out", str(tmp_path / "run"), "--distill", SHIPPED,
                     "--distill-temperature", temperature]) == 2
        assert "--distill-temperature must be a finite number above 0" in capsys.readouterr().err
    for option in ("--distill-views", "--augment-renamings"):
        for n in ("0", "13"):
            assert main(["--out", str(tmp_path / "run"), "--distill", SHIPPED, option, n]) == 2
            assert f"{option} is 1..12, got {n}" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "run"), "--bc-soft", "0.5", "--distill", SHIPPED]) == 2
    assert "two targets for one loss" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "run"), "--bc-soft", "0.5", "--teacher", "greedy"]) == 2
    assert "--bc-soft needs a teacher that values its options" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "run"), "--encoder", "obs_v9"])
    assert not (tmp_path / "run").exists()


def _xueliu_without_torch(*args: str) -> "subprocess.CompletedProcess[str]":
    """``xueliu ARGS`` in a fresh interpreter where ``import torch`` fails, as in the default
    install (whether or not this machine has the train extra)."""
    code = ("import sys; sys.modules['torch'] = None; from xueliu.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=300)


def test_xueliu_train_without_the_train_extra_says_how_to_install_it(tmp_path):
    p = _xueliu_without_torch("train", "--out", str(tmp_path / "run"))
    assert p.returncode == 2
    assert p.stderr.startswith("xueliu train needs the train extra")
    assert 'pip install ".[train]"' in p.stderr
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "run").exists()


def test_xueliu_train_takes_the_arguments_of_python_m_xueliu_train(tmp_path):
    p = _xueliu_without_torch("train", "--help")
    assert p.returncode == 0
    assert p.stdout.startswith("usage: xueliu train")
    assert "--demo-hands" in p.stdout and "--install-to" in p.stdout
    p = _xueliu_without_torch("train", "--out", str(tmp_path / "run"), "--chunk", "0")
    assert (p.returncode, p.stderr.strip()) == (2, "--chunk must be at least 1")
    p = _xueliu_without_torch("train", "--out", str(tmp_path / "run"), "--hidden", "64,x")
    assert p.returncode == 2 and "xueliu train: error: argument --hidden" in p.stderr
    assert "train" in _xueliu_without_torch("--help").stdout


def test_the_learning_curve_names_the_stages_a_run_went_through_in_order():
    from xueliu.train.curve import _stage_names

    # a fine-tune from shipped weights: its first evaluation is BC's step 0, then improvement
    assert _stage_names([(0, "bc"), (189, "improve"), (378, "improve")]) == ["BC", "improvement"]
    assert _stage_names([(0, "bc"), (10, "bc"), (20, "ppo")]) == ["BC", "PPO"]
