"""倒倒胡 (docs/rules.md §11.2, ``mode = "daodaohu"``): the hand ends as soon as the first win resolves —
every winner of that discard or robbed kong (一炮多响) is paid, or the one self-draw, with that
win's call transfers and ``on_win`` kong collections — then fees; no further turns. 查花猪, 查大叫
and 退税 are made only when the wall is exhausted with no win.

Scripted hands use the daodaohu preset without exchange and void (conftest's ``build_wall``);
the invariants play a few hundred random hands of the preset and of 血战 with ``mode="daodaohu"``.
"""

import json
import random

import pytest

import xueliu
from xueliu.rules import Rules

from .conftest import act, build_wall, find, new_game, obs_melds, play_out, tiles, transfers, waits_of
from .test_call_transfer import KONG_GAIN, kong_then_discard
from .test_kongs import robbed
from .test_shape_invariants import play_to_end

TANKI_5P = "123m456m789m123p5p"  # 平胡, waiting on 5p alone
KANCHAN_5P = "123s456s789s46p11p"  # 平胡, waiting on 5p alone (嵌张)
READY_6P_9P = "123s456s789s78p11p"  # ready on 6p / 9p: collects 查大叫 at an exhausted wall
PIG = "1m 1p 1s *"  # holds all three suits: a 花猪 at an exhausted wall


def ddh_rules(**knobs) -> Rules:
    """The daodaohu preset without exchange and void (unless asked)."""
    return Rules.preset("daodaohu").replace(**{"exchange_three": False, "declare_void": False,
                                               **knobs})


def events_after_first_win(state) -> list:
    full = state.events()
    first = next(i for i, e in enumerate(full) if e["type"] == "hora")
    return [e["type"] for e in full[first:]]


def assert_ended_by_the_first_win(state) -> None:
    s = state.settlement()
    assert state.is_over and state.pending() == []
    assert s.end_reason == "first_win" and s.end_checks is None
    # Nothing happens after the win but its own payments and the end: no draw, no turn.
    assert set(events_after_first_win(state)) <= {"hora", "pay", "end_hand"}
    assert state.events()[-1]["type"] == "end_hand"


def test_a_daodaohu_hand_ends_at_the_first_self_draw():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(ddh_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "pass")  # no win on the dealer's 5p: seat 1 draws the other one
    act(state, 1, "hu")
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert win.seat == 1 and win.source == "self_draw"
    # every other seat pays the self-draw (自摸加底: one base more), and that is all
    pays = win.fan_result.multiplier + 1
    assert transfers(state) == [(2, 1, pays, "hu"), (3, 1, pays, "hu"), (0, 1, pays, "hu")]
    assert state.wall_remaining == 108 - 53 - 1  # seat 1's one draw: nobody drew after it


def test_a_daodaohu_hand_ends_after_every_winner_of_one_discard_is_paid():
    sw = build_wall(["5p *", TANKI_5P, "*", KANCHAN_5P], draws=["?"])
    state = new_game(ddh_rules(), sw)
    act(state, 0, "discard", "5p")
    assert state.pending() == [1, 3]
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert_ended_by_the_first_win(state)
    wins = state.settlement().wins
    assert [(w.seat, w.source, w.winners) for w in wins] == [(1, "discard", (1, 3)),
                                                             (3, "discard", (1, 3))]
    # 一炮多响: the discarder pays each winner, in turn order from the discarder
    assert transfers(state) == [(0, w.seat, w.fan_result.multiplier, "hu") for w in wins]


def test_with_multiple_winners_off_only_the_first_winner_in_turn_order_is_paid():
    sw = build_wall(["5p *", "*", TANKI_5P, KANCHAN_5P], draws=["?"])
    state = new_game(ddh_rules(multiple_winners=False), sw)
    act(state, 0, "discard", "5p")
    state.step({2: find(state, 2, "hu"), 3: find(state, 3, "hu")})
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert win.seat == 2 and transfers(state) == [(0, 2, win.fan_result.multiplier, "hu")]


def test_a_daodaohu_robbed_kong_ends_the_hand():
    _, state = robbed(ddh_rules())
    assert state.pending() == [1]
    act(state, 1, "hu")
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert win.seat == 1 and win.source == "robbed_kong" and win.from_seat == 2
    # the konger pays the robbing win and nobody pays the kong (no kong, no replacement)
    assert transfers(state) == [(2, 1, win.fan_result.multiplier, "hu")]
    assert obs_melds(state, 2) == [("peng", "5p")]  # the peng stays a peng


def test_in_daodaohu_the_call_transfer_of_the_winning_discard_is_paid():
    state = kong_then_discard(ddh_rules())
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert win.flags == ("after_kong_discard",) and win.fan_result.fan == 2  # 平胡 + 杠上炮
    # the kong's 6 are handed to the winner; the konger is not ready, but no 退税 follows
    assert transfers(state) == KONG_GAIN + [(0, 1, 2, "hu"), (0, 1, 6, "hujiaozhuanyi")]


