"""Scripting helpers for the game-engine tests (docs/rules.md §2, §10).

A scenario is written as four hands and the tiles drawn, in the order the rules deal them:

    sw = build_wall(["5p *", "123m456m789m123p5p", "*", "*"], draws=["?", "5p"])
    state = xueliu.new_game(XL, wall=sw.wall, dealer=0)
    act(state, 0, "discard", "5p")

``"*"`` fills a hand with *junk*: distinct kinds (so the seat can never peng or kong), at most
two suits counting the rest of the hand (so it is no flower pig), and not ready (so it neither
wins nor collects 查大叫). ``"?"`` in ``draws`` / ``back`` is a *quiet* tile: a kind nobody's
scripted part holds and no scripted hand waits on, so whoever discards it is not claimed.
``play_out`` then finishes the hand with every seat discarding the tile it just drew and passing
on every claim, so every hand at the end of the game is the hand the script left it with.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import random
from typing import Iterable, Optional, Sequence

import pytest

import xueliu
from xueliu.rules import Rules

# ---------------------------------------------------------------------------------------------
# pytest wiring

SOAK_GAMES = 10_000


def soak_enabled(config) -> bool:
    try:
        if config.getoption("--soak"):
            return True
    except ValueError:
        pass
    return os.environ.get("XUELIU_SOAK", "") not in ("", "0")


# ---------------------------------------------------------------------------------------------
# tiles

KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
KIND = {name: i for i, name in enumerate(KINDS)}


def tiles(text: str) -> list[str]:
    """``"123m 5p"`` -> ``["1m", "2m", "3m", "5p"]`` (our own tiny parser: tests stay independent)."""
    out: list[str] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(ch)
        elif ch in "mps":
            assert digits, f"suit letter without digits in {text!r}"
            out.extend(d + ch for d in digits)
            digits = []
        else:
            raise AssertionError(f"bad character {ch!r} in {text!r}")
    assert not digits, f"digits without a suit in {text!r}"
    for t in out:
        assert t in KIND, f"bad tile {t!r} in {text!r}"
    return out


def counts_of(ts: Iterable[str]) -> list[int]:
    c = [0] * 27
    for t in ts:
        c[KIND[t]] += 1
    return c


def suits_of(ts: Iterable[str]) -> set[str]:
    return {t[-1] for t in ts}


# A small independent checker, used only to assert the premises of a script ("this seat is not
# ready"), never to compute an expected payment.

def _sets_only(c: list[int], i: int = 0) -> bool:
    while i < 27 and c[i] == 0:
        i += 1
    if i == 27:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c, i)
        c[i] += 3
        if ok:
            return True
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def is_complete(concealed: Sequence[str], melds: Sequence[str] = (), seven_pairs: bool = True) -> bool:
    """Standard form or seven pairs, 缺一门 (melds given as one tile name each)."""
    c = counts_of(concealed)
    if sum(c) % 3 != 2:
        return False
    if len(suits_of(list(concealed) + list(melds))) > 2:
        return False
    if seven_pairs and not melds and sum(c) == 14 and all(x in (0, 2, 4) for x in c):
        return True
    for k in range(27):
        if c[k] >= 2:
            c[k] -= 2
            ok = _sets_only(c)
            c[k] += 2
            if ok:
                return True
    return False


def waits_of(concealed: Sequence[str], melds: Sequence[str] = (), kong_melds: Sequence[str] = ()) -> list[str]:
    held = collections.Counter(concealed)
    for m in melds:
        held[m] += 3
    for m in kong_melds:
        held[m] += 4
    out = []
    for t in KINDS:
        if held[t] >= 4:
            continue
        if is_complete(list(concealed) + [t], list(melds) + list(kong_melds)):
            out.append(t)
    return out


def is_ready(concealed: Sequence[str], melds: Sequence[str] = ()) -> bool:
    return bool(waits_of(concealed, melds))


# ---------------------------------------------------------------------------------------------
# the scripted wall


@dataclasses.dataclass
class ScriptedWall:
    wall: list[str]           # 108 tile names in docs/rules.md §10 order
    hands: dict[int, list[str]]  # dealt hands by seat (junk resolved)
    draws: list[str]          # wall[53], wall[54], ... as scripted ("?" resolved)
    back: list[str]           # wall[107], wall[106], ... as scripted
    dealer: int = 0

    def live(self, i: int) -> str:
        """The i-th live draw (wall[53 + i])."""
        return self.wall[53 + i]


def deal_order_indices(dealer: int = 0) -> dict[int, list[int]]:
    """Wall indices each seat receives, docs/rules.md §10: 12 takes of 4, then 2 + 1 + 1 + 1."""
    got: dict[int, list[int]] = {s: [] for s in range(4)}
    for take in range(12):
        seat = (dealer + take % 4) % 4
        got[seat].extend(range(4 * take, 4 * take + 4))
    got[dealer].extend([48, 49])
    for j in range(1, 4):
        got[(dealer + j) % 4].append(49 + j)
    return got


def build_wall(
    hands: Sequence[str],
    draws: Sequence[str] = (),
    back: Sequence[str] = (),
    dealer: int = 0,
    seed: int = 0,
    filler: Sequence[str] = (),
    quiet_avoid: Sequence[str] = (),
    last: Sequence[str] = (),
    quiet_distinct: bool = False,
) -> ScriptedWall:
    """Build a 108-tile wall dealing ``hands`` (indexed by seat) and drawing ``draws`` from wall[53].

    ``back`` are the replacement tiles taken from the back (wall[107] first). ``filler`` are tiles
    to place right after the scripted draws (in that order); the rest of the live wall follows in a
    seeded shuffle; ``last`` are the final live tiles (its last entry is the last tile drawn when no
    kong replaces from the front). ``quiet_avoid``: kinds that "?" must not be; ``quiet_distinct``:
    every "?" a different kind (else one kind is used up before the next).
    """
    assert len(hands) == 4
    rng = random.Random(seed)
    explicit: dict[int, list[str]] = {}
    want_junk: dict[int, bool] = {}
    for seat, text in enumerate(hands):
        want_junk[seat] = "*" in text
        explicit[seat] = tiles(text.replace("*", ""))
        size = 14 if seat == dealer else 13
        if want_junk[seat]:
            assert len(explicit[seat]) <= size, f"seat {seat}: too many tiles"
        else:
            assert len(explicit[seat]) == size, f"seat {seat}: {len(explicit[seat])} tiles, want {size}"

    used = collections.Counter()
    for seat in range(4):
        used.update(explicit[seat])
    fixed_draws = [t for t in list(draws) + list(back) + list(last) if t != "?"] + list(filler)
    for t in fixed_draws:
        assert t in KIND, f"bad tile {t!r}"
    used.update(fixed_draws)
    for t, n in used.items():
        assert n <= 4, f"{n} copies of {t} in the script"

    # quiet kinds: nobody's scripted part holds one, no full scripted hand waits on it
    avoid = set(quiet_avoid)
    for seat in range(4):
        avoid.update(explicit[seat])
        size = 14 if seat == dealer else 13
        if len(explicit[seat]) == 13:
            avoid.update(waits_of(explicit[seat]))
    avoid.update(fixed_draws)
    quiet_kinds = [t for t in reversed(KINDS) if t not in avoid]
    resolved_draws, resolved_back = [], []

    def quiet() -> str:
        # use up one quiet kind before the next: every kind spent here is one junk cannot use
        for t in quiet_kinds:
            if quiet_distinct and used[t] > 0:
                continue
            if used[t] < 4:
                used[t] += 1
                return t
        raise AssertionError("no quiet tile left")

    for t in draws:
        resolved_draws.append(quiet() if t == "?" else t)
    for t in back:
        resolved_back.append(quiet() if t == "?" else t)
    last = [quiet() if t == "?" else t for t in last]

    # junk
    final_hands: dict[int, list[str]] = {}
    for seat in range(4):
        size = 14 if seat == dealer else 13
        part = explicit[seat]
        need = size - len(part)
        if not want_junk[seat] or need == 0:
            final_hands[seat] = list(part)
            continue
        # junk never holds a drawn kind, so "seat X may discard that tile" proves the draw
        quiet_used = set(resolved_draws) | set(resolved_back) | set(last)
        final_hands[seat] = part + _junk(rng, need, part, used, seat == dealer, quiet_used - set(part))
        used.update(final_hands[seat][len(part):])

    rest = collections.Counter({t: 4 for t in KINDS})
    rest.subtract(used)
    assert all(n >= 0 for n in rest.values()), rest
    pool = sorted(rest.elements(), key=KIND.__getitem__)
    rng.shuffle(pool)

    live_len = 55 - len(resolved_back)
    assert len(resolved_draws) + len(filler) + len(last) <= live_len, "script longer than the live wall"
    middle = list(filler) + pool
    live = resolved_draws + middle[: live_len - len(resolved_draws) - len(last)] + list(last)
    wall: list[Optional[str]] = [None] * 108
    for seat, idxs in deal_order_indices(dealer).items():
        for i, t in zip(idxs, final_hands[seat]):
            wall[i] = t
    for i, t in enumerate(live):
        wall[53 + i] = t
    for i, t in enumerate(resolved_back):
        wall[107 - i] = t
    assert all(t is not None for t in wall)
    assert len(wall) == 108
    assert collections.Counter(wall) == collections.Counter({t: 4 for t in KINDS}), "not a 108-tile set"
    # the deal reproduces the hands
    for seat, idxs in deal_order_indices(dealer).items():
        assert sorted(wall[i] for i in idxs) == sorted(final_hands[seat])
    return ScriptedWall(list(wall), final_hands, resolved_draws, resolved_back, dealer)  # type: ignore[arg-type]


def _junk(rng: random.Random, need: int, part: list[str], used: collections.Counter, dealer: bool,
          exclude: set = frozenset()) -> list[str]:
    part_suits = sorted(suits_of(part))
    if len(part_suits) >= 2:
        suit_choices = [part_suits]
    elif len(part_suits) == 1:
        suit_choices = [sorted({part_suits[0], s}) for s in "mps" if s != part_suits[0]]
    else:
        suit_choices = [["m", "p"], ["m", "s"], ["p", "s"]]

    def cands(suits):
        return [t for t in KINDS if t[-1] in suits and t not in part and t not in exclude and used[t] < 4]

    # the suit pair with the most free kinds first: junk seats share the wall
    suit_choices.sort(key=lambda su: (-sum(4 - used[t] for t in cands(su)), su))
    for max_runs in (1, 2, 3, 9):
        for suits in suit_choices:
            pool = cands(suits)
            if len(pool) < need:
                continue
            for _ in range(600):
                pick = rng.sample(pool, need)
                if _runs(pick) > max_runs:
                    continue
                hand = part + pick
                if dealer:
                    # the dealer discards one of its scripted tiles first; it must not be ready after any
                    if is_complete(hand) or any(is_ready(_minus(hand, t)) for t in set(part) or set(pick)):
                        continue
                elif is_ready(hand):
                    continue
                return sorted(pick, key=KIND.__getitem__)
    raise AssertionError(f"could not build junk around {part}")


def _runs(pick: list[str]) -> int:
    """Runs of three consecutive kinds inside the junk (fewer runs: farther from ready)."""
    s = set(pick)
    return sum(1 for t in pick if int(t[0]) <= 7 and f"{int(t[0]) + 1}{t[1]}" in s and f"{int(t[0]) + 2}{t[1]}" in s)


def _minus(hand: list[str], t: str) -> list[str]:
    h = list(hand)
    h.remove(t)
    return h


# ---------------------------------------------------------------------------------------------
# rules used by the scenarios: the phases that are not the subject are off so scripts stay short

def xl_rules(**knobs) -> Rules:
    """The xueliu preset without exchange and void (unless asked)."""
    base = dict(exchange_three=False, declare_void=False)
    base.update(knobs)
    return Rules.preset("xueliu").replace(**base)


def xz_rules(**knobs) -> Rules:
    """The xuezhan preset without exchange, void, multipliers and the last-4 forced win (unless asked)."""
    base = dict(exchange_three=False, declare_void=False, player_multipliers=None, forced_win_last_n=0)
    base.update(knobs)
    return Rules.preset("xuezhan").replace(**base)


def new_game(rules, sw: ScriptedWall, **kw):
    return xueliu.new_game(rules, wall=sw.wall, dealer=sw.dealer, **kw)


# ---------------------------------------------------------------------------------------------
# driving a state


def kinds(state, seat: int) -> set[str]:
    return {a.kind for a in state.legal_actions(seat)}


def find(state, seat: int, kind: str, tile: Optional[str] = None, **attrs):
    """The one legal action of ``seat`` with this kind (and tile / tiles / suit / value)."""
    legal = state.legal_actions(seat)
    hits = [
        a
        for a in legal
        if a.kind == kind
        and (tile is None or a.tile == tile)
        and all(_norm(getattr(a, k)) == _norm(v) for k, v in attrs.items())
    ]
    assert len(hits) == 1, (
        f"seat {seat}: want one {kind} {tile or ''} {attrs or ''}, legal: "
        + ", ".join(_show(a) for a in legal)
    )
    return hits[0]


def has(state, seat: int, kind: str, tile: Optional[str] = None) -> bool:
    return any(a.kind == kind and (tile is None or a.tile == tile) for a in state.legal_actions(seat))


def _norm(v):
    if isinstance(v, (list, tuple)):
        return tuple(v)
    return v


def _show(a) -> str:
    extra = a.tile or getattr(a, "tiles", None) or getattr(a, "suit", None) or getattr(a, "value", None)
    return f"{a.kind}:{extra}" if extra else a.kind


def act(state, seat: int, kind: str, tile: Optional[str] = None, **attrs):
    """Step ``seat`` with its one legal action of this kind (and tile)."""
    assert seat in state.pending(), f"seat {seat} is not pending (pending: {state.pending()})"
    state.step({seat: find(state, seat, kind, tile, **attrs)})
    return state


def peng_5p_then_round(rules, sw: ScriptedWall, discard: str):
    """Seat 2 pengs the dealer's opening 5p and discards ``discard``; seats 3, 0 and 1 then discard
    their draws (``sw.draws[0:3]``)."""
    state = new_game(rules, sw)
    act(state, 0, "discard", "5p")
    act(state, 2, "peng", "5p")
    act(state, 2, "discard", discard)
    for seat, i in ((3, 0), (0, 1), (1, 2)):
        act(state, seat, "discard", sw.draws[i])
    return state


def pass_all(state):
    """Every pending seat passes (a claim window nobody takes)."""
    pend = state.pending()
    assert pend, "nobody is pending"
    state.step({s: find(state, s, "pass") for s in pend})
    return state


def transfers(state) -> list[tuple]:
    return [(t.payer, t.payee, t.amount, t.reason) for t in state.settlement().transfers]


# --- reading the engine's views (the one place that knows the observation / event format) ---


def events(state, seat=None) -> list[dict]:
    return list(state.events(seat)) if seat is not None else list(state.events())


def obs_hand(state, seat: int) -> list[str]:
    """The seat's concealed tiles as it sees them, sorted in kind order."""
    return sorted(state.observation(seat)["hand"], key=KIND.__getitem__)


