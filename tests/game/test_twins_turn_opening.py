"""The native plain draw (``_core.turn_draw``, cpp/bindings/bind_engine.cpp: a draw from the live
wall and the turn it opens) and the engine's Python draw and turn opening
(python/xueliu/game/draw.py ``draw`` / ``open_turn``, the path of every replacement draw) are two
implementations of docs/rules.md §4 and §10 "Turns and claims". Here both draw for the same seat
from the same state, field for field, at the edges of the wall: the last live tile (海底: no kong,
a win is 海底捞月), the wall already empty (the hand ends by the wall), the discard after a kong's
replacement draw (its marks must not carry over), replacements taken from the back, a frozen
血流 hand, a forced last-tile win, a seat holding void tiles, 地胡's first draw — at 2, 3 and 4
seats.

The Python path is ``draw(g, seat, replacement=True)`` with replacements from the front: a
replacement draw is a plain draw but for its three marks (``_rinshan``, the event's replacement
flag, and no 地胡), which are set as a plain draw sets them before the two are compared.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

import pytest

import xueliu
from xueliu import _core
from xueliu.game.data import TK_DRAW, HandData, Kong
from xueliu.game.draw import draw, open_turn
from xueliu.game.end_of_hand import end_by_wall
from xueliu.game.redeal import clone
from xueliu.rules import Rules
from xueliu.settlement import Ledger

from .conftest import act, build_wall, has, new_game, xl_rules

_FIELDS = [f for f in HandData.__slots__ if f != "__weakref__"]


def fields(g: HandData) -> Dict[str, Any]:
    """Every field of a hand, the ledger and the kongs by their own fields."""
    out: Dict[str, Any] = {}
    for name in _FIELDS:
        v = getattr(g, name)
        if isinstance(v, Ledger):
            v = (v.transfers, v.net, v.coins)
        elif isinstance(v, Kong):
            v = tuple(getattr(v, a) for a in Kong.__slots__)
        elif name == "_kongs":
            v = [tuple(getattr(k, a) for a in Kong.__slots__) for k in v]
        out[name] = v
    return out


def native_draw(g: HandData, seat: int) -> None:
    """The hook, and the Python it hands back to (an empty wall; a turn it does not open)."""
    then = _core.turn_draw(g, seat) & 3
    if then == 2:
        end_by_wall(g)
    elif then == 3:
        open_turn(g, seat, g._drawn, TK_DRAW)


def python_draw(g: HandData, seat: int) -> None:
    """draw.py's own draw and open_turn, from the front of the live wall."""
    earthly = bool(g._earthly_draw and g._first_draw[seat] and not g._any_meld)
    kong_back, fresh_only = g._kong_back, g._fresh_only
    g._kong_back, g._fresh_only = False, False
    try:
        draw(g, seat, True)
    finally:
        g._kong_back, g._fresh_only = kong_back, fresh_only
    if g._ev and g._ev[-1][0] == "tsumo" and g._ev[-1][1] == seat:
        g._rinshan = False
        g._ev[-1] = (*g._ev[-1][:3], False)
        if g._earthly_draw:
            g._earthly = earthly


def assert_same_draw(pre: HandData, seat: int) -> Dict[str, Any]:
    a, b = clone(pre), clone(pre)
    native_draw(a, seat)
    python_draw(b, seat)
    fa, fb = fields(a), fields(b)
    diff = [name for name in _FIELDS if fa[name] != fb[name]]
    assert not diff, {name: (fa[name], fb[name]) for name in diff}
    return fa


def discarded(state: xueliu.GameState, seat: int, kind: int) -> Optional[xueliu.GameState]:
    """A copy of ``state`` right after ``seat`` discards ``kind`` and before the next seat's draw,
    or ``None`` when another seat could claim it (then no plain draw follows at once).

    The native discard hands a claimable tile to Python before drawing: one other seat is made
    to wait on the tile for the discard alone, then given its waits back."""
    g = clone(state)
    others = [(seat + i) % g._n for i in range(1, g._n)]
    if any((g._waits[q] >> kind) & 1 or g._hands[q][kind] > 1 for q in others):
        return None
    q = others[0]
    saved = g._waits[q]
    g._waits[q] = saved | 1 << kind
    assert _core.turn_discard(g, seat, kind) & 3 == 1
    g._waits[q] = saved
    return g


