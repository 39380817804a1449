"""Quick engine checks: random games of both presets and random knob combinations run to the end
with the invariants of issue 3 holding after every step, replay reproduces them, and bad input is
a clear error that leaves the state unchanged. Scenario tests per rule live in tests/game/."""

from __future__ import annotations

import collections
import json
import random

import pytest

import xueliu
from xueliu import Action, Rules

ALL_KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)]


def random_rules(rng: random.Random) -> Rules:
    base = Rules.preset(rng.choice(["xueliu", "xuezhan"]))
    knobs = dict(
        exchange_three=rng.random() < 0.7,
        exchange_direction=rng.choice(["dice", "random", "next", "opposite", "previous"]),
        exchange_same_suit=rng.random() < 0.8,
        declare_void=rng.random() < 0.8,
        player_multipliers=rng.choice([None, {"allowed": (2, 4, 8), "default": 8},
                                       {"allowed": (1, 2), "default": 1}]),
        kong_draw_from=rng.choice(["front", "back"]),
        pass_blocks_discard_win=rng.choice(["off", "not_higher", "any"]),
        forced_win_last_n=rng.choice([0, 0, 4, 10]),
        multiple_winners=rng.random() < 0.8,
        post_win_kongs=frozenset(rng.sample(["concealed", "direct", "added"], rng.randint(0, 3))),
        seven_pairs=rng.random() < 0.8,
        jingoudiao=rng.random() < 0.5,
        heavenly_earthly=rng.random() < 0.5,
        haidi=rng.random() < 0.5,
        self_draw_bonus=rng.choice(["base", "fan", "none"]),
        menqing=rng.random() < 0.3,
        gen_counts=rng.choice(["all_fours", "kongs_only", "none"]),
        duanyaojiu=rng.random() < 0.3,
        yitiaolong=rng.random() < 0.3,
        jiaxinwu=rng.random() < 0.3,
        haidipao=rng.random() < 0.3,
        max_fan=rng.choice([None, None, 4, 6]),
        direct_kong_others=rng.choice([0, 1, 2]),
        kong_settle=rng.choice(["immediate", "on_win"]),
        call_transfer=rng.random() < 0.8,
        pig_payees=rng.choice(["all_non_pig", "unwon_non_pig"]),
        ready_check_payees=rng.choice(["unwon", "all"]),
        dead_waits_ready=rng.random() < 0.7,
        refund_kongs=rng.random() < 0.8,
        dian_gang_hua=rng.choice(["self_draw", "discarder"]),
        room=rng.choice([1, 1, 2]),
        service_fee=rng.choice([0, 0, 3]),
    )
    return base.replace(**knobs)


def census(state) -> collections.Counter:
    """Every physical tile, from the omniscient observation."""
    obs = state.observation(None)
    c = collections.Counter()
    for hand in obs["hands"]:
        c.update(hand)
    for melds in obs["melds"]:
        for m in melds:
            c[m["tile"]] += 3 if m["type"] == "peng" else 4
    for river in obs["discards"]:
        c.update(river)
    c.update(obs["set_aside"])
    c.update(obs["wall"])
    if obs["claim"] is not None and obs["claim"]["kind"] == "rob":
        c[obs["claim"]["tile"]] += 1  # an added kong's tile while it may be robbed
    return c


def check_views(state) -> None:
    """No seat's observation or event stream shows what that seat may not see."""
    full = state.events()
    for seat in range(4):
        obs = state.observation(seat)
        json.dumps(obs)
        assert obs["hand"] == state.observation(None)["hands"][seat]
        for other, melds in enumerate(obs["melds"]):
            for m in melds:
                if m["type"] == "concealed_kong" and other != seat:
                    assert m["tile"] == "?"
        view = state.events(seat)
        json.dumps(view)
        assert len(view) == len(full)
        for mine, ev in zip(view, full):
            t = ev["type"]
            if t == "tsumo":
                assert mine["pai"] == (ev["pai"] if ev["actor"] == seat else "?")
            elif t == "ankan" and ev["actor"] != seat:
                assert mine["consumed"] == ["?"] * 4
            elif t == "start_hand":
                for other in range(4):
                    if other != seat:
                        assert set(mine["tehais"][other]) == {"?"}
            elif t == "huansanzhang":
                for other in range(4):
                    if other != seat:
                        assert mine["given"][other] == ["?"] * 3
                        assert mine["received"][other] == ["?"] * 3
            elif t == "hora" and ev["actor"] != seat:
                assert "hand" not in mine
            else:
                assert mine == ev