def test_in_daodaohu_the_call_transfer_goes_to_each_winner_of_one_discard():
    state = kong_then_discard(ddh_rules(), winners=(1, 3))
    assert_ended_by_the_first_win(state)
    assert transfers(state) == KONG_GAIN + [
        (0, 1, 2, "hu"), (0, 3, 2, "hu"), (0, 1, 6, "hujiaozhuanyi"), (0, 3, 6, "hujiaozhuanyi")]


def test_a_daodaohu_winner_collects_its_on_win_kong_and_the_hand_ends():
    # The dealer konges 9m, draws its 5p as the replacement: 杠上花; the kong is collected after.
    konger = "9999m 123m456m 123p 5p"
    assert waits_of(tiles("123m456m123p5p"), kong_melds=["9m"]) == ["5p"]
    sw = build_wall([konger, "*", "*", "*"], draws=["5p"])
    state = new_game(ddh_rules(kong_settle="on_win"), sw)
    act(state, 0, "concealed_kong", "9m")
    assert transfers(state) == []  # on_win: nothing is paid at the declaration
    act(state, 0, "hu")
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert "kong_replacement" in win.flags
    pays = win.fan_result.multiplier + 1
    assert transfers(state) == [(1, 0, pays, "hu"), (2, 0, pays, "hu"), (3, 0, pays, "hu"),
                                (1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]


def test_a_daodaohu_co_winner_pays_nothing_of_another_winners_on_win_kong():
    # Seat 1 draws 5p, kongs 9m (on_win: 2 due from each other seat) and keeps the 5p (单钓);
    # seats 1 and 3 then win on the dealer's 5p together. Co-winners leave play together, as in
    # 血战 (docs/rules.md §10: payers that have left play pay nothing), so seat 3 pays nothing of seat
    # 1's kong; the dealer and seat 2 do.
    sw = build_wall(["5p 9s *", "9999m 123m 456m 123p", "*", KANCHAN_5P],
                    draws=["5p", "?", "?", "?", "?"], quiet_distinct=True)
    state = new_game(ddh_rules(kong_settle="on_win"), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "concealed_kong", "9m")
    act(state, 1, "discard", sw.draws[1])  # the replacement (from the front)
    act(state, 2, "discard", sw.draws[2])
    act(state, 3, "discard", sw.draws[3])
    act(state, 0, "discard", "5p")
    assert transfers(state) == []
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "hu")})
    assert_ended_by_the_first_win(state)
    one, three = state.settlement().wins
    assert transfers(state) == [(0, 1, one.fan_result.multiplier, "hu"),
                                (0, 3, three.fan_result.multiplier, "hu"),
                                (2, 1, 2, "gang"), (0, 1, 2, "gang")]  # from the konger on


