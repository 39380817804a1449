"""A small, obviously correct pure-Python reference of the rules (docs/rules.md §1, §5, §6, §6.1).

Written straight from the rule text and the decisions D1-D25 of ``tests/data/hands.json``, by brute
force: clarity over speed. It is independent of xueliu's own code (it never imports xueliu) and works
on plain data only:

- ``counts``: a list of 27 ints, the concealed tiles (kind ``k``: suit ``k // 9`` = m, p, s; rank
  ``k % 9 + 1``);
- ``melds``: a sequence of ``(kind_str, tile_index)`` pairs, kind_str ``"peng"``, ``"kong"`` (exposed)
  or ``"concealed_kong"`` (``"ankong"``, the vectors' name, is accepted too);
- ``void``: ``None``, ``"m"``, ``"p"``, ``"s"`` or a suit index 0..2;
- ``rules``: a plain dict of scoring knobs (``PRESETS``; missing knobs take the ``xueliu`` values).

Example: ``evaluate(*parse("11112222333399m"), rules=PRESETS["xueliu"]).base == "qingsanlongqidui"``.

Table shapes (docs/rules.md §11.1): ``is_win``, ``waits``, ``shanten`` and ``jinzhang`` take
``hand_size=13 | 10 | 7`` and ``suits="mps"`` (the suits in play, e.g. ``"ps"``): a complete hand
is ``(hand_size - 1) / 3`` sets and a pair, or ``(hand_size + 1) / 2`` pairs where that is whole,
made of the suits in play only.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple, Optional

SUITS = "mps"
TILE_NAMES = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
SUIT_ALIASES = {"m": 0, "万": 0, "萬": 0, "p": 1, "筒": 1, "饼": 1, "餅": 1, "铜": 1,
                "s": 2, "条": 2, "條": 2, "索": 2}
MELD_KINDS = ("peng", "kong", "concealed_kong")
MELD_ALIASES = {"peng": "peng", "kong": "kong", "concealed_kong": "concealed_kong",
                "ankong": "concealed_kong"}
KONG_KINDS = ("kong", "concealed_kong")

# Base patterns in docs/rules.md §6 table order (the tie-break order) with their standard fan.
PATTERNS = (
    ("pinghu", 1), ("duiduihu", 2), ("qingyise", 3), ("daiyaojiu", 3), ("qidui", 3),
    ("jingoudiao", 3), ("qingdui", 4), ("jiangdui", 4), ("jiangqidui", 5), ("jiangjingoudiao", 5),
    ("longqidui", 5), ("qingqidui", 5),
    ("qingyaojiu", 5), ("qingjingoudiao", 5), ("qinglongqidui", 6), ("tianhu", 6), ("dihu", 6),
    ("shibaluohan", 7), ("qingsanlongqidui", 8), ("qingshibaluohan", 9), ("jiulianbaodeng", 9),
)
PATTERN_IDS = tuple(pid for pid, _ in PATTERNS)
DEFAULT_FAN_TABLE = dict(PATTERNS)
# Additive fans other than gen, in docs/rules.md §6 then §11.3 table order (the order of FanResult.extras).
EXTRA_IDS = ("gangshanghua", "gangshangpao", "qiangganghu", "haidilaoyue", "zimo", "menqing",
             "duanyaojiu", "yitiaolong", "jiaxinwu", "haidipao",
             "jingou", "tianhu", "dihu", "kaertiao", "kabiandiao")

# docs/rules.md §9: the scoring knobs of both presets.
PRESETS = {
    "xueliu": {
        "seven_pairs": True, "jingoudiao": False, "heavenly_earthly": False, "haidi": False,
        "self_draw_bonus": "base", "menqing": False, "gen_counts": "all_fours",
        "duanyaojiu": False, "yitiaolong": False, "jiaxinwu": False, "haidipao": False,
        "fan_table": {}, "multipliers": None, "max_fan": None,
        # docs/rules.md §11: the table shape and the regional scoring knobs
        "hand_size": 13, "suits": "mps", "jiang_patterns": False, "earthly_win": "first_draw",
        "kaertiao": False, "single_wait": False,
    },
}
PRESETS["xuezhan"] = dict(PRESETS["xueliu"], jingoudiao=True, heavenly_earthly=True, haidi=True,
                          self_draw_bonus="none")
# docs/rules.md §11.4, the scoring knobs of each room.
PRESETS["sanren_liangfang"] = dict(PRESETS["xueliu"], suits="ps", max_fan=4, self_draw_bonus="fan")
PRESETS["sanren_sanfang"] = dict(PRESETS["xueliu"], max_fan=4, self_draw_bonus="fan")
PRESETS["siren_liangfang"] = dict(PRESETS["xueliu"], suits="ps", hand_size=10, max_fan=4,
                                  jingoudiao="additive", heavenly_earthly="additive",
                                  kaertiao=True, haidi=True, haidipao=True)
PRESETS["erren_yifang"] = dict(PRESETS["xueliu"], suits="m", hand_size=7, max_fan=4,
                               self_draw_bonus="fan", seven_pairs=False,
                               fan_table={"qingyise": 1, "qingdui": 2, "qingyaojiu": 3})
# 倒倒胡 scores as the xueliu preset does (self_draw_bonus base, no cap, ...): only its flow
# (mode daodaohu: the first win ends the hand) differs, and the reference scores single hands.
PRESETS["daodaohu"] = dict(PRESETS["xueliu"])


class FanResult(NamedTuple):
    fan: int  # capped total
    multiplier: int
    base: str  # pattern id
    base_fan: int
    gen: int  # gens counted after the pattern's exceptions
    extras: tuple  # additive fan ids other than gen, docs/rules.md table order


class WaitOption(NamedTuple):
    tile: int
    remaining: int
    discard_win: FanResult
    self_draw: FanResult


class DiscardOption(NamedTuple):
    discard: int
    shanten: int
    total_remaining: int
    waits: tuple  # of WaitOption
    jinzhang: tuple  # of (kind, remaining)
    jinzhang_total: int


# --------------------------------------------------------------------------------------------
# Tiles, notation, validation
# --------------------------------------------------------------------------------------------

def tile_index(name: str) -> int:
    return TILE_NAMES.index(name)


def suit_of(kind: int) -> int:
    return kind // 9


def rank_of(kind: int) -> int:
    return kind % 9 + 1


def _void_suit(void) -> Optional[int]:
    if void is None:
        return None
    if isinstance(void, int):
        if void in (0, 1, 2):
            return void
        raise ValueError(f"bad void {void!r}")
    if void in SUIT_ALIASES:
        return SUIT_ALIASES[void]
    raise ValueError(f"bad void {void!r}")


def _norm_melds(melds) -> list:
    out = []
    for kind, tile in melds:
        if kind not in MELD_ALIASES:
            raise ValueError(f"bad meld kind {kind!r}")
        if isinstance(tile, str):
            tile = tile_index(tile)
        if not 0 <= tile < 27:
            raise ValueError(f"bad meld tile {tile!r}")
        out.append((MELD_ALIASES[kind], tile))
    if len(out) > 4:
        raise ValueError("more than 4 melds")
    return out


def meld_counts(melds) -> list:
    """Tiles the melds hold per kind (a kong counts 4 toward the four-copies limit and gen)."""
    c = [0] * 27
    for kind, tile in melds:
        c[tile] += 4 if kind in KONG_KINDS else 3
    return c


def _play(suits) -> set:
    """The suit indices in play."""
    return {SUITS.index(x) for x in suits}


def _check(counts, melds, sizes, what, suits="mps", hand_size=13):
    counts = list(counts)
    if len(counts) != 27 or any(not 0 <= c <= 4 for c in counts):
        raise ValueError("counts must be 27 values in 0..4")
    melds = _norm_melds(melds)
    if len(melds) > (hand_size - 1) // 3:
        raise ValueError(f"hand_size {hand_size} allows at most {(hand_size - 1) // 3} melds")
    for k in list(range(27)):
        if (counts[k] or k in [t for _, t in melds]) and suit_of(k) not in _play(suits):
            raise ValueError(f"tile {TILE_NAMES[k]} is not in play")
    total = [a + b for a, b in zip(counts, meld_counts(melds))]
    for k in range(27):
        if total[k] > 4:
            raise ValueError(f"fifth copy of {TILE_NAMES[k]}")
    allowed = [n - 3 * len(melds) for n in sizes]
    if sum(counts) not in allowed:
        raise ValueError(f"{what} needs {' or '.join(map(str, allowed))} concealed tiles, got {sum(counts)}")
    return counts, melds, total


def parse(text: str):
    """docs/rules.md §1 notation (D2/D3) -> (counts, melds). No tile-count check (D4)."""
    counts = [0] * 27
    melds = []
    digits = ""
    i = 0
    text = "".join(text.split())
    while i < len(text):
        ch = text[i]
        if ch.isdigit() and ch in "0123456789":
            if melds:
                raise ValueError("concealed tile after a meld")
            digits += ch
            i += 1
        elif ch in SUIT_ALIASES:
            if not digits:
                raise ValueError(f"suit {ch!r} with no digits")
            for d in digits:
                if d == "0":
                    raise ValueError("rank 0")
                counts[SUIT_ALIASES[ch] * 9 + int(d) - 1] += 1
            digits = ""
            i += 1
        elif ch in "([":
            if digits:
                raise ValueError("digits with no suit")
            close = ")" if ch == "(" else "]"
            j = text.find(close, i)
            if j < 0:
                raise ValueError("unclosed meld")
            body = text[i + 1:j]
            if len(body) < 2 or body[-1] not in SUIT_ALIASES or not body[:-1].isdigit():
                raise ValueError(f"bad meld {text[i:j + 1]!r}")
            ds, suit = body[:-1], SUIT_ALIASES[body[-1]]
            if len(set(ds)) != 1 or ds[0] == "0":
                raise ValueError(f"bad meld {text[i:j + 1]!r}")
            if ch == "(" and len(ds) == 3:
                kind = "peng"
            elif ch == "(" and len(ds) == 4:
                kind = "kong"
            elif ch == "[" and len(ds) == 4:
                kind = "concealed_kong"
            else:
                raise ValueError(f"bad meld {text[i:j + 1]!r}")
            melds.append((kind, suit * 9 + int(ds[0]) - 1))
            i = j + 1
        else:
            raise ValueError(f"unexpected {ch!r}")
    if digits:
        raise ValueError("digits with no suit")
    if len(melds) > 4:
        raise ValueError("more than 4 melds")
    total = [a + b for a, b in zip(counts, meld_counts(melds))]
    for k in range(27):
        if total[k] > 4:
            raise ValueError(f"fifth copy of {TILE_NAMES[k]}")
    return counts, melds


def to_text(counts, melds=()) -> str:
    """Canonical notation: concealed tiles by suit m, p, s ascending, then the melds as given."""
    out = ""
    for s in range(3):
        ranks = "".join(str(r + 1) * counts[s * 9 + r] for r in range(9))
        if ranks:
            out += ranks + SUITS[s]
    for kind, tile in _norm_melds(melds):
        r, s = str(rank_of(tile)), SUITS[suit_of(tile)]
        out += {"peng": f"({r * 3}{s})", "kong": f"({r * 4}{s})", "concealed_kong": f"[{r * 4}{s}]"}[kind]
    return out


# --------------------------------------------------------------------------------------------
# Winning, waits, shanten (docs/rules.md §5)
# --------------------------------------------------------------------------------------------

def _split_sets(counts):
    """Every way to split ``counts`` entirely into sets. The lowest held kind can only sit in a pung
    of itself or a chow starting at it, so each split is produced exactly once."""
    k = next((i for i in range(27) if counts[i]), None)
    if k is None:
        yield ()
        return
    if counts[k] >= 3:
        counts[k] -= 3
        for rest in _split_sets(counts):
            yield (("pung", k),) + rest
        counts[k] += 3
    if rank_of(k) <= 7 and counts[k + 1] and counts[k + 2]:
        for t in (k, k + 1, k + 2):
            counts[t] -= 1
        for rest in _split_sets(counts):
            yield (("chow", k),) + rest
        for t in (k, k + 1, k + 2):
            counts[t] += 1


def decompositions(counts, n_sets):
    """Every split of the concealed tiles into ``n_sets`` sets (pung/chow) and one pair:
    a list of ``(pair_kind, sets)``, sets a tuple of ``("pung" | "chow", lowest kind)``."""
    counts = list(counts)
    if sum(counts) != 3 * n_sets + 2:
        return []
    out = []
    for pair in range(27):
        if counts[pair] >= 2:
            counts[pair] -= 2
            out.extend((pair, sets) for sets in _split_sets(counts))
            counts[pair] += 2
    return out


def _suits_ok(total, void) -> bool:
    """缺一门: at most two suits, none of them the void suit."""
    suits = {suit_of(k) for k in range(27) if total[k]}
    return len(suits) <= 2 and void not in suits


def _is_seven_pairs(counts, melds, hand_size=13) -> bool:
    """The pairs family: no melds, every kind 0, 2 or 4 times, hand_size + 1 tiles (even)."""
    return (not melds and (hand_size + 1) % 2 == 0 and sum(counts) == hand_size + 1
            and all(c in (0, 2, 4) for c in counts))


def _complete(counts, melds, void, seven_pairs, hand_size=13) -> bool:
    total = [a + b for a, b in zip(counts, meld_counts(melds))]
    if not _suits_ok(total, void):
        return False
    if decompositions(counts, (hand_size - 1) // 3 - len(melds)):
        return True
    return seven_pairs and _is_seven_pairs(counts, melds, hand_size)


def is_win(counts, melds=(), void=None, seven_pairs=True, *, hand_size=13, suits="mps") -> bool:
    counts, melds, _ = _check(counts, melds, (hand_size + 1,), "is_win", suits, hand_size)
    return _complete(counts, melds, _void_suit(void), seven_pairs, hand_size)


def waits(counts, melds=(), void=None, seven_pairs=True, *, hand_size=13, suits="mps") -> list:
    """Kinds in play that complete the hand, skipping kinds already held 4 times (hand + melds)."""
    counts, melds, total = _check(counts, melds, (hand_size,), "waits", suits, hand_size)
    void = _void_suit(void)
    out = []
    for t in range(27):
        if total[t] >= 4 or suit_of(t) not in _play(suits):
            continue
        counts[t] += 1
        if _complete(counts, melds, void, seven_pairs, hand_size):
            out.append(t)
        counts[t] -= 1
    return out


def _closest_standard(counts, n_sets, kinds, cap, best):
    """Smallest |H - counts| (< best) over concealed parts H = pair + n_sets sets on ``kinds`` with
    H[t] <= cap[t]. Sets are taken in non-decreasing block order (blocks sorted by lowest kind), so
    each H is visited once per split; a branch stops once its distance cannot beat ``best``.

    The answer depends on its arguments only, and the same ones come back often (查听 asks the
    shanten of a discard and then its 进张 from the same hand; Hypothesis repeats hands), so it is
    remembered per argument tuple: the search itself runs as written below."""
    return _closest_standard_of(tuple(counts), n_sets, tuple(kinds), tuple(cap), best)


@functools.lru_cache(maxsize=1 << 14)
def _closest_standard_of(counts, n_sets, kinds, cap, best):
    blocks = []
    for k in kinds:
        blocks.append((k, k, k))
        if rank_of(k) <= 7 and k + 2 in kinds:
            blocks.append((k, k + 1, k + 2))
    h = [0] * 27
    # The hand's tiles usable in H (at most the cap), and the kinds from each block's lowest on.
    usable = [min(c, m) for c, m in zip(counts, cap)]
    kinds_from = {k: [t for t in kinds if t >= k] for k in kinds}

    def add(tiles):
        """Put tiles into H; return the added distance, or None when a cap is broken (undone)."""
        cost = 0
        for i, t in enumerate(tiles):
            h[t] += 1
            if h[t] > cap[t]:
                remove(tiles[:i + 1])
                return None
            if h[t] > counts[t]:
                cost += 1
        return cost

    def remove(tiles):
        for t in tiles:
            h[t] -= 1

    def lower_bound(start, left):
        """Sets from blocks[start:] use kinds >= blocks[start][0]; each tile they take beyond the
        hand's unused tiles there adds 1 to the distance."""
        if left == 0:
            return 0
        if start == len(blocks):
            return 99
        unused = sum(usable[t] - h[t] for t in kinds_from[blocks[start][0]] if counts[t] > h[t])
        return max(0, 3 * left - unused)

    def search(start, left, cost):
        nonlocal best
        if cost + lower_bound(start, left) >= best:
            return
        if left == 0:
            best = cost
            return
        for b in range(start, len(blocks)):
            extra = add(blocks[b])
            if extra is not None:
                search(b, left - 1, cost + extra)
                remove(blocks[b])

    for pair in kinds:
        extra = add((pair, pair))
        if extra is not None:
            search(0, n_sets, extra)
            remove((pair, pair))
    return best