def obs_melds(state, seat: int, of: Optional[int] = None) -> list[tuple[str, str]]:
    """``of``'s melds as ``seat`` sees them: (type, tile) with type peng / kong / concealed_kong."""
    of = seat if of is None else of
    return [(m["type"], m["tile"]) for m in state.observation(seat)["melds"][of]]


def obs_discards(state, seat: int, of: int) -> list[str]:
    return list(state.observation(seat)["discards"][of])


def wall_left(state) -> int:
    """Tiles left in the live wall, as every seat sees it."""
    return state.observation(0)["wall_remaining"]


def last_draw(state, seat: int) -> Optional[str]:
    """The tile ``seat`` drew last, from the omniscient event stream."""
    for ev in reversed(events(state)):
        if ev.get("type") in DRAW_TYPES and ev.get("actor") == seat:
            return ev.get("pai")
        if ev.get("type") in DISCARD_TYPES and ev.get("actor") == seat:
            return None
    return None


DRAW_TYPES = {"tsumo", "draw"}
DISCARD_TYPES = {"dahai", "discard"}


def _passive_action(state, seat: int, legal):
    """Pass on a claim, else discard the tile just drawn (else the last discard offered), else
    the first legal action: the choice of play_out and play_until."""
    by_kind = collections.defaultdict(list)
    for a in legal:
        by_kind[a.kind].append(a)
    if "pass" in by_kind:
        return by_kind["pass"][0]
    if "discard" in by_kind:
        drawn = last_draw(state, seat)
        same = [a for a in by_kind["discard"] if a.tile == drawn]
        return same[0] if same else by_kind["discard"][-1]
    return legal[0]


