"""A seat's view of the game, derived here and nowhere else (docs/rules.md §7 "Hidden information").

A seat sees its own hand and draws, every discard and exposed meld, the wall count, the winning
tiles set aside, payments, and public declarations once revealed. It does not see other seats'
hands or draws, exchanged tiles other than those it gave and received, void or multiplier choices
before the reveal, the kind of another seat's concealed kong, or the wall. Observations are made
here and event streams in ``events.py`` (nowhere else), so hidden information is filtered once.
The keys are documented in docs/events.md.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter, getitem
from typing import Any, Dict, List, Optional, Tuple

from ..settlement import Win
from ..tiles import PHYSICAL_NAMES as TILE_NAMES
from .actions import VOID
from .before_play import joint_legal
from .data import MELD_PUBLIC, PH_CLAIM, PH_OVER, PH_TURN, PH_VOID, PHASE_NAMES, HandData
from .events import HIDDEN, NAME_REPEATS as _REPEATS, SUITS as _SUITS, names as _names

_ID = attrgetter("id")
_PUBLIC_MELD = MELD_PUBLIC


def _win_dict(w: Win) -> Dict[str, Any]:
    r = w.fan_result
    return {"order": w.order, "seat": w.seat, "tile": w.tile, "source": w.source,
            "from": w.from_seat, "flags": list(w.flags), "fan": r.fan,
            "multiplier": r.multiplier, "base": r.base, "base_fan": r.base_fan, "gen": r.gen,
            "extras": list(r.extras)}


class ViewCache:
    """The pieces observations are made of, kept between calls (one per game state).

    A piece is rebuilt only when what it shows has changed: a seat's hand names when its tile
    counts differ from the counts they were built from, its melds, discards and void likewise, the
    wins and the set-aside tiles when more were added (both only grow). What changes with every
    step (phase, turn, claim, hand sizes) is read once per step: the number of decisions so far counts the steps.
    Observations get fresh lists and dicts copied from these pieces, so a caller may change its
    observation without touching the next one.
    """

    __slots__ = ("tick", "hand_src", "hand_names", "meld_src", "meld_own", "meld_public",
                 "n_melds", "river_src", "river_names", "n_wins", "wins", "aside", "void_src",
                 "voids", "exchange", "phase", "turn", "claim", "hand_sizes")

    def __init__(self, seats: int = 4) -> None:
        n = seats  # every per-seat list has one entry per seat of the table (docs/rules.md §11.1)
        self.tick = -1
        self.hand_src: List[Optional[bytearray]] = [None] * n
        self.hand_names: List[Tuple[str, ...]] = [()] * n
        self.meld_src: List[List[List[Any]]] = [[] for _ in range(n)]
        self.meld_own: List[Tuple[Dict[str, Any], ...]] = [()] * n
        self.meld_public: List[Tuple[Dict[str, Any], ...]] = [()] * n
        self.n_melds = 0
        self.river_src: List[List[int]] = [[] for _ in range(n)]
        self.river_names: List[Tuple[str, ...]] = [()] * n
        self.n_wins = 0
        self.wins: List[List[Dict[str, Any]]] = [[] for _ in range(n)]
        self.aside: Tuple[str, ...] = ()
        self.void_src: Optional[List[int]] = None
        self.voids: Tuple[Optional[str], ...] = ()
        self.exchange: List[Optional[Dict[str, Any]]] = [None] * n

    def refresh(self, state: HandData) -> None:
        """Brings the public pieces up to the state's current step."""
        self.tick = len(state._decisions)
        ph = self.phase = state._phase
        self.turn = (state._c_from if ph == PH_CLAIM else state._turn) \
            if ph == PH_TURN or ph == PH_CLAIM else None
        self.claim = None if ph != PH_CLAIM else {
            "tile": TILE_NAMES[state._c_tile], "from": state._c_from,
            "kind": "rob" if state._c_rob else "discard"}
        self.hand_sizes = tuple(map(sum, state._hands))
        if state._void != self.void_src:
            self.void_src = list(state._void)
            self.voids = tuple(_SUITS[v] if v >= 0 else None for v in state._void)
        for o, river in enumerate(state._rivers):
            if river != self.river_src[o]:
                self.river_src[o] = list(river)
                self.river_names[o] = tuple(map(TILE_NAMES.__getitem__, river))
        for o, melds in enumerate(state._melds):
            wild = state._wild
            # (at a table with wilds a meld's wilds are part of what it is: 提 changes them)
            src = melds if wild is None else \
                [list(m) + [tuple(mw)] for m, mw in zip(melds, wild.meld_wilds[o])]
            if src != self.meld_src[o]:
                self.meld_src[o] = [list(m) for m in src]
                self.meld_own[o] = tuple(
                    {"type": _PUBLIC_MELD[how], "tile": TILE_NAMES[k], "from": frm}
                    for how, k, frm in melds)
                self.meld_public[o] = tuple(
                    {"type": _PUBLIC_MELD[how],
                     "tile": HIDDEN if how == "concealed" else TILE_NAMES[k], "from": frm}
                    for how, k, frm in melds)
                if wild is not None:  # docs/rules.md §12.3: a meld's wilds are public, by name
                    for d, mw in zip(self.meld_own[o], wild.meld_wilds[o]):
                        d["wilds"] = _names(mw)
                    for d, mw in zip(self.meld_public[o], wild.meld_wilds[o]):
                        d["wilds"] = None if d["tile"] == HIDDEN else _names(mw)
                self.n_melds = sum(map(len, self.meld_src))
        wins = state._wins
        if len(wins) != self.n_wins:  # wins are only ever appended
            for w in wins[self.n_wins:]:
                self.wins[w.seat].append(_win_dict(w))
            self.n_wins = len(wins)
        if len(state._set_aside) != len(self.aside):  # likewise
            self.aside = tuple(_names(state._set_aside))

    def hand(self, state: HandData, o: int) -> Tuple[str, ...]:
        """Seat ``o``'s concealed tiles as sorted names."""
        h = state._hands[o]
        if h != self.hand_src[o]:
            self.hand_src[o] = bytearray(h)
            self.hand_names[o] = tuple(chain.from_iterable(map(getitem, _REPEATS, h)))
        return self.hand_names[o]


