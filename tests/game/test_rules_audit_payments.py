"""Rules audit, payments (§7 "Settlement", §10 "Payments"): what the ``multipliers`` table does
not touch, what ``room`` and the player multipliers scale and what they do not, ``on_win``
collections of several kongs, the never-refunded handed-over kong, and the settlement report."""

from .conftest import (
    act,
    build_wall,
    find,
    new_game,
    play_out,
    tiles,
    transfers,
    waits_of,
    xl_rules,
    xz_rules,
)

TANKI_5P = "123m456m789m123p5p"     # waits 5p only, 平胡 1 fan
KANCHAN_5P = "123m456m789m11p46p"   # waits 5p only, 平胡 1 fan
GEN_WAIT = "111m23m456m789p55p"     # best wait 1m: 平胡 1 + 根 1 = 2 fan
PIG = "9m 6p 7s *"                  # three suits: a flower pig
# a linear-ish table whose entries differ from 2 ** (fan - 1) everywhere: fan 1 -> 3, fan 2 -> 5
ODD_TABLE = dict(max_fan=6, multipliers=(3, 5, 7, 9, 11, 13))


def test_premises_of_the_hands_used_here():
    assert waits_of(tiles(TANKI_5P)) == ["5p"]
    assert waits_of(tiles(KANCHAN_5P)) == ["5p"]
    assert waits_of(tiles(GEN_WAIT)) == ["1m", "4m", "7m", "5p"]


# --- §10: the multipliers table applies to wins and 查大叫 only --------------------------------


