"""Settlement (结算): the ledger of transfers of one hand, its wins, and the player's report.

Every payment is a :class:`Transfer` appended to the ledger in the order it happened (docs/rules.md §7 and
§10 "Order of transfers"). ``payer``/``payee`` is a seat 0–3 or ``None`` for the house (service fee,
escape penalty). ``reason`` is one of :data:`REASONS`. With coins, a payer never goes below zero: a
transfer is cut to what the payer holds and the ledger records the amount actually moved; transfers
of zero are not recorded.

>>> s = state.settlement()                      # doctest: +SKIP
>>> [(t.payer, t.payee, t.amount, t.reason) for t in s.transfers][:1]  # doctest: +SKIP
[(1, 0, 2, 'hu')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING, Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, TypedDict,
)

if TYPE_CHECKING:
    from .hand import FanResult
    from .rules import Rules

REASONS = ("hu", "gang", "hujiaozhuanyi", "huazhu", "chadajiao", "tuishui", "fee", "escape")
"""hu: a win payment (the self-draw base bonus included); gang: a kong payment (immediate or
collected on win); hujiaozhuanyi: call transfer 呼叫转移; huazhu: flower pig 花猪; chadajiao: not
ready 查大叫; tuishui: kong refund 退税; fee: service fee (payee None); escape: escape penalty
(payee None)."""

_REASON_NAMES = {
    "hu": "胡 win", "gang": "杠 kong", "hujiaozhuanyi": "呼叫转移 call transfer",
    "huazhu": "花猪 flower pig", "chadajiao": "查大叫 ready check", "tuishui": "退税 refund",
    "fee": "服务费 service fee", "escape": "逃跑 escape",
}


class Transfer(NamedTuple):
    """One ledger entry: ``payer`` pays ``amount`` (> 0) to ``payee`` for ``reason``.

    ``detail`` is a short text for people (e.g. ``"win 1: 5m self-draw by seat 2"``).
    """

    payer: Optional[int]
    payee: Optional[int]
    amount: int
    reason: str
    detail: str = ""

    def to_dict(self) -> Dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class Win:
    """One win (胡) of a hand.

    ``order`` counts wins from 1; ``source`` is ``"self_draw"``, ``"discard"`` or
    ``"robbed_kong"``; ``from_seat`` is the discarder (the konger when robbed), ``None`` for a
    self-draw; ``fan_result`` is the core's :class:`~xueliu.hand.FanResult` for the hand as it
    stood; ``hand`` its notation, winning tile included; ``flags`` the context flags that applied
    (``"self_draw"``, ``"kong_replacement"``, ``"after_kong_discard"``, ``"robbed_kong"``,
    ``"last_tile"``, ``"heavenly"``, ``"earthly"``); ``winners`` every seat that won on this same
    tile (several on 一炮多响).
    """

    order: int
    seat: int
    tile: str
    source: str
    from_seat: Optional[int]
    fan_result: FanResult
    hand: str
    flags: Tuple[str, ...] = ()
    winners: Tuple[int, ...] = ()

    @property
    def result(self) -> FanResult:
        """Alias of ``fan_result``."""
        return self.fan_result

    @property
    def fan(self) -> int:
        return self.fan_result.fan

    def to_dict(self) -> Dict[str, Any]:
        r = self.fan_result
        return {"order": self.order, "seat": self.seat, "tile": self.tile, "source": self.source,
                "from": self.from_seat, "hand": self.hand, "flags": list(self.flags),
                "fan": r.fan, "multiplier": r.multiplier, "base": r.base, "base_fan": r.base_fan,
                "gen": r.gen, "extras": list(r.extras), "winners": list(self.winners)}


class EndCheck(TypedDict):
    """One seat's checks at wall exhaustion (查花猪 / 查大叫, docs/rules.md §10): the tiles it waits on,
    and where ready its best 大叫 fan and multiplier (``None`` otherwise)."""

    seat: int
    won: bool
    pig: bool
    ready: bool
    waits: List[str]
    best_fan: Optional[int]
    best_multiplier: Optional[int]


class Ledger:
    """Appends transfers, cutting each to what the payer holds when coins are in play."""

    __slots__ = ("transfers", "net", "coins", "events", "listener")

    def __init__(self, coins: Optional[Sequence[int]],
                 events: Optional[List[Tuple[Any, ...]]] = None, seats: int = 4) -> None:
        self.transfers: List[Transfer] = []
        self.net = [0] * seats  # one per seat of the table (docs/rules.md §11.1)
        self.coins = list(coins) if coins is not None else None
        # The game's event list: ("pay", index of the transfer) is appended for each transfer.
        # A list and not a callback into the game, so a game and its ledger hold no reference
        # cycle and are freed as soon as they are dropped (no work for the cyclic collector).
        self.events = events
        # Called with each recorded Transfer, for other users of a ledger.
        self.listener: Optional[Callable[[Transfer], None]] = None

    def pay(self, payer: Optional[int], payee: Optional[int], amount: int, reason: str,
            detail: str = "") -> int:
        """Records the transfer and returns the amount actually moved (0: nothing recorded)."""
        coins = self.coins
        if coins is not None and payer is not None and amount > coins[payer]:
            amount = coins[payer]
        if amount <= 0:
            return 0
        t = Transfer(payer, payee, amount, reason, detail)
        self.transfers.append(t)
        if payer is not None:
            self.net[payer] -= amount
            if coins is not None:
                coins[payer] -= amount
        if payee is not None:
            self.net[payee] += amount
            if coins is not None:
                coins[payee] += amount
        if self.events is not None:
            self.events.append(("pay", len(self.transfers) - 1))
        if self.listener is not None:
            self.listener(t)
        return amount


@dataclass
class Settlement:
    """The money of one hand so far (final once the hand is over).

    ``transfers`` in ledger order; ``net`` four ints (what each seat won or lost, house flows
    included); ``wins`` each :class:`Win` with its ``fan_result``; ``end_checks`` per seat at wall
    exhaustion (``None`` otherwise): ``{"won", "pig", "ready", "waits", "best_fan",
    "best_multiplier"}`` (the best 大叫 fan of every ready seat, ``None`` for the others);
    ``coins`` after the hand (``None`` without coins); ``base`` the stake used (``base="auto"``
    resolved); ``multipliers`` the four 选倍 choices once revealed (``None`` without them).
    """

    transfers: List[Transfer]
    net: List[int]
    wins: List[Win]
    end_checks: Optional[List[EndCheck]] = None
    coins: Optional[List[int]] = None
    base: int = 1
    final: bool = False
    dealer: int = 0
    mode: str = "xueliu"
    end_reason: Optional[str] = None
    kong_income: List[int] = field(default_factory=lambda: [0, 0, 0, 0])
    multipliers: Optional[List[int]] = None

    def to_dict(self) -> Dict[str, Any]:
        return {
            "transfers": [t.to_dict() for t in self.transfers], "net": list(self.net),
            "wins": [w.to_dict() for w in self.wins], "end_checks": self.end_checks,
            "coins": self.coins, "base": self.base, "final": self.final,
            "end_reason": self.end_reason, "multipliers": self.multipliers,
        }

    def report(self, viewer: Optional[int] = None) -> str:
        """The detailed settlement (详细结算) per seat, then each seat's own transfers (个人结算).

        ``viewer``: the report as that seat may read it (docs/rules.md §7) — other seats' winning hands
        and waits are left out; fans, end-check outcomes and every transfer are public.
        ``None``: everything (servers, logs)."""
        lines: List[str] = []
        title = _MODE_TITLES.get(self.mode, self.mode)
        ended = _ENDED.get(self.end_reason, f"ended: {self.end_reason}")
        lines.append(f"详细结算 Detailed settlement — {title}, dealer seat {self.dealer}, "
                     f"base {self.base}, {ended}")
        for seat in range(len(self.net)):
            lines.append("")
            head = f"Seat {seat}" + (" (dealer)" if seat == self.dealer else "")
            facts = [f"net {self.net[seat]:+d}"]
            if self.coins is not None:
                facts.append(f"coins {self.coins[seat]}")
            if self.multipliers is not None:
                facts.append(f"选倍 multiplier ×{self.multipliers[seat]}")
            lines.append(f"{head}: " + ", ".join(facts))
            for w in self.wins:
                if w.seat == seat:
                    lines.append("  " + _describe_win(w, viewer in (None, seat)))
            own = [t for t in self.transfers if seat in (t.payer, t.payee)]
            for reason, label in _SUMMARY:
                mine = [t for t in own if t.reason == reason]
                if mine:
                    amount = sum(t.amount if t.payee == seat else -t.amount for t in mine)
                    lines.append(f"  {label}: {amount:+d}")
            check = self._end_check_line(seat, own, viewer in (None, seat))
            if check:
                lines.append("  " + check)
        lines.append("")
        lines.append("个人结算 Personal settlement")
        for seat in range(len(self.net)):
            lines.append(f"Seat {seat}:")
            own = [t for t in self.transfers if seat in (t.payer, t.payee)]
            if not own:
                lines.append("  (no transfers)")
            for t in own:
                sign = "+" if t.payee == seat else "-"
                other = t.payer if t.payee == seat else t.payee
                who = "the house" if other is None else f"seat {other}"
                prep = "from" if t.payee == seat else "to"
                label = _REASON_NAMES[t.reason]
                lines.append(f"  {sign}{t.amount} {prep} {who}: {label}"
                             + (f" ({t.detail})" if t.detail and t.detail not in label else ""))
            lines.append(f"  net {self.net[seat]:+d}")
        return "\n".join(lines)

    def _end_check_line(self, seat: int, own: List[Transfer], show_waits: bool = True) -> str:
        """The seat's 查花猪 / 查叫 outcome at wall exhaustion ("" when it was not checked);
        ``show_waits`` False leaves out the waits (hidden from other seats)."""
        if self.end_checks is None:
            return ""
        c = self.end_checks[seat]
        waits = " ".join(c["waits"]) if show_waits else ""
        if c["ready"]:
            best = c.get("best_fan")
            ready = "查叫 end check: ready" + (f" on {waits}" if waits else "") + (
                "" if best is None else f", best {best} fan ×{c['best_multiplier']}")
            if not c["won"]:
                return ready
            # A winner is not checked; it shows only when paid for being ready (payees "all").
            paid = any(t.reason == "chadajiao" and t.payee == seat for t in own)
            return ready if paid else ""
        if c["won"]:
            return ""
        if c["pig"]:
            return "查花猪 end check: flower pig (holds three suits)"
        if waits:
            return f"查叫 end check: not ready (死叫: every copy of {waits} is in sight)"
        return "查叫 end check: not ready"


_ENDED = {"wall_exhausted": "ended: wall exhausted", "three_wins": "ended: three seats won",
          "two_wins": "ended: two seats won", "one_win": "ended: one seat won",
          "first_win": "ended: the first win", None: "in progress"}
"""The report's words for each end reason (``None``: a hand in progress)."""

