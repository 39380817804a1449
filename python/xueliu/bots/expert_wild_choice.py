"""The expert's choices at a table with wild tiles (docs/rules.md §12): the value of each turn
action and claim from :class:`~xueliu.bots.expert_wild.WildPlanner`'s hand values, the table's
stake, and the discard, kong, 提 and claim it picks. The hand model and its constants are in
``expert_wild.py``; this module is the decision layer on top of it."""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from .. import _core
from ..rules import Rules
from .expert_danger import DangerModel
from .expert_view import KIND, PHYSICAL_KIND, TableView
from .expert_wild import (TYPICAL_FAN, WILD, WILD_DISCARD_MARGIN, WILD_EXPOSURE, WildHand,
                          WildMeld, WildPlanner, wild_hand)

__all__ = ["Weights", "TurnValues", "table_stake", "turn_values", "choose_turn", "claim_values",
           "choose_claim", "win_value", "discard_kind", "kong_keep"]


def _multiplier(rules: Rules, fan: int) -> float:
    cap = rules.max_fan
    if cap and fan > cap:
        fan = cap
    table = rules.multipliers
    if table:
        return float(table[min(len(table), fan) - 1])
    return float(1 << (fan - 1))


_STAKES: Dict[int, Tuple[Rules, float]] = {}


def table_stake(rules: Rules) -> float:
    """What a typical win of another seat costs at a table with wild tiles, against the §1–§10
    table's (:data:`TYPICAL_FAN` at both; here with 无鸡 for a hand that holds no wild, a 根 per
    wild held under ``wild_gen = "per_wild"``, the fan cap and the multiplier table). The
    expert's rates measured at the §1–§10 table (what a draw costs in 血战, a deal-in, 查大叫) are
    scaled by it: at 泸州 鬼 a win costs between four and five times as much.

    >>> round(table_stake(Rules.preset("luzhou_gui")), 1)
    4.6
    """
    got = _STAKES.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    base = sum(p * float(1 << (f - 1)) for f, p in TYPICAL_FAN)
    lam = rules.wild_count_in_wall() / rules.shape.wall_tiles * WILD_EXPOSURE
    clean = math.exp(-lam)
    bonus = int(rules.no_wild_bonus)
    total = 0.0
    for f, p in TYPICAL_FAN:
        if rules.wild_gen == "per_wild":  # k ≥ 1 wilds held (Poisson), each a 根
            dirty = 0.0
            q = clean
            for k in range(1, 12):
                q *= lam / k
                dirty += q * _multiplier(rules, f + k)
            dirty /= max(1e-9, 1.0 - clean)
        else:
            dirty = _multiplier(rules, f)
        total += p * (clean * _multiplier(rules, f + bonus) + (1.0 - clean) * dirty)
    stake = total / base
    if len(_STAKES) > 64:
        _STAKES.clear()
    _STAKES[id(rules)] = (rules, stake)
    return stake


# -- the decisions ------------------------------------------------------------------------------


def discard_kind(action: Any, view: TableView) -> int:
    """The kind a discard action throws, :data:`WILD` for a wild."""
    if action.tile == "7z":
        return WILD
    k = KIND[action.tile]
    return WILD if k in view.wild_kinds else k


class Weights:
    """The expert's constants the decisions here share with it (``expert.py``)."""

    __slots__ = ("danger", "on_win_keep", "connection")

    def __init__(self, danger: float, on_win_keep: float,
                 connection: Callable[[Sequence[int], int], float]) -> None:
        self.danger = danger
        self.on_win_keep = on_win_keep
        self.connection = connection


def kong_keep(planner: WildPlanner, danger: DangerModel, hand: WildHand, void: int,
              weights: Weights) -> float:
    """Share of a kong's income the seat keeps (``ExpertBot._kong_keep`` at a wild table)."""
    rules = planner.rules
    keep = 1.0
    if rules.call_transfer:
        keep *= 1.0 - min((danger.chance(k) for k in range(27) if hand.nat[k]), default=0.0)
    ready = planner.ready_chance(hand, void)
    if rules.refund_kongs:
        keep *= ready
    if rules.kong_settle == "on_win":
        keep *= weights.on_win_keep * ready
    return keep