def play_out(state, max_steps: int = 2000, on_step=None):
    """Finish the hand: pass on every claim, discard the tile just drawn (declining wins/kongs).

    Phases (exchange, void, multiplier) take the first legal action. Returns the state.
    """
    for _ in range(max_steps):
        if state.is_over:
            return state
        pend = state.pending()
        assert pend, "a state that is not over must have a pending seat"
        choice = {}
        for s in pend:
            legal = state.legal_actions(s)
            assert legal, f"pending seat {s} has no legal action"
            choice[s] = _passive_action(state, s, legal)
        state.step(choice)
        if on_step:
            on_step(state)
    raise AssertionError("the hand did not end")


def play_until(state, pred, max_steps: int = 2000):
    """Like play_out, but stop (before acting) as soon as ``pred(state)`` holds."""
    for _ in range(max_steps):
        if pred(state):
            return state
        assert not state.is_over, "the hand ended before the condition held"
        pend = state.pending()
        choice = {}
        for s in pend:
            choice[s] = _passive_action(state, s, state.legal_actions(s))
        state.step(choice)
    raise AssertionError("condition never held")


@pytest.fixture
def soak(request) -> bool:
    return soak_enabled(request.config)


# --- what a seat may see (docs/rules.md §7 "Hidden information") -------------------------------------

