"""The bots at a 换四张 table (docs/rules.md §11.1 ``exchange_count = 4``): every built-in bot gives four
legal tiles and finishes its hands, the auto-play bot gives exactly the timeout's four, a 7-tile
hand with no suit of four gives any four, the shipped neural weights refuse the rules they were not
trained for (while the batch decision chains four picks), and a ``cmd:`` program is asked with
four-tile exchanges."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import xueliu
from xueliu.bots import AutoPlayBot, ExpertBot, ExternalBot, GreedyBot, NeuralBot, RandomBot, play_hand
from xueliu.bots.neural import decide_batch
from xueliu.bots.neural_net import UntrainedRulesError
from xueliu.rules import Rules

HUANSIZHANG = Rules.preset("xueliu").replace(exchange_count=4)
SEVEN_TILES = HUANSIZHANG.replace(hand_size=7, declare_void=False)
BOTS = [RandomBot, AutoPlayBot, GreedyBot, ExpertBot]


def _non_timeout_events(state):
    """The events with the timeout bookkeeping left out ("auto" marks a move made for a seat)."""
    return [{k: v for k, v in e.items() if k != "auto"} for e in state.events()
            if e["type"] not in ("timeout", "auto_play")]


@pytest.mark.parametrize("rules", [HUANSIZHANG, SEVEN_TILES,
                                   Rules.preset("sanren_sanfang").replace(exchange_three=True,
                                                                          exchange_count=4)],
                         ids=["13 tiles", "7 tiles", "sanren_sanfang"])
@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_every_bot_gives_four_tiles_and_finishes_huansizhang_hands(rules, bot):
    for seed in range(3):
        state = xueliu.new_game(rules, seed=seed)
        # play_hand makes the engine refuse any action that is not legal (ValueError).
        play_hand(state, [bot() for _ in rules.shape.seats])
        assert state.is_over
        ex = next(e for e in state.events() if e["type"] == "huansanzhang")
        assert all(len(g) == 4 for g in ex["given"])


def test_the_autoplay_bot_gives_exactly_the_timeout_four():
    for rules in (HUANSIZHANG, SEVEN_TILES):
        for seed in range(4):
            by_timeout = xueliu.new_game(rules, seed=seed)
            while not by_timeout.is_over:
                by_timeout.apply_timeout(by_timeout.pending()[0])
            by_bot = play_hand(xueliu.new_game(rules, seed=seed), [AutoPlayBot()] * 4)
            assert _non_timeout_events(by_bot) == _non_timeout_events(by_timeout)
            # The observation path (act) gives the same four as the view path (act_view).
            state = xueliu.new_game(rules, seed=seed)
            for s in range(4):
                legal = state.legal_actions(s)
                assert AutoPlayBot().act(state.observation(s), legal) \
                    is AutoPlayBot().act_view(state.view(s), legal)


def _seven_tile_hand_without_a_suit_of_four():
    """A 7-tile 换四张 hand and a seat in it whose hand holds no suit of four."""
    for seed in range(200):
        state = xueliu.new_game(SEVEN_TILES, seed=seed)
        for s in range(1, 4):
            hand = state.observation(s)["hand"]
            if all(sum(t[1] == u for t in hand) < 4 for u in "mps"):
                return state, s
    raise AssertionError("no such hand in 200 seeds")


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_a_bot_with_no_suit_of_four_gives_any_four_legal_tiles(bot):
    state, seat = _seven_tile_hand_without_a_suit_of_four()
    legal = state.legal_actions(seat)
    assert any(len({t[1] for t in a.tiles}) > 1 for a in legal)  # any four may go
    b = bot()
    b.start_hand(seat, state.rules, 1)
    assert b.act(state.observation(seat), legal) in legal
    assert b.act_view(state.view(seat), legal) in legal


def test_the_shipped_neural_weights_refuse_huansizhang():
    with pytest.raises(UntrainedRulesError):
        NeuralBot(rules=HUANSIZHANG)
    with pytest.raises(UntrainedRulesError):
        play_hand(xueliu.new_game(HUANSIZHANG, seed=1), [NeuralBot()] + [RandomBot()] * 3)


def test_the_neural_batch_decision_chains_four_picks_into_one_exchange():
    rounds = []

    def lowest_allowed(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        rounds.append(len(mask))
        return mask.argmax(axis=1)

    states = [xueliu.new_game(HUANSIZHANG, seed=2), xueliu.new_game("xueliu", seed=2)]
    answers = decide_batch(states, [0, 0], lowest_allowed)
    assert rounds == [2, 2, 2, 1]  # the 换三张 row is done after its third pick
    assert answers[0] is states[0].legal_actions(0)[0] and len(answers[0].tiles) == 4
    assert answers[1] is states[1].legal_actions(0)[0] and len(answers[1].tiles) == 3


LOGGING_BOT = """
import json, sys
log = open(sys.argv[1], "a")
for line in iter(sys.stdin.readline, ""):
    log.write(line)
    log.flush()
    if line.startswith('{"type":"request"'):
        sys.stdout.write(json.dumps({"id": json.loads(line)["actions"][-1]["id"]}) + "\\n")
        sys.stdout.flush()
"""


def test_a_cmd_bot_is_asked_with_four_tile_exchanges_and_its_answer_is_played(tmp_path: Path):
    program = tmp_path / "bot.py"
    program.write_text(LOGGING_BOT, encoding="utf-8")
    log = tmp_path / "lines.jsonl"
    state = xueliu.new_game(HUANSIZHANG, seed=3)
    with ExternalBot([sys.executable, str(program), str(log)], timeout=30) as bot:
        bot.start_hand(0, state.rules, 7)
        answer = bot.decide(state, 0)
        legal = state.legal_actions(0)
        assert answer is legal[-1] and len(answer.tiles) == 4
        state.step({0: answer})
        for s in (1, 2, 3):
            state.apply_timeout(s)
        bot.end_hand(state, 0)
        bot.decide(state, 0)  # the void: the exchange event goes out first
    lines = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    hello = lines[0]
    assert hello["type"] == "hello" and hello["rules"]["exchange_count"] == 4
    request = next(x for x in lines if x["type"] == "request")
    assert [a["id"] for a in request["actions"]] == [a.id for a in legal]
    assert all(a["kind"] == "exchange" and len(a["tiles"]) == 4 for a in request["actions"])
    ex = next(x for x in lines if x.get("type") == "huansanzhang")
    assert ex["given"][0] == list(answer.tiles)
    assert ex["given"][1] == ["?"] * 4 and len(ex["received"][0]) == 4