_MODE_TITLES = {"xueliu": "血流成河 xueliu", "xuezhan": "血战到底 xuezhan",
                "daodaohu": "倒倒胡 daodaohu"}
"""The report's title of each mode."""

_SUMMARY = (("hu", "胡 wins"), ("gang", "杠 kongs (刮风下雨)"),
            ("hujiaozhuanyi", "呼叫转移 call transfers"), ("huazhu", "花猪 flower pig"),
            ("chadajiao", "查大叫 ready check"), ("tuishui", "退税 kong refunds"),
            ("fee", "服务费 service fee"), ("escape", "逃跑 escape penalty"))
"""Report lines per seat: each reason's net amount, in this order."""


def _describe_win(w: Win, show_hand: bool = True) -> str:
    r = w.fan_result
    how = {"self_draw": "自摸 self-draw", "discard": f"点炮 on seat {w.from_seat}'s discard",
           "robbed_kong": f"抢杠 robbing seat {w.from_seat}'s kong"}[w.source]
    fan = r.describe()
    hand = f" [{w.hand}]" if show_hand else ""
    return f"Win {w.order}: {w.tile} {how} — {fan} ({r.base}){hand}"


def settle_end_of_hand(ledger: Ledger, rules: Rules,
                       unit: Callable[[Optional[int], Optional[int]], int], checks: List[EndCheck],
                       kong_income: Sequence[tuple[int, List[tuple[int, int]]]]) -> None:
    """查花猪 / 查大叫, then 退税 (docs/rules.md §7 and §10 "End of hand"), appended to ``ledger``.

    ``checks[s]`` holds ``won``, ``pig``, ``ready`` and ``best_multiplier`` of seat ``s``;
    ``unit(payer, payee)`` is one stake between two seats; ``kong_income`` lists
    ``(konger, [(payer, amount collected), ...])`` for each kong not handed over by 呼叫转移, in
    declaration order. Only seats that never won pay; a pig pays each seat the larger of the pig
    penalty and that seat's 大叫 amount.
    """
    pig_all = rules.pig_payees == "all_non_pig"
    ready_all = rules.ready_check_payees == "all"
    penalty = int(rules.pig_penalty)
    for p, cp in enumerate(checks):
        if cp["won"] or not (cp["pig"] or not cp["ready"]):
            continue
        for q, cq in enumerate(checks):
            if q == p:
                continue
            u = unit(p, q)
            pig_amount = 0
            if cp["pig"] and not cq["pig"] and (pig_all or not cq["won"]):
                pig_amount = u * penalty
            dajiao = 0
            if cq["ready"] and (ready_all or not cq["won"]):
                best = cq["best_multiplier"]
                assert best is not None  # every ready seat has its 大叫 multiplier
                dajiao = u * best
            if pig_amount and pig_amount >= dajiao:
                ledger.pay(p, q, pig_amount, "huazhu", f"seat {p} is a flower pig")
            elif dajiao:
                ledger.pay(p, q, dajiao, "chadajiao",
                           f"seat {p} not ready; seat {q} ready for {cq['best_fan']} fan")
    if rules.refund_kongs:
        for s, c in enumerate(checks):
            if c["won"] or c["ready"]:
                continue
            for konger, collected in kong_income:
                if konger != s:
                    continue
                for payer, amount in collected:
                    ledger.pay(s, payer, amount, "tuishui", f"seat {s} refunds kong income")
