"""A small, obviously correct pure-Python reference of wild tiles (docs/rules.md §12), on top of
tests/reference.py.

Written straight from the rule text and the decisions D41-D58 of ``tests/data/hands.json``, by brute
force: clarity over speed. Like tests/reference.py it never imports xueliu. A hand is its physical
tiles, wilds included:

- ``counts``: 27 ints, or 28 with 红中 (kind 27, written ``7z``, ``中`` or ``红中``);
- ``melds``: ``(type, kind)`` or ``(type, kind, wilds)``: type ``"peng"``, ``"kong"``,
  ``"concealed_kong"`` (``"ankong"`` too), kind the kind of the meld's natural tiles, wilds its
  physical wild tiles (``(55m1s)`` is ``("peng", 4, (18,))``; tiles may be given as names);
- ``rules``: a preset name or a dict of knobs (``make_rules_wild``); ``benjin``: the 本金 tile, given
  with ``wild_kinds = "benjin"`` / ``"benjin_plus"`` only (D45).

How it works (D44): each concealed wild stands for one tile of a kind of a suit in play, never of the
void suit, a kind used at most 4 times counting melds at full size (no limit with
``wild_fifth_copy``). Every such *reading* is listed (readings spanning three suits are never
complete and are skipped) and the §1-§11 reference judges the substituted hand: complete or not,
and its fan. Shanten is §5's exact shanten of the natural tiles minus the wilds (D47) - a separate
computation, which tests/test_wild_reference.py checks against the readings.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple, Optional

import reference as ref
from reference import FanResult, rank_of, suit_of

HONGZHONG = 27
KIND_NAMES = ref.TILE_NAMES + ("7z",)
PRESETS_12 = ("yaoji", "leshan", "yibin", "luzhou_gui", "hongzhong")

# docs/rules.md §12 knobs at their defaults (no wilds: §1-§11 exactly), and the flow knobs the
# vectors may name, which a hand oracle accepts and does not read.
WILD_DEFAULTS = {
    "wild_kinds": (), "extra_wilds": 0, "four_wilds": None, "no_wild_bonus": 0,
    "wild_gen": "fours", "wild_fifth_copy": False, "wild_discard": "forbidden",
    "soft_peng": "off", "soft_kong": False, "swap_back": False, "soft_kong_pay": "same",
}
FLOW_DEFAULTS = {"declare_void": True, "self_draw_only": False, "min_fan_discard_win": 1}

PRESETS = {name: dict(knobs, **WILD_DEFAULTS, **FLOW_DEFAULTS) for name, knobs in ref.PRESETS.items()}
for _name in ("sanren_liangfang", "siren_liangfang", "erren_yifang"):  # docs/rules.md §11.4
    PRESETS[_name]["declare_void"] = False
PRESETS["sanren_liangfang"]["min_fan_discard_win"] = 2
PRESETS["sanren_sanfang"]["min_fan_discard_win"] = 2
# docs/rules.md §12.4, column by column (scoring, wild and the flow knobs above; the rest as xueliu).
PRESETS["yaoji"] = dict(
    PRESETS["xueliu"], wild_kinds=("1s",), soft_peng="one", soft_kong=True, swap_back=True,
    four_wilds="cap", no_wild_bonus=1, soft_kong_pay="hard_double", max_fan=4,
    jingoudiao="additive", heavenly_earthly="additive", haidi=True)
PRESETS["leshan"] = dict(
    PRESETS["xueliu"], wild_kinds=("1s",), soft_peng="two", soft_kong=True, swap_back=True,
    four_wilds=3, no_wild_bonus=1, wild_fifth_copy=True, max_fan=5, self_draw_bonus="fan",
    heavenly_earthly="additive", menqing=True)
PRESETS["yibin"] = dict(
    PRESETS["xueliu"], wild_kinds="benjin", soft_peng="one", swap_back=True, no_wild_bonus=2,
    max_fan=6, self_draw_bonus="none", self_draw_only=True,
    fan_table={"duiduihu": 3, "longqidui": 4, "qingdui": 6, "qingqidui": 6, "qinglongqidui": 7})
PRESETS["luzhou_gui"] = dict(
    PRESETS["xueliu"], extra_wilds=4, soft_peng="two", soft_kong=True, swap_back=True,
    no_wild_bonus=3, max_fan=4, multipliers=(2, 5, 10, 20, 40, 80))
PRESETS["hongzhong"] = dict(
    PRESETS["xueliu"], declare_void=False, extra_wilds=4, wild_discard="dead", soft_peng="one",
    soft_kong=True, swap_back=True, no_wild_bonus=3, wild_gen="per_wild", max_fan=5,
    multipliers=(2, 5, 10, 20, 40), self_draw_bonus="fan", min_fan_discard_win=2,
    fan_table={"duiduihu": 3, "qingyise": 5})

EXTRA_IDS = ref.EXTRA_IDS + ("wuji",)  # D51: 无鸡 is listed last


# --------------------------------------------------------------------------------------------
# Tiles and notation (D42)
# --------------------------------------------------------------------------------------------

def kind_of(tile) -> int:
    """A kind index 0..27 from an int or a name ("5m", "7z", "中", "红中")."""
    if isinstance(tile, int) and 0 <= tile <= HONGZHONG:
        return tile
    if tile in ("中", "红中"):
        return HONGZHONG
    if tile in KIND_NAMES:
        return KIND_NAMES.index(tile)
    raise ValueError(f"bad tile {tile!r}")


def _tile_groups(text: str) -> list:
    """Split notation into groups, each a list of kinds written together: ``"123m"``, ``"7z"``,
    ``"中"``, a meld ``"(55m1s)"`` (then the group is ``("meld", bracket, [groups])``)."""
    out, digits, i = [], "", 0
    while i < len(text):
        ch = text[i]
        if ch in "0123456789":
            digits += ch
            i += 1
        elif ch in ref.SUIT_ALIASES or ch == "z":
            if not digits:
                raise ValueError(f"suit {ch!r} with no digits")
            if "0" in digits:
                raise ValueError("rank 0")
            if ch == "z":
                if set(digits) != {"7"}:
                    raise ValueError(f"{digits}z: 7z (红中) is the only z tile")
                out.append([HONGZHONG] * len(digits))
            else:
                out.append([ref.SUIT_ALIASES[ch] * 9 + int(d) - 1 for d in digits])
            digits = ""
            i += 1
        elif text.startswith("红中", i) or ch == "中":
            if digits:
                raise ValueError("digits with no suit")
            out.append([HONGZHONG])
            i += 2 if ch == "红" else 1
        elif ch in "([":
            if digits:
                raise ValueError("digits with no suit")
            j = text.find(")" if ch == "(" else "]", i)
            if j < 0:
                raise ValueError("unclosed meld")
            inner = _tile_groups(text[i + 1:j])
            if any(isinstance(g, tuple) for g in inner):
                raise ValueError("a meld inside a meld")
            out.append(("meld", ch, inner))
            i = j + 1
        else:
            raise ValueError(f"unexpected {ch!r}")
    if digits:
        raise ValueError("digits with no suit")
    return out


def _meld_of(bracket: str, groups: list) -> tuple:
    """A meld from its groups: the first is its natural kind, the rest its wilds (D42)."""
    if not groups:
        raise ValueError("empty meld")
    natural, wilds = groups[0], sorted(t for g in groups[1:] for t in g)
    if len(set(natural)) != 1 or natural[0] == HONGZHONG:
        raise ValueError("a meld's first group is one natural kind (not 红中)")
    kind = natural[0]
    if kind in wilds:
        raise ValueError("a meld's wilds are not of its natural kind")
    size = len(natural) + len(wilds)
    if bracket == "(" and size in (3, 4):
        mtype = "peng" if size == 3 else "kong"
    elif bracket == "[" and size == 4:
        mtype = "concealed_kong"
    else:
        raise ValueError(f"a meld of {size} tiles in {bracket}")
    return (mtype, kind, tuple(wilds))


def meld_size(mtype: str) -> int:
    return 3 if mtype == "peng" else 4


def physical_counts(counts, melds) -> list:
    """Physical tiles per kind 0..27: the concealed ones, every meld's natural tiles and wilds."""
    total = list(counts) + [0] * (28 - len(counts))
    for mtype, kind, wilds in melds:
        total[kind] += meld_size(mtype) - len(wilds)
        for t in wilds:
            total[t] += 1
    return total