def _best_discard(planner: WildPlanner, danger: DangerModel, hand: WildHand, void: int,
                  weights: Weights) -> float:
    """The best score of a 14 − 3k tile hand's natural discards (the void suit first)."""
    kinds = [k for k in range(27) if hand.nat[k]]
    if void >= 0 and any(k // 9 == void for k in kinds):
        kinds = [k for k in kinds if k // 9 == void]
    if not kinds:  # nothing but wilds: one goes
        return planner.discard_values(hand, void, [WILD], True)[WILD]
    values = planner.discard_values(hand, void, kinds)
    return max(values[d] - weights.danger * danger.cost(d) for d in kinds)


def _throw_last_wild(hand: WildHand, scores: Mapping[int, float], best: float,
                     planner: WildPlanner) -> bool:
    """Whether to throw the hand's last wild for 无鸡 (``wild_discard = "dead"``): only when the
    wild-free hand is worth clearly more than the best natural discard."""
    if not planner.bonus or hand.wilds != 1 or any(w for _, _, w in hand.melds):
        return False
    value = scores.get(WILD)
    return value is not None and value > best + WILD_DISCARD_MARGIN * (abs(best) + 1.0)


class TurnValues:
    """Every option of an own turn valued (:func:`turn_values`): ``discards`` (by kind,
    :data:`WILD` for a wild: the value of the hand left less the weighted deal-in risk) with
    ``by_discard`` their actions, and each 提 and kong action's value in ``others``; ``skipped``
    the discard kinds the planner did not value (more than a step behind the best)."""

    __slots__ = ("discards", "by_discard", "others", "skipped", "must_shed")

    def __init__(self) -> None:
        self.discards: Dict[int, float] = {}
        self.by_discard: Dict[int, Any] = {}
        self.others: Dict[Any, float] = {}
        self.skipped: Set[int] = set()
        self.must_shed = False  # void tiles held: one of them must go (docs/rules.md §3.2)


def turn_values(view: TableView, planner: WildPlanner, danger: DangerModel,
                by_kind: Mapping[str, List[Any]], weights: Weights) -> TurnValues:
    """The value of every option of an own turn at a table with wilds."""
    out = TurnValues()
    hand = wild_hand(view)
    void = view.void
    for a in by_kind.get("discard", []):
        out.by_discard.setdefault(discard_kind(a, view), a)
    kinds = list(out.by_discard)
    naturals = [d for d in kinds if d != WILD]
    out.must_shed = void >= 0 and bool(naturals) and all(d // 9 == void for d in naturals)
    values = planner.discard_values(hand, void, kinds, WILD in out.by_discard, out.skipped)
    w = weights.danger
    out.discards = {d: values[d] - (0.0 if d == WILD else w * danger.cost(d)) for d in kinds}
    for a in by_kind.get("swap_back", []):
        # 提: the meld's wild back into the hand, a natural tile of its kind into the meld.
        k = KIND[a.tile]
        nat = bytearray(hand.nat)
        nat[k] -= 1
        back = tuple((t, j, n - 1) if j == k and n else (t, j, n) for t, j, n in hand.melds)
        out.others[a] = _best_discard(planner, danger, WildHand(nat, hand.wilds + 1, back),
                                      void, weights)
    kongs = by_kind.get("concealed_kong", []) + by_kind.get("added_kong", [])
    if kongs:
        units = sum(view.unit(o) for o in planner.ctx.others)
        next_risk = min((danger.cost(k) for k in range(27) if hand.nat[k]), default=0.0)
        hard_double = planner.rules.soft_kong_pay == "hard_double"
        for a in kongs:
            k = KIND[a.tile]
            if a.kind == "concealed_kong":
                after, used = hand.take(k, 4)
                after.melds = hand.melds + ((2, k, used),)
                income, risk, soft = 2.0 * units, 0.0, used
            else:
                after, used = hand.take(k, 1)
                soft = 0
                melds: List[WildMeld] = []
                for t, j, n in hand.melds:
                    if t == 0 and j == k:
                        soft = n + used
                        melds.append((1, k, soft))
                    else:
                        melds.append((t, j, n))
                after.melds = tuple(melds)
                # robbed: paid as a deal-in, with 抢杠 +1 fan
                income, risk = 1.0 * units, 2.0 * danger.cost(k)
            if hard_double and not soft:  # 无鸡杠翻倍: a kong without a wild pays twice
                income *= 2.0
            keep = kong_keep(planner, danger, after, void, weights)
            out.others[a] = (planner.hand_value(after, void, 1.0) + keep * income - risk
                             - next_risk)
    return out


def choose_turn(view: TableView, planner: WildPlanner, danger: DangerModel,
                by_kind: Mapping[str, List[Any]], weights: Weights) -> Any:
    """The own turn at a table with wilds: the best natural discard (a wild only as
    :func:`_throw_last_wild` allows, or when nothing else may go), unless 提 is worth at least
    as much or a kong as much."""
    tv = turn_values(view, planner, danger, by_kind, weights)
    scores = tv.discards
    naturals = [d for d in scores if d != WILD]
    if tv.must_shed:
        # Void tiles must go first (docs/rules.md §3.2): the safest of them, as at any table.
        return tv.by_discard[min(naturals, key=lambda k: (round(danger.cost(k), 6),
                                                          abs(k % 9 - 4), k))]
    hand = wild_hand(view)
    best: Optional[int] = None
    best_score = -math.inf
    if naturals:
        top = max(scores[d] for d in naturals)
        ties = [d for d in naturals if scores[d] >= top - 1e-6]
        best = max(ties, key=lambda d: (-weights.connection(hand.nat, d), d))
        best_score = scores[best]
        if WILD in scores and _throw_last_wild(hand, scores, best_score, planner):
            best, best_score = WILD, scores[WILD]
    elif WILD in scores:
        best, best_score = WILD, scores[WILD]
    for a in by_kind.get("swap_back", []):
        if tv.others[a] >= best_score - 1e-9:
            return a
    for a in by_kind.get("concealed_kong", []) + by_kind.get("added_kong", []):
        if tv.others[a] >= best_score:
            return a
    if best is None:  # no discard offered (a turn of kongs and 提 only)
        return max(tv.others, key=lambda a: tv.others[a])
    return tv.by_discard[best]


def claim_values(obs: Mapping[str, Any], view: TableView, planner: WildPlanner,
                 danger: DangerModel, by_kind: Mapping[str, List[Any]], weights: Weights
                 ) -> Dict[Any, Optional[float]]:
    """Each option of a claim window at a table with wilds valued: pass (the hand as it stands
    less the next discard's risk), a kong (the hand after it with the replacement draw, plus
    its income), a peng, soft or not (its best discard after); ``None`` for a claim that
    raises the shanten (never the better choice: not valued)."""
    hand = wild_hand(view)
    void = view.void
    now = planner.shanten(hand, void)
    next_risk = min((danger.cost(k) for k in range(27) if hand.nat[k]), default=0.0)
    pass_value = planner.hand_value(hand, void) - next_risk
    out: Dict[Any, Optional[float]] = {a: pass_value for a in by_kind.get("pass", [])}
    for a in by_kind.get("kong", []):
        k = KIND[a.tile]
        after, used = hand.take(k, 3)
        after.melds = hand.melds + ((1, k, used),)
        if planner.shanten(after, void) > now:
            out[a] = None
            continue
        giver = (obs.get("claim") or {}).get("from")
        gain = view.unit(giver) * 2.0 if isinstance(giver, int) else 0.0
        gain += sum(view.unit(o) * planner.rules.direct_kong_others
                    for o in planner.ctx.others if o != giver)
        if planner.rules.soft_kong_pay == "hard_double" and not used:
            gain *= 2.0
        keep = kong_keep(planner, danger, after, void, weights)
        out[a] = planner.hand_value(after, void, 1.0) + keep * gain - next_risk
    for a in by_kind.get("peng", []):
        k = KIND[a.tile]
        after, used = hand.take(k, 2)
        after.melds = hand.melds + ((0, k, used),)
        out[a] = (None if planner.shanten(after, void) > now
                  else _best_discard(planner, danger, after, void, weights))
    return out


def choose_claim(obs: Mapping[str, Any], view: TableView, planner: WildPlanner,
                 danger: DangerModel, by_kind: Mapping[str, List[Any]], weights: Weights) -> Any:
    """A claim window at a table with wilds: pass, a kong or a peng (soft or not), by value
    (:func:`claim_values`); pass when equal."""
    values = claim_values(obs, view, planner, danger, by_kind, weights)
    best = by_kind["pass"][0]
    best_value = values[best]
    assert best_value is not None
    for kind in ("kong", "peng"):
        for a in by_kind.get(kind, []):
            v = values[a]
            if v is not None and v > best_value:
                best, best_value = a, v
    return best


def win_value(obs: Mapping[str, Any], view: TableView, planner: WildPlanner) -> Tuple[float,
                                                                                      float]:
    """A win now at a table with wilds, as ``(what it collects, its value)`` (as
    ``ExpertBot._win_value``): the fan of the hand with the winning tile (the best reading of
    its wilds, or 四鸡) times whoever pays; in 血战 plus what leaving now saves, in 血流 plus the
    frozen hand's waits."""
    ctx = planner.ctx
    hand = wild_hand(view)
    void = view.void
    claim = obs.get("claim")
    wild = set(view.wild_kinds)
    if claim:  # on a discard or a robbed kong (a robbed wild is won on as a wild)
        k = PHYSICAL_KIND[claim["tile"]]
        if k in wild:
            won, tile = WildHand(hand.nat, hand.wilds + 1, hand.melds), 27
        else:
            nat = bytearray(hand.nat)
            nat[k] += 1
            won, tile = WildHand(nat, hand.wilds, hand.melds), k
        giver = claim.get("from")
        mult = _core.evaluate(won.core(), void, planner.scoring, tile, 0)[1]
        pay = mult * (view.unit(giver) if isinstance(giver, int) else ctx.dw_units)
        left = hand
    else:  # a self-draw (四鸡 too): every other seat in play pays
        drawn = obs.get("drawn")
        k = PHYSICAL_KIND[drawn] if drawn else -1
        tile = 27 if k in wild else k
        mult = _core.evaluate(hand.core(), void, planner.scoring, tile, _core.SELF_DRAW)[1]
        pay = mult * ctx.sd_units + ctx.sd_bonus
        left = hand.discard(WILD if k in wild else k) if k >= 0 else hand
    if not ctx.continues:
        return pay, pay + ctx.exit_rate * max(0.0, ctx.draws)
    try:
        return pay, pay + planner.hand_value(left, void)
    except ValueError:  # (a hand the draw made whole in another shape)
        return pay, pay