def edges_of(pre: HandData, seat: int, after: Dict[str, Any]) -> List[str]:
    """The edges a draw reached, by name."""
    out = []
    live = pre._back - pre._front + 1
    if live <= 0:
        out.append("the wall is empty")
    elif live == 1:
        out.append("the last live tile")  # (海底 with a win: scripted below)
    if pre._rinshan:
        out.append("after a replacement draw")
    if pre._back < pre.rules.shape.wall_tiles - 1:
        out.append("replacements taken from the back")
    if pre._frozen[seat]:
        out.append("a frozen hand")
    if pre._forced_n and 0 < live <= pre._forced_n:
        out.append("the forced-win tiles")
    if pre._void_count[seat]:
        out.append("void tiles held")
    if pre._earthly_draw and pre._first_draw[seat] and not pre._any_meld:
        out.append("地胡's first draw")
    legal = after["_legal"].get(seat, [])
    if any(a.kind in ("concealed_kong", "added_kong") for a in legal):
        out.append("a kong offered")
    return out


TABLES = {
    "xueliu": Rules.preset("xueliu").replace(kong_draw_from="back", forced_win_last_n=4,
                                             heavenly_earthly=True, haidi=True),
    "xuezhan": Rules.preset("xuezhan").replace(pass_blocks_discard_win="not_higher"),
    "three_seats": Rules.preset("xueliu").replace(players=3, heavenly_earthly=True,
                                                  kong_draw_from="back"),
    "sanren_liangfang": Rules.preset("sanren_liangfang").replace(forced_win_last_n=4),
    "two_seats": Rules.preset("xueliu").replace(players=2, declare_void=False),
    "erren_yifang": Rules.preset("erren_yifang").replace(mode="xueliu"),
    "siren_liangfang": Rules.preset("siren_liangfang").replace(mode="xueliu"),
}
HANDS = 16
WANTED = {"the last live tile", "the wall is empty",
          "after a replacement draw", "replacements taken from the back", "a frozen hand",
          "the forced-win tiles", "void tiles held", "地胡's first draw", "a kong offered"}


def greedy_or_random(state: xueliu.GameState, seat: int, rng: random.Random):
    """Wins and kongs when offered (so the edges come), else a random legal action."""
    legal = state.legal_actions(seat)
    for kind in ("hu", "concealed_kong", "added_kong", "kong", "peng"):
        hits = [a for a in legal if a.kind == kind]
        if hits and rng.random() < 0.9:
            return hits[0]
    return rng.choice(legal)


@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_native_draw_opens_every_turn_as_the_python_draw_does(table):
    rules = TABLES[table]
    reached: Dict[str, int] = {}
    compared = 0
    for index in range(HANDS):
        rng = random.Random(f"{table}-{index}")
        state = xueliu.new_game(rules, seed=index, dealer=index % rules.players)
        while not state.is_over:
            pend = state.pending()
            if state.phase == "turn" and len(pend) == 1:
                seat = pend[0]
                live = state._back - state._front + 1
                if live <= 8 or rng.random() < 0.25:
                    discards = [a for a in state.legal_actions(seat) if a.kind == "discard"]
                    for a in rng.sample(discards, min(2, len(discards))):
                        pre = discarded(state, seat, a.id)
                        if pre is None:
                            continue
                        nxt = pre._next_in_play(seat)
                        after = assert_same_draw(pre, nxt)
                        compared += 1
                        for e in edges_of(pre, nxt, after):
                            reached[e] = reached.get(e, 0) + 1
            state.step({q: greedy_or_random(state, q, rng) for q in pend})
    assert compared > 60
    wanted = set(WANTED)
    if rules.mode != "xueliu" or rules.players == 2:
        wanted.discard("a frozen hand")
    if not rules.forced_win_last_n:
        wanted.discard("the forced-win tiles")
    if not rules.heavenly_earthly:
        wanted.discard("地胡's first draw")
    if not rules.declare_void:
        wanted.discard("void tiles held")
    if rules.kong_draw_from != "back":
        wanted.discard("replacements taken from the back")
    if rules.hand_size == 7:
        wanted.discard("a kong offered")  # seven tiles of one suit: rare at a plain draw
    missing = wanted - set(reached)
    assert not missing, (missing, reached)


# --- scripted edges at the default table -------------------------------------------------------

KONG_TANKI_5P = "1111m23m456m789m5p"  # waiting on 5p alone, holding four 1m