def parse_wild(text: str):
    """docs/rules.md §12 notation -> (28 counts, melds as (type, kind, wilds)). No rules needed: it
    checks the notation and the physical limits (4 of a kind, 12 红中); D42."""
    counts, melds = [0] * 28, []
    for group in _tile_groups("".join(text.split())):
        if isinstance(group, tuple):
            melds.append(_meld_of(group[1], group[2]))
        elif melds:
            raise ValueError("concealed tile after a meld")
        else:
            for t in group:
                counts[t] += 1
    if len(melds) > 4:
        raise ValueError("more than 4 melds")
    total = physical_counts(counts, melds)
    for k in range(27):
        if total[k] > 4:
            raise ValueError(f"fifth copy of {KIND_NAMES[k]}")
    if total[HONGZHONG] > 12:
        raise ValueError("more than 12 红中")
    return counts, melds


def _write(kinds) -> str:
    """Kinds in index order, each run of one suit as digits + its letter: [18, 18, 27] -> 11s7z."""
    out = ""
    for suit, run in itertools.groupby(sorted(kinds), key=lambda t: KIND_NAMES[t][1]):
        out += "".join(KIND_NAMES[t][0] for t in run) + suit
    return out


def to_notation_wild(counts, melds=()) -> str:
    """Canonical notation: 万 筒 条 ascending, then 7z, then the melds as given (D42)."""
    out = _write(k for k in range(len(counts)) for _ in range(counts[k]))
    for mtype, kind, wilds in _norm_melds(melds):
        body = _write([kind] * (meld_size(mtype) - len(wilds))) + _write(wilds)
        out += f"[{body}]" if mtype == "concealed_kong" else f"({body})"
    return out