HIDDEN = "?"


def _all_hidden(v) -> bool:
    if isinstance(v, list):
        return all(_all_hidden(x) for x in v)
    return v == HIDDEN


def check_seat_events(full: list[dict], view: list[dict], seat: int) -> None:
    """``view`` (events as ``seat`` sees them) is ``full`` with exactly the hidden parts masked:
    other seats' dealt tiles, draws, exchange picks (but for what ``seat`` gave and received),
    the kinds of their concealed kongs and their concealed hands; nothing else differs."""
    assert len(view) == len(full), "a seat's stream has other events than the whole stream"
    for i, (f, v) in enumerate(zip(full, view)):
        where = f"event {i} {f.get('type')}"
        assert v.get("type") == f.get("type"), where
        assert set(v) <= set(f), f"{where}: keys the whole stream lacks"
        t = f["type"]
        actor = f.get("actor")
        if t == "tsumo":
            if actor == seat:
                assert v["pai"] == f["pai"], where
            else:
                assert v["pai"] == HIDDEN, f"{where}: seat {seat} sees seat {actor}'s draw"
        elif t == "ankan":
            if actor != seat:
                assert _all_hidden(v["consumed"]), f"{where}: concealed kong kind leaked"
        elif t == "start_hand":
            assert len(v["tehais"]) == len(f["tehais"]), where
            for o in range(len(f["tehais"])):
                if o == seat:
                    assert v["tehais"][o] == f["tehais"][o], where
                else:
                    assert _all_hidden(v["tehais"][o]), f"{where}: seat {o}'s hand leaked"
        elif t == "huansanzhang":
            for o in range(len(f["given"])):
                if o == seat:
                    assert v["given"][o] == f["given"][o] and v["received"][o] == f["received"][o]
                    continue
                # another seat's pick is visible only as what this seat received / gave
                assert _all_hidden(v["given"][o]) or sorted(v["given"][o]) == sorted(f["received"][seat]), where
                assert _all_hidden(v["received"][o]) or sorted(v["received"][o]) == sorted(f["given"][seat]), where
        elif t == "hora":
            if f["actor"] != seat and "hand" in v:
                assert _all_hidden(v["hand"]), f"{where}: a winner's concealed hand leaked"
        # every other difference must be a mask
        for key, val in v.items():
            if val != f[key]:
                assert _hidden_where_different(val, f[key]), f"{where}: {key} differs without a mask"


