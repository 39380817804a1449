"""The rows of the tensor encoders (``encoders.py``): each channel of a seat's view as a row of 27
bytes, built from the observation dict — ``obs_v1``'s rows, ``oracle_v1``'s hidden rows, and the
wild-tile rows of ``obs_wild_v1`` / ``oracle_wild_v1`` (docs/rules.md §12). The rows are
precomputed byte strings (zeros, one-hots, bars, suits, seat places) joined by the encoder, which
casts them into the caller's array in one copy."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..rules.shape import seat_places
from .channels import ORACLE_WILD_EXTRA, WILD_V1

_K: Dict[str, int] = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}

# 27-byte rows: zeros, one-hots, bars of n ones, the nine kinds of a suit.
_ZERO = bytes(27)
_ONES = b"\x01" * 27
_HOT = tuple(bytes(k) + b"\x01" + bytes(26 - k) for k in range(27))
_BAR = tuple(b"\x01" * n + bytes(27 - n) for n in range(28))
_SUIT_ROW = {"m": b"\x01" * 9 + bytes(18), "p": bytes(9) + b"\x01" * 9 + bytes(9),
             "s": bytes(18) + b"\x01" * 9}
# Thresholds of a count row (bytes.translate tables): _GE[i][c] = 1 when c >= i + 1.
_GE1, _GE2, _GE3, _GE4 = (bytes(int(c >= i) for c in range(256)) for i in range(1, 5))
_PHASES = ("exchange", "void", "multiplier", "turn", "claim")
_PHASE_ROWS = {p: tuple(_ONES if p == q else _ZERO for q in _PHASES) for p in _PHASES}
_PHASE_ROWS["over"] = (_ZERO,) * 5
# Per-seat flags as four rows in relative place order (self, next, across, prev), as seat s of an
# n-seat table sees them: _PLACES[n][s] the seat in each place (None: the table has no such seat,
# its rows stay zero: rules.shape.places), _SEAT_HOT[n][s][q] marks seat q (None: no seat),
# _ROTATIONS[n][s][flags] the seats whose flag is on (flags: the observation's n absolute
# booleans, as a tuple).
_PLACES = {n: tuple(tuple(None if d is None else (s + d) % n for d in seat_places(n))
                    for s in range(n)) for n in (2, 3, 4)}
_SEAT_HOT = {n: tuple({q: tuple(_ONES if q is not None and q == p else _ZERO for p in places)
                       for q in (*range(n), None)} for places in _PLACES[n]) for n in _PLACES}
_FLAGS = {n: [tuple(bool(bits >> q & 1) for q in range(n)) for bits in range(1 << n)]
          for n in _PLACES}
_ROTATIONS = {n: tuple({f: tuple(_ONES if p is not None and f[p] else _ZERO for p in places)
                        for f in _FLAGS[n]} for places in _PLACES[n]) for n in _PLACES}
# Rows already built, by what they show: a discard river (most rivers are the same from one
# observation to the next) and an own exchange (made once a hand).
_RIVERS: Dict[Tuple[str, ...], Tuple[int, Tuple[bytes, bytes, bytes]]] = {}
_EXCHANGE_ROWS: Dict[Tuple[Tuple[str, ...], Tuple[str, ...]], Tuple[bytes, ...]] = {}


# A count vector as one int, a byte per kind: adding ints adds counts (a count never exceeds 4,
# so bytes never carry), summed in C by sum(map(...)) and turned into a row by to_bytes.
_UNIT = {t: 1 << 8 * k for t, k in _K.items()}
_HOT_OF = {t: _HOT[k] for t, k in _K.items()}
# 红中 (7z, kind 27: a wild, docs/rules.md §12) has no place in a row of the 27 suit kinds: it
# adds nothing to them (the wild channels count it), so the same code reads a table with wilds.
_HZ = "7z"
_UNIT[_HZ] = 0
_HOT_OF[_HZ] = _ZERO


def _counts(names: Sequence[str]) -> bytes:
    """The 27 counts of a list of tile names as a row of bytes."""
    return sum(map(_UNIT.__getitem__, names)).to_bytes(27, "little")


def _exchange_rows(given: Sequence[str], received: Sequence[str]) -> Tuple[bytes, ...]:
    key = (tuple(given), tuple(received))
    rows = _EXCHANGE_ROWS.get(key)
    if rows is None:
        if len(_EXCHANGE_ROWS) >= 1 << 16:  # bounded: at most a few MiB
            _EXCHANGE_ROWS.clear()
        g = _counts(given)
        r = _counts(received)
        rows = _EXCHANGE_ROWS[key] = (g.translate(_GE1), g.translate(_GE2), g.translate(_GE3),
                                      r.translate(_GE1), r.translate(_GE2), r.translate(_GE3))
    return rows


def _obs_v1_rows(o: Mapping[str, Any], picks: Sequence[int], rows: List[bytes]) -> None:
    """Appends the ``obs_v1`` channels of observation ``o`` to ``rows``, 27 bytes each, in the
    order of :data:`~xueliu.learn.channels.OBS_V1` (plain Python: bytes rows joined once)."""
    K = _K
    add = rows.append
    s = o["seat"]
    sizes = o["hand_sizes"]
    n = len(sizes)
    order = _PLACES[n][s]

    raw = _counts(o["hand"])
    rows += (raw.translate(_GE1), raw.translate(_GE2), raw.translate(_GE3), raw.translate(_GE4))
    t = o["drawn"]
    add(_ZERO if t is None else _HOT_OF[t])
    claim = o["claim"]
    robbed = False
    vis = 0  # counts of the tiles on view, a byte per kind (see _UNIT)
    if claim is None:
        add(_ZERO)
    else:
        t = claim["tile"]
        add(_HOT_OF[t])
        if claim["kind"] == "rob":  # the robbed tile has left the konger's hand: it is on view
            robbed = True
            vis = _UNIT[t]
    ex = o["exchange"]
    if ex is None:
        rows += (_ZERO,) * 6
    else:
        rows += _exchange_rows(ex["given"], ex["received"])
    if picks:
        counts = [0] * 27
        for k in picks:
            counts[k] += 1
        raw = bytes(counts)
        rows += (raw.translate(_GE1), raw.translate(_GE2))
    else:
        rows += (_ZERO, _ZERO)

    discards = o["discards"]
    melds = o["melds"]
    wins = o["wins"]
    hidden = [0, 0, 0, 0]
    for r in range(4):
        q = order[r]
        if q is None:  # no seat in this place at this table: its rows stay zero
            rows += (_ZERO,) * 6
            continue
        river = discards[q]
        if river:
            key = tuple(river)
            cached = _RIVERS.get(key)
            if cached is None:
                if len(_RIVERS) >= 1 << 14:  # bounded: a few MiB
                    _RIVERS.clear()
                acc = sum(map(_UNIT.__getitem__, river))
                raw = acc.to_bytes(27, "little")
                cached = _RIVERS[key] = (acc, (raw.translate(_GE1), raw.translate(_GE2),
                                               _HOT_OF[river[-1]]))
            vis += cached[0]
            rows += cached[1]
        else:
            rows += (_ZERO, _ZERO, _ZERO)
        ms = melds[q]
        if ms:
            pengs = bytearray(27)
            kongs = bytearray(27)
            concealed = bytearray(27)
            for m in ms:
                t = m["tile"]
                if t == "?":
                    hidden[r] += 1
                    continue
                k = K[t]
                kind = m["type"]
                if kind == "peng":
                    pengs[k] = 1
                    vis += 3 * _UNIT[t]
                else:
                    (kongs if kind == "kong" else concealed)[k] = 1
                    vis += 4 * _UNIT[t]
                wilds = m.get("wilds")
                if wilds:  # a soft meld (§12.3): its wilds are tiles of their own kinds
                    vis += sum(map(_UNIT.__getitem__, wilds)) - len(wilds) * _UNIT[t]
            rows += (bytes(pengs), bytes(kongs))
            if r == 0:
                add(bytes(concealed))
        else:
            rows += (_ZERO, _ZERO, _ZERO) if r == 0 else (_ZERO, _ZERO)
        ws = wins[q]
        if ws:
            won = bytearray(27)
            for w in ws:
                t = w["tile"]
                if t != _HZ:
                    won[K[t]] = 1
            add(bytes(won))
        else:
            add(_ZERO)
    aside = o["set_aside"]
    if aside:
        vis += sum(map(_UNIT.__getitem__, aside))
    wild = o.get("wilds")
    if wild is not None and wild["benjin"] is not None:  # the 本金 lies face up (§12.1)
        vis += _UNIT[wild["benjin"]]
    raw = vis.to_bytes(27, "little")
    rows += (raw.translate(_GE1), raw.translate(_GE2), raw.translate(_GE3), raw.translate(_GE4))

    voids = o["voids"]
    v = o["void"]
    add(_ZERO if v is None else _SUIT_ROW[v])
    for r in (1, 2, 3):
        q = order[r]
        v = None if q is None else voids[q]
        add(_ZERO if v is None else _SUIT_ROW[v])

    rows += _PHASE_ROWS[o["phase"]]
    add(_ONES if robbed else _ZERO)
    add(_ONES if o["pending"] else _ZERO)
    add(_ZERO if o["mode"] == "xueliu" else _ONES)  # winners leave: 血战, 倒倒胡 (as the core's)
    rot = _ROTATIONS[n][s]
    hot = _SEAT_HOT[n][s]
    rows += hot[o["dealer"]]
    rows += hot[o["turn"]]
    rows += rot[tuple(o["in_play"])]
    rows += rot[tuple(o["frozen"])]
    rows += rot[tuple(o["auto_play"])]
    if n == 4:  # every place has a seat (the common case, without the None checks)
        rows += (_BAR[sizes[order[0]]], _BAR[sizes[order[1]]], _BAR[sizes[order[2]]],
                 _BAR[sizes[order[3]]])
        rows += (_BAR[min(len(wins[order[0]]), 27)], _BAR[min(len(wins[order[1]]), 27)],
                 _BAR[min(len(wins[order[2]]), 27)], _BAR[min(len(wins[order[3]]), 27)])
    else:
        rows += tuple(_ZERO if q is None else _BAR[sizes[q]] for q in order)
        rows += tuple(_ZERO if q is None else _BAR[min(len(wins[q]), 27)] for q in order)
    mults = o["multipliers"]
    if mults is None:
        rows += (_ZERO, _ZERO, _ZERO, _ZERO)
    else:
        rows += tuple(_ZERO if q is None else _HOT[min(mults[q], 27) - 1] for q in order)
    rows += (_BAR[hidden[1]], _BAR[hidden[2]], _BAR[hidden[3]])
    w = o["wall_remaining"]
    rows += (_BAR[min(w, 27)], _BAR[max(0, min(w - 27, 27))])


def _oracle_extra_rows(full: Mapping[str, Any], seat: int, rows: List[bytes]) -> None:
    """The hidden channels of ``oracle_v1`` from the omniscient view ``state.observation(None)``."""
    K = _K
    hands = full["hands"]
    melds = full["melds"]
    others = _PLACES[len(hands)][seat][1:]
    for q in others:
        if q is None:  # no seat in this place at this table
            rows += (_ZERO,) * 4
            continue
        raw = _counts(hands[q])
        rows += (raw.translate(_GE1), raw.translate(_GE2), raw.translate(_GE3),
                 raw.translate(_GE4))
    for q in others:
        concealed = bytearray(27)
        for m in ([] if q is None else melds[q]):
            if m["type"] == "concealed_kong":
                concealed[K[m["tile"]]] = 1
        rows.append(bytes(concealed))
    wall = full["wall"]
    raw = _counts(wall)
    rows += (raw.translate(_GE1), raw.translate(_GE2), raw.translate(_GE3), raw.translate(_GE4))
    rows.append(_HOT_OF[wall[0]] if wall else _ZERO)


def _wild_rows(o: Mapping[str, Any], rows: List[bytes]) -> None:
    """Appends the wild-tile channels (:data:`~xueliu.learn.channels.WILD_V1`) of observation
    ``o``: all zero at a table without wilds (no ``"wilds"`` in the observation)."""
    w = o.get("wilds")
    if w is None:
        rows += _NO_WILD_ROWS
        return
    kinds = w["kinds"]
    benjin = w["benjin"]
    in_wall = w["in_wall"]
    key = (tuple(kinds), benjin, in_wall)
    head = _WILD_HEADS.get(key)
    if head is None:  # the rows of the hand's wild set (one a hand; a 本金 rule: a few dozen)
        if len(_WILD_HEADS) >= 1 << 10:
            _WILD_HEADS.clear()
        plane = bytearray(27)
        for t in kinds:
            if t != _HZ:
                plane[_K[t]] = 1
        head = _WILD_HEADS[key] = (
            frozenset(kinds).__contains__,
            (bytes(plane), _ZERO if benjin is None else _HOT_OF[benjin],
             _ONES if _HZ in kinds else _ZERO, _BAR[min(in_wall, 27)]))
    is_wild, first = head
    rows += first

    s = o["seat"]
    order = _PLACES[len(o["hand_sizes"])][s]
    hand = o["hand"]
    melds = o["melds"]
    discards = o["discards"]
    wins = o["wins"]
    aside = o["set_aside"]
    claim = o["claim"]
    robbed = None if claim is None or claim["kind"] != "rob" else claim["tile"]
    held = sum(map(is_wild, hand))
    # Per place: 红中 in the river, its last discard a 红中, wins on a 红中, the soft melds' kinds
    # and their wilds; and, over the table, the wilds and 红中 on view.
    seen = sum(map(is_wild, aside)) + (robbed is not None and is_wild(robbed))
    hz_seen = aside.count(_HZ) + (robbed == _HZ)
    melded = 0
    river_hz: List[bytes] = []
    last_hz: List[bytes] = []
    won_hz: List[bytes] = []
    soft: List[bytes] = []
    meld_wilds: List[bytes] = []
    for q in order:
        if q is None:  # no seat in this place at this table
            river_hz.append(_ZERO)
            last_hz.append(_ZERO)
            won_hz.append(_ZERO)
            soft.append(_ZERO)
            meld_wilds.append(_ZERO)
            continue
        river = discards[q]
        if river:
            hz = river.count(_HZ)
            hz_seen += hz
            seen += sum(map(is_wild, river))
            river_hz.append(_BAR[min(hz, 27)])
            last_hz.append(_ONES if river[-1] == _HZ else _ZERO)
        else:
            river_hz.append(_ZERO)
            last_hz.append(_ZERO)
        ws = wins[q]
        won_hz.append(_BAR[min(sum(x["tile"] == _HZ for x in ws), 27)] if ws else _ZERO)
        count = 0
        kinds_soft: Optional[bytearray] = None
        for m in melds[q]:
            mw = m.get("wilds")
            if mw:  # (another seat's concealed kong: tile "?", wilds None)
                if kinds_soft is None:
                    kinds_soft = bytearray(27)
                kinds_soft[_K[m["tile"]]] = 1
                count += len(mw)
                hz_seen += mw.count(_HZ)
        soft.append(_ZERO if kinds_soft is None else bytes(kinds_soft))
        meld_wilds.append(_BAR[min(count, 27)])
        if q == s:
            melded = count
        else:
            seen += count
    rows += (_BAR[min(held, 27)], _BAR[min(melded, 27)], _BAR[min(seen, 27)],
             _BAR[min(max(0, in_wall - held - melded - seen), 27)],
             _BAR[min(hand.count(_HZ), 27)], _ONES if o["drawn"] == _HZ else _ZERO,
             _ONES if claim is not None and claim["tile"] == _HZ else _ZERO,
             _BAR[min(hz_seen, 27)])
    rows += river_hz
    rows += last_hz
    rows += won_hz
    rows += soft
    rows += meld_wilds


# The first rows of the wild channels by (wild kinds, 本金, wilds in the wall set): the wild test
# and the rows of which kinds are wild.
_WILD_HEADS: Dict[Tuple[Tuple[str, ...], Optional[str], int],
                  Tuple[Callable[[str], bool], Tuple[bytes, ...]]] = {}
_NO_WILD_ROWS = (_ZERO,) * len(WILD_V1)
_NO_ORACLE_WILD_ROWS = (_ZERO,) * len(ORACLE_WILD_EXTRA)


def _oracle_wild_rows(full: Mapping[str, Any], seat: int, rows: List[bytes]) -> None:
    """The hidden wild-tile channels of ``oracle_wild_v1``
    (:data:`~xueliu.learn.channels.ORACLE_WILD_EXTRA`) from ``state.observation(None)``."""
    w = full.get("wilds")
    if w is None:
        rows += _NO_ORACLE_WILD_ROWS
        return
    is_wild = frozenset(w["kinds"]).__contains__
    hands = full["hands"]
    melds = full["melds"]
    others = _PLACES[len(hands)][seat][1:]
    rows += tuple(_ZERO if q is None else _BAR[min(hands[q].count(_HZ), 27)] for q in others)
    rows += tuple(_ZERO if q is None else _BAR[min(sum(map(is_wild, hands[q])), 27)]
                  for q in others)
    rows += tuple(_ZERO if q is None else
                  _BAR[min(sum(len(m["wilds"] or ()) for m in melds[q]
                               if m["type"] == "concealed_kong"), 27)] for q in others)
    wall = full["wall"]
    rows += (_BAR[min(sum(map(is_wild, wall)), 27)], _BAR[min(wall.count(_HZ), 27)],
             _ONES if wall and wall[0] == _HZ else _ZERO)


_Rows = Callable[[Any, Optional[int], Sequence[int], List[bytes]], None]
