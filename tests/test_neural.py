"""NeuralBot: the shipped weights load and play legal hands of both trained presets, the numpy
inference equals PyTorch's on the same weights, other rules are refused, the three ways in decide
alike, and no decision depends on a tile the seat cannot see."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

import xueliu
from xueliu.bots import GreedyBot, NeuralBot, make_bot, play_hand
from xueliu.bots.neural_net import (DEFAULT_WEIGHTS, ENCODERS, INPUT_SIZE, UntrainedRulesError,
                                    load_network, save_network)
from hidden_twins import same_view_states, twin_hands
from near_ties import bot_near_ties
from xueliu.bots.neural import decide_batch
from xueliu.learn.actions import NUM_ACTIONS

REFERENCE = os.path.join(os.path.dirname(__file__), "data", "neural_v1_reference.npz")


@pytest.fixture(params=["xueliu", "xuezhan"])
def preset(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_shipped_weights_are_small_and_trained_for_both_presets():
    assert os.path.getsize(DEFAULT_WEIGHTS) < 4 * 2 ** 20
    net = load_network()
    assert set(net.presets) == {"xueliu", "xuezhan"}
    for name, rules in net.presets.items():
        assert xueliu.Rules.from_dict(rules) == xueliu.Rules.preset(name)
    assert net.encoder == "obs_v3"
    assert net.meta["sizes"][0] == ENCODERS["obs_v3"] and net.meta["sizes"][-1] == NUM_ACTIONS


def test_numpy_inference_equals_the_torch_logits_recorded_at_export():
    """tests/data/neural_v1_reference.npz holds inputs and the logits PyTorch computed for them
    when the shipped weights were exported (xueliu.train.torch_model.export): the numpy forward
    pass on the shipped file must give the same logits."""
    with np.load(REFERENCE) as z:
        x = np.unpackbits(z["x"], axis=1, count=INPUT_SIZE).astype(np.float32)
        expected = z["logits"]
    assert len(x) >= 32 and expected.shape == (len(x), NUM_ACTIONS)
    got = load_network().forward(x)
    # the export's own tolerance (xueliu.train.torch_model.logit_tolerance): the two sum the first
    # layer in different orders, so float32 rounding grows with the size of the logits
    assert np.abs(got - expected).max() <= 1e-4 * max(1.0, float(np.abs(expected).max()))


def test_no_torch_is_needed_to_play():
    code = ("import sys, xueliu\nfrom xueliu.bots import NeuralBot, play_hand\n"
            "play_hand(xueliu.new_game('xueliu', seed=1), [NeuralBot()] * 4)\n"
            "assert 'torch' not in sys.modules and 'matplotlib' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_neural_bots_play_legal_hands_of_both_presets(preset):
    for g in range(6):
        state = play_hand(xueliu.new_game(preset, seed=40 + g, dealer=g % 4),
                          [NeuralBot(), GreedyBot(), NeuralBot(), NeuralBot()] if g % 2
                          else [NeuralBot()] * 4)
        assert state.is_over  # an illegal answer would have made step raise
        assert sum(state.settlement().net) == 0


def test_simulate_plays_the_neural_bot_by_name(preset):
    from xueliu.simulate import simulate

    summary = simulate(8, bots=("neural", "greedy", "greedy", "greedy"), rules=preset, seed=3,
                       duplicate=True)
    assert summary is not None


def test_a_weights_file_is_a_bot_spec_of_its_own(tmp_path, capsys):
    """``neural:PATH`` plays the weights file at PATH (what ``xueliu train`` writes) wherever a
    bot spec goes — here the arena, which names the bot as given; a missing or broken file is a
    clear error before any hand is played."""
    import json

    from xueliu.cli import main

    path = tmp_path / "mine.npz"
    path.write_bytes(open(DEFAULT_WEIGHTS, "rb").read())
    spec = f"neural:{path}"
    bot = make_bot(spec, rules=xueliu.Rules.preset("xueliu"))
    assert isinstance(bot, NeuralBot)
    out = tmp_path / "arena.json"
    assert main(["arena", "--bots", f"neural,{spec}", "--games", "2", "--preset", "xueliu",
                 "--seed", "5", "--json", str(out)]) == 0
    rows = {r["bot"]: r for r in json.loads(out.read_text())["bots"]}
    # the same weights in the same seats of the same walls: the same results
    assert rows[spec]["mean"] == rows["neural"]["mean"]
    capsys.readouterr()
    for bad, message in ((f"neural:{tmp_path / 'missing.npz'}", "cannot read the weights file"),
                         ("neural:", "name a weights file")):
        with pytest.raises(ValueError, match=message):
            make_bot(bad)
        assert main(["arena", "--bots", bad, "--games", "2", "--preset", "xueliu"]) != 0
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("change", [{"pig_penalty": 8}, {"mode": "xuezhan"},
                                    {"seven_pairs": False}])
def test_rules_the_weights_were_not_trained_for_are_refused(change):
    rules = xueliu.Rules.preset("xueliu").replace(**change)
    with pytest.raises(UntrainedRulesError, match="trained for the presets xueliu, xuezhan"):
        NeuralBot(rules=rules)
    with pytest.raises(UntrainedRulesError):
        make_bot("neural", rules=rules)
    bot = NeuralBot()
    with pytest.raises(UntrainedRulesError, match=sorted(change)[0]):
        bot.start_hand(0, rules, 1)
    state = xueliu.new_game(rules, seed=1)
    with pytest.raises(UntrainedRulesError):
        bot.act_batch([state], [0])
    with pytest.raises(UntrainedRulesError):
        play_hand(state, [NeuralBot()] * 4)


@pytest.mark.parametrize("wild_preset", xueliu.rules.WILD_PRESET_NAMES)
def test_rules_with_wild_tiles_are_refused_with_their_own_message(wild_preset):
    # obs_v1 cannot show a wild (no 红中 kind, no wild channels): every way in refuses the rules,
    # saying so, rather than naming the knobs that differ from a trained preset
    rules = xueliu.Rules.preset(wild_preset)
    message = "does not play wild tiles"
    with pytest.raises(UntrainedRulesError, match=message):
        NeuralBot(rules=rules)
    with pytest.raises(UntrainedRulesError, match=message):
        make_bot("neural", rules=rules)
    bot = NeuralBot()
    with pytest.raises(UntrainedRulesError, match=message):
        bot.check_rules(rules)
    with pytest.raises(UntrainedRulesError, match=message):
        bot.start_hand(0, rules, 1)
    state = xueliu.new_game(rules, seed=1)
    with pytest.raises(UntrainedRulesError, match=message):
        bot.act_batch([state], [0])
    with pytest.raises(UntrainedRulesError, match=message):
        play_hand(state, [NeuralBot(), GreedyBot(), GreedyBot(), GreedyBot()])
    seat = state.pending()[0]
    with pytest.raises(UntrainedRulesError, match=message):  # a JSON observation alone
        NeuralBot().act(state.observation(seat), state.legal_actions(seat))


def test_simulate_refuses_wild_tiles_for_the_neural_bot():
    from xueliu.simulate import simulate

    with pytest.raises(UntrainedRulesError, match="does not play wild tiles"):
        simulate(4, bots=("neural", "greedy", "greedy", "greedy"), rules="yaoji", seed=1)


def test_simulate_refuses_untrained_rules_with_a_clear_error():
    from xueliu.simulate import simulate

    rules = xueliu.Rules.preset("xuezhan").replace(pig_penalty=8)
    with pytest.raises(UntrainedRulesError, match="nearest: 'xuezhan'.*pig_penalty"):
        simulate(4, bots=("neural", "greedy", "greedy", "greedy"), rules=rules, seed=1)


def test_a_broken_weights_file_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    with np.load(DEFAULT_WEIGHTS) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["w0"] = arrays["w0"][:100]
    np.savez(bad, **arrays)
    with pytest.raises(ValueError, match="not a neural bot weights file"):
        NeuralBot(weights=str(bad))
    with pytest.raises(FileNotFoundError):
        NeuralBot(weights=str(tmp_path / "missing.npz"))


def test_a_half_precision_weights_file_plays_its_rounded_weights(tmp_path):
    # save_network(half=True) (xueliu train --half): the matrices stored as float16 take half
    # the file and are read back as float32 — the network played is the one rounded to half
    net = load_network()
    presets = {name: xueliu.Rules.from_dict(d) for name, d in net.presets.items()}
    paths = {h: str(tmp_path / f"{h}.npz") for h in ("single", "half")}
    for h, path in paths.items():
        save_network(path, list(net.layers), presets, {"note": "test"}, encoder=net.encoder,
                     half=h == "half")
    assert os.path.getsize(paths["half"]) < 0.6 * os.path.getsize(paths["single"])
    with np.load(paths["half"]) as z:
        assert z["w0"].dtype == np.float16 and z["b0"].dtype == np.float32
    half = load_network(paths["half"])
    rounded = [(w.astype(np.float16).astype(np.float32), b) for w, b in net.layers]
    assert all(h.dtype == np.float32 and np.array_equal(h, r)
               for (h, _), (r, _) in zip(half.layers, rounded))
    save_network(paths["single"], rounded, presets, {"note": "test"}, encoder=net.encoder)
    with np.load(REFERENCE) as z:
        x = np.unpackbits(z["x"], axis=1, count=INPUT_SIZE).astype(np.float32)
    # exactly: the two files hold the same float32 weights, read into the same shapes and
    # multiplied by the same code: one computation
    assert np.array_equal(half.forward(x), load_network(paths["single"]).forward(x))
    state = xueliu.new_game("xueliu", seed=3)
    assert NeuralBot(weights=paths["half"]).act_view(state.view(0), state.legal_actions(0)) in \
        state.legal_actions(0)


def _alike_or_a_near_tie(bot: NeuralBot, state, seat: int, got, want) -> bool:
    """``got`` (the seat's decision in a batch) is ``want`` (its decision alone), or one of the
    decision's rounds is a near tie (tests/near_ties.py): a batch's products differ from a lone
    row's in their last bits, which may break a tie the other way, and nothing else may."""
    if got == want:
        return True
    rounds: list = []
    decide_batch([state], [seat], bot.choose, record=rounds)
    return any(bot_near_ties(bot, x, mask)[0] for _, x, mask, _ in rounds)


def test_act_act_view_and_act_batch_decide_alike(preset):
    """Six hands in lockstep (random moves): at every step, one act_batch over every pending seat
    of every hand answers what act_view and act answer seat by seat (act_view and act to the bit:
    the same row alone; act_batch unless the decision is a near tie)."""
    bot = NeuralBot(rules=xueliu.Rules.preset(preset))
    rng = random.Random(preset)
    states = [xueliu.new_game(preset, seed=900 + g, dealer=g % 4) for g in range(6)]
    seen = 0
    while not all(s.is_over for s in states):
        live = [s for s in states if not s.is_over]
        batch = [(s, q) for s in live for q in s.pending()]
        singles = []
        for s, q in batch:
            legal = s.legal_actions(q)
            by_view = bot.act_view(s.view(q), legal)
            assert by_view in legal
            assert bot.act(s.observation(q), legal) == by_view
            singles.append(by_view)
        batched = bot.act_batch([s for s, _ in batch], [q for _, q in batch])
        assert all(_alike_or_a_near_tie(bot, s, q, got, want)
                   for (s, q), got, want in zip(batch, batched, singles))
        seen += len(batch)
        for s in live:
            s.step({q: rng.choice(s.legal_actions(q)) for q in s.pending()})
    assert seen > 300


@pytest.mark.parametrize("variant", ["live_wall", "other_hands"])
def test_the_decision_does_not_depend_on_tiles_the_seat_cannot_see(preset, variant):
    """As obs_v1's hidden-information test (tests/learn/test_encoders.py): two hands that differ
    only in hidden tiles, played with the same decisions; wherever the seat's observation is the
    same, so is the neural bot's decision, by every way in — while the hidden tiles differ."""
    rng = random.Random(11)
    bot = NeuralBot()
    compared = 0
    for a, b, seat in twin_hands(preset, variant, 16, rng):
        bot.start_hand(seat, a.rules, 1)
        for _ in same_view_states(a, b, seat, rng):
            if seat not in a.pending():
                continue
            legal = a.legal_actions(seat)
            assert legal == b.legal_actions(seat)
            da = bot.act_view(a.view(seat), legal)
            assert bot.act_view(b.view(seat), legal) == da
            assert all(_alike_or_a_near_tie(bot, b, seat, got, da)
                       for got in bot.act_batch([a, b], [seat, seat]))
            assert bot.act(b.observation(seat), legal) == da
            compared += 1
    assert compared > 40


def test_the_docstring_example_runs():
    import doctest

    import xueliu.bots.neural

    result = doctest.testmod(xueliu.bots.neural)
    assert result.failed == 0 and result.attempted > 0
