"""``xueliu.game.redeal.redealt``: the tiles one seat cannot see dealt again (a determinization,
for measurements and search). Over random hands of both presets, at many turn decisions:

- the seat sees the same hand: its observation and its event stream are unchanged;
- only hidden tiles move: the other seats' concealed tiles and the live wall hold, kind by kind,
  what they held, each hand has its size, won (frozen) hands and void-suit counts are kept;
- the original hand is not touched, the same seed redeals alike and other seeds differ;
- all of this holds as well for ``hands="likely"`` (the prior of real hands'
  readiness, ``tests/game/test_likely_hands.py``);
- the redealt hand plays on to its end under the rules, money summing to zero;
- at a claim window the seat is asked in, the window opens again on the new hands (the seat's
  options unchanged, the others' as their new hands allow);
- anywhere but the seat's own turn decision or such a window (nobody has answered yet, no forced
  win near the end could close it) it is refused, and nothing changes;
- where the void rules leave no other deal, each seat keeps its count of every suit;
- with ``won_hands="redeal"`` the won hands are dealt again too, each still winning on every
  kind it has won on, and what is dealt no longer depends on who held which hidden tile.
"""

from __future__ import annotations

import collections
import random

import pytest

import xueliu
from xueliu.game import redeal as redeal_module
from xueliu import _core
from xueliu.game.redeal import redealt


def _hidden(state, seat):
    """The multiset of tiles ``seat`` cannot see: others' concealed tiles (of hands that are
    redealt) and the live wall."""
    c = collections.Counter(state._wall[state._front:state._back + 1])
    for o in range(state.seats):
        if o != seat and state._in_play[o] and not state._frozen[o]:
            c.update({k: n for k, n in enumerate(state._hands[o]) if n})
    return c


def _turn_points(preset, seed, every=3, win=False):
    """A random hand of ``preset``; yields the state at every ``every``-th turn decision. With
    ``win``, a seat that may win does (hands with won seats)."""
    rnd = random.Random(seed)
    st = xueliu.new_game(preset, seed=seed)
    n = 0
    while not st.is_over:
        p = st.pending()
        if st.phase == "turn" and len(p) == 1:
            n += 1
            if n % every == 0:
                yield st, p[0]
        moves = {}
        for q in p:
            legal = st.legal_actions(q)
            wins = [a for a in legal if a.kind == "hu"] if win else []
            moves[q] = wins[0] if wins else rnd.choice(legal)
        st.step(moves)


@pytest.mark.parametrize("hands", ["uniform", "likely"])
@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_a_redeal_keeps_everything_the_seat_sees_and_moves_only_hidden_tiles(preset, hands):
    checked = moved = frozen_kept = 0
    for seed in range(12):
        for st, seat in _turn_points(preset, seed):
            before = {o: st.observation(o) for o in range(st.seats)}
            events = st.events(seat)
            twin = redealt(st, seat, seed * 1000 + checked, hands=hands)
            checked += 1
            assert twin.observation(seat) == before[seat]
            assert twin.events(seat) == events
            assert twin.legal_actions(seat) == st.legal_actions(seat)
            assert _hidden(twin, seat) == _hidden(st, seat)
            for o in range(st.seats):
                assert sum(twin._hands[o]) == sum(st._hands[o])
                assert twin._void_count[o] == st._void_count[o]
                if o == seat or st._frozen[o] or not st._in_play[o]:
                    assert twin._hands[o] == st._hands[o]
                    frozen_kept += o != seat
                else:
                    moved += twin._hands[o] != st._hands[o]
                    v = st._void[o]
                    if v >= 0:
                        assert sum(twin._hands[o][9 * v:9 * v + 9]) == st._void_count[o]
            # the waits were recomputed from the new tiles:
            for o in range(st.seats):
                if o == seat:
                    continue  # 14 tiles on its turn: its waits are not kept
                w = twin._waits[o]
                twin._update_waits(o)
                assert twin._waits[o] == w
            # the original is untouched
            assert {o: st.observation(o) for o in range(st.seats)} == before
    assert checked > 100 and moved > checked  # hands really change
    if preset == "xueliu":
        assert frozen_kept > 0  # the rule for won hands was exercised


@pytest.mark.parametrize("hands", ["uniform", "likely"])
def test_the_same_seed_redeals_alike_and_other_seeds_do_not(hands):
    st, seat = next(_turn_points("xueliu", 5, every=4))
    a, b, c = (redealt(st, seat, s, hands=hands) for s in (7, 7, 8))
    hands = lambda s: [bytes(h) for h in s._hands]  # noqa: E731
    assert hands(a) == hands(b) and a._wall == b._wall
    assert hands(a) != hands(c) or a._wall != c._wall


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_a_redealt_hand_plays_to_its_end_and_its_money_sums_to_zero(preset):
    rnd = random.Random(3)
    ended = 0
    for seed in range(6):
        for st, seat in _turn_points(preset, 100 + seed, every=7):
            twin = redealt(st, seat, seed)
            while not twin.is_over:
                twin.step({q: rnd.choice(twin.legal_actions(q)) for q in twin.pending()})
            assert sum(twin.settlement().net) == 0
            ended += 1
    assert ended > 10