def _hidden_where_different(view_val, full_val) -> bool:
    if view_val == full_val:
        return True
    if isinstance(view_val, list) and isinstance(full_val, list) and len(view_val) == len(full_val):
        return all(_hidden_where_different(a, b) for a, b in zip(view_val, full_val))
    if isinstance(view_val, dict) and isinstance(full_val, dict):
        return all(k in full_val and _hidden_where_different(view_val[k], full_val[k]) for k in view_val)
    return _all_hidden(view_val)


def check_observation(state, seat: int) -> None:
    """Structural checks on ``observation(seat)``: JSON-serialisable, other seats' concealed kongs
    face down, declarations hidden until revealed, only the own exchange shown."""
    import json

    obs = state.observation(seat)
    json.dumps(obs)
    full = events(state)
    types = {e["type"] for e in full}
    assert len(obs["melds"]) == state.seats, "a per-seat list of another length than the seats"
    for o in range(state.seats):
        for m in obs["melds"][o]:
            if m["type"] == "concealed_kong" and o != seat:
                assert m["tile"] == HIDDEN, f"seat {seat} sees the kind of seat {o}'s concealed kong"
    if "dingque" not in types:
        assert all(v is None for v in obs["voids"]), "void choices shown before the reveal"
    if "xuanbei" not in types:
        assert obs["multipliers"] is None, "multiplier choices shown before the reveal"
    ex = [e for e in full if e["type"] == "huansanzhang"]
    if ex and obs.get("exchange") is not None:
        assert sorted(obs["exchange"]["given"]) == sorted(ex[0]["given"][seat])
        assert sorted(obs["exchange"]["received"]) == sorted(ex[0]["received"][seat])