def test_multipliers_table_applies_to_a_win_but_not_to_kong_payments():
    # the dealer kongs 9s (2 from each: not fan-based), discards the replacement 5p, seat 1 wins:
    # 平胡 1 + 杠上炮 1 = 2 fan -> table entry 5; the call transfer hands over the 6 collected
    sw = build_wall(["9999s *", KANCHAN_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(**ODD_TABLE), sw)
    act(state, 0, "concealed_kong", "9s")
    assert transfers(state) == [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert transfers(state)[3:] == [(0, 1, 5, "hu"), (0, 1, 6, "hujiaozhuanyi")]


def test_multipliers_table_does_not_apply_to_the_self_draw_base_bonus():
    # 平胡 1 fan self-draw: table entry 3 + 1 base (自摸加底) from each payer
    sw = build_wall(["9s *", TANKI_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(**ODD_TABLE), sw)
    act(state, 0, "discard", "9s")
    act(state, 1, "hu")
    assert transfers(state) == [(2, 1, 4, "hu"), (3, 1, 4, "hu"), (0, 1, 4, "hu")]


def test_multipliers_table_applies_to_dajiao_but_not_to_the_pig_penalty():
    # seat 3 ready for 2 fan (table: 5); seat 2 a pig: it pays 16 where 16 > 5, the others 5
    sw = build_wall(["9s *", "*", PIG, GEN_WAIT])
    state = play_out(new_game(xl_rules(**ODD_TABLE), sw))
    assert transfers(state) == [
        (0, 3, 5, "chadajiao"),
        (1, 3, 5, "chadajiao"),
        (2, 0, 16, "huazhu"), (2, 1, 16, "huazhu"), (2, 3, 16, "huazhu"),
    ]


# --- §7 / §10: room scales every payment but the service fee --------------------------------------


def test_room_scales_the_escape_penalty():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = new_game(xl_rules(room=4, base=2), sw)
    state.escape(1)
    assert transfers(state) == [(1, None, 3 * 2 * 4, "escape")]


def test_room_scales_the_ready_check():
    sw = build_wall(["9s *", "*", "*", GEN_WAIT])
    state = play_out(new_game(xl_rules(room=3), sw))
    assert transfers(state) == [(0, 3, 6, "chadajiao"), (1, 3, 6, "chadajiao"), (2, 3, 6, "chadajiao")]


def test_room_scales_the_self_draw_and_the_call_transfer_hands_over_what_was_collected():
    sw = build_wall(["9999s *", KANCHAN_5P, "*", "*"], draws=["5p"])
    state = new_game(xl_rules(room=3), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    assert transfers(state) == [
        (1, 0, 6, "gang"), (2, 0, 6, "gang"), (3, 0, 6, "gang"),
        (0, 1, 2 * 3, "hu"), (0, 1, 18, "hujiaozhuanyi"),
    ]


# --- §3.3 / §10: player multipliers -------------------------------------------------------------


def with_multipliers(sw, chosen, **knobs):
    rules = xz_rules(player_multipliers={"allowed": (2, 4, 8), "default": 8}, **knobs)
    state = new_game(rules, sw)
    state.step({s: find(state, s, "multiplier", value=v) for s, v in chosen.items()})
    return state


def test_player_multipliers_scale_kong_payments_by_payer_and_payee():
    sw = build_wall(["9999s *", "*", "*", "*"], draws=["?"])
    state = with_multipliers(sw, {0: 2, 1: 4, 2: 8, 3: 2})
    act(state, 0, "concealed_kong", "9s")
    assert transfers(state) == [(1, 0, 2 * 4 * 2, "gang"), (2, 0, 2 * 8 * 2, "gang"), (3, 0, 2 * 2 * 2, "gang")]


def test_escape_penalty_is_scaled_by_the_escapers_own_multiplier_only():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = with_multipliers(sw, {0: 2, 1: 4, 2: 8, 3: 2})
    state.escape(1)
    assert transfers(state) == [(1, None, 32 * 4, "escape")]


def test_service_fee_is_absolute_not_scaled_by_player_multipliers_base_or_room():
    sw = build_wall(["9s *", "*", "*", "*"])
    state = with_multipliers(sw, {0: 2, 1: 4, 2: 8, 3: 2}, service_fee=5, base=3, room=7)
    play_out(state)
    assert transfers(state) == [(s, None, 5, "fee") for s in range(4)]


# --- §10: kong_settle = "on_win" collects every pending kong at the next win ----------------------


def test_kong_settle_on_win_collects_every_earlier_kong_after_the_win_payments_in_declaration_order():
    # the dealer kongs 9s then 8s, keeps 123m 55m 78m and self-draws 6m: 平胡 1 + 2 根 = 3 fan
    # (×4) + 1 base from each; then the 9s dues, then the 8s dues
    assert waits_of(tiles("123m55m78m"), kong_melds=["9s", "8s"]) == ["6m", "9m"]
    sw = build_wall(["9999s 8888s 123m 55m 7m", "*", "*", "*"],
                    draws=["8m", "?", "?", "?", "?", "6m"], quiet_avoid=["6m", "9m"])
    state = new_game(xl_rules(kong_settle="on_win"), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "concealed_kong", "8s")
    act(state, 0, "discard", sw.draws[1])
    for seat in (1, 2, 3):
        act(state, seat, "discard", sw.draws[seat + 1])
    assert transfers(state) == []
    act(state, 0, "hu")
    assert transfers(state) == [
        (1, 0, 5, "hu"), (2, 0, 5, "hu"), (3, 0, 5, "hu"),
        (1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
        (1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang"),
    ]


# --- §10: a handed-over kong is never refunded; the konger's other kongs are ----------------------


def test_a_handed_over_kong_is_never_refunded_but_the_kongers_other_kongs_are():
    # the dealer kongs 9s and 8s (6 collected each), discards the second replacement 5p, seat 1
    # wins (杠上炮 on the 8s kong, whose 6 are handed over); the dealer ends not ready: 退税
    # returns the 9s kong's income only
    sw = build_wall(["9999s 8888s *", KANCHAN_5P, "*", "*"], draws=["?", "5p"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "concealed_kong", "8s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    gains = [(1, 0, 2, "gang"), (2, 0, 2, "gang"), (3, 0, 2, "gang")]
    assert transfers(state) == gains + gains + [
        (0, 1, 2, "hu"), (0, 1, 6, "hujiaozhuanyi"),
        (0, 1, 2, "tuishui"), (0, 2, 2, "tuishui"), (0, 3, 2, "tuishui"),
    ]


# --- §7 settlement report -----------------------------------------------------------------------


def seat_sections(report):
    """The detailed part of the report split into each seat's lines."""
    detailed = report.split("个人结算")[0]
    out, cur = {}, None
    for line in detailed.splitlines():
        if line.startswith("Seat "):
            cur = int(line.split()[1].rstrip(":"))
            out[cur] = [line]
        elif cur is not None and line.strip():
            out[cur].append(line)
    return out


def test_settlement_report_shows_per_seat_wins_kongs_call_transfers_end_checks_refunds_fee_net():
    sw = build_wall(["9999s 8888s *", KANCHAN_5P, PIG, "*"], draws=["?", "5p"])
    state = new_game(xl_rules(service_fee=1), sw)
    act(state, 0, "concealed_kong", "9s")
    act(state, 0, "concealed_kong", "8s")
    act(state, 0, "discard", "5p")
    act(state, 1, "hu")
    play_out(state)
    s = state.settlement()
    report = s.report()
    seats = seat_sections(report)
    text = {seat: "\n".join(lines) for seat, lines in seats.items()}
    # the win: order, tile, patterns and additive fans by name, total fan and multiplier
    assert "Win 1" in text[1] and "5p" in text[1]
    assert "平胡" in text[1] and "杠上炮" in text[1] and "2 番" in text[1] and "×2" in text[1]
    # kong income, call transfers, refunds, fee, net of the konger
    assert "杠" in text[0] and "+12" in text[0]
    assert "呼叫转移" in text[0] and "-6" in text[0] and "+6" in text[1]
    assert "退税" in text[0] and "-6" in text[0]
    assert "花猪" in text[2] and "-32" in text[2]
    for seat in range(4):
        assert "服务费" in text[seat]
        assert f"net {s.net[seat]:+d}" in seats[seat][0]
    # and each seat's own transfers (个人结算)
    personal = report.split("个人结算")[1]
    for t in s.transfers:
        assert f"{t.amount}" in personal
    assert personal.count("net ") == 4