def _copy_meld(d: Dict[str, Any]) -> Dict[str, Any]:
    out = d.copy()
    if out.get("wilds"):
        out["wilds"] = list(out["wilds"])
    return out


def _copy_win(d: Dict[str, Any]) -> Dict[str, Any]:
    return {**d, "flags": list(d["flags"]), "extras": list(d["extras"])}


def observation(state: HandData, seat: Optional[int], c: ViewCache) -> Dict[str, Any]:
    """What ``seat`` may see now, JSON-serialisable (see docs/events.md for the keys);
    ``seat=None``: everything, with every seat's hand under ``"hands"``. ``c`` is the game's
    :class:`ViewCache`. Every per-seat list has one entry per seat of the table (``players``,
    docs/rules.md §11.1: 4, 3 or 2), indexed by seat."""
    if c.tick != len(state._decisions):
        c.refresh(state)
    s = seat
    full = s is None
    ph = c.phase
    if not c.n_melds:
        melds: List[List[Dict[str, Any]]] = [[] for _ in c.meld_src]
    else:
        views = list(c.meld_own if full else c.meld_public)
        if s is not None:
            views[s] = c.meld_own[s]
        melds = [[*map(_copy_meld, ms)] if ms else [] for ms in views]
    exchange = None
    if state._exchange is not None and s is not None:
        ex = c.exchange[s]
        if ex is None:
            e = state._exchange
            ex = c.exchange[s] = {"direction": e["direction"], "die": e["die"],
                                  "given": tuple(_names(e["given"][s])),
                                  "received": tuple(_names(e["received"][s]))}
        exchange = {"direction": ex["direction"], "die": ex["die"], "given": list(ex["given"]),
                    "received": list(ex["received"])}
    own_void = -1 if s is None else state._void[s]
    if s is not None and own_void < 0 and ph == PH_VOID and s in state._answers:
        own_void = VOID.index(state._answers[s])  # its own choice, before the reveal
    pending = False
    legal: List[int] = []
    if s is not None and s in state._pending:
        pending = True
        # The decision point's own list, not a copy through legal_actions().
        lst = state._legal.get(s)
        if lst is None:
            lst = joint_legal(state, s)
        legal = [*map(_ID, lst)]
    drawn = None
    if ph == PH_TURN and (full or state._turn == s) and state._drawn >= 0:
        drawn = TILE_NAMES[state._drawn]
    coins = state._ledger.coins
    claim = c.claim
    pm = state._pm_allowed
    obs: Dict[str, Any] = {
        "seat": s,
        "dealer": state.dealer,
        "mode": state.rules.mode,
        "phase": PHASE_NAMES[ph],
        "is_over": ph == PH_OVER,
        "turn": c.turn,
        "pending": pending,
        "legal_actions": legal,
        "hand": None if s is None else [*c.hand(state, s)],
        "drawn": drawn,
        "void": None if own_void < 0 else _SUITS[own_void],
        # Voids and multipliers are hidden until revealed (before that the engine holds -1 / 1).
        "voids": [*c.voids] if state._voids_revealed or full else [None] * state._n,
        "multipliers": [*state._mult] if state._mult_revealed or full else None,
        # The knob itself (public: what may be chosen and the §8 timeout default).
        "player_multipliers": None if pm is None else {"allowed": [*pm],
                                                       "default": state._pm_default},
        "melds": melds,
        "discards": [*map(list, c.river_names)],
        "wins": [[*map(_copy_win, ws)] for ws in c.wins] if c.n_wins else [[] for _ in c.wins],
        "set_aside": [*c.aside],
        "claim": None if claim is None else claim.copy(),
        "exchange": exchange,
        "wall_remaining": state._back - state._front + 1,
        "dice": [*state.dice],
        "break": [*state._break],
        "in_play": [*state._in_play],
        "frozen": [*state._frozen],
        "auto_play": [*state._auto],
        "hand_sizes": [*c.hand_sizes],
        "net": [*state._ledger.net],
        "coins": None if coins is None else [*coins],
        "base": state.base,
    }
    wild = state._wild
    if wild is not None:  # docs/rules.md §12: the wild kinds, the face-up 本金, the wall set's wilds
        obs["wilds"] = {"kinds": _names(wild.kinds),
                        "benjin": TILE_NAMES[wild.benjin] if wild.benjin >= 0 else None,
                        "in_wall": wild.in_wall}
    if full:
        obs["hands"] = [[*c.hand(state, o)] for o in range(state._n)]
        obs["wall"] = _names(state._wall[state._front:state._back + 1])
        obs["exchanges"] = None if state._exchange is None else {
            "direction": state._exchange["direction"], "die": state._exchange["die"],
            "given": [_names(g) for g in state._exchange["given"]],
            "received": [_names(g) for g in state._exchange["received"]]}
        obs["pending_seats"] = list(state._pending)
    return obs
