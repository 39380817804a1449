"""A copy of a hand in progress with the tiles one seat cannot see dealt again (a determinization):
the same hand as far as that seat knows, on another of the walls it could be playing.

Search and measurement code asks "what is this decision worth to a seat that sees what this seat
sees": play it out on many such copies. :func:`redealt` shuffles together the concealed tiles of
the other seats and the live wall, then deals each other seat as many concealed tiles as it held
and puts the rest back as the live wall, so everything public is unchanged — discards, melds, the
set-aside winning tiles, hand sizes, the wall's length, and the seat's own hand: its observation
is the same (``tests/game/test_redeal.py``). At a claim window (another seat's discard, which the
seat may 碰/杠/胡) the window is opened again on the new hands: who else may claim is hidden too.

What it keeps that the seat cannot see, because a uniform redeal would break a rule the hand has
already shown and there is no cheap exact sampler:

- a won 血流 hand (frozen: its concealed tiles never change and must still win on every tile it
  has won on) keeps its tiles, and so does a 血战 winner that has left — unless
  ``won_hands="redeal"``, which builds each of them a hand from the hidden tiles that still wins
  on those kinds (a won hand's other waits are what its neighbours cannot see; the teacher of
  the close calls kept them: docs/training.md, "What was tried");
- each other seat keeps its count of tiles of its void suit (定缺): a seat that has discarded
  another suit holds none of its void and must not be dealt one, and a seat that has not may;
- when those void rules leave (almost) no other deal — late in a hand, when the hidden tiles are
  mostly the hands themselves, 1,000 shuffles find none — each seat keeps its count of every
  suit instead.

How it deals the other seats: at random (``hands="uniform"``), or (``hands="likely"``) each as
near a win as real players' hands are at that point of a hand, by the prior of
:mod:`xueliu.game.likely_hands` — a uniform deal is far slower and safer than a real table late in
a hand.

And what it drops: the three tiles the seat gave in the exchange (换三张) are known to be in the
receiver's hand until they show up; a redeal may move them. What is kept tells the copy a
little more than the seat knows, what is dropped a little less: both small beside the dozens of
hidden tiles redealt.
"""

from __future__ import annotations

import pickle
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple, Union

import numpy as np

from .. import _core
from . import likely_hands
from .claims import open_claims
from .data import PH_CLAIM, PH_TURN
from .state import GameState

__all__ = ["HANDS", "clone", "redealt"]

HANDS = ("uniform", "likely")
"""How :func:`redealt` may deal the other seats' hidden hands."""