def _norm_melds(melds) -> list:
    out = []
    for meld in melds:
        mtype, kind, wilds = (tuple(meld) + ((),))[:3]
        if mtype not in ref.MELD_ALIASES:
            raise ValueError(f"bad meld kind {mtype!r}")
        out.append((ref.MELD_ALIASES[mtype], kind_of(kind), tuple(sorted(kind_of(t) for t in wilds))))
    return out


# --------------------------------------------------------------------------------------------
# Rules and validation (D43, D45)
# --------------------------------------------------------------------------------------------

def make_rules_wild(preset="xueliu", **overrides) -> dict:
    """A preset's knobs (§9, §11.4, §12.4) with overrides; the §12 knob values are checked (D43)."""
    rules = ref.rules_from(PRESETS, preset, overrides)
    play = ref._play(rules["suits"])
    wk = rules["wild_kinds"]
    if wk not in ("benjin", "benjin_plus"):
        kinds = [kind_of(t) for t in wk]
        if HONGZHONG in kinds or len(set(kinds)) != len(kinds) or any(suit_of(k) not in play for k in kinds):
            raise ValueError(f"bad wild_kinds {wk!r}")
        rules["wild_kinds"] = tuple(kinds)
    elif rules["extra_wilds"]:
        raise ValueError("wild_kinds benjin / benjin_plus cannot be combined with extra_wilds")
    if rules["extra_wilds"] not in (0, 4, 8, 12):
        raise ValueError(f"bad extra_wilds {rules['extra_wilds']!r}")
    fw = rules["four_wilds"]
    if not (fw is None or fw == "cap" or (isinstance(fw, int) and not isinstance(fw, bool) and fw >= 1)):
        raise ValueError(f"bad four_wilds {fw!r}")
    if fw == "cap" and rules["max_fan"] is None:
        raise ValueError("four_wilds 'cap' needs max_fan")
    if rules["no_wild_bonus"] not in (0, 1, 2, 3):
        raise ValueError(f"bad no_wild_bonus {rules['no_wild_bonus']!r}")
    for knob, values in (("wild_gen", ("fours", "natural", "per_wild")),
                         ("wild_discard", ("forbidden", "dead")),
                         ("soft_peng", ("off", "one", "two")),
                         ("soft_kong_pay", ("same", "hard_double"))):
        if rules[knob] not in values:
            raise ValueError(f"bad {knob} {rules[knob]!r}")
    for knob in ("soft_kong", "swap_back", "wild_fifth_copy"):
        if not isinstance(rules[knob], bool):
            raise ValueError(f"bad {knob} {rules[knob]!r}")
    return rules


def _full_rules(rules) -> dict:
    return ref._full_rules(rules, make_rules_wild)


