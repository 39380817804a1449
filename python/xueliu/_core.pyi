"""Private native core of xueliu (C++17 via pybind11). Use the public names in ``xueliu`` instead.

Kinds are ints 0..26 (``suit = k // 9``: 0 万 m, 1 筒 p, 2 条 s; ``rank = k % 9 + 1``).
Meld pairs are ``(type, kind)`` with type 0 peng, 1 exposed kong, 2 concealed kong.
``void`` is -1 (none) or a suit 0..2. Every function raises ``ValueError`` naming the bad part.

The ``seven_pairs`` argument of is_win, waits, shanten, jinzhang and the batch calls is a *shape
code* (cpp/tiles.hpp ``hand_shape``; ``xueliu.rules.Shape.code``, ``Rules._shape_code``): bit 0 the
seven_pairs knob, bits 1..3 the suits not in play (bit 1 + s for suit s), bits 4..5 the hand size
(0: 13, 1: 10, 2: 7). True / False (1 / 0) are the default table with and without the pairs
family, as before docs/rules.md §11. A tile of a suit not in play, more melds than the shape's sets, or a
void with fewer than three suits is a ``ValueError``.
"""

from typing import Any, Callable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

PATTERN_IDS: tuple[str, ...]
"""Base-pattern ids in docs/rules.md §6 table order (§11.3's jiangqidui, jiangjingoudiao after
jiangdui), then §12's siji (四鸡); index = pattern code."""
EXTRA_IDS: tuple[str, ...]
"""Additive fan ids other than gen in docs/rules.md §6 then §11.3 then §12 order (wuji, 无鸡, last);
bit i of an extras mask."""
DEFAULT_FAN_TABLE: tuple[int, ...]
"""Fan of each base pattern of the fan table, indexed by pattern code: every pattern but siji, whose
fan is the four_wilds knob's."""

# Bits of the ``flags`` argument of :func:`evaluate`.
SELF_DRAW: int
KONG_REPLACEMENT: int
AFTER_KONG_DISCARD: int
ROBBED_KONG: int
LAST_TILE: int
HEAVENLY: int
EARTHLY: int