def test_a_redeal_anywhere_but_the_seats_own_turn_is_refused():
    st = xueliu.new_game("xueliu", seed=1)
    assert st.phase == "exchange"
    with pytest.raises(ValueError, match="own turn decision"):
        redealt(st, 0, 1)
    st, seat = next(_turn_points("xueliu", 2, every=1))
    obs = st.observation(seat)
    with pytest.raises(ValueError, match="own turn decision"):
        redealt(st, (seat + 1) % 4, 1)
    assert st.observation(seat) == obs


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_where_the_void_rules_leave_no_other_deal_each_seat_keeps_its_suits(preset, monkeypatch):
    # Late in a hand the void rules can leave almost no deal but the true one (the generator of
    # close calls met one at the experts' table); the redeal then keeps every seat's count of
    # each suit. Forced here by allowing no shuffle of the first kind.
    monkeypatch.setattr(redeal_module, "_ATTEMPTS", 0)
    checked = 0
    for seed in range(6):
        for st, seat in _turn_points(preset, 200 + seed, every=5):
            twin = redealt(st, seat, seed)
            assert twin.observation(seat) == st.observation(seat)
            assert _hidden(twin, seat) == _hidden(st, seat)
            for o in range(st.seats):
                for u in range(3):
                    assert sum(twin._hands[o][9 * u:9 * u + 9]) == sum(st._hands[o][9 * u:9 * u + 9])
                assert twin._void_count[o] == st._void_count[o]
            while not twin.is_over:
                twin.step({q: random.Random(seed).choice(twin.legal_actions(q))
                           for q in twin.pending()})
            checked += 1
    assert checked > 10


def _hidden_with_won(state, seat):
    """Every tile ``seat`` cannot see but concealed kongs: others' concealed tiles, won hands'
    too, and the live wall."""
    c = collections.Counter(state._wall[state._front:state._back + 1])
    for o in range(state.seats):
        if o != seat:
            c.update({k: n for k, n in enumerate(state._hands[o]) if n})
    return c


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_won_hands_redealt_still_win_on_every_kind_they_have_won_on(preset):
    won = changed = 0
    rnd = random.Random(4)
    for seed in range(30):
        for st, seat in _turn_points(preset, seed, every=2, win=True):
            twin = redealt(st, seat, [seed, won], won_hands="redeal")
            assert twin.observation(seat) == st.observation(seat)
            assert twin.events(seat) == st.events(seat)
            assert _hidden_with_won(twin, seat) == _hidden_with_won(st, seat)
            for o in range(st.seats):
                assert sum(twin._hands[o]) == sum(st._hands[o])
                if o == seat or not st._won[o]:
                    continue
                won += 1
                changed += twin._hands[o] != st._hands[o]
                v = st._void[o]
                assert sum(twin._hands[o][9 * v:9 * v + 9]) == 0
                waits = _core.waits(_core.Hand(bytes(twin._hands[o]), twin._core_melds[o]), v,
                                    twin._sp)
                assert all(waits >> k & 1 for s, k in st._win_tiles if s == o)
                assert twin._waits[o] == waits
            if won and seed % 3 == 0:
                while not twin.is_over:
                    twin.step({q: rnd.choice(twin.legal_actions(q)) for q in twin.pending()})
                assert sum(twin.settlement().net) == 0
    assert won > 20 and changed > won // 2  # won hands really are dealt again


def test_with_won_hands_redealt_the_deal_depends_only_on_what_the_seat_sees(monkeypatch):
    # Two hands the seat cannot tell apart — a hand and a redeal of it — redeal alike under the
    # same seed, won hands and all: the copy knows nothing of how the hidden tiles lay. (Not
    # where the void rules force the fallback, which keeps each seat's suits by design.)
    take, fallbacks = redeal_module._take, []

    def counted(order, wants, category):
        if category and category[0] is redeal_module._SUIT:
            fallbacks.append(1)
        return take(order, wants, category)

    monkeypatch.setattr(redeal_module, "_take", counted)
    hidden = lambda s, q: ([bytes(h) for o, h in enumerate(s._hands) if o != q],  # noqa: E731
                           s._wall[s._front:s._back + 1])
    compared = 0
    for seed in range(20):
        for st, seat in _turn_points("xueliu", seed, every=3, win=True):
            other = redealt(st, seat, [seed, 1], won_hands="redeal")
            del fallbacks[:]
            a = redealt(st, seat, 9, won_hands="redeal")
            b = redealt(other, seat, 9, won_hands="redeal")
            if fallbacks:
                continue
            assert hidden(a, seat) == hidden(b, seat)
            compared += 1
    assert compared > 100