@pytest.mark.parametrize("haidi", [False, True])
def test_the_last_live_tile_opens_the_same_turn_natively_and_in_python(haidi):
    """Every draw of a hand compared; seat 1, waiting on 5p with four 1m in hand, draws the last
    live tile, the 5p: 胡 (海底捞月 with ``haidi``) and no kong, in both."""
    rules = xl_rules(haidi=haidi)
    # dealer 2: the live draws go to seats 3, 0, 1, 2, …; the 55th, the last, to seat 1
    sw = build_wall(["*", KONG_TANKI_5P, "55p 8s *", "*"], last=["?", "?", "?", "5p"], dealer=2)
    state = new_game(rules, sw)
    act(state, 2, "discard", "8s")
    seen_last = False
    while not state.is_over:
        (q,) = state.pending()
        live = state._back - state._front + 1
        assert state.phase == "turn"
        k = state._drawn
        pre = discarded(state, q, k)
        if pre is not None:
            after = assert_same_draw(pre, pre._next_in_play(q))
            if after["_turn"] == 1:
                kinds = [a.kind for a in after["_legal"][1]]
                assert ("concealed_kong" in kinds) == (live > 1)
            if live == 1:
                seen_last = True
                assert after["_haitei"] and after["_turn"] == 1 and kinds[-1] == "hu"
        if q == 1 and has(state, 1, "hu"):
            act(state, 1, "hu")
            break
        state.step({q: xueliu.Action.from_id(k)})
    assert seen_last
    (w,) = state.settlement().wins
    assert ("last_tile" in w.flags) and (("haidilaoyue" in w.fan_result.extras) == haidi)


def test_the_draw_after_a_replacement_draw_keeps_none_of_its_marks():
    # the dealer kongs four 9s, draws its replacement and discards: seat 1's plain draw
    sw = build_wall(["9999s *", "*", "*", "*"], draws=["?", "?"], back=["?"], quiet_distinct=True)
    for draw_from in ("front", "back"):
        state = new_game(xl_rules(kong_draw_from=draw_from), sw)
        act(state, 0, "concealed_kong", "9s")
        assert state._rinshan and state._last_kong is not None
        k = state._drawn
        pre = discarded(state, 0, k)
        assert pre is not None
        after = assert_same_draw(pre, 1)
        assert not after["_rinshan"] and after["_last_kong"] is None and after["_turn"] == 1


def test_an_empty_wall_ends_the_hand_alike():
    sw = build_wall(["8s *", "*", "*", "*"])
    state = new_game(xl_rules(), sw)
    act(state, 0, "discard", "8s")
    while not (state.phase == "turn" and state._back < state._front):
        (q,) = state.pending()
        state.step({q: xueliu.Action.from_id(state._drawn)})
    (q,) = state.pending()
    pre = discarded(state, q, state._drawn)
    assert pre is not None
    after = assert_same_draw(pre, pre._next_in_play(q))
    assert after["_phase"] == 5 and after["_end_reason"] == "wall_exhausted"


def test_a_seats_own_draw_lifts_its_guoshui_block_alike(monkeypatch):
    """过水 (``pass_blocks_discard_win``): seat 1 passes a win on the dealer's 5p; the draw that
    follows at once is its own, which lifts the block in both (docs/rules.md §10)."""
    from xueliu.game import draw as draw_module

    sw = build_wall(["5p *", "123m456m789m123p5p", "*", "*"], draws=["?"])
    state = new_game(xl_rules(pass_blocks_discard_win="not_higher"), sw)
    act(state, 0, "discard", "5p")
    assert has(state, 1, "hu")
    before_draw = []
    real = draw_module._turn_draw

    def recording(g, seat):
        before_draw.append((clone(g), seat))
        return real(g, seat)

    monkeypatch.setattr(draw_module, "_turn_draw", recording)
    act(state, 1, "pass")
    (pre, seat), = before_draw
    assert seat == 1 and pre._pass_block[1] == 1
    after = assert_same_draw(pre, 1)
    assert after["_pass_block"][1] is None


def test_a_seat_holding_void_tiles_may_discard_only_them_alike():
    # the void phase on: each seat's void is its shortest suit; draws compared through the hand
    rules = Rules.preset("xueliu").replace(exchange_three=False)
    compared = 0
    for seed in range(6):
        state = xueliu.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and compared < 40:
            pend = state.pending()
            if state.phase == "turn":
                (q,) = pend
                k = state._drawn if state._drawn >= 0 else state.legal_actions(q)[0].id
                pre = discarded(state, q, k) if k < 27 else None
                if pre is not None:
                    nxt = pre._next_in_play(q)
                    if pre._void_count[nxt]:
                        after = assert_same_draw(pre, nxt)
                        v = pre._void[nxt]
                        assert all(a.kind == "discard" and a.id // 9 == v
                                   for a in after["_legal"].get(nxt, []))
                        compared += 1
            state.step({s: rng.choice(state.legal_actions(s)) for s in pend})
    assert compared >= 20