def wild_set(rules, benjin=None) -> frozenset:
    """The wild kinds of a hand under ``rules`` (红中 included when the wall holds it)."""
    wk = rules["wild_kinds"]
    if wk in ("benjin", "benjin_plus"):
        if benjin is None:
            raise ValueError("wild_kinds benjin needs the 本金 tile")
        k = kind_of(benjin)
        if k == HONGZHONG or suit_of(k) not in ref._play(rules["suits"]):
            raise ValueError(f"bad 本金 {benjin!r}")
        base = suit_of(k) * 9
        wilds = {base + (rank_of(k) - 2) % 9, base + rank_of(k) % 9}  # ranks -1, +1, wrapping
        if wk == "benjin_plus":
            wilds.add(k)
    else:
        if benjin is not None:
            raise ValueError("a 本金 is given only with wild_kinds benjin / benjin_plus")
        wilds = set(wk)
    if rules["extra_wilds"]:
        wilds.add(HONGZHONG)
    return frozenset(wilds)


class Hand(NamedTuple):
    """A validated hand: its natural concealed tiles, its concealed wilds and melds."""
    natural: tuple    # 27 counts
    wilds: int        # concealed wilds held
    melds: tuple      # (type, kind, wilds)
    plain: tuple      # the melds as §1-§11 sees them: (type, kind)
    wild_kinds: frozenset
    void: Optional[int]


def check_hand(counts, melds, void, rules, benjin, sizes, what) -> Hand:
    """D43 / D45: the physical hand is possible under the rules, and has a right tile count."""
    counts = list(counts) + [0] * (28 - len(counts))
    if len(counts) != 28 or any(c < 0 for c in counts):
        raise ValueError("counts must be 27 or 28 non-negative values")
    melds = _norm_melds(melds)
    wild = wild_set(rules, benjin)
    play = ref._play(rules["suits"])
    size = rules["hand_size"]
    if len(melds) > (size - 1) // 3:
        raise ValueError(f"hand_size {size} allows at most {(size - 1) // 3} melds")
    for mtype, kind, wilds in melds:
        if kind == HONGZHONG or kind in wild or suit_of(kind) not in play:
            raise ValueError(f"bad meld kind {KIND_NAMES[kind]}")
        if not set(wilds) <= wild or len(wilds) >= meld_size(mtype):
            raise ValueError(f"bad wilds {wilds!r} in a meld of {KIND_NAMES[kind]}")
    total = physical_counts(counts, melds)
    if total[HONGZHONG] > rules["extra_wilds"]:
        raise ValueError(f"{total[HONGZHONG]} 红中 with extra_wilds {rules['extra_wilds']}")
    benjin_kind = kind_of(benjin) if benjin is not None else None
    for k in range(27):
        limit = 3 if k == benjin_kind else 4  # the face-up 本金 leaves 3 of its kind
        if total[k] > limit:
            raise ValueError(f"more than {limit} of {KIND_NAMES[k]}")
        if total[k] and suit_of(k) not in play:
            raise ValueError(f"tile {KIND_NAMES[k]} is not in play")
    allowed = [n - 3 * len(melds) for n in sizes]
    if sum(counts) not in allowed:
        raise ValueError(f"{what} needs {' or '.join(map(str, allowed))} concealed tiles, got {sum(counts)}")
    natural = tuple(0 if k in wild else counts[k] for k in range(27))
    return Hand(natural, sum(counts[k] for k in wild), tuple(melds),
                tuple((mtype, kind) for mtype, kind, _ in melds), wild, ref._void_suit(void))


# --------------------------------------------------------------------------------------------
# Readings, winning, waits, shanten (D44, D46, D47)
# --------------------------------------------------------------------------------------------

def readings(natural, plain, w, rules, void):
    """Every valid reading of ``w`` concealed wilds as a 27-count tuple (the kinds they stand for):
    kinds of the suits in play, not the void suit, each kind used at most 4 times counting the
    natural tiles and the melds at full size (any number with ``wild_fifth_copy``). Readings that
    span three suits with the rest of the hand are skipped (never complete: 缺一门)."""
    play = sorted(ref._play(rules["suits"]) - {void})
    full = ref.meld_counts(plain)
    free = [4 - natural[k] - full[k] for k in range(27)]  # uses a reading may still add
    if not rules["wild_fifth_copy"] and min(free) < 0:
        return  # D44: the natural tiles and the melds already use a kind more than 4 times
    held_suits = {suit_of(k) for k in range(27) if natural[k] or full[k]}
    seen = set()
    for group in itertools.combinations(play, min(2, len(play))):
        if not held_suits <= set(group):
            continue
        kinds = [k for k in range(27) if suit_of(k) in group]
        for chosen in itertools.combinations_with_replacement(kinds, w):
            reading = [0] * 27
            for k in chosen:
                reading[k] += 1
            if not rules["wild_fifth_copy"] and any(reading[k] > free[k] for k in chosen):
                continue
            if tuple(reading) not in seen:
                seen.add(tuple(reading))
                yield tuple(reading)