def test_an_unknown_won_hands_mode_is_refused():
    st, seat = next(_turn_points("xueliu", 2, every=1))
    with pytest.raises(ValueError, match="won_hands"):
        redealt(st, seat, 1, won_hands="guess")


def test_an_unknown_hands_mode_is_refused():
    st, seat = next(_turn_points("xueliu", 2, every=1))
    with pytest.raises(ValueError, match="hands must be"):
        redealt(st, seat, 1, hands="guess")


def _claim_points(preset, seed):
    """A random hand of ``preset``; yields ``(state, seat)`` at every claim window, for each seat
    asked in it, before anyone answers (a seat that may win does), except in the last
    ``forced_win_last_n`` tiles (where a redeal is refused)."""
    rnd = random.Random(seed)
    st = xueliu.new_game(preset, seed=seed)
    while not st.is_over:
        p = st.pending()
        if st.phase == "claim" and st.wall_remaining >= st.rules.forced_win_last_n:
            for q in p:
                yield st, q
        moves = {}
        for q in p:
            legal = st.legal_actions(q)
            wins = [a for a in legal if a.kind == "hu"]
            moves[q] = wins[0] if wins else rnd.choice(legal)
        st.step(moves)


@pytest.mark.parametrize("hands", ["uniform", "likely"])
@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_a_redeal_at_a_claim_reopens_the_window_on_the_new_hands(preset, hands):
    checked = asked_otherwise = 0
    rnd = random.Random(11)
    for seed in range(80):
        for st, seat in _claim_points(preset, 200 + seed):
            obs, events, legal = st.observation(seat), st.events(seat), st.legal_actions(seat)
            others = {o: st.legal_actions(o) for o in st.pending()}
            twin = redealt(st, seat, [seed, checked], hands=hands)
            checked += 1
            assert twin.phase == "claim" and seat in twin.pending()
            assert twin.observation(seat) == obs and twin.events(seat) == events
            assert twin.legal_actions(seat) == legal
            assert _hidden(twin, seat) == _hidden(st, seat)
            # every other seat is asked as its new hand allows: a peng needs two of the tile,
            # a win needs the tile among its waits
            tile = st._c_tile
            for o in range(st.seats):
                if o != seat:
                    kinds = {a.kind for a in twin.legal_actions(o)}
                    assert ("peng" in kinds) <= (twin._hands[o][tile] >= 2)
                    assert ("hu" in kinds) <= bool((twin._waits[o] >> tile) & 1)
            asked_otherwise += {o: twin.legal_actions(o) for o in twin.pending()} != others
            # the original is untouched
            assert st.observation(seat) == obs
            assert {o: st.legal_actions(o) for o in st.pending()} == others
            if checked % 5 == 0:  # and the copy plays on to its end
                while not twin.is_over:
                    twin.step({q: rnd.choice(twin.legal_actions(q)) for q in twin.pending()})
                assert sum(twin.settlement().net) == 0
    assert checked > 300
    if preset == "xueliu":  # (rare: the seat's own options stay, and the tiles it may claim
        assert asked_otherwise > 0  # are mostly the last hidden copies)


def test_a_redeal_in_a_claim_window_someone_has_answered_is_refused():
    from xueliu.bots import make_bot, start_hand_for
    rules = xueliu.Rules.preset("xueliu")
    for seed in range(200):  # greedy players get ready: a window asking two seats comes soon
        st = xueliu.new_game(rules, seed=seed)
        bots = [make_bot("greedy", seed=q, rules=rules) for q in range(4)]
        for q, b in enumerate(bots):
            start_hand_for(b, q, rules, q)
        while not st.is_over and not (st.phase == "claim" and len(st.pending()) > 1):
            st.step({q: bots[q].act_view(st.view(q), st.legal_actions(q)) for q in st.pending()})
        if not st.is_over:
            break
    else:
        raise AssertionError("no claim window asked two seats")
    seat, other = st.pending()[:2]
    assert redealt(st, seat, 1).phase == "claim"
    st.step({other: st.legal_actions(other)[-1]})  # it passes; the window still waits for seat
    assert st.pending() == [seat]
    obs = st.observation(seat)
    with pytest.raises(ValueError, match="nobody has answered"):
        redealt(st, seat, 1)
    assert st.observation(seat) == obs


def test_a_claim_redeal_where_a_forced_win_could_close_the_window_is_refused():
    for seed in range(300, 400):
        st = xueliu.new_game("xuezhan", seed=seed)  # forced_win_last_n = 4
        rnd = random.Random(seed)
        while not st.is_over:
            if st.phase == "claim" and st.wall_remaining < st.rules.forced_win_last_n:
                with pytest.raises(ValueError, match="forced_win_last_n"):
                    redealt(st, st.pending()[0], 1)
                return
            st.step({q: rnd.choice(st.legal_actions(q)) for q in st.pending()})
    raise AssertionError("no claim window in the last tiles")