# --- a greedy policy (discard to the lowest shanten, always win): random play rarely wins, and
# settlement paths need wins -------------------------------------------------------------------


def notation(concealed: Sequence[str], melds: Sequence[tuple[str, str]] = ()) -> str:
    out = ""
    for s in "mps":
        ranks = sorted(t[0] for t in concealed if t[1] == s)
        if ranks:
            out += "".join(ranks) + s
    for typ, t in melds:
        r, s = t[0], t[1]
        out += {"peng": f"({r * 3}{s})", "kong": f"({r * 4}{s})", "concealed_kong": f"[{r * 4}{s}]"}[typ]
    return out


def greedy_chooser(seed: int, peng_rate: float = 0.5):
    """``choose(state, seat) -> Action``: wins when it can, discards to the lowest shanten
    (ties at random), pengs and kongs now and then, otherwise passes."""
    rng = random.Random(seed)

    def choose(state, seat):
        legal = state.legal_actions(seat)
        by_kind = collections.defaultdict(list)
        for a in legal:
            by_kind[a.kind].append(a)
        if "hu" in by_kind:
            return by_kind["hu"][0]
        for k in ("kong", "concealed_kong", "added_kong", "peng"):
            if k in by_kind and rng.random() < peng_rate:
                return rng.choice(by_kind[k])
        if "discard" in by_kind:
            obs = state.observation(seat)
            melds = [(m["type"], m["tile"]) for m in obs["melds"][seat]]
            best, score = [], None
            for a in by_kind["discard"]:
                h = list(obs["hand"])
                h.remove(a.tile)
                try:
                    sh = xueliu.shanten(notation(h, melds), void=obs["void"], rules=state.rules)
                except ValueError:
                    sh = 99
                if score is None or sh < score:
                    best, score = [a], sh
                elif sh == score:
                    best.append(a)
            return rng.choice(best)
        if "pass" in by_kind:
            return by_kind["pass"][0]
        return rng.choice(legal)

    return choose