_ATTEMPTS = 1000
_LIKELY_ATTEMPTS = 20  # deals with the prior before the uniform deal found is kept
_LIKELY_TRIES = 100  # draws of one seat's hand with the prior
_SUIT = [k // 9 for k in range(27)]


def clone(state: GameState) -> GameState:
    """A faithful copy of a hand in progress (a pickle round trip: five times faster than
    ``copy.deepcopy``; the self-play branch points' tests check that a copy plays on exactly as
    the hand does)."""
    twin: GameState = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return twin


def redealt(state: GameState, seat: int, seed: Union[int, Sequence[int]],
            won_hands: str = "keep", hands: str = "uniform") -> GameState:
    """A copy of ``state`` whose tiles hidden from ``seat`` (the other seats' concealed tiles
    and the live wall) are dealt again from ``numpy.random.default_rng(seed)``, kept as described
    above. ``state`` itself is not changed. At ``seat``'s own turn decision (phase ``"turn"``,
    ``seat`` pending alone), or at a claim window ``seat`` is asked in (phase ``"claim"``) before
    anyone in it has answered: the window is then opened again on the new hands (which other
    seats may claim, and how, depends on the tiles redealt; ``seat``'s own options do not), so
    the copy asks whoever its hands would ask. Elsewhere another seat's pending choices would
    depend on the tiles redealt, and a redeal is refused.

    ``won_hands="redeal"`` deals the won hands again too (a frozen 血流 hand, a 血战 winner that
    has left): each gets a hand built from the hidden tiles that wins on every kind it has won on
    (:func:`_won_hand`), so the copy no longer knows a won hand's other waits — what the seat
    cannot see either. A won hand for which 500 tries build none keeps its tiles.

    ``hands="likely"`` deals each other seat whose hand may change a hand as near a win as real
    players' are (:mod:`xueliu.game.likely_hands`): its hand is drawn again until one is kept,
    with chance in proportion to the prior's ratio for its shanten (at most 100 draws a seat;
    seats dealt in turn, the wall last). Where the void rules leave (almost) no other deal, the
    deal keeps each seat's suits, as a uniform one does, without the prior."""
    if won_hands not in ("keep", "redeal"):
        raise ValueError(f"won_hands must be 'keep' or 'redeal', not {won_hands!r}")
    if hands not in HANDS:
        raise ValueError(f"hands must be 'uniform' or 'likely', not {hands!r}")
    ratios = likely_hands.ratios_for(state.rules) if hands == "likely" else None
    return redealt_with(state, seat, seed, won_hands, ratios)


def redealt_with(state: GameState, seat: int, seed: Union[int, Sequence[int]], won_hands: str,
                 ratios: Optional[np.ndarray]) -> GameState:
    """:func:`redealt` with the prior's ratios given (``None``: uniform): what
    :func:`xueliu.train.hand_prior.measure` calibrates a prior with."""
    claim = _fresh_claim(state, seat)
    if not claim and (state.is_over or state._phase != PH_TURN or list(state.pending()) != [seat]):
        raise ValueError(f"a redeal needs seat {seat}'s own turn decision or a claim window it "
                         f"is asked in that nobody has answered yet (and not in the last "
                         f"forced_win_last_n tiles); the hand is at {state.phase!r} with seats "
                         f"{list(state.pending())} pending")
    twin = clone(state)
    rng = np.random.default_rng(seed)
    redeal = [o for o in range(twin._n)
              if o != seat and twin._in_play[o] and not twin._frozen[o]]
    won = [o for o in range(twin._n) if o != seat and o not in redeal and twin._won[o]
           ] if won_hands == "redeal" else []
    pool: List[int] = []
    for o in redeal:
        for k, c in enumerate(twin._hands[o]):
            pool += [k] * c
    front, back = twin._front, twin._back
    pool += twin._wall[front:back + 1]
    own = {o: bytes(twin._hands[o]) for o in won}
    # sorted: what is dealt depends on the hidden tiles as a multiset, not on who held which
    hidden = sorted(pool + [k for h in own.values() for k, c in enumerate(h) for _ in range(c)]
                    ) if won_hands == "redeal" else pool
    # Each seat wants its count of void-suit tiles (category 0), then the rest (category 1).
    wants = [[twin._void_count[o], sum(twin._hands[o]) - twin._void_count[o]] for o in redeal]
    category = [[0 if v >= 0 and k // 9 == v else 1 for k in range(27)]
                for v in (twin._void[o] for o in redeal)]
    dealt = None
    unbuilt: Set[int] = set()  # won hands no hand was found for: they keep theirs
    for _ in range(_ATTEMPTS):  # a deal that breaks a seat's void rule is drawn again
        left = pool if won_hands == "keep" else _deal_won(twin, won, own, unbuilt, hidden, rng)
        if left is None:
            continue
        order = [left[i] for i in rng.permutation(len(left))]
        dealt = _take(order, wants, category)
        if dealt is not None:
            break
    if dealt is not None and left is not None and ratios is not None:
        for _ in range(_LIKELY_ATTEMPTS):  # the seats' void rules allow deals: now likely ones
            likely = _take_likely(twin, redeal, left, wants, category, ratios, rng)
            if likely is not None:
                dealt = likely
                break
    if dealt is None:
        # Late in a hand the hidden tiles are mostly the hands themselves, and a void rule can
        # leave almost no deal but the true one: keep each seat's count of every suit then (a
        # deal that always exists: the hand's own; won hands keep theirs).
        for o, tiles in own.items():
            twin._hands[o] = bytearray(tiles)
            twin._update_waits(o)
        order = [pool[i] for i in rng.permutation(len(pool))]
        dealt = _take(order, [[sum(twin._hands[o][9 * u:9 * u + 9]) for u in range(3)]
                              for o in redeal], [_SUIT] * len(redeal))
        assert dealt is not None
    hands, rest = dealt
    for o, h in zip(redeal, hands):
        twin._hands[o] = bytearray(h)
        twin._update_waits(o)
    twin._wall[front:back + 1] = rest
    twin._views = type(twin._views)(twin._n)
    if claim:  # who may claim the tile, and how, as the new hands say
        open_claims(twin, twin._c_from, twin._c_tile, twin._c_rob)
    return twin


def _fresh_claim(state: GameState, seat: int) -> bool:
    """Whether ``state`` is a claim window that asks ``seat`` and in which no seat has answered
    (auto-played seats answer as it opens), and that no forced win (``forced_win_last_n``) could
    close on other hands: one that opens again alike but for the redealt seats."""
    if state._phase != PH_CLAIM or seat not in state._pending or state._c_forced:
        return False
    opts = state._c_opts
    auto = [s for s in opts if state._auto[s]]  # answered as the window opened
    forced = state._forced_n and state._back - state._front + 1 < state._forced_n
    return not forced and sorted(state._answers) == sorted(auto) \
        and sorted(state._pending) == sorted(s for s in opts if not state._auto[s])


def _deal_won(twin: GameState, won: List[int], own: Dict[int, bytes], unbuilt: Set[int],
              pool: List[int], rng: np.random.Generator) -> Optional[List[int]]:
    """Gives each won hand of ``won`` a hand from ``pool`` (:func:`_won_hand`; its own tiles
    ``own[o]`` when none is found, and from then on: ``unbuilt``, so a deal drawn again does not
    search again) and returns the tiles left; ``None`` if a won hand got neither."""
    counts = [0] * 27
    for k in pool:
        counts[k] += 1
    for o in won:
        kinds = sorted({k for s, k in twin._win_tiles if s == o})
        size = sum(twin._hands[o])
        hand = None if o in unbuilt else _won_hand(counts, size, kinds, twin._void[o],
                                                    twin._core_melds[o], twin._sp, rng)
        if hand is None:
            unbuilt.add(o)
            hand = list(own[o])
            if any(hand[k] > counts[k] for k in range(27)):
                return None
        for k in range(27):
            counts[k] -= hand[k]
        twin._hands[o] = bytearray(hand)
        twin._void_count[o] = 0
        twin._update_waits(o)
    return [k for k in range(27) for _ in range(counts[k])]


def _won_hand(counts: List[int], size: int, kinds: List[int], void: int, melds: Any, sp: int,
              rng: np.random.Generator, tries: int = 500) -> Optional[List[int]]:
    """A concealed hand of ``size`` tiles from ``counts`` (none of suit ``void``) that wins, with
    ``melds``, on every kind of ``kinds``: a complete hand of ``size + 1`` tiles is built around
    one of them at random — a pair and runs or triplets of kinds drawn from the tiles at hand —
    and that kind taken out again, until the rest waits on all of them. Not uniform over such
    hands (no cheap sampler is), but drawn from the hidden tiles alone; ``None`` after ``tries``."""
    allowed = [k for k in range(27) if k // 9 != void]
    free = set(allowed)
    want = 0
    for k in kinds:
        want |= 1 << k
    sets = (size + 1 - 2) // 3
    for _ in range(tries):
        w = kinds[int(rng.integers(len(kinds)))]
        avail = list(counts)
        avail[w] += 1
        hand = [0] * 27

        def take(ks: Sequence[int]) -> bool:
            need: Dict[int, int] = {}
            for k in ks:
                need[k] = need.get(k, 0) + 1
            if any(k not in free or avail[k] < n for k, n in need.items()):
                return False
            for k, n in need.items():
                avail[k] -= n
                hand[k] += n
            return True

        # the won kind's place: in the pair, a triplet or a run
        places = [[w, w], [w, w, w]] + [[w - i, w - i + 1, w - i + 2] for i in range(3)
                                        if 0 <= w % 9 - i <= 6]
        place = places[int(rng.integers(len(places)))]
        if not take(place):
            continue
        pair = len(place) == 2
        built = 0 if pair else 1
        for _ in range(8 * (sets + 1)):  # draws of a kind, each a pair, triplet or run if free
            if built == sets and pair:
                break
            k = allowed[int(rng.integers(len(allowed)))]
            if not pair and (built == sets or rng.random() < 0.3):
                pair = take([k, k])
            elif built < sets:
                got = take([k, k, k]) if rng.random() < 0.25 else \
                    k % 9 <= 6 and take([k, k + 1, k + 2])
                built += 1 if got else 0
        if sum(hand) != size + 1:
            continue
        hand[w] -= 1  # taken from counts and w alone: the rest fits counts
        if _core.waits(_core.Hand(bytes(hand), melds), void, sp) & want == want:
            return hand
    return None


def _take_likely(twin: GameState, seats: List[int], tiles: List[int], wants: List[List[int]],
                 category: List[List[int]], ratios: np.ndarray, rng: np.random.Generator
                 ) -> Optional[Tuple[List[List[int]], List[int]]]:
    """Deals ``seats`` in turn from ``tiles`` as :func:`_take` does, each seat's hand drawn again
    until one is kept with chance ``ratio / max ratio`` of its cell of the prior (the last of
    :data:`_LIKELY_TRIES` draws kept in any case); the tiles left, shuffled, are the wall.
    ``None`` if a seat runs short."""
    wall_left = twin._back - twin._front + 1
    rest = list(tiles)
    hands = []
    for o, want, cat in zip(seats, wants, category):
        row = ratios[likely_hands.context_of(wall_left, len(twin._core_melds[o]))]
        top = float(row.max())
        for _ in range(_LIKELY_TRIES):
            got = _take([rest[i] for i in rng.permutation(len(rest))], [want], [cat])
            if got is None:
                return None
            (hand,), left = got
            shanten = likely_hands.shanten_of(twin, o, hand)
            if rng.random() * top < row[min(shanten, likely_hands.SHANTEN - 1)]:
                break
        hands.append(hand)
        rest = left
    return hands, [rest[i] for i in rng.permutation(len(rest))]


def _take(order: List[int], wants: List[List[int]], category: List[List[int]]
          ) -> Optional[Tuple[List[List[int]], List[int]]]:
    """Seats in turn take from ``order`` the first tiles of each category they want (seat
    ``s`` wants ``wants[s][c]`` tiles ``k`` with ``category[s][k] == c``): each seat's counts and
    the tiles left, in order; ``None`` if a seat runs short."""
    taken = [False] * len(order)
    hands = []
    for want, cat in zip(wants, category):
        want = list(want)
        counts = [0] * 27
        for i, k in enumerate(order):
            if not taken[i] and want[cat[k]]:
                want[cat[k]] -= 1
                taken[i] = True
                counts[k] += 1
        if any(want):
            return None
        hands.append(counts)
    return hands, [k for k, t in zip(order, taken) if not t]