def play_random(rules, seed: int, rng: random.Random, *, coins=None, check_every_step=True,
                escape_at=None, timeouts=0.0):
    state = xueliu.new_game(rules, seed=seed, coins=coins, dealer=seed % 4)
    steps = 0
    while not state.is_over:
        pending = state.pending()
        assert pending, "a state that is not over has a pending seat"
        if escape_at is not None and steps == escape_at:
            state.escape(rng.randrange(4))
            steps += 1
            continue
        choice = {}
        for s in pending:
            legal = state.legal_actions(s)
            assert legal, f"pending seat {s} has no legal action"
            assert len(set(a.id for a in legal)) == len(legal), "equal actions appear once"
            hu = [a for a in legal if a.kind == "hu"]
            choice[s] = hu[0] if hu and rng.random() < 0.9 else rng.choice(legal)
        if timeouts and rng.random() < timeouts:
            state.apply_timeout(pending[0])
        else:
            # answer a random subset first, as a server collecting answers would
            if len(choice) > 1 and rng.random() < 0.5:
                first = rng.choice(sorted(choice))
                state.step({first: choice.pop(first)})
                choice = {s: a for s, a in choice.items() if s in state.pending()}
            if choice:
                state.step(choice)
        steps += 1
        if check_every_step:
            c = census(state)
            assert c == collections.Counter({t: 4 for t in ALL_KINDS}), c
        assert steps < 2000
    return state


def check_settlement(state, coins=None) -> None:
    s = state.settlement()
    assert s.final
    house = 0
    for t in s.transfers:
        assert t.amount > 0
        assert t.reason in ("hu", "gang", "hujiaozhuanyi", "huazhu", "chadajiao", "tuishui",
                            "fee", "escape")
        assert t.payer != t.payee
        if t.payee is None:
            assert t.reason in ("fee", "escape")
            house += t.amount
        assert t.payer is not None
    assert sum(s.net) == -house, "transfers between seats sum to zero"
    if coins is not None:
        assert all(c >= 0 for c in s.coins)
        assert [c + n for c, n in zip(coins, s.net)] == s.coins
    for w in s.wins:
        assert w.fan_result.fan >= 1
    text = s.report()
    assert "Detailed settlement" in text and "Personal settlement" in text


def check_replay(state) -> None:
    rec = json.loads(json.dumps(state.record()))
    again = xueliu.replay(rec)
    assert again.events() == state.events()
    assert again.settlement().transfers == state.settlement().transfers


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_random_games_of_each_preset_keep_the_invariants(preset):
    rng = random.Random(preset)
    for seed in range(40):
        state = play_random(preset, seed, rng)
        check_settlement(state)
        check_views(state)
        check_replay(state)


def test_random_knob_combinations_keep_the_invariants():
    rng = random.Random(11)
    for seed in range(120):
        rules = random_rules(rng)
        coins = [rng.randrange(0, 200) for _ in range(4)] if rng.random() < 0.5 else None
        if coins is not None and rng.random() < 0.3:
            rules = rules.replace(base="auto")
        state = play_random(rules, seed, rng, coins=coins, check_every_step=seed % 3 == 0,
                            escape_at=rng.choice([None, None, 5, 40]),
                            timeouts=rng.choice([0.0, 0.0, 0.2]))
        check_settlement(state, coins)
        check_views(state)
        check_replay(state)


def test_many_quick_games_end_and_balance():
    rng = random.Random(3)
    for seed in range(300):
        rules = random_rules(rng) if seed % 2 else Rules.preset("xueliu")
        state = play_random(rules, seed, rng, check_every_step=False)
        check_settlement(state)



def _scribble(value) -> None:
    """Changes every list and dict inside an observation in place."""
    if isinstance(value, list):
        for v in value:
            _scribble(v)
        value.append("scribbled")
    elif isinstance(value, dict):
        for v in list(value.values()):
            _scribble(v)
        value["scribbled"] = True