class Hand:
    """A validated hand: 27 concealed natural counts, up to four melds (no fifth physical copy)
    and a count of concealed wilds (docs/rules.md §12). A meld is ``(type, kind)``, or
    ``(type, kind, wilds)`` for a soft meld holding that many wilds (at least one natural tile)."""

    def __init__(self, counts: bytes, melds: Sequence[Union[tuple[int, int], tuple[int, int, int]]] = (),
                 wilds: int = 0) -> None: ...
    @property
    def counts(self) -> bytes: ...
    @property
    def melds(self) -> list[Union[tuple[int, int], tuple[int, int, int]]]: ...
    @property
    def wilds(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class ScoringRules:
    """The scoring knobs of docs/rules.md §6/§9/§11 and the table shape, built once per ``Rules``."""

    def __init__(
        self,
        *,
        seven_pairs: bool = True,
        jingoudiao: int = 0,  # 0 off, 1 base (True), 2 additive
        heavenly_earthly: int = 0,  # likewise
        haidi: bool = False,
        zimo_fan: bool = False,
        menqing: bool = False,
        duanyaojiu: bool = False,
        yitiaolong: bool = False,
        jiaxinwu: bool = False,
        haidipao: bool = False,
        gen_counts: int = 0,
        max_fan: int = 0,
        fan_table: Optional[Sequence[int]] = None,
        multipliers: Sequence[int] = (),
        shape: int = 1,  # a shape code (its seven-pairs bit is replaced by seven_pairs)
        jiang_patterns: bool = False,
        kaertiao: bool = False,
        single_wait: bool = False,
        earthly_win: int = 0,  # 0 first_draw, 1 first_discard, 2 either
        tianhu_extra: int = 3,  # the additive 天胡 / 地胡 amounts
        dihu_extra: int = 2,
        # docs/rules.md §12: bit k when every tile of kind k is wild, bit 27 for added 红中
        wild_kinds: int = 0,
        wild_fifth_copy: bool = False,
        wild_gen: int = 0,  # 0 fours, 1 natural, 2 per_wild
        no_wild_bonus: int = 0,  # 无鸡's fan, 0..3 (0: off)
        four_wilds: int = 0,  # 四鸡: 0 none, -1 "cap" (max_fan), N >= 1 N fan
    ) -> None: ...
    seven_pairs: bool  # read-only, as are all below
    jingoudiao: int
    heavenly_earthly: int
    shape: int
    jiang_patterns: bool
    kaertiao: bool
    single_wait: bool
    earthly_win: int
    tianhu_extra: int
    dihu_extra: int
    haidi: bool
    zimo_fan: bool
    menqing: bool
    duanyaojiu: bool
    yitiaolong: bool
    jiaxinwu: bool
    haidipao: bool
    gen_counts: int
    max_fan: int
    fan_table: list[int]
    multipliers: list[int]
    wild_kinds: int
    wild_fifth_copy: bool
    wild_gen: int
    no_wild_bonus: int
    four_wilds: int

FanTuple = tuple[int, int, int, int, int, int]
"""(fan, multiplier, base pattern code, base_fan, gen, extras): the extras mask in bits 0..15, and
above them what an additive 天胡 / 地胡 and 无鸡 add beyond one fan each (0 otherwise, so every §1-§10
result is the plain mask)."""

HandArg = Union[Hand, str, Sequence[str], Sequence[int], npt.NDArray[Any]]
"""A hand argument: a Hand, docs/rules.md §1 notation, a sequence of tile names ("5m", "5万": a list,
tuple, any other sequence, or a numpy array of str), or 27 counts (uint8 array, any integer array,
list or tuple of ints). ``melds`` goes only with the last
two: None or (type, kind) pairs. Other types are a TypeError; bad text, names or counts a ValueError
with the messages of xueliu.tiles."""
MeldPairs = Optional[Sequence[tuple[int, int]]]

def tile_name(kind: int) -> str: ...
def parse_hand(text: str) -> Hand:
    """docs/rules.md §1 notation as a Hand (the tile count is not checked)."""
def hand_from_counts(counts: Any, melds: MeldPairs = None) -> Hand:
    """A Hand from 27 counts and (type, kind) meld pairs, with xueliu.tiles' messages."""
def hand_of(hand: HandArg, melds: MeldPairs = None) -> Hand:
    """The Hand of any hand argument."""
# docs/rules.md §12.5 notation: physical tiles, 红中 as kind 27, a soft meld with its wild kinds.
def parse_physical(text: str) -> tuple[bytes, list[tuple[int, int, tuple[int, ...]]]]: ...
def format_physical(text: str) -> str: ...
def hand_of_physical(text: str, wild_kinds: int) -> Hand: ...
def is_win(hand: HandArg, void: int, seven_pairs: Union[bool, int], melds: MeldPairs = None) -> bool: ...
def waits(hand: HandArg, void: int, seven_pairs: Union[bool, int], melds: MeldPairs = None) -> int:
    """Bitmask of the waiting kinds (bit k = kind k)."""
def shanten(hand: HandArg, void: int, seven_pairs: Union[bool, int], melds: MeldPairs = None) -> int: ...
# The same under wild rules: wild_kinds has bit k when every tile of kind k is wild, bit 27 when red
# dragons are added (the rules' wild set, docs/rules.md §12.1); wild_fifth_copy lets a reading use
# a kind past four copies. waits_wild lists natural kinds: a drawn wild completes every ready hand.
def is_win_wild(hand: HandArg, void: int, seven_pairs: Union[bool, int], wild_kinds: int,
                wild_fifth_copy: bool = False) -> bool: ...
def waits_wild(hand: HandArg, void: int, seven_pairs: Union[bool, int], wild_kinds: int,
               wild_fifth_copy: bool = False) -> int: ...
def shanten_wild(hand: HandArg, void: int, seven_pairs: Union[bool, int], wild_kinds: int,
                 wild_fifth_copy: bool = False) -> int: ...
def evaluate(hand: HandArg, void: int, rules: ScoringRules, win_tile: int = -1, flags: int = 0,
             melds: MeldPairs = None) -> FanTuple:
    """Under wild rules (``rules.wild_kinds`` ...) the best reading of the hand's wilds, or 四鸡
    (docs/rules.md §12.2, §12.5); ``win_tile`` 27: the winning tile is a wild."""
def _register_results(fan_result: type, wait_option: type, discard_option: type,
                      make_fan_result: Callable[[FanTuple], Any]) -> None:
    """Registers the public NamedTuples discard_options builds (xueliu.hand does, at import)."""
def discard_options(hand: HandArg, visible: Union[None, str, Hand, Sequence[int], npt.NDArray[Any]],
                    void: int, rules: ScoringRules, melds: MeldPairs = None) -> list[Any]:
    """查听 as a list of the registered DiscardOption (xueliu.hand.DiscardOption), best first:
    shanten, then tiles left to draw (jinzhang_total), then best discard-win fan, then kind. With a
    void and void tiles in the hand, only those are options. ``visible``: None, notation or a Hand
    (their tiles, melds included), or 27 counts."""
def jinzhang(hand: HandArg, visible: Union[None, str, Hand, Sequence[int], npt.NDArray[Any]],
             void: int, seven_pairs: Union[bool, int], melds: MeldPairs = None) -> tuple[tuple[str, int], ...]:
    """进张 of a 13 - 3k hand: ((tile name, remaining), ...) in kind order (own = the hand + melds)."""
def discard_options_wild(hand: HandArg, visible: Union[None, bytes, Sequence[int]], void: int,
                         rules: ScoringRules, wild_left: int, wild_discard: bool) -> list[Any]:
    """查听 under wild rules (rules carries the wild set): the registered DiscardOption, best
    first; visible holds natural tiles only, wild_left the wilds not seen, wild_discard whether a
    wild may be discarded. The wild is named "wild"."""
def jinzhang_wild(hand: HandArg, visible: Union[None, bytes, Sequence[int]], void: int,
                  seven_pairs: Union[bool, int], wild_kinds: int, wild_fifth_copy: bool,
                  wild_left: int) -> tuple[tuple[str, int], ...]:
    """进张 under wild rules: the natural kinds' (tile name, remaining), then ("wild", wild_left)."""
def best_discards(
    hand: HandArg, visible: Optional[bytes], void: int, rules: ScoringRules
) -> list[tuple[int, int, int, list[tuple[int, int, FanTuple, FanTuple]]]]:
    """Per discard, in discard_options' order: (discard kind, shanten, total remaining,
    [(wait kind, remaining, discard-win fan tuple, self-draw fan tuple), ...])."""
def best_discards_keys(
    hand: HandArg, visible: Optional[bytes], void: int, rules: ScoringRules
) -> list[tuple[int, int, int, tuple[Union[int, tuple[int, int, FanTuple, FanTuple]], ...]]]:
    """best_discards with each wait as one key: a packed int, low bits first kind 5, remaining 3,
    base pattern code 5, discard-win extras mask 10, self-draw adds zimo 1, gen 6, base_fan 10,
    discard-win fan 12, self-draw fan 12 (the multipliers follow from the fans and the rules); or,
    when a field does not fit, the tuple (wait kind, remaining, discard-win fan tuple, self-draw fan
    tuple)."""

def batch_is_win(
    counts: npt.NDArray[np.uint8],
    melds: Optional[npt.NDArray[np.int16]] = None,
    void: Optional[npt.NDArray[np.int8]] = None,
    seven_pairs: Union[bool, int] = True,
    threads: int = 1,
    *,
    wilds: Optional[npt.NDArray[np.uint8]] = None,
    wild_kinds: int = 0,
    wild_fifth_copy: bool = False,
) -> npt.NDArray[np.bool_]: ...
def batch_waits(
    counts: npt.NDArray[np.uint8],
    melds: Optional[npt.NDArray[np.int16]] = None,
    void: Optional[npt.NDArray[np.int8]] = None,
    seven_pairs: Union[bool, int] = True,
    threads: int = 1,
    *,
    wilds: Optional[npt.NDArray[np.uint8]] = None,
    wild_kinds: int = 0,
    wild_fifth_copy: bool = False,
) -> npt.NDArray[np.uint32]: ...
def batch_shanten(
    counts: npt.NDArray[np.uint8],
    melds: Optional[npt.NDArray[np.int16]] = None,
    void: Optional[npt.NDArray[np.int8]] = None,
    seven_pairs: Union[bool, int] = True,
    threads: int = 1,
    *,
    wilds: Optional[npt.NDArray[np.uint8]] = None,
    wild_kinds: int = 0,
    wild_fifth_copy: bool = False,
) -> npt.NDArray[np.int8]: ...
def batch_evaluate(
    counts: npt.NDArray[np.uint8],
    melds: Optional[npt.NDArray[np.int16]],
    void: Optional[npt.NDArray[np.int8]],
    rules: ScoringRules,
    flags: int = 0,
    threads: int = 1,
    *,
    wilds: Optional[npt.NDArray[np.uint8]] = None,
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]:
    """(fan, base pattern code) per row; rows that are not wins give fan 0 and code -1. Under
    wild rules (rules.wild_kinds) wilds is each row's concealed wild count: the best reading, or
    四鸡 (code 21)."""

def dispatch_info() -> dict[str, Any]:
    """Runtime dispatch of the hot batch functions (cpp/bits.hpp): {"build": "dispatch" |
    "portable" | "native", "clones": the compiled variants (["default", "popcnt",
    "arch=x86-64-v3"] or []), "selected": the one this CPU runs ("" without dispatch),
    "compiler": e.g. "gcc 12.2.0"}."""

def tables_info() -> dict[str, float]:
    """{"bytes": table memory, "build_seconds": time the first use spent building them}."""

def _suit_costs(
    counts9: Sequence[int], caps9: Optional[Sequence[int]] = None, use_table: bool = True
) -> list[int]:
    """Test hook: the 10 costs f[m, p] (index 2m + p) of one suit, from the table or the capped DP."""
def _check_tables() -> int:
    """Test hook: the number of table keys that disagree with the exact DP (0 when all agree)."""

# --- learning tensors (bind_encode.cpp, cpp/encode.cpp) ---

OBS_V1_CHANNELS: tuple[str, ...]
"""The obs_v1 channel names in the native encoder's order (xueliu.learn.channels.OBS_V1 matches)."""

def register_views(hand_data: type, void_actions: tuple[Any, ...]) -> None:
    """Engine hook (xueliu/game/view.py, once): the HandData class the encoder reads, actions.VOID."""

def encode_obs_v1(
    states: Sequence[Any],
    seats: Sequence[int],
    picks: Optional[Sequence[Sequence[int]]],
    out: npt.NDArray[np.float32],
) -> npt.NDArray[np.float32]:
    """Writes channels 0..91 of out[i] (float32[n, >=92, 27], C-contiguous) with obs_v1 of seat
    seats[i] in the hand states[i] (a GameState), read from its fields as
    xueliu.game.view.public_pieces gives them; picks: None or the exchange picks per view. Every
    view is read and checked before anything is written (TypeError / ValueError naming
    states[i].field). Returns out. GIL released while writing."""

# --- engine hooks (bind_engine.cpp): game/'s hottest paths on a hand's own fields ---

def register_engine(
    hand_data: type,
    discard: tuple[Any, ...],
    concealed_kong: tuple[Any, ...],
    added_kong: tuple[Any, ...],
    hu: Any,
    only: tuple[tuple[int], ...],
    exchange_of: Callable[[int], Any],
) -> None:
    """Engine hook (xueliu/game/draw.py, once): the interned actions and pending tuples."""

def turn_step(state: Any, seat: Any, action: Any) -> int:
    """state.step({seat: action}) for a legal discard on the seat's turn (checked, logged, played
    as turn_discard: its result + 16 * the kind); -1 and nothing done for any other call."""

def turn_discard(state: Any, seat: int, kind: int) -> int:
    """turn.py's discard, then the next seat's plain draw when nobody may claim the tile. Returns
    next + 4 * seat: 0 done, 1 open the claim window, 2 the wall is empty, 3 open that seat's turn
    in Python."""

def turn_draw(state: Any, seat: int) -> int:
    """draw.py's plain draw and open_turn; returns as turn_discard (0, 2 or 3)."""

def exchange_options(hand: bytearray, same_suit: bool) -> list[Any]:
    """The exchange actions a hand (27 counts) may give, in lexicographic order of kind triples."""

# --- the wall (bind_wall.cpp, cpp/wall.hpp) ---

def shuffled_wall(state: int) -> tuple[list[int], int]:
    """The 108 kinds in draw order from a splitmix64 state, and the state after its ten draws."""

def roll(state: int, shuffle: bool) -> tuple[Optional[list[int]], int, int, int, int]:
    """(wall or None, die 1, die 2, exchange die, exchange pick 0..2) from a splitmix64 state."""

def deal(wall: Sequence[int], dealer: int) -> list[bytearray]:
    """The four hands dealt from 108 kinds: a bytearray of 27 counts each."""

# --- the neural bot's first layer (bind_neural.cpp, cpp/dense.hpp) ---

def first_layer_01(
    x: npt.NDArray[np.float32], rows: npt.NDArray[np.float32], out: npt.NDArray[np.float32]
) -> bool:
    """out = x @ w for x float32[n, 27 * planes] (planes <= 128: 92 for obs_v1, 111 for obs_v2)
    of 0/1 values, rows the first layer's row table (xueliu.bots.neural_net._first_layer_rows:
    w's rows, then each plane's prefix sums),
    out float32[n, H]; all C-contiguous (ValueError otherwise, or on mismatched shapes). False,
    out partly written, when an input is neither 0 nor 1. GIL released while summing."""

def renamed_first_layers_01(
    x: npt.NDArray[np.float32],
    rows: npt.NDArray[np.float32],
    tile: npt.NDArray[np.uint8],
    views: npt.NDArray[np.uint8],
    out: npt.NDArray[np.float32],
) -> bool:
    """out[i, v] = x[i] renamed by views[v] @ w (xueliu.bots.neural_views): views uint8[V, 4],
    the suit each suit becomes then 1 if the ranks are reversed; only the planes with
    tile[p] != 0 (uint8, one a plane) move, kind 9 s + q going to 9 perm[s] + q (8 - q
    reversed); x and rows as first_layer_01, out float32[n, V, H]; all C-contiguous (ValueError
    otherwise, or on mismatched shapes or a views row that is not a renaming). False, out partly
    written, when an input is neither 0 nor 1. GIL released while summing."""

ANALYSIS_CHANNELS: tuple[str, ...]
"""obs_v2's analysis channel names in the core's order (xueliu.learn.channels.ANALYSIS_V1)."""

def analysis_planes(
    x: npt.NDArray[np.float32], out: npt.NDArray[np.float32], rules: ScoringRules
) -> None:
    """Writes out[i] (float32[n, 19 * 27]) with obs_v2's analysis channels of the obs_v1 tensor
    x[i] (float32[n, 2484]) at a table of ``rules`` (its hand shape and fan table): 查听 of the
    seat's own hand, from obs_v1 alone (cpp/analysis_planes.hpp). All C-contiguous (ValueError
    otherwise). GIL released."""