def _substituted(natural, reading) -> list:
    return [a + b for a, b in zip(natural, reading)]


def _complete(substituted, plain, void, rules) -> bool:
    """tests/reference.py's §5 test of a substituted hand, after a quick necessary condition: the
    standard form's sets hold 3 tiles of one suit and its pair 2, so one suit counts 2 (mod 3) and
    the others 0; the pairs family holds every kind an even number of times."""
    by_suit = sorted(sum(substituted[9 * i:9 * i + 9]) % 3 for i in range(3))
    if by_suit != [0, 0, 2] and not (rules["seven_pairs"] and all(c % 2 == 0 for c in substituted)):
        return False
    return _complete_cached(tuple(substituted), tuple(plain), void, rules["seven_pairs"],
                            rules["hand_size"])


@functools.lru_cache(maxsize=200_000)
def _complete_cached(substituted, plain, void, seven_pairs, hand_size) -> bool:
    """The §5 answer, remembered: the waits of a hand meet the same substituted hands many times."""
    return ref._complete(list(substituted), list(plain), void, seven_pairs, hand_size)


def complete_readings(natural, plain, w, void, rules) -> list:
    """The readings under which the hand is a complete hand of docs/rules.md §5 / §11.1."""
    return [r for r in readings(natural, plain, w, rules, void)
            if _complete(_substituted(natural, r), plain, void, rules)]


def _is_complete(natural, plain, w, void, rules) -> bool:
    return any(_complete(_substituted(natural, r), plain, void, rules)
               for r in readings(natural, plain, w, rules, void))


def is_win_wild(counts, melds=(), void=None, rules=None, *, benjin=None) -> bool:
    """Some reading of the hand_size + 1 - 3k concealed tiles is a complete hand (四鸡 ignored)."""
    rules = _full_rules(rules)
    h = check_hand(counts, melds, void, rules, benjin, (rules["hand_size"] + 1,), "is_win")
    return _is_complete(h.natural, h.plain, h.wilds, h.void, rules)


def waits_wild(counts, melds=(), void=None, rules=None, *, benjin=None) -> list:
    """The natural kinds (never a wild kind, never 红中) whose draw makes the hand complete: a kind
    of a suit in play the seat holds fewer than 4 natural copies of (concealed + melds), D46."""
    rules = _full_rules(rules)
    h = check_hand(counts, melds, void, rules, benjin, (rules["hand_size"],), "waits")
    held = [a + b for a, b in zip(h.natural, ref.meld_counts(h.plain))]
    for mtype, kind, wilds in h.melds:
        held[kind] -= len(wilds)  # a meld's wilds are no natural copies of its kind
    out = []
    for t in range(27):
        if t in h.wild_kinds or suit_of(t) not in ref._play(rules["suits"]) or held[t] >= 4:
            continue
        drawn = list(h.natural)
        drawn[t] += 1
        if _is_complete(drawn, h.plain, h.wilds, h.void, rules):
            out.append(t)
    return out


def is_ready_wild(counts, melds=(), void=None, rules=None, *, benjin=None) -> bool:
    """The hand plus one wild is complete (the wild is a wait of every ready hand, D46)."""
    rules = _full_rules(rules)
    h = check_hand(counts, melds, void, rules, benjin, (rules["hand_size"],), "is_ready")
    return _is_complete(h.natural, h.plain, h.wilds + 1, h.void, rules)