def test_a_daodaohu_hand_makes_no_end_checks_after_a_win():
    # Seat 2 would be a 花猪, the dealer not ready and seat 3 ready: had the wall run out, the
    # pig and the dealer would pay. Seat 1 wins on the dealer's 5p and the hand ends there.
    sw = build_wall(["5p *", TANKI_5P, PIG, READY_6P_9P], draws=["?"])
    state = new_game(ddh_rules(), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert transfers(state) == [(0, 1, win.fan_result.multiplier, "hu")]
    assert not any(t[0] == 2 for t in transfers(state))  # the 花猪 pays nothing


def test_a_daodaohu_refund_is_not_made_after_a_win():
    # call_transfer off: the konger keeps its kong income; not ready, it would refund it at an
    # exhausted wall (退税), but the first win ends the hand first.
    state = kong_then_discard(ddh_rules(call_transfer=False))
    assert_ended_by_the_first_win(state)
    assert transfers(state) == KONG_GAIN + [(0, 1, 2, "hu")]


def test_a_daodaohu_hand_with_an_exhausted_wall_and_no_win_runs_the_end_checks():
    hands = ["5p *", TANKI_5P, PIG, READY_6P_9P]
    sw = build_wall(hands, draws=["?"])
    state = play_out(new_game(ddh_rules(), sw))  # every win declined: nobody wins
    s = state.settlement()
    assert s.wins == [] and s.end_reason == "wall_exhausted" and s.end_checks is not None
    checks = {c["seat"]: (c["pig"], c["ready"]) for c in s.end_checks}
    assert checks == {0: (False, False), 1: (False, True), 2: (True, False), 3: (False, True)}
    reasons = {(t[0], t[3]) for t in transfers(state)}
    assert (2, "huazhu") in reasons and (0, "chadajiao") in reasons
    # the end checks are §7's, exactly as a 血流 hand of the same wall and play makes them
    xl = play_out(new_game(ddh_rules(mode="xueliu"), sw))
    assert transfers(state) == transfers(xl) and s.end_checks == xl.settlement().end_checks


def test_a_daodaohu_hand_takes_the_fee_after_the_first_win():
    sw = build_wall(["5p *", TANKI_5P, "*", "*"], draws=["?"])
    state = new_game(ddh_rules(service_fee=1), sw)
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert_ended_by_the_first_win(state)
    assert transfers(state)[1:] == [(s, None, 1, "fee") for s in range(4)]


def test_a_daodaohu_heavenly_win_ends_the_hand_before_anyone_draws():
    sw = build_wall(["123m456m789m123p55p", "*", "*", "*"])
    state = new_game(ddh_rules(heavenly_earthly=True), sw)
    act(state, 0, "hu")
    assert_ended_by_the_first_win(state)
    (win,) = state.settlement().wins
    assert "heavenly" in win.flags and state.wall_remaining == 108 - 53


def test_a_daodaohu_record_replays_the_hand_and_its_end():
    sw = build_wall(["5p *", TANKI_5P, "*", KANCHAN_5P], draws=["?"])
    state = new_game(ddh_rules(), sw)
    act(state, 0, "discard", "5p")
    state.step({1: find(state, 1, "hu"), 3: find(state, 3, "pass")})
    record = json.loads(json.dumps(state.record()))
    assert record["rules"]["mode"] == "daodaohu"
    again = xueliu.replay(record)
    assert again.is_over and again.events() == state.events()
    assert again.settlement().to_dict() == state.settlement().to_dict()
    assert "ended: the first win" in state.settlement().report()
    assert "倒倒胡 daodaohu" in state.settlement().report()


def test_a_daodaohu_match_passes_the_deal_by_the_dice_whoever_won():
    # next_dealer = "dice" (the preset's): the dice come from the match seed and the hand index,
    # so the dealers are those of a 血流 match with the same knob and seed, however hands end.
    def dealers(rules):
        m = xueliu.Match(rules, seed=21)
        rng = random.Random(0)
        out = []
        for _ in range(8):
            state = m.next_hand()
            out.append(state.dealer)
            while not state.is_over:
                state.step({q: next((a for a in state.legal_actions(q) if a.kind == "hu"),
                                    rng.choice(state.legal_actions(q))) for q in state.pending()})
        return out

    ddh = dealers(Rules.preset("daodaohu"))
    assert ddh == dealers(Rules.preset("xueliu").replace(next_dealer="dice"))
    assert len(set(ddh)) > 1


# -- invariants over random hands -----------------------------------------------------------------

HANDS = 300
DEEP = 20  # the first hands check tiles and money after every step

TABLES = {
    "daodaohu": Rules.preset("daodaohu"),
    # 血战's knobs (选倍, forced last-tile wins, 金钩钓, 天胡/地胡, …) with the one-win flow
    "xuezhan_daodaohu": Rules.preset("xuezhan").replace(mode="daodaohu"),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_random_daodaohu_hands_end_at_one_winning_event_and_keep_every_invariant(name):
    rules = TABLES[name]
    ended, sources = set(), set()
    for i in range(HANDS):
        rng = random.Random(f"daodaohu-{name}-{i}")
        coins = [rng.choice([0, 20, 500]) for _ in range(4)] if rng.random() < 0.3 else None
        state = xueliu.new_game(rules, seed=i, dealer=rng.randrange(4), coins=coins)
        # play_to_end: tiles accounted for and transfers summing to zero (fees aside)
        play_to_end(state, rng, greedy_share=0.7, timeouts=0.01, deep=i < DEEP)
        s = state.settlement()
        ended.add(s.end_reason)
        if s.wins:
            # one winning event: one self-draw, or the winners of one discard or robbed kong
            first = s.wins[0]
            sources.add(first.source)
            assert s.end_reason == "first_win" and s.end_checks is None
            assert len(s.wins) == len(first.winners)
            assert [w.seat for w in s.wins] == list(first.winners)
            assert all((w.tile, w.source, w.from_seat, w.winners)
                       == (first.tile, first.source, first.from_seat, first.winners)
                       for w in s.wins)
            assert first.source != "self_draw" or len(s.wins) == 1
            assert set(events_after_first_win(state)) <= {"hora", "pay", "end_hand"}
            assert not {t.reason for t in s.transfers} & {"huazhu", "chadajiao", "tuishui"}
        else:
            assert s.end_reason == "wall_exhausted" and s.end_checks is not None
        again = xueliu.replay(json.loads(json.dumps(state.record())))
        assert again.events() == state.events() and again.settlement().net == s.net
    assert ended == {"first_win", "wall_exhausted"} and {"self_draw", "discard"} <= sources
