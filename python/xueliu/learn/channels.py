"""The channel tables of the encoders: one name and one line of meaning per channel.

Every channel is a row of 27 values, one per tile kind (``1m`` … ``9s``), each 0 or 1. Seats are
relative to the observing seat: ``self``, ``next`` (下家, seat + 1), ``across`` (对家) and ``prev``
(上家). Three shapes of channel:

- **tile plane**: a 1 at each kind the channel is about (``hand_2``: kinds held at least twice);
- **flag**: all 27 values 1 when the flag is on (``phase_claim``);
- **bar**: the first ``n`` values 1 for a count ``n`` (``hand_size_next``: tiles in that hand).

The tables are data (docs/learning.md prints them); the encoders compute each channel's row
offset from its name.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

__all__ = ["ANALYSIS_V1", "OBS_V1", "OBS_V2", "OBS_V3", "OBS_WILD_V1", "ORACLE_EXTRA",
           "ORACLE_V1", "ORACLE_WILD_EXTRA", "ORACLE_WILD_V1", "RELATIVE", "WILD_V1",
           "WON_WAITS_V1", "offsets"]

RELATIVE = ("self", "next", "across", "prev")
_OTHERS = RELATIVE[1:]
_WHO = {"self": "this seat", "next": "the next seat (下家)", "across": "the seat across (对家)",
        "prev": "the previous seat (上家)"}


def _per_seat(name: str, meaning: str, seats: Tuple[str, ...] = RELATIVE) -> List[Tuple[str, str]]:
    return [(name.format(r=r), meaning.format(who=_WHO[r])) for r in seats]


_TIMES = {1: "once", 2: "twice", 3: "3 times", 4: "4 times"}


def _levels(name: str, meaning: str, n: int) -> List[Tuple[str, str]]:
    return [(f"{name}_{i}", meaning.format(i=_TIMES[i])) for i in range(1, n + 1)]


def _seat_tiles(r: str) -> List[Tuple[str, str]]:
    who = _WHO[r]
    rows = [
        (f"discards_{r}", f"tile plane: kinds in {who}'s discards (河) at least once"),
        (f"discards_{r}_2", f"tile plane: kinds in {who}'s discards at least twice"),
        (f"last_discard_{r}", f"tile plane: {who}'s latest discard still in its discards"),
        (f"pengs_{r}", f"tile plane: {who}'s pengs (碰)"),
        (f"kongs_{r}", f"tile plane: {who}'s exposed kongs (直杠 and 补杠)"),
    ]
    if r == "self":
        rows.append(("concealed_kongs_self", "tile plane: own concealed kongs (暗杠)"))
    rows.append((f"won_tiles_{r}", f"tile plane: tiles {who} has won on"))
    return rows


OBS_V1: Tuple[Tuple[str, str], ...] = tuple([
    # Own tiles.
    *_levels("hand", "tile plane: own concealed tiles, kinds held at least {i}", 4),
    ("drawn", "tile plane: the tile this seat just drew"),
    ("claim_tile", "tile plane: the tile on offer in an open claim window (a discard or a kong "
                   "being robbed)"),
    *_levels("exchange_given", "tile plane: own exchange (换三张), kinds given at least {i}",
             3),
    *_levels("exchange_received", "tile plane: own exchange, kinds received at least {i}", 3),
    *_levels("exchange_picks", "tile plane: exchange picks made so far for the current choice "
                               "(set by the environment), kinds picked at least {i}", 2),
    # Public tiles, per relative seat.
    *[row for r in RELATIVE for row in _seat_tiles(r)],
    *_levels("visible", "tile plane: kinds this seat sees at least {i} outside its "
                        "concealed hand (discards, melds, set-aside winning tiles, a tile being "
                        "robbed)", 4),
    *_per_seat("void_{r}", "tile plane: the nine kinds of {who}'s void suit (定缺), once "
                           "known (own: once chosen)"),
    # Flags and counts.
    ("phase_exchange", "flag: the exchange (换三张) is being chosen"),
    ("phase_void", "flag: the void suit (定缺) is being chosen"),
    ("phase_multiplier", "flag: player multipliers (选倍) are being chosen"),
    ("phase_turn", "flag: a seat's turn (draw, then discard, kong or win)"),
    ("phase_claim", "flag: a claim window on a discard or a kong"),
    ("claim_is_rob", "flag: the claim window offers robbing an added kong (抢杠)"),
    ("pending", "flag: this seat must decide now"),
    ("mode_xuezhan", "flag: winners leave (血战到底, 倒倒胡); off: 血流成河"),
    *_per_seat("dealer_{r}", "flag: {who} is the dealer"),
    *_per_seat("turn_{r}", "flag: it is {who}'s turn (or its discard is being claimed)"),
    *_per_seat("in_play_{r}", "flag: {who} is still in play (xuezhan winners leave)"),
    *_per_seat("frozen_{r}", "flag: {who} has won in xueliu and plays a frozen hand"),
    *_per_seat("auto_play_{r}", "flag: {who} is auto-played (托管)"),
    *_per_seat("hand_size_{r}", "bar: concealed tiles in {who}'s hand"),
    *_per_seat("wins_{r}", "bar: wins of {who} so far"),
    *_per_seat("multiplier_{r}", "one-hot: a 1 at index v - 1 for {who}'s player "
                                 "multiplier v (v >= 27 at the last index), once revealed"),
    *_per_seat("hidden_kongs_{r}", "bar: concealed kongs of {who} (kind hidden)", _OTHERS),
    ("wall_0_27", "bar: live wall tiles left, up to 27"),
    ("wall_28_54", "bar: live wall tiles left beyond 27 (27 + n tiles left: n ones)"),
])
"""``obs_v1``: what one seat may see (a function of ``state.observation(seat)`` alone)."""

ORACLE_EXTRA: Tuple[Tuple[str, str], ...] = tuple([
    *[(f"hand_{r}_{i}", f"tile plane: {_WHO[r]}'s concealed tiles, kinds held at least "
                        f"{_TIMES[i]}") for r in _OTHERS for i in range(1, 5)],
    *_per_seat("concealed_kongs_{r}", "tile plane: {who}'s concealed kongs", _OTHERS),
    *_levels("live_wall", "tile plane: kinds left in the live wall at least {i}", 4),
    ("next_draw", "tile plane: the next tile of the live wall"),
])
"""The hidden information ``oracle_v1`` adds after the ``obs_v1`` channels."""

ORACLE_V1: Tuple[Tuple[str, str], ...] = OBS_V1 + ORACLE_EXTRA
"""``oracle_v1``: everything (the ``obs_v1`` channels, then :data:`ORACLE_EXTRA`)."""


WILD_V1: Tuple[Tuple[str, str], ...] = tuple([
    # Which tiles are wild this hand, and the wall set's wild pool.
    ("wild_kinds", "tile plane: the suit kinds every tile of which is wild this hand (幺鸡's 1s, "
                   "the 本金's two neighbours); zero when only 红中 are wild"),
    ("benjin", "tile plane: the 本金 turned face up for this hand (宜宾 听用), its kind"),
    ("wild_hongzhong", "flag: the wall holds red dragons (红中, 7z), every one wild"),
    ("wilds_in_wall", "bar: wilds in the wall set (4, 8, 11 or 12: the rules' count)"),
    ("wilds_held", "bar: wilds among own concealed tiles (红中 included)"),
    ("wilds_melded_self", "bar: wilds in own melds (its concealed kongs' included)"),
    ("wilds_seen", "bar: wilds this seat sees outside its own hand and melds (discards, the "
                   "others' exposed melds, set-aside winning tiles, a tile being robbed)"),
    ("wilds_unseen", "bar: the wild pool: wilds of the wall set neither held, nor in own melds, "
                     "nor seen (§12.1's remaining wilds: in the wall or hidden in other hands)"),
    # 红中 (kind 27), which no 27-kind row has: its counts.
    ("hongzhong_hand", "bar: red dragons (红中) among own concealed tiles"),
    ("hongzhong_drawn", "flag: the tile this seat just drew is a 红中"),
    ("hongzhong_claim", "flag: the tile on offer is a 红中 (the added tile of a kong being "
                        "robbed)"),
    ("hongzhong_visible", "bar: 红中 this seat sees outside its concealed hand (as visible_*: "
                          "discards, melds, set-aside winning tiles, a tile being robbed)"),
    *_per_seat("hongzhong_discards_{r}", "bar: 红中 in {who}'s discards (河)"),
    *_per_seat("last_discard_hongzhong_{r}", "flag: {who}'s latest discard still in its "
                                             "discards is a 红中"),
    *_per_seat("won_hongzhong_{r}", "bar: wins of {who} on a 红中"),
    # Soft melds (软碰, 软杠): the public wilds of each seat's melds.
    *_per_seat("soft_melds_{r}", "tile plane: kinds of {who}'s melds holding a wild (软碰, "
                                 "软杠; own concealed kongs included, another seat's hidden)"),
    *_per_seat("meld_wilds_{r}", "bar: wilds in {who}'s melds (own concealed kongs included, "
                                 "another seat's hidden)"),
])
"""The wild-tile channels (docs/rules.md §12) that ``obs_wild_v1`` adds after the ``obs_v1``
channels: which kinds are wild, the 本金, the wild pool, the counts of 红中 (kind 27, which no
row of 27 kinds holds) and the soft melds. A function of ``state.observation(seat)`` alone, like
``obs_v1``; all zero at a table without wilds."""

OBS_WILD_V1: Tuple[Tuple[str, str], ...] = OBS_V1 + WILD_V1
"""``obs_wild_v1``: the ``obs_v1`` channels, then :data:`WILD_V1` (what one seat may see at a
table with wild tiles; the environments' observation there)."""

ORACLE_WILD_EXTRA: Tuple[Tuple[str, str], ...] = tuple([
    *_per_seat("hongzhong_hand_{r}", "bar: 红中 in {who}'s concealed hand", _OTHERS),
    *_per_seat("wilds_held_{r}", "bar: wilds in {who}'s concealed hand", _OTHERS),
    *_per_seat("concealed_kong_wilds_{r}", "bar: wilds in {who}'s concealed kongs", _OTHERS),
    ("live_wall_wilds", "bar: wilds left in the live wall"),
    ("live_wall_hongzhong", "bar: 红中 left in the live wall"),
    ("next_draw_hongzhong", "flag: the next tile of the live wall is a 红中"),
])
"""The hidden wild-tile information ``oracle_wild_v1`` adds after :data:`ORACLE_EXTRA`."""

ORACLE_WILD_V1: Tuple[Tuple[str, str], ...] = OBS_WILD_V1 + ORACLE_EXTRA + ORACLE_WILD_EXTRA
"""``oracle_wild_v1``: the ``obs_wild_v1`` channels, then :data:`ORACLE_EXTRA` and
:data:`ORACLE_WILD_EXTRA` (everything, at a table with wild tiles)."""


_AFTER = "tile plane: kinds held whose discard leaves the hand "
ANALYSIS_V1: Tuple[Tuple[str, str], ...] = (
    # A discard to choose (concealed tiles + 3 per meld = hand size + 1): each kind held.
    ("discard_ready", _AFTER + "ready (shanten 0, 听)"),
    ("discard_shanten_1", _AFTER + "at shanten 1 or less"),
    ("discard_shanten_2", _AFTER + "at shanten 2 or less"),
    ("discard_min_shanten", _AFTER + "at the lowest shanten of any discard"),
    ("discard_live_4", _AFTER + "with at least 4 copies of its 进张 not in sight (its waits' "
                                "when ready)"),
    ("discard_live_8", _AFTER + "with at least 8 copies of its 进张 not in sight"),
    ("discard_live_12", _AFTER + "with at least 12 copies of its 进张 not in sight"),
    ("discard_live_20", _AFTER + "with at least 20 copies of its 进张 not in sight"),
    ("discard_best", "tile plane: the best discards of 查听 (lowest shanten, then most copies of "
                     "进张 not in sight)"),
    ("discard_ready_fan_2", _AFTER + "ready with a wait worth at least 2 fan on a discard win "
                                     "(the waits with a copy left, if any)"),
    ("discard_ready_fan_3", _AFTER + "ready with a wait worth at least 3 fan"),
    ("discard_ready_fan_4", _AFTER + "ready with a wait worth at least 4 fan"),
    # A hand at its size (another seat's turn, a claim window).
    ("jinzhang_now", "tile plane: the 进张 of the hand at its size (its waits when ready)"),
    ("shanten_bar", "bar: the hand's shanten + 1 (0 ones: a complete hand)"),
    ("live_bar", "bar: copies not in sight of the 进张 (hand at its size) or of the best "
                 "discard's 进张 (a discard to choose), up to 27"),
    ("peng_shanten_bar", "bar: in a claim window (not a rob), the shanten + 1 of the hand after "
                         "碰 of the tile on offer (0 ones: no 碰 possible or complete)"),
    ("kong_shanten_bar", "bar: in a claim window (not a rob), the shanten + 1 of the hand after "
                         "直杠 of the tile on offer"),
    ("kong_keeps_shanten", "tile plane: a discard to choose: kinds whose 暗杠 or 补杠 leaves the "
                           "hand at the best discard's shanten or lower"),
    ("ready_fan_bar", "bar: a ready hand at its size: the best discard-win fan of its waits"),
)
"""``obs_v2``'s analysis channels: what 查听 (docs/rules.md §5) says of the seat's own hand, computed by the
core from the ``obs_v1`` tensor alone (``_core.analysis_planes``, cpp/analysis_planes.hpp), so
they show nothing ``obs_v1`` does not. Every plane is zero when the hand has no complete hand in
reach."""

OBS_V2: Tuple[Tuple[str, str], ...] = OBS_V1 + ANALYSIS_V1
"""``obs_v2``: the ``obs_v1`` channels, then :data:`ANALYSIS_V1`."""

_WON = "a won 血流 hand (another seat's frozen hand, whose waits never change)"
WON_WAITS_V1: Tuple[Tuple[str, str], ...] = (
    ("won_wait", f"tile plane: kinds {_WON} has won on — a discard of one deals in for sure"),
    ("won_wait_2", "tile plane: kinds two or more won hands have won on"),
    ("won_wait_held", "tile plane: kinds held that a won hand has won on (the discards that "
                      "deal in for sure)"),
    ("won_wait_near", f"tile plane: kinds three ranks from a kind {_WON} has won on, in its "
                      "suit (the other end of a two-sided wait), not themselves won on"),
    ("won_suit", f"tile plane: the other kinds of a suit {_WON} has won in"),
    ("won_safe_held", "flag: a kind held is none of the won hands' won-on kinds (a discard "
                      "that is not a certain deal-in exists)"),
    ("won_hands", "bar: won hands at the table besides this seat's"),
)
"""``obs_v3``'s won-wait channels: where a discard deals in to a won 血流 hand (docs/rules.md §5, "when a
win ends the seat's play": a won hand plays on frozen, so every kind it has won on is still a
wait). A function of ``obs_v1``'s
``won_tiles_*`` planes, ``frozen_*`` flags and own hand (:mod:`xueliu.learn.won_waits`), so they
show nothing ``obs_v1`` does not; all zero in 血战 (no hand plays on after a win)."""

OBS_V3: Tuple[Tuple[str, str], ...] = OBS_V2 + WON_WAITS_V1
"""``obs_v3``: the ``obs_v2`` channels, then :data:`WON_WAITS_V1` (the neural bot's input)."""


def offsets(table: Tuple[Tuple[str, str], ...]) -> Dict[str, int]:
    """Each channel's byte offset in a ``uint8`` buffer of ``len(table) * 27``."""
    names = [n for n, _ in table]
    if len(set(names)) != len(names):  # pragma: no cover - a table is fixed data
        raise AssertionError("duplicate channel names")
    return {n: 27 * i for i, n in enumerate(names)}