def _distance(natural, plain, void, rules) -> int:
    """min |H - natural| over the complete hands H of docs/rules.md §5 / §11.1 (the melds kept,
    缺一门, no void tile, suits in play, each kind at most 4 times counting melds at full size - no
    limit with wild_fifth_copy); 99 when there is none. tests/reference.py's search, with the cap."""
    if not rules["wild_fifth_copy"]:
        return ref._distance(list(natural), list(plain), void, rules["seven_pairs"], 99,
                             rules["hand_size"], rules["suits"])
    size = rules["hand_size"]
    meld_suits = {suit_of(t) for _, t in plain}
    best = 99
    for two in itertools.combinations(range(3), 2):
        two = set(two) & ref._play(rules["suits"])
        if not two or void in two or not meld_suits <= two:
            continue
        kinds = [k for k in range(27) if suit_of(k) in two]
        cap = [size + 1 if suit_of(k) in two else 0 for k in range(27)]  # no 4-copy limit
        if rules["seven_pairs"] and not plain and (size + 1) % 2 == 0:
            best = min(best, ref._closest_seven_pairs(list(natural), kinds, (size + 1) // 2))
        best = ref._closest_standard(list(natural), (size - 1) // 3 - len(plain), kinds, cap, best)
    return best


def shanten_wild(counts, melds=(), void=None, rules=None, *, benjin=None) -> int:
    """docs/rules.md §12.2: min over complete hands H of |H - N| - w - 1 (N the natural concealed
    tiles, w the concealed wilds), D47. A ValueError where no complete hand exists."""
    rules = _full_rules(rules)
    size = rules["hand_size"]
    h = check_hand(counts, melds, void, rules, benjin, (size, size + 1), "shanten")
    best = _distance(h.natural, h.plain, h.void, rules)
    if best == 99:
        raise ValueError("no complete hand exists (the melds break 缺一门, hold the void suit or "
                         "exceed 4 of a kind)")
    return best - h.wilds - 1


# --------------------------------------------------------------------------------------------
# Fan (D48-D54)
# --------------------------------------------------------------------------------------------

def _raw_gens(decomp, substituted, h: Hand, reading, rules) -> int:
    """D49: the gens of one decomposition of one reading, before the pattern exceptions."""
    full = [a + b for a, b in zip(substituted, ref.meld_counts(h.plain))]
    meld_wilds = [0] * 27
    for _, kind, wilds in h.melds:
        meld_wilds[kind] += len(wilds)
    physical_wilds = h.wilds + sum(meld_wilds)
    mode = rules["wild_gen"]

    def fours():
        if mode == "fours":
            return sum(1 for c in full if c >= 4)
        if mode == "natural":  # no concealed wild read as the kind; a meld's wilds are natural
            return sum(1 for k in range(27) if full[k] >= 4 and reading[k] == 0)
        # per_wild: fours with no wild at all, + one gen per physical wild held
        return sum(1 for k in range(27) if full[k] >= 4 and reading[k] == 0 and meld_wilds[k] == 0) \
            + physical_wilds

    if rules["gen_counts"] == "none":
        return 0
    if rules["gen_counts"] == "all_fours" or not decomp.standard:
        return fours()
    if rules["gen_counts"] != "kongs_only":
        raise ValueError(f"bad gen_counts {rules['gen_counts']!r}")
    kongs = [(kind, wilds) for mtype, kind, wilds in h.melds if mtype in ref.KONG_KINDS]
    if mode == "per_wild":
        return sum(1 for _, wilds in kongs if not wilds) + physical_wilds
    return len(kongs)


def _check_context(h: Hand, self_draw, kong_replacement, after_kong_discard, robbed_kong,
                   heavenly, earthly, rules):
    """The context flags of tests/reference.py's evaluate, unchanged (docs/rules.md §6.1, §11.3)."""
    ref.check_context(h.plain, self_draw, kong_replacement, after_kong_discard, robbed_kong,
                      heavenly, earthly, rules)


def evaluate_wild(counts, melds=(), void=None, rules=None, win_tile=None, *, benjin=None,
                  self_draw=False, kong_replacement=False, after_kong_discard=False,
                  robbed_kong=False, last_tile=False, heavenly=False, earthly=False) -> FanResult:
    """Score a hand of hand_size + 1 - 3k concealed tiles (the winning tile included) on its best
    reading (D48), or as 四鸡 (D52)."""
    rules = _full_rules(rules)
    size = rules["hand_size"]
    counts = list(counts) + [0] * (28 - len(counts))
    h = check_hand(counts, melds, void, rules, benjin, (size + 1,), "evaluate")
    if win_tile is not None:
        win_tile = kind_of(win_tile)
        if not counts[win_tile]:
            raise ValueError("win_tile must be one of the concealed tiles")
    _check_context(h, self_draw, kong_replacement, after_kong_discard, robbed_kong, heavenly,
                   earthly, rules)
    fan_of = dict(ref.DEFAULT_FAN_TABLE, **rules["fan_table"])
    order = {pid: i for i, pid in enumerate(ref.PATTERN_IDS)}

    # The additive fans no reading changes.
    fixed = ref._context_fans(rules, h.plain, self_draw, kong_replacement, after_kong_discard,
                              robbed_kong, last_tile)
    if last_tile and not self_draw and rules["haidipao"]:
        fixed.append("haidipao")
    if ref._mode(rules["jingoudiao"]) == "additive" and len(h.plain) == (size - 1) // 3:
        fixed.append("jingou")
    sky = "tianhu" if heavenly else "dihu" if earthly else None
    sky_mode = ref._mode(rules["heavenly_earthly"])
    amount = {"tianhu": 3, "dihu": 2, "wuji": rules["no_wild_bonus"]}
    if sky and sky_mode == "additive":
        fixed.append(sky)
        amount[sky] = rules["fan_table"].get(sky, amount[sky])
    if rules["single_wait"] and win_tile is not None and not heavenly:
        before = list(counts)
        before[win_tile] -= 1
        if len(waits_wild(before, h.melds, void, rules, benjin=benjin)) == 1:  # D50
            fixed.append("kabiandiao")
    if rules["no_wild_bonus"] and h.wilds == 0 and not any(w for _, _, w in h.melds):
        fixed.append("wuji")  # D51: no physical wild, concealed or melded

    # Candidates: every complete reading x decomposition x pattern x reading of the winning tile.
    candidates = []
    for reading in complete_readings(h.natural, h.plain, h.wilds, h.void, rules):
        s = _substituted(h.natural, reading)
        total = [a + b for a, b in zip(s, ref.meld_counts(h.plain))]
        decomps = list(ref._readings(s, list(h.plain), rules["seven_pairs"], size))
        patterns = [ref._hand_patterns(d, s, list(h.plain), total, rules) for d in decomps]
        # the kinds the winning tile may stand for: itself, or (a wild) any kind this reading gives
        # the wilds (D50)
        if win_tile is None:
            win_reads = [None]
        elif win_tile in h.wild_kinds:
            win_reads = [k for k in range(27) if reading[k]]
        else:
            win_reads = [win_tile]
        duanyao = rules["duanyaojiu"] and not any(total[k] and rank_of(k) in (1, 9) for k in range(27))
        # D14 per reading: 天胡/地胡 as a base unless a pattern of this reading is worth more
        sky_base = sky and sky_mode == "base" and not any(
            fan_of[p] > fan_of[sky] for pids in patterns for p in pids)
        for d, pids in zip(decomps, patterns):
            raw = _raw_gens(d, s, h, reading, rules)
            for wt in win_reads:
                dragon, five, two = ref._reading_fans(d, rules, wt)
                flags = {"duanyaojiu": duanyao, "yitiaolong": dragon, "jiaxinwu": five, "kaertiao": two}
                extras = tuple(e for e in EXTRA_IDS if e in fixed or flags.get(e))
                for pid in pids:
                    candidates.append((pid, ref._gens_after_exception(pid, raw), extras))
                if sky_base:
                    candidates.append((sky, raw, extras))

    def uncapped(c):
        pid, gen, extras = c
        return fan_of[pid] + gen + sum(amount.get(e, 1) for e in extras)

    def key(c):
        pid, gen, extras = c
        return (uncapped(c), fan_of[pid], -order[pid], gen, tuple(e in extras for e in EXTRA_IDS))

    def capped(fan):
        return fan if rules["max_fan"] is None else min(fan, rules["max_fan"])

    best = None
    if candidates:
        pid, gen, extras = max(candidates, key=key)
        fan = capped(uncapped((pid, gen, extras)))
        best = FanResult(fan, ref._multiplier(fan, rules), pid, fan_of[pid], gen, extras)
    # D52: 四鸡, a self-draw holding four or more concealed wilds, whatever the rest of the hand.
    if rules["four_wilds"] is not None and self_draw and h.wilds >= 4:
        siji = rules["max_fan"] if rules["four_wilds"] == "cap" else rules["four_wilds"]
        fan = capped(siji)
        if best is None or fan > best.fan:
            return FanResult(fan, ref._multiplier(fan, rules), "siji", siji, 0, ())
    if best is None:
        raise ValueError("not a winning hand")
    return best