def test_observations_are_the_same_as_a_fresh_replays_and_owned_by_the_caller():
    # Observations are built from pieces kept between steps; they must equal the views of a
    # state replayed from scratch, and changing one must not leak into the next.
    rng = random.Random(21)
    for seed in range(12):
        rules = random_rules(rng) if seed % 2 else Rules.preset(("xueliu", "xuezhan")[seed % 4 // 2])
        state = xueliu.new_game(rules, seed=seed, dealer=seed % 4)
        steps = 0
        while not state.is_over:
            if steps % 7 == 3:
                again = xueliu.replay(state.record())
                for seat in (0, 1, 2, 3, None):
                    assert state.observation(seat) == again.observation(seat)
            seat = state.pending()[0]
            before = state.observation(seat)
            _scribble(state.observation(seat))
            assert state.observation(seat) == before
            legal = state.legal_actions(seat)
            hu = [a for a in legal if a.kind == "hu"]
            state.step({seat: hu[0] if hu else rng.choice(legal)})
            steps += 1
        again = xueliu.replay(state.record())
        for seat in (0, 1, 2, 3, None):
            assert state.observation(seat) == again.observation(seat)

def test_same_seed_same_game():
    a = play_random("xueliu", 5, random.Random(1))
    b = play_random("xueliu", 5, random.Random(1))
    assert a.events() == b.events()
    assert xueliu.new_game(seed=9).wall == xueliu.new_game(seed=9).wall
    assert xueliu.new_game(seed=9).wall != xueliu.new_game(seed=10).wall


def test_deal_follows_the_wall_indices():
    wall = [t for t in ALL_KINDS for _ in range(4)]
    state = xueliu.new_game(Rules.preset("xueliu").replace(exchange_three=False), wall=wall,
                            dealer=2)
    hands = state.observation(None)["hands"]
    idx = {s: [] for s in range(4)}
    for take in range(12):
        idx[(2 + take) % 4].extend(range(4 * take, 4 * take + 4))
    idx[2] += [48, 49]
    idx[3].append(50)
    idx[0].append(51)
    idx[1].append(52)
    for s in range(4):
        assert hands[s] == sorted((wall[i] for i in idx[s]), key=ALL_KINDS.index)
    assert state.observation(None)["wall"][0] == wall[53]


def test_illegal_actions_and_wrong_seats_raise_and_change_nothing():
    state = xueliu.new_game("xueliu", seed=1)
    before = (state.events(), state.pending(), state.observation(None))
    with pytest.raises(ValueError):
        state.step({0: Action("discard", "5m")})  # an exchange is due
    with pytest.raises(ValueError):
        state.step({4: state.legal_actions(0)[0]})
    with pytest.raises(ValueError):
        # seat 0 legal but seat 1 illegal: nothing is applied
        state.step({0: state.legal_actions(0)[0], 1: Action("void", suit="m")})
    with pytest.raises(TypeError):
        state.step([0, 1])
    with pytest.raises(ValueError):
        state.step({})
    assert (state.events(), state.pending(), state.observation(None)) == before
    state.step({0: state.legal_actions(0)[0]})
    with pytest.raises(ValueError):
        state.step({0: state.legal_actions(1)[0]})  # seat 0 has answered: no longer pending
    assert state.pending() == [1, 2, 3]


def test_bad_setup_is_a_clear_error():
    with pytest.raises(ValueError, match="108"):
        xueliu.new_game(wall=["1m"] * 4)
    with pytest.raises(ValueError, match="four of each"):
        xueliu.new_game(wall=["1m"] * 108)
    with pytest.raises(ValueError, match="preset"):
        xueliu.new_game("riichi")
    with pytest.raises(ValueError):
        xueliu.new_game(dealer=4)
    with pytest.raises(ValueError, match="auto"):
        xueliu.new_game(Rules.preset("xueliu").replace(base="auto"))


def test_corrupt_records_are_rejected():
    state = play_random("xuezhan", 2, random.Random(2))
    rec = state.record()
    for broken in (
        {**rec, "format": "other"},
        {**rec, "version": 99},
        {**rec, "decisions": rec["decisions"][:-1] + [[0, 99999]]},
        {**rec, "decisions": [[7, 140]] + rec["decisions"]},
        {**rec, "seed": rec["seed"] + 1},
        {**rec, "rules": {**rec["rules"], "mode": "nope"}},
        {k: v for k, v in rec.items() if k != "decisions"},
        "not a record",
    ):
        with pytest.raises(ValueError):
            xueliu.replay(broken)


def test_action_ids_are_stable_and_round_trip():
    assert Action("discard", "1m").id == 0
    assert Action("peng", "5m").id == 27 + 4
    assert Action("hu").id == 135 and Action("pass").id == 136
    assert Action("void", suit="s").id == 139
    assert Action("exchange", tiles=("1m", "1m", "1m")).id == 140
    for i in list(range(0, 140)) + [140, 1000, 3793, 3794, 3801]:
        assert Action.from_id(i).id == i
    assert Action("exchange", tiles=["3p", "1p", "2p"]).tiles == ("1p", "2p", "3p")
    assert Action("multiplier", value=8) == Action.from_id(3794 + 7)
    with pytest.raises(ValueError):
        Action("chow", "1m")
    with pytest.raises(ValueError):
        Action("discard", "0m")


def test_timeouts_twice_switch_to_auto_play_and_the_hand_finishes():
    state = xueliu.new_game("xueliu", seed=4)
    state.apply_timeout(0)
    state.step({s: state.legal_actions(s)[0] for s in state.pending()})
    # void phase: seat 0 times out again -> auto-play from now on
    state.apply_timeout(0)
    assert state.auto_play[0]
    assert 0 not in state.pending()
    play_random(state.rules, 0, random.Random(0))  # unrelated game, just keeps both paths warm
    while not state.is_over:
        assert 0 not in state.pending()
        state.step({s: state.legal_actions(s)[-1] for s in state.pending()})
    check_settlement(state)


def test_escape_pays_the_house_and_auto_plays():
    state = xueliu.new_game("xuezhan", seed=8, coins=[1000] * 4)
    state.escape(2)
    assert state.settlement().transfers[0][:4] == (2, None, 32 * 8, "escape")
    while not state.is_over:
        assert 2 not in state.pending()
        state.step({s: state.legal_actions(s)[0] for s in state.pending()})
    check_settlement(state, [1000] * 4)
    check_replay(state)


def test_match_carries_coins_and_derives_hand_seeds():
    m = xueliu.Match("xuezhan", seed=3, coins=[500] * 4)
    rng = random.Random(0)
    m.play(lambda st, s: rng.choice(st.legal_actions(s)), hands=4)
    assert len(m.hands) == 4
    assert m.coins == [500 + t for t in m.totals]
    assert m.hands[1].seed == m.hand_seed(1) != m.hand_seed(2)
    m2 = xueliu.Match("xuezhan", seed=3, coins=[500] * 4)
    rng = random.Random(0)
    m2.play(lambda st, s: rng.choice(st.legal_actions(s)), hands=4)
    assert m2.totals == m.totals and m2.dealer == m.dealer


# ---------------------------------------------------------------------------------------------
# Scripted walls: the branches random play rarely reaches. (Per-rule scenarios: tests/game/.)

def tiles_of(text: str) -> list:
    out, digits = [], []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(ch)
        else:
            out.extend(d + ch for d in digits)
            digits = []
    return out


def script(hands, draws=(), at=None, dealer=0):
    """A wall dealing ``hands`` (docs/rules.md §10 indices), drawing ``draws`` from wall[53] on, with
    ``at`` = {wall index: tile} placed exactly. ``"*"`` completes a hand with junk: single tiles
    of three suits, so the seat is never ready and can never peng or kong (it only ever discards
    what it draws under :func:`finish`)."""
    pool = collections.Counter({t: 4 for t in ALL_KINDS})
    at = dict(at or {})
    at.update({53 + i: t for i, t in enumerate(draws)})
    fixed = {s: tiles_of(h.replace("*", "")) for s, h in enumerate(hands)}
    for ts in list(fixed.values()) + [list(at.values())]:
        pool.subtract(ts)
    final = {}
    for s, h in enumerate(hands):
        size = 14 if s == dealer else 13
        got = list(fixed[s])
        if "*" in h:
            for t in ALL_KINDS[::-1][s::2] + ALL_KINDS[::-1][(s + 1) % 2::2]:
                if len(got) == size:
                    break
                if pool[t] > 0 and t not in got:
                    got.append(t)
                    pool[t] -= 1
            assert len({t[1] for t in got}) == 3
        assert len(got) == size, (s, got)
        final[s] = got
    assert all(n >= 0 for n in pool.values()), pool
    wall = [None] * 108
    idx = {s: [] for s in range(4)}
    for take in range(12):
        idx[(dealer + take) % 4].extend(range(4 * take, 4 * take + 4))
    idx[dealer] += [48, 49]
    for j in range(3):
        idx[(dealer + 1 + j) % 4].append(50 + j)
    for s in range(4):
        for i, t in zip(idx[s], final[s]):
            wall[i] = t
    for i, t in at.items():
        wall[i] = t
    rest = sorted(pool.elements(), key=ALL_KINDS.index)
    random.Random(0).shuffle(rest)
    for i in range(108):
        if wall[i] is None:
            wall[i] = rest.pop()
    assert collections.Counter(wall) == collections.Counter({t: 4 for t in ALL_KINDS})
    return wall


def plain(preset="xueliu", **knobs):
    base = dict(exchange_three=False, declare_void=False, player_multipliers=None,
                forced_win_last_n=0)
    base.update(knobs)
    return Rules.preset(preset).replace(**base)


def do(state, seat, kind, tile=None):
    hits = [a for a in state.legal_actions(seat) if a.kind == kind and (tile is None or a.tile == tile)]
    assert len(hits) == 1, (seat, kind, tile, state.legal_actions(seat), state.pending())
    state.step({seat: hits[0]})


def quiet_step(state):
    """Pass on claims; on a turn discard the drawn tile (else the first discard)."""
    choice = {}
    for s in state.pending():
        legal = state.legal_actions(s)
        drawn = state.observation(s)["drawn"]
        pick = [a for a in legal if a.kind == "pass"] \
            or [a for a in legal if a.kind == "discard" and a.tile == drawn] \
            or [a for a in legal if a.kind == "discard"] or legal
        choice[s] = pick[0]
    state.step(choice)


def finish(state):
    while not state.is_over:
        quiet_step(state)
    return state


def until_pending(state, seat):
    while seat not in state.pending():
        quiet_step(state)


def money(state, *reasons):
    return [tuple(t[:4]) for t in state.settlement().transfers if not reasons or t.reason in reasons]


TANKI_5P = "123m456m789m123p5p"  # waits on 5p only: 平胡 1 fan


def test_discard_win_freezes_the_xueliu_hand_and_the_seat_after_the_winner_draws():
    wall = script(["5p *", TANKI_5P, "*", "*"])
    state = xueliu.new_game(plain(), wall=wall)
    do(state, 0, "discard", "5p")
    assert state.pending() == [1]
    do(state, 1, "hu")
    assert money(state) == [(0, 1, 1, "hu")]
    assert state.events()[-1] == {"type": "tsumo", "actor": 2, "pai": wall[53], "rinshan": False}
    finish(state)
    assert any(e["type"] == "dahai" and e["actor"] == 1 and e["auto"] for e in state.events())
    assert state.settlement().end_checks[1]["won"]


def test_two_winners_pay_in_turn_order_and_the_seat_after_the_last_winner_draws():
    wall = script(["5p *", TANKI_5P, "*", "123p456p789p123s5p"])
    state = xueliu.new_game(plain(), wall=wall)
    do(state, 0, "discard", "5p")
    assert state.pending() == [1, 3]
    state.step({3: Action("hu"), 1: Action("hu")})
    assert money(state) == [(0, 1, 1, "hu"), (0, 3, 1, "hu")]
    assert [w.winners for w in state.settlement().wins] == [(1, 3), (1, 3)]
    assert state.events()[-1]["type"] == "tsumo" and state.events()[-1]["actor"] == 0
    first_only = xueliu.new_game(plain(multiple_winners=False), wall=wall)
    do(first_only, 0, "discard", "5p")
    first_only.step({1: Action("pass"), 3: Action("hu")})
    assert money(first_only) == [(0, 3, 1, "hu")]
    first_only = xueliu.new_game(plain(multiple_winners=False), wall=wall)
    do(first_only, 0, "discard", "5p")
    first_only.step({1: Action("hu"), 3: Action("hu")})
    assert money(first_only) == [(0, 1, 1, "hu")]


def test_direct_kong_payments_then_call_transfer_on_gangshangpao():
    seat1 = "999s456m789m4p6p8p1s"
    seat2 = "123p456p789p111p7s"  # waits on 7s only; four 1p: a 根
    assert xueliu.waits(seat2) == ["7s"]
    wall = script(["9s *", seat1, seat2, "*"], draws=["7s"])
    state = xueliu.new_game(plain(), wall=wall)
    do(state, 0, "discard", "9s")
    do(state, 1, "kong", "9s")
    assert money(state) == [(0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang")]
    assert state.pending() == [1] and state.observation(1)["drawn"] == "7s"
    do(state, 1, "discard", "7s")
    do(state, 2, "hu")
    r = state.settlement().wins[0].fan_result
    assert r.extras == ("gangshangpao",) and r.fan == 3  # 平胡 + 根 + 杠上炮
    assert money(state)[3:] == [(1, 2, 4, "hu"), (1, 2, 4, "hujiaozhuanyi")]
    finish(state)
    assert not [t for t in money(state, "tuishui") if t[0] == 1]  # handed over: never refunded
    off = xueliu.new_game(plain(call_transfer=False), wall=wall)
    for seat, kind, tile in ((0, "discard", "9s"), (1, "kong", "9s"), (1, "discard", "7s"),
                             (2, "hu", None)):
        do(off, seat, kind, tile)
    assert money(off)[3:] == [(1, 2, 4, "hu")]


SEAT1_KONG_5M = "999s123m456m789m5m"  # kongs 9s, then waits on 5m (tanki)


def test_dian_gang_hua_knob():
    assert xueliu.waits("123m456m789m5m(9999s)") == ["5m"]
    for rule, expect in (("self_draw", [(2, 1, 5, "hu"), (3, 1, 5, "hu"), (0, 1, 5, "hu")]),
                         ("discarder", [(0, 1, 4, "hu")])):
        wall = script(["9s *", SEAT1_KONG_5M, "*", "*"], draws=["5m"])
        state = xueliu.new_game(plain(dian_gang_hua=rule), wall=wall)
        do(state, 0, "discard", "9s")
        do(state, 1, "kong", "9s")
        do(state, 1, "hu")
        w = state.settlement().wins[0]
        # 平胡 1 + 根 (the kong) 1 + 杠上花 1 = 3 fan, ×4 (+1 base for each self-draw payer)
        assert w.fan_result.extras == ("gangshanghua",) and w.fan_result.fan == 3
        assert "kong_replacement" in w.flags
        assert money(state, "hu") == expect


def test_kong_settle_on_win_collects_after_the_win_payments():
    wall = script(["9s *", SEAT1_KONG_5M, "*", "*"], draws=["1s", "2p", "3p", "4p", "5m"])
    state = xueliu.new_game(plain(kong_settle="on_win"), wall=wall)
    do(state, 0, "discard", "9s")
    do(state, 1, "kong", "9s")
    assert money(state) == []
    do(state, 1, "discard", "1s")
    until_pending(state, 1)
    assert state.observation(1)["drawn"] == "5m"
    do(state, 1, "hu")
    # 平胡 1 + 根 1 = 2 fan: 2 + 1 base from each; then the kong's dues, discarder first
    assert money(state) == [(2, 1, 3, "hu"), (3, 1, 3, "hu"), (0, 1, 3, "hu"),
                            (0, 1, 2, "gang"), (2, 1, 1, "gang"), (3, 1, 1, "gang")]


def test_kong_settle_on_win_is_void_without_a_win():
    wall = script(["9s *", SEAT1_KONG_5M, "*", "*"], draws=["1s"])
    state = xueliu.new_game(plain(kong_settle="on_win"), wall=wall)
    do(state, 0, "discard", "9s")
    do(state, 1, "kong", "9s")
    finish(state)
    assert money(state, "gang", "tuishui") == []


def test_xuezhan_ends_at_the_third_win_with_fees_and_no_end_checks():
    seat2 = "123p456p789p123s5p"
    seat3 = "11s22s33s44s55s66s7s"
    wall = script(["5p *", TANKI_5P, seat2, seat3], draws=["7s"])
    state = xueliu.new_game(plain("xuezhan", service_fee=2), wall=wall, coins=[100] * 4)
    do(state, 0, "discard", "5p")
    state.step({1: Action("hu"), 2: Action("hu")})
    assert not state.is_over
    assert state.pending() == [3]
    do(state, 3, "hu")  # 地胡 on its first draw
    s = state.settlement()
    assert state.is_over and s.end_reason == "three_wins" and s.end_checks is None
    assert s.wins[2].fan_result.base == "dihu"
    assert money(state) == [(0, 1, 1, "hu"), (0, 2, 1, "hu"), (0, 3, 32, "hu")] + \
        [(seat, None, 2, "fee") for seat in range(4)]


def test_forced_win_in_the_last_tiles_is_taken_without_asking():
    # seat 1 draws wall[53 + 4i]; wall[105] is its draw with two tiles left after it
    wall = script(["9s5p *", TANKI_5P, "5p *", "*"], at={105: "5p"})
    for n, expect_win in ((4, True), (0, False)):
        state = xueliu.new_game(plain(forced_win_last_n=n), wall=wall)
        do(state, 0, "discard", "9s")
        finish(state)  # never chooses hu itself
        wins = state.settlement().wins
        assert bool(wins) == expect_win
        if wins:
            assert wins[0].seat == 1 and wins[0].source == "self_draw"


def test_pass_block_knob():
    # seat 1 passes on seat 3's 5p; seat 0 then discards 5p before seat 1 draws again
    wall = script(["9s *", TANKI_5P, "*", "*"], draws=["9p", "8p", "5p", "5p"])
    for rule, offered in (("off", True), ("any", False), ("not_higher", False)):
        state = xueliu.new_game(plain(pass_blocks_discard_win=rule), wall=wall)
        do(state, 0, "discard", "9s")
        until_pending(state, 1)
        do(state, 1, "discard", "9p")
        until_pending(state, 1)  # seat 3 discarded 5p
        assert state.observation(1)["claim"] == {"tile": "5p", "from": 3, "kind": "discard"}
        do(state, 1, "pass")
        assert state.observation(0)["drawn"] == "5p"
        do(state, 0, "discard", "5p")
        assert (state.phase == "claim" and 1 in state.pending()) == offered, rule


def test_heavenly_win_only_with_the_knob():
    wall = script(["123m456m789m123p55p", "*", "*", "*"])
    state = xueliu.new_game(plain("xuezhan"), wall=wall)
    do(state, 0, "hu")
    w = state.settlement().wins[0]
    assert w.fan_result.base == "tianhu" and w.tile == "5p" and "heavenly" in w.flags
    off = xueliu.new_game(plain("xueliu"), wall=wall)
    assert "hu" not in [a.kind for a in off.legal_actions(0)]


def test_end_checks_pig_dajiao_and_refund():
    seat1 = "1111s2s5s8s1m2m4m5m7m8m"  # not ready, two suits: refunds its concealed kong
    seat2 = "123m456m789m12p55p"       # ready on 3p: 平胡 1 fan
    assert xueliu.waits(seat2) == ["3p"]
    wall = script(["9p *", seat1, seat2, "*"], draws=["9m"])
    state = xueliu.new_game(plain(), wall=wall)
    do(state, 0, "discard", "9p")
    do(state, 1, "concealed_kong", "1s")
    assert money(state) == [(2, 1, 2, "gang"), (3, 1, 2, "gang"), (0, 1, 2, "gang")]
    finish(state)
    checks = state.settlement().end_checks
    assert [c["pig"] for c in checks] == [True, False, False, True]
    assert [c["ready"] for c in checks] == [False, False, True, False]
    assert money(state, "huazhu", "chadajiao", "tuishui") == [
        (0, 1, 16, "huazhu"), (0, 2, 16, "huazhu"), (1, 2, 1, "chadajiao"),
        (3, 1, 16, "huazhu"), (3, 2, 16, "huazhu"),
        (1, 2, 2, "tuishui"), (1, 3, 2, "tuishui"), (1, 0, 2, "tuishui")]


def test_coins_cut_a_payment_to_what_the_payer_holds():
    wall = script(["5p *", TANKI_5P, "*", "*"])
    state = xueliu.new_game(plain(room=10), wall=wall, coins=[3, 0, 0, 0])
    do(state, 0, "discard", "5p")
    do(state, 1, "hu")
    assert money(state) == [(0, 1, 3, "hu")]
    assert state.coins == [0, 3, 0, 0]


def test_robbing_an_added_kong():
    # seat 1 pengs the dealer's 5p, later draws the 4th 5p and adds it; seat 2 robs it.
    seat1 = "55p123m456m789m1s4s"
    seat2 = "123s456s789s46p77p"  # waits on 5p
    assert xueliu.waits(seat2) == ["5p"]
    wall = script(["5p *", seat1, seat2, "*"], draws=["3s", "2s", "8p", "5p"])
    state = xueliu.new_game(plain(), wall=wall)
    do(state, 0, "discard", "5p")
    assert state.pending() == [1, 2]
    state.step({1: Action("peng", "5p"), 2: Action("pass")})
    do(state, 1, "discard", "1s")
    until_pending(state, 1)
    assert state.observation(1)["drawn"] == "5p"
    do(state, 1, "added_kong", "5p")
    assert state.pending() == [2] and state.legal_actions(2) == [Action("hu"), Action("pass")]
    do(state, 2, "hu")
    w = state.settlement().wins[0]
    assert w.source == "robbed_kong" and w.from_seat == 1 and "qiangganghu" in w.fan_result.extras
    assert money(state) == [(1, 2, 2, "hu")]
    assert state.observation(1)["melds"][1] == [{"type": "peng", "tile": "5p", "from": 0}]
    assert state.events()[-1]["actor"] == 3  # the seat after the robber draws


def test_frozen_hand_may_kong_only_when_the_waits_stay_the_same():
    keeps = "111s456s789s23p55p"    # waits 1p 4p; with [1111s] still 1p 4p
    changes = "111s23s456s789p55p"  # waits on 1s (and more); the kong would lose waits
    assert xueliu.waits(keeps) == xueliu.waits("456s789s23p55p[1111s]") == ["1p", "4p"]
    assert "1s" in xueliu.waits(changes) and "4s" in xueliu.waits(changes)
    assert xueliu.waits("23s456s789p55p[1111s]") != xueliu.waits(changes)
    for hand, first, kong_offered in ((keeps, "1p", True), (changes, "4s", False)):
        wall = script([first + " *", hand, "*", "*"], draws=["9m", "8m", "7m", "1s"])
        state = xueliu.new_game(plain(), wall=wall)
        do(state, 0, "discard", first)
        do(state, 1, "hu")
        until_pending(state, 1)
        assert state.observation(1)["drawn"] == "1s"
        kinds = sorted(a.kind for a in state.legal_actions(1))
        if kong_offered:
            assert kinds == ["concealed_kong", "discard"]
            do(state, 1, "concealed_kong", "1s")
            assert money(state, "gang") == [(2, 1, 2, "gang"), (3, 1, 2, "gang"), (0, 1, 2, "gang")]
        else:
            assert kinds == ["discard", "hu"]  # wins again, but no kong: it would change the waits
    # without post-win kongs the drawn 1s of the "keeps" hand is discarded for the seat
    wall = script(["1p *", keeps, "*", "*"], draws=["9m", "8m", "7m", "1s"])
    state = xueliu.new_game(plain(post_win_kongs=frozenset()), wall=wall)
    do(state, 0, "discard", "1p")
    do(state, 1, "hu")
    for _ in range(3):
        quiet_step(state)
    evs = state.events()
    i = next(i for i, e in enumerate(evs) if e["type"] == "tsumo" and e["actor"] == 1)
    assert evs[i]["pai"] == "1s"
    assert evs[i + 1] == {"type": "dahai", "actor": 1, "pai": "1s", "tsumogiri": True, "auto": True}


def test_physical_wall_layout_covers_54_stacks_from_the_break():
    state = xueliu.new_game("xueliu", seed=21, dealer=1)
    layout = state.wall_layout()
    assert len(layout) == 108 and len(set(layout)) == 108
    stacks = collections.Counter((w, k) for w, k, _ in layout)
    assert len(stacks) == 54 and set(stacks.values()) == {2}
    for seat in range(4):
        assert len({k for w, k in stacks if w == seat}) == (13 if (seat - 1) % 2 == 0 else 14)
    wall_seat, stack = state.break_point
    assert wall_seat == (1 + sum(state.dice) - 1) % 4 and stack == sum(state.dice)
    assert layout[0] == (wall_seat, stack, 0)


def test_accessors_show_hands_voids_and_multipliers():
    state = xueliu.new_game("xuezhan", seed=2)
    assert state.voids == [None] * 4
    while state.phase != "turn":
        state.step({s: state.legal_actions(s)[-1] for s in state.pending()})
    assert state.voids == ["s"] * 4 and state.multipliers == [8] * 4
    assert str(state.hand(0)) and len(state.hand(1).counts) == 27
    assert sum(state.hand(0).counts) == 14


@pytest.mark.parametrize("preset", ["xueliu", "xuezhan"])
def test_report_shows_a_ready_seats_best_fan_even_when_nobody_owes_it(preset):
    from xueliu.bots import GreedyBot, play_hand

    for seed in range(300):
        state = play_hand(xueliu.new_game(preset, seed=seed), [GreedyBot()] * 4)
        s = state.settlement()
        if s.end_checks is None or any(t.reason in ("chadajiao", "huazhu") for t in s.transfers):
            continue
        ready = [c for c in s.end_checks if c["ready"] and not c["won"]]
        if ready:
            break
    else:
        pytest.fail("no hand ended with a ready seat that nobody paid")
    text = s.report()
    assert "None" not in text
    for c in ready:
        assert c["best_fan"] >= 1 and c["best_multiplier"] >= 1
        assert (f"ready on {' '.join(c['waits'])}, best {c['best_fan']} fan "
                f"×{c['best_multiplier']}") in text
    if preset == "xuezhan":  # the 选倍 choices explain the size of every payment
        for seat, m in enumerate(state.multipliers):
            assert f"Seat {seat}" in text and f"选倍 multiplier ×{m}" in text
