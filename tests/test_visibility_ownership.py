"""Who sees what, who owns what, in the library (issue 48, kind 4).

- The review of a seat reports exactly that seat's wins — not a win it shared a discard with
  (一炮多响), not the wins on its discards — and the net of that seat (xueliu.review).
- A neural bot checked once for the rules its weights were trained for refuses a later hand
  under other rules: the check is not kept past a change of rules, whichever way the hand
  reaches the bot (``start_hand``, ``act_view``, ``act_batch``, ``play_hand``).

The server's side (spectators, histories) is tests/server/test_visibility_ownership.py.
"""

from __future__ import annotations

import pytest

import xueliu
from xueliu import Rules
from xueliu.bots import GreedyBot, NeuralBot, play_hand
from xueliu.bots.neural_net import UntrainedRulesError
from xueliu.review import review_json, review_record, review_text

# xueliu hands where one seat wins five times, one never, and two seats win on one discard.
HANDS = [("xueliu", 3), ("xueliu", 4), ("xuezhan", 5)]


def _settled_wins(state, seat):
    """The seat's wins as the settlement has them, in the review's words."""
    return [{"tile": w.tile, "fan": w.fan_result.fan, "source": w.source,
             "base": w.fan_result.base, "from": w.seat if w.from_seat is None else w.from_seat}
            for w in state.settlement().wins if w.seat == seat]


def test_the_review_of_a_seat_is_exactly_that_seats_wins_and_net():
    shared = none = many = 0
    for preset, seed in HANDS:
        state = play_hand(xueliu.new_game(preset, seed=seed), [GreedyBot()] * 4)
        record = state.record()
        st = state.settlement()
        shared += any(len(w.winners) > 1 for w in st.wins)
        for seat in range(4):
            review = review_record(record, seat)
            want = _settled_wins(state, seat)
            assert review.wins == want, (preset, seed, seat)
            none += not want
            many += len(want) > 1
            assert review.net == list(st.net) and review.seat == seat
            result = review_json(review)["result"]
            assert result["wins"] == want and result["seat_net"] == st.net[seat]
            assert f"seat {seat} net {st.net[seat]:+d}" in review_text(review)
    assert shared and none and many  # the corners: a shared discard, no win, several wins


TRAINED = Rules.preset("xueliu")
OTHERS = [TRAINED.replace(pig_penalty=8), Rules.preset("daodaohu"),
          TRAINED.replace(exchange_count=4), Rules.preset("xuezhan").replace(menqing=True)]


@pytest.fixture(scope="module")
def bot():
    return NeuralBot()


@pytest.mark.parametrize("other", OTHERS, ids=lambda r: repr(r)[:40])
def test_a_neural_bot_checked_once_refuses_a_later_hand_under_other_rules(bot, other):
    bot.start_hand(0, TRAINED, 1)  # checked and accepted
    for _ in range(2):  # refused, and refused again: a failed check is not a pass either
        with pytest.raises(UntrainedRulesError):
            bot.start_hand(0, other, 2)
    # Asked directly for a decision of such a hand, after an accepted check.
    state = xueliu.new_game(other, seed=3)
    seat = state.pending()[0]
    for ask in (lambda: bot.act_view(state.view(seat), state.legal_actions(seat)),
                lambda: bot.act_batch([state], [seat])):
        bot.start_hand(0, TRAINED, 1)
        with pytest.raises(UntrainedRulesError):
            ask()
    # The same object playing a hand of the trained rules, then one of the others.
    play_hand(xueliu.new_game(TRAINED, seed=4), [bot, GreedyBot(), GreedyBot(), GreedyBot()])
    with pytest.raises(UntrainedRulesError):
        play_hand(xueliu.new_game(other, seed=5), [bot, GreedyBot(), GreedyBot(), GreedyBot()])


def test_a_refusal_is_not_kept_either_equal_rules_play_again(bot):
    with pytest.raises(UntrainedRulesError):
        bot.start_hand(0, OTHERS[0], 1)
    # An equal copy of the trained rules (another object) plays: the check is by value.
    again = Rules.from_dict(TRAINED.to_dict())
    assert again == TRAINED
    state = play_hand(xueliu.new_game(again, seed=6), [bot, GreedyBot(), GreedyBot(), GreedyBot()])
    assert state.is_over
    play_hand(xueliu.new_game("xuezhan", seed=7), [bot] * 4)
