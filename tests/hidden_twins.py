"""Twin hands for hidden-information tests: two hands dealt from walls that differ only in two
tiles one seat cannot see, played with the same decisions. Wherever that seat's observation is
the same in both while the tables differ, whatever the seat is shown or decides must be the same
(docs/rules.md §7).

- ``"live_wall"``: two tiles swapped near the end of the live wall (drawn only late);
- ``"other_hands"``: a tile of the next seat's first take swapped with one of the seat after it
  (with two seats, with a wall tile near the end).
"""

from __future__ import annotations

import random
from typing import Iterator, List, Sequence, Tuple, Union

import xueliu
from xueliu.rules import Rules


def swapped_wall(wall: Sequence[str], i: int, j: int) -> List[str]:
    w = list(wall)
    w[i], w[j] = w[j], w[i]
    return w


def twin_hands(rules: Union[str, Rules], variant: str, games: int, rng: random.Random
               ) -> Iterator[Tuple[xueliu.GameState, xueliu.GameState, int]]:
    """``(a, b, seat)`` for hands ``500 + g``, ``g < games`` (both dealt from a wall: the same
    dice), seat ``g % players``; a pair whose two tiles are the same kind is skipped."""
    shape = (Rules.preset(rules) if isinstance(rules, str) else rules).shape
    n, size = shape.players, shape.wall_tiles
    for g in range(games):
        wall = xueliu.new_game(rules, seed=500 + g).wall
        seat = g % n
        if variant == "live_wall":
            i, j = size - 8, size - 2
        else:  # the dealer (seat 0) deals from wall[0] in takes of 4
            i = 4 * ((seat + 1) % n) + rng.randrange(4)
            j = 4 * ((seat + 2) % n) + rng.randrange(4) if n > 2 else size - 3
        if wall[i] == wall[j]:
            continue
        a = xueliu.new_game(rules, wall=wall, seed=500 + g)
        b = xueliu.new_game(rules, wall=swapped_wall(wall, i, j), seed=500 + g)
        yield a, b, seat


def same_view_states(a: xueliu.GameState, b: xueliu.GameState, seat: int,
                     rng: random.Random) -> Iterator[None]:
    """Plays ``a`` and ``b`` with the same random decisions while both allow them, yielding at
    each state where ``seat`` observes the same in both and the tables differ."""
    while not a.is_over and not b.is_over:
        if a.observation(seat) == b.observation(seat) \
                and a.observation(None) != b.observation(None):
            yield
        decision = {q: rng.choice(a.legal_actions(q)) for q in a.pending()}
        if b.pending() != a.pending() or any(d not in b.legal_actions(q)
                                             for q, d in decision.items()):
            return  # the hidden difference now changes what can be done: stop here
        a.step(decision)
        b.step(decision)
