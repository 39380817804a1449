"""The server's small parts on their own, where a whole table never reaches a corner: who deals
next under each ``next_dealer`` knob, the settings a process refuses, the shape check of tokens
and the one message a client may send."""

from __future__ import annotations

import pytest

import xueliu
from xueliu.bots import GreedyBot, play_hand
from xueliu.rules import Rules
from xueliu.server import ServerConfig
from xueliu.server.auth import bearer, new_token, plausible, token_hash
from xueliu.server.dealer import next_dealer
from xueliu.server.protocol import Act, BadMessage, parse


def _hands(rules: Rules, n: int, seed: int = 0):
    for g in range(n):
        state = xueliu.new_game(rules, seed=seed + g, dealer=g % 4)
        yield play_hand(state, [GreedyBot(rules=rules) for _ in range(4)])


@pytest.mark.parametrize("knob", ["rotate", "first_winner"])
def test_the_server_picks_the_next_dealer_as_a_match_does(knob):
    """docs/rules.md §8 "Matches": the server's dealer for the next hand is the engine's Match rule —
    rotate: the next seat; first_winner: the first winner, the discarder after a first win by
    several seats, the same dealer when nobody won."""
    rules = Rules.preset("xuezhan").replace(next_dealer=knob)
    cases = set()
    for state in _hands(rules, 80):
        st = state.settlement()
        match = xueliu.Match(rules, seed=0)
        expected = match._next_dealer(state, st, 0)
        assert next_dealer(rules, state.dealer, st) == expected
        cases.add("none" if not st.wins else "multi" if len(st.wins[0].winners) > 1 else "one")
    if knob == "first_winner":
        assert {"one", "multi"} <= cases, cases  # the corners were reached


def test_dice_for_the_next_dealer_are_the_servers_own_roll():
    rules = Rules.preset("xueliu").replace(next_dealer="dice")
    state = next(_hands(rules, 1))
    rolled = {next_dealer(rules, state.dealer, state.settlement()) for _ in range(400)}
    assert rolled == {0, 1, 2, 3}  # two dice, 2..12 counted round from the dealer


@pytest.mark.parametrize("bad, needle", [
    ({"time_scale": 0}, "time_scale"), ({"time_scale": -1.0}, "time_scale"),
    ({"starting_coins": -1}, "starting_coins"), ({"reconnect_window": -5.0}, "reconnect_window"),
    ({"lease": 0}, "lease"), ({"port": 70000}, "port"), ({"port": -1}, "port")])
def test_a_server_config_refuses_impossible_settings(bad, needle):
    with pytest.raises(ValueError, match=needle):
        ServerConfig(**bad)


def test_time_scale_multiplies_every_timer_but_the_lease():
    cfg = ServerConfig(time_scale=0.5, reconnect_window=90.0, lease=10.0)
    assert cfg.decision_time("exchange") == 7.5 and cfg.decision_time("turn") == 5.0
    assert cfg.decision_time("void") == cfg.decision_time("multiplier") == 7.5
    assert cfg.decision_time("claim") == 5.0
    assert cfg.window == 45.0 and cfg.scaled(cfg.bot_delay) == 0.5
    assert cfg.lease == 10.0
    assert ServerConfig(reconnect_window=None).window is None  # never escapes


def test_tokens_are_url_safe_256_bit_and_only_plausible_ones_are_looked_up():
    token = new_token()
    assert len(token) == 43 and plausible(token)  # 32 bytes, base64url without padding
    assert len(token_hash(token)) == 64 and token_hash(token) != token
    for bad in (None, "", "a" * 129, "abc def", "abc'--", "ünï", "a/b", "a=b"):
        assert not plausible(bad), bad
    assert bearer({"authorization": f"Bearer {token}"}) == token
    assert bearer({"authorization": f"bearer  {token} "}) == token  # scheme case, spaces
    for header in ({}, {"authorization": f"Basic {token}"}, {"authorization": "Bearer"},
                   {"authorization": "Bearer a b"}):
        assert bearer(header) is None, header


def test_a_client_sends_one_message_act_with_three_integers():
    assert parse('{"type": "act", "table": 1, "seq": 2, "action": 3, "extra": "ignored"}') == \
        Act(1, 2, 3)
    for text in ('{"type": "act", "table": 1, "seq": 2, "action": true}',
                 '{"type": "act", "table": 1, "seq": 2, "action": false}',
                 '{"type": "act", "table": 1, "seq": 2.0, "action": 3}',
                 '{"type": "act", "table": 1, "seq": 2, "action": 9007199254740992}',
                 '{"type": "ACT", "table": 1, "seq": 2, "action": 3}'):
        with pytest.raises(BadMessage):
            parse(text)