def _closest_seven_pairs(counts, kinds, n_pairs=7):
    """Smallest |H - counts| over pairs-family hands H of ``n_pairs`` pairs on ``kinds`` (each kind
    0, 2 or 4 times). Taking a kind's first pair costs max(0, 2 - c), its second max(0, 4 - c) -
    max(0, 2 - c), never less than the first; so the n cheapest pair slots (first ones before
    second ones) are optimal."""
    slots = []
    for k in kinds:
        first = max(0, 2 - counts[k])
        slots += [first, max(0, 4 - counts[k]) - first]
    return sum(sorted(slots)[:n_pairs])


def _distance(counts, melds, void, seven_pairs, bound=99, hand_size=13, suits="mps") -> int:
    """min(bound, smallest |H - counts|) over the complete hands H of docs/rules.md §5 (keeping the melds,
    缺一门, the void, at most 4 copies counting melds) of hand_size + 1 tiles made of the suits in
    play (docs/rules.md §11.1); ``bound`` only prunes the search."""
    held = meld_counts(melds)
    meld_suits = {suit_of(t) for _, t in melds}
    best = bound
    for two in itertools.combinations(range(3), 2):  # a one-suit H also lies inside some pair
        two = set(two) & _play(suits)
        if not two or void in two or not meld_suits <= two:
            continue
        kinds = [k for k in range(27) if suit_of(k) in two]
        cap = [4 - held[k] if suit_of(k) in two else 0 for k in range(27)]
        if seven_pairs and not melds and (hand_size + 1) % 2 == 0:
            best = min(best, _closest_seven_pairs(counts, kinds, (hand_size + 1) // 2))
        best = _closest_standard(counts, (hand_size - 1) // 3 - len(melds), kinds, cap, best)
    return best


def shanten(counts, melds=(), void=None, seven_pairs=True, *, hand_size=13, suits="mps") -> int:
    """docs/rules.md §5 exactly: min over complete hands H of |H - hand| - 1, H keeping the melds, 缺一门,
    the void, at most 4 copies counting melds; standard form, or seven pairs (on, no melds)."""
    counts, melds, _ = _check(counts, melds, (hand_size, hand_size + 1), "shanten", suits,
                              hand_size)
    inf = 99
    best = _distance(counts, melds, _void_suit(void), seven_pairs, inf, hand_size, suits)
    if best == inf:
        raise ValueError("no complete hand exists (the melds break 缺一门 or hold the void suit)")
    return best - 1


def jinzhang(counts, melds=(), void=None, seven_pairs=True, *, hand_size=13, suits="mps") -> list:
    """进张 of a 13 - 3k hand: every kind t in play (held fewer than 4 times counting melds) such
    that the hand plus t has a lower shanten, by trying each t."""
    counts, melds, held = _check(counts, melds, (hand_size,), "jinzhang", suits, hand_size)
    void = _void_suit(void)
    now = _distance(counts, melds, void, seven_pairs, 99, hand_size, suits)
    if now == 99:
        raise ValueError("no complete hand exists (the melds break 缺一门 or hold the void suit)")
    out = []
    for t in range(27):
        if held[t] >= 4 or suit_of(t) not in _play(suits):
            continue
        counts[t] += 1
        if _distance(counts, melds, void, seven_pairs, now, hand_size, suits) < now:
            out.append(t)
        counts[t] -= 1
    return out


# --------------------------------------------------------------------------------------------
# Fan (docs/rules.md §6, §6.1, D8-D25)
# --------------------------------------------------------------------------------------------

def make_rules(preset="xueliu", **overrides) -> dict:
    return rules_from(PRESETS, preset, overrides)


def rules_from(presets, preset, overrides) -> dict:
    """A copy of ``presets[preset]`` with ``overrides``; an unknown preset or knob is a ValueError."""
    if preset not in presets:
        raise ValueError(f"unknown preset {preset!r}")
    rules = dict(presets[preset])
    for key, value in overrides.items():
        if key not in rules:
            raise ValueError(f"unknown knob {key!r}")
        rules[key] = value
    return rules


def _full_rules(rules, make=make_rules) -> dict:
    """``rules`` as a full dict: None the xueliu preset, a name a preset, a dict overrides of xueliu;
    ``make`` builds it from a preset name and overrides."""
    if rules is None:
        return make()
    if isinstance(rules, str):
        return make(rules)
    return make("xueliu", **rules)


def _context_fans(rules, melds, self_draw, kong_replacement, after_kong_discard, robbed_kong,
                  last_tile) -> list:
    """The additive fans of the win's context and 门清 (melds as (type, kind)), in the order of
    ``extras``."""
    out = []
    if kong_replacement:
        out.append("gangshanghua")
    if after_kong_discard:
        out.append("gangshangpao")
    if robbed_kong:
        out.append("qiangganghu")
    if last_tile and self_draw and rules["haidi"]:
        out.append("haidilaoyue")
    if self_draw and rules["self_draw_bonus"] == "fan":
        out.append("zimo")
    if rules["menqing"] and not any(kind in ("peng", "kong") for kind, _ in melds):
        out.append("menqing")
    return out


class _Reading(NamedTuple):
    """One way to read a winning hand: a standard decomposition, or seven pairs."""
    standard: bool
    pair: int
    sets: tuple  # concealed sets; melds are kept apart


def _readings(counts, melds, seven_pairs, hand_size=13):
    for pair, sets in decompositions(counts, (hand_size - 1) // 3 - len(melds)):
        yield _Reading(True, pair, sets)
    if seven_pairs and _is_seven_pairs(counts, melds, hand_size):
        yield _Reading(False, -1, ())


def _mode(value) -> str:
    """jingoudiao / heavenly_earthly: "off", "base" (True) or "additive" (docs/rules.md §11.3)."""
    if value is True or value == "base":
        return "base"
    if value is False:
        return "off"
    if value == "additive":
        return "additive"
    raise ValueError(f"bad knob value {value!r}")


def _hand_patterns(reading, counts, melds, total, rules):
    """Base patterns (other than 天胡/地胡) this reading satisfies under the knobs."""
    one_suit = len({suit_of(k) for k in range(27) if total[k]}) == 1
    family = _mode(rules["jingoudiao"]) != "off"  # 十八罗汉, 清十八罗汉, 九莲宝灯
    gou = _mode(rules["jingoudiao"]) == "base"    # 金钩钓, 清金钩钓, 将金钩钓
    n_sets = (rules["hand_size"] - 1) // 3
    all_258 = all(rank_of(k) in (2, 5, 8) for k in range(27) if total[k])
    out = []
    if one_suit:
        out.append("qingyise")
    if not reading.standard:
        fours = sum(1 for c in counts if c == 4)
        out.append("qidui" if fours == 0 else "longqidui")
        if rules["jiang_patterns"] and all_258:
            out.append("jiangqidui")
        if one_suit:
            out.append("qingqidui" if fours == 0 else "qinglongqidui")
            if fours == 3:
                out.append("qingsanlongqidui")
        return out
    out.append("pinghu")
    all_pungs = all(kind == "pung" for kind, _ in reading.sets)  # melds are pungs or kongs
    # 带幺九: every set and the pair holds a 1 or a 9 (a chow does when it starts at rank 1 or 7).
    yaojiu = (rank_of(reading.pair) in (1, 9)
              and all(rank_of(k) in (1, 9) if kind == "pung" else rank_of(k) in (1, 7)
                      for kind, k in reading.sets)
              and all(rank_of(t) in (1, 9) for _, t in melds))
    if all_pungs:
        out.append("duiduihu")
        if one_suit:
            out.append("qingdui")
        if all(rank_of(k) in (2, 5, 8) for k in range(27) if total[k]):
            out.append("jiangdui")
    if yaojiu:
        out.append("daiyaojiu")
        if one_suit:
            out.append("qingyaojiu")
    if gou and len(melds) == n_sets:
        out.append("jingoudiao")
        if one_suit:
            out.append("qingjingoudiao")
        if rules["jiang_patterns"] and all_258:
            out.append("jiangjingoudiao")
    if family and len(melds) == 4:  # four kongs: hand size 13 only
        if all(kind in KONG_KINDS for kind, _ in melds):
            out.append("shibaluohan")
            if one_suit:
                out.append("qingshibaluohan")
    if family and not melds and one_suit:
        suit = next(suit_of(k) for k in range(27) if total[k])
        ranks = counts[suit * 9:suit * 9 + 9]
        if all(c >= need for c, need in zip(ranks, (3, 1, 1, 1, 1, 1, 1, 1, 3))):
            out.append("jiulianbaodeng")
    return out


def _raw_gens(reading, counts, melds, total, rules) -> int:
    mode = rules["gen_counts"]
    if mode == "all_fours":
        return sum(1 for c in total if c == 4)
    if mode == "kongs_only":
        if reading.standard:
            return sum(1 for kind, _ in melds if kind in KONG_KINDS)
        return sum(1 for c in counts if c == 4)
    if mode == "none":
        return 0
    raise ValueError(f"bad gen_counts {mode!r}")


def _gens_after_exception(pattern, raw) -> int:
    if pattern in ("longqidui", "qinglongqidui"):
        return max(0, raw - 1)
    if pattern in ("shibaluohan", "qingshibaluohan"):
        return max(0, raw - 4)
    if pattern == "qingsanlongqidui":
        return 0
    return raw


def _reading_fans(reading, rules, win_tile) -> tuple:
    """The decomposition-dependent additive fans: (一条龙, 夹心五, 卡二条) as 0/1."""
    if not reading.standard:
        return (0, 0, 0)
    chows = {k for kind, k in reading.sets if kind == "chow"}
    dragon = rules["yitiaolong"] and any({9 * s, 9 * s + 3, 9 * s + 6} <= chows for s in range(3))
    five = (rules["jiaxinwu"] and win_tile is not None and rank_of(win_tile) == 5
            and (win_tile - 1) in chows)
    two = rules["kaertiao"] and win_tile == tile_index("2s") and tile_index("1s") in chows
    return (int(bool(dragon)), int(bool(five)), int(bool(two)))


def _multiplier(fan, rules) -> int:
    table = rules["multipliers"]
    if table is None:
        if fan < 1:
            raise ValueError(f"fan {fan} has no multiplier")
        return 2 ** (fan - 1)
    if not 1 <= fan <= len(table):
        raise ValueError(f"fan {fan} is beyond the multipliers table")
    return table[fan - 1]



def check_context(melds, self_draw, kong_replacement, after_kong_discard, robbed_kong, heavenly,
                  earthly, rules):
    """The context flags of :func:`evaluate` that cannot go together (docs/rules.md §6.1, §11.3):
    a ValueError naming the clash."""
    has_kong = any(kind in KONG_KINDS for kind, _ in melds)
    if kong_replacement and not (self_draw and has_kong):
        raise ValueError("kong_replacement needs a self-draw and a kong meld")
    if (after_kong_discard or robbed_kong) and self_draw:
        raise ValueError("after_kong_discard / robbed_kong need a discard win")
    if after_kong_discard and robbed_kong:
        raise ValueError("after_kong_discard and robbed_kong exclude each other")
    if (heavenly or earthly) and melds:
        raise ValueError("heavenly / earthly need no melds")
    if heavenly and not self_draw:
        raise ValueError("heavenly needs a self-draw")
    if earthly:  # docs/rules.md §11.3 earthly_win
        if rules["earthly_win"] == "first_draw" and not self_draw:
            raise ValueError("earthly needs a self-draw under first_draw")
        if rules["earthly_win"] == "first_discard" and self_draw:
            raise ValueError("earthly needs a discard win under first_discard")
        if not self_draw and (robbed_kong or after_kong_discard):
            raise ValueError("a discard earthly comes before any kong")
    if heavenly and earthly:
        raise ValueError("heavenly and earthly exclude each other")


def evaluate(counts, melds=(), void=None, rules=None, win_tile=None, *, self_draw=False,
             kong_replacement=False, after_kong_discard=False, robbed_kong=False,
             last_tile=False, heavenly=False, earthly=False) -> FanResult:
    """Score a winning hand of hand_size + 1 - 3k concealed tiles (the winning tile included)."""
    rules = _full_rules(rules)
    size, suits = rules["hand_size"], "".join(rules["suits"])
    counts, melds, total = _check(counts, melds, (size + 1,), "evaluate", suits, size)
    void = _void_suit(void)
    if isinstance(win_tile, str):
        win_tile = tile_index(win_tile)
    if win_tile is not None and not (0 <= win_tile < 27 and counts[win_tile] > 0):
        raise ValueError("win_tile must be one of the concealed tiles")
    check_context(melds, self_draw, kong_replacement, after_kong_discard, robbed_kong, heavenly,
                  earthly, rules)
    if not _complete(counts, melds, void, rules["seven_pairs"], size):
        raise ValueError("not a winning hand")

    fan_of = dict(DEFAULT_FAN_TABLE, **rules["fan_table"])
    order = {pid: i for i, pid in enumerate(PATTERN_IDS)}
    readings = list(_readings(counts, melds, rules["seven_pairs"], size))
    patterns = [_hand_patterns(r, counts, melds, total, rules) for r in readings]

    # Candidates: every (reading, pattern) pair, worth base fan + gens after the pattern's exception
    # + that reading's 一条龙/夹心五.  Key: total, base fan, table order, gens, reading fans (D13/D22).
    candidates = []
    for reading, pids in zip(readings, patterns):
        raw = _raw_gens(reading, counts, melds, total, rules)
        rfans = _reading_fans(reading, rules, win_tile)
        for pid in pids:
            gen = _gens_after_exception(pid, raw)
            candidates.append((pid, gen, rfans))
    sky = "tianhu" if heavenly else "dihu" if earthly else None
    sky_mode = _mode(rules["heavenly_earthly"])
    if sky and sky_mode == "base":
        # D14: a hand pattern worth more than 天胡/地胡 stands; otherwise 天胡/地胡 competes as a base
        # that counts every gen, on every reading.
        if not any(fan_of[pid] > fan_of[sky] for pids in patterns for pid in pids):
            for reading in readings:
                raw = _raw_gens(reading, counts, melds, total, rules)
                candidates.append((sky, raw, _reading_fans(reading, rules, win_tile)))

    def key(c):
        pid, gen, rfans = c
        return (fan_of[pid] + gen + sum(rfans), fan_of[pid], -order[pid], gen, rfans)

    base, gen, (dragon, five, two) = max(candidates, key=key)

    extras = _context_fans(rules, melds, self_draw, kong_replacement, after_kong_discard,
                           robbed_kong, last_tile)
    if rules["duanyaojiu"] and not any(total[k] and rank_of(k) in (1, 9) for k in range(27)):
        extras.append("duanyaojiu")
    if dragon:
        extras.append("yitiaolong")
    if five:
        extras.append("jiaxinwu")
    if last_tile and not self_draw and rules["haidipao"]:
        extras.append("haidipao")
    # docs/rules.md §11.3
    if _mode(rules["jingoudiao"]) == "additive" and len(melds) == (size - 1) // 3:
        extras.append("jingou")
    amount = {"tianhu": 3, "dihu": 2}
    if sky and sky_mode == "additive":
        extras.append(sky)
        amount[sky] = rules["fan_table"].get(sky, amount[sky])  # the table's entry, where given
    if two:
        extras.append("kaertiao")
    if rules["single_wait"] and win_tile is not None and not heavenly:
        before = list(counts)
        before[win_tile] -= 1
        if len(waits(before, melds, void, rules["seven_pairs"], hand_size=size, suits=suits)) == 1:
            extras.append("kabiandiao")

    uncapped = fan_of[base] + gen + sum(amount.get(e, 1) for e in extras)
    fan = uncapped if rules["max_fan"] is None else min(uncapped, rules["max_fan"])
    return FanResult(fan, _multiplier(fan, rules), base, fan_of[base], gen, tuple(extras))


# --------------------------------------------------------------------------------------------
# 查听: best discards (docs/rules.md §5 "Tile counting")
# --------------------------------------------------------------------------------------------

def best_discards(counts, melds=(), visible=None, void=None, rules=None) -> list:
    """For each distinct discard of a 14 - 3k hand: shanten after it, its 进张 with remaining
    counts and, when ready, every wait with its fan as a discard win and as a self-draw
    (win_tile = the wait). remaining = max(0, 4 - own14 - visible) (own14: the 14 tiles + melds,
    the discard counted as seen). With a void declared and tiles of it held, only those are
    discards (docs/rules.md §4). Best first: lower shanten, more tiles to draw (jinzhang_total: the
    winning tiles when ready), higher best discard-win fan, lower discard kind."""
    counts, melds, own = _check(counts, melds, (14,), "best_discards")
    rules = _full_rules(rules)
    visible = [0] * 27 if visible is None else list(visible)
    if len(visible) != 27 or any(v < 0 for v in visible):
        raise ValueError("visible must be 27 non-negative counts")
    void_suit = _void_suit(void)
    discards = [d for d in range(27) if counts[d]]
    if void_suit is not None and any(suit_of(d) == void_suit for d in discards):
        discards = [d for d in discards if suit_of(d) == void_suit]
    options = []
    for d in discards:
        counts[d] -= 1
        sh = shanten(counts, melds, void, rules["seven_pairs"])
        remaining = {t: max(0, 4 - own[t] - visible[t]) for t in range(27)}
        jz = tuple((t, remaining[t]) for t in jinzhang(counts, melds, void, rules["seven_pairs"]))
        opts = []
        if sh == 0:
            for t in waits(counts, melds, void, rules["seven_pairs"]):
                counts[t] += 1
                ron = evaluate(counts, melds, void, rules, win_tile=t)
                tsumo = evaluate(counts, melds, void, rules, win_tile=t, self_draw=True)
                counts[t] -= 1
                opts.append(WaitOption(t, remaining[t], ron, tsumo))
        counts[d] += 1
        options.append(DiscardOption(d, sh, sum(w.remaining for w in opts), tuple(opts), jz,
                                     sum(r for _, r in jz)))

    def key(o):
        best_ron = max((w.discard_win.fan for w in o.waits), default=0)
        return (o.shanten, -o.jinzhang_total, -best_ron, o.discard)

    return sorted(options, key=key)
