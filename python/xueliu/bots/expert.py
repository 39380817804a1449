"""ExpertBot: plays by expected value, the way a strong Sichuan player weighs a hand.

Every decision compares options in one currency, the payment units the seat expects to gain
(docs/expert-bot.md explains each part and how the constants were measured):

- **discard**: for each legal discard, the value of the hand left (:mod:`.expert_value`: the
  chance to complete each wait, or to take each 进张, in the draws left, times the fan it would
  score, from the remaining counts this seat can see; a 清一色 plan besides the plain one) minus
  the expected cost of dealing in with that tile (:mod:`.expert_danger`);
- **exchange / void**: the suit whose loss costs the hand least: the lowest shanten with that
  suit void, then the highest value of the hand (the 清一色 plan included); the exchange gives
  three of that suit's least connected tiles;
- **peng / kong**: the value after the claim (after a peng, of its best discard; after a kong, of
  the hand with its replacement draw, plus the kong's income less what 呼叫转移, 退税 and
  ``kong_settle`` may take back) against passing; an added kong that would be robbed costs as a
  deal-in;
- **hu**: always — in 血流 the hand keeps winning afterwards, in 血战 a win takes the seat out of
  all later payments (and passing a win may block the next one, 过胡);
- **multiplier** (选倍): the largest value when the hand is worth playing, the smallest when it
  is far from ready (every payment, won or lost, scales with it);
- a won 血流 hand takes every kong the engine offers (only those that keep its waits).

It reads only its observation and ``legal_actions``; ``rules`` (default: the preset named by the
observation's ``mode``) gives the scoring table.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from ..rules import Rules
from .base import Bot
from .expert_danger import DangerModel, ready_chance, table_pace
from .expert_plan import Melds, Planner, ready_waits
from .expert_value import Context, first_win_horizon, game_horizon, wait_pays
from .expert_view import KIND, MELD_TYPE, SUIT, HandMemory, TableView, read_view
from .expert_parts import (CLAIM_PREFILTER, DANGER_WEIGHT, FAR_HAND_LOSS, MULTIPLIER_MAX_SHANTEN,
                           ON_WIN_KEEP, OptionValue, _connection, _shanten_of, wild_hand_value,
                           wild_weights)
from .expert_wild import WILD_LOSS_PACE, WildPlanner, wild_hand
from .expert_wild_choice import (choose_claim, choose_turn, claim_values, discard_kind,
                                 table_stake, turn_values, win_value)

__all__ = ["ExpertBot", "OptionValue"]


class ExpertBot(Bot):
    """The expected-value player described in the module docstring. Deterministic; ``seed`` is
    accepted for a uniform bot constructor and ignored.

    >>> from xueliu.bots import ExpertBot, GreedyBot, play_hand
    >>> import xueliu
    >>> state = play_hand(xueliu.new_game(seed=2), [ExpertBot()] + [GreedyBot() for _ in range(3)])
    >>> state.is_over
    True
    """

    name = "expert"

    def __init__(self, seed: Optional[int] = None, rules: Optional[Rules] = None) -> None:
        self._rules = rules
        self._memory = HandMemory()
        self._last_win_pay = 0.0  # what the win valued last collects (option_values' ceiling)

    def start_hand(self, seat: int, rules: Rules, seed: int) -> None:
        """The hand's rules, and a fresh memory of the hand (it no longer has to guess from the
        dice that a new hand began)."""
        self._rules = rules
        self._memory = HandMemory()

    # -- dispatch ---------------------------------------------------------------------------------
    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("ExpertBot was asked to act with no legal action")
        by_kind: Dict[str, List[Any]] = {}
        for a in legal_actions:
            by_kind.setdefault(a.kind, []).append(a)
        if "hu" in by_kind:
            return by_kind["hu"][0]
        if len(legal_actions) == 1:
            return legal_actions[0]
        frozen = observation.get("frozen")
        if frozen and frozen[observation["seat"]]:
            # A won 血流 hand: the engine offers only kongs that keep its waits; take them.
            for kind in ("concealed_kong", "added_kong", "kong"):
                if kind in by_kind:
                    return by_kind[kind][0]
            return by_kind.get("pass", by_kind.get("discard", legal_actions))[0]
        rules = self._rules
        if rules is None:  # the preset the observation names (Rules.preset caches it)
            rules = Rules.preset(observation.get("mode", "xueliu"))
        if rules.has_wilds:
            return self._act_wild(observation, by_kind, rules)
        if "pass" in by_kind and not self._claims_worth_valuing(observation, by_kind, rules):
            return by_kind["pass"][0]
        view = read_view(observation, rules.shape)
        self._memory.update(observation, view)
        if "exchange" in by_kind:
            return self._exchange(view, rules, by_kind["exchange"])
        if "void" in by_kind:
            return self._void(view, rules, by_kind["void"])
        if "multiplier" in by_kind:
            return self._multiplier(view, rules, by_kind["multiplier"])
        if "discard" in by_kind:
            planner, danger = self._models(view, rules)
            return self._turn(view, rules, planner, danger, by_kind)
        return self._claim(observation, view, rules, by_kind)

    def _act_wild(self, obs: Mapping[str, Any], by_kind: Dict[str, List[Any]],
                  rules: Rules) -> Any:
        """A decision at a table with wild tiles (:mod:`.expert_wild`): the same model, the
        hands read through the wild set."""
        view = read_view(obs, rules.shape)
        self._memory.update(obs, view)
        if "exchange" in by_kind:
            return self._exchange(view, rules, by_kind["exchange"])
        if "void" in by_kind:
            return self._void(view, rules, by_kind["void"])
        if "multiplier" in by_kind:
            return self._multiplier(view, rules, by_kind["multiplier"])
        ctx = self._context(view, rules)
        safe = [self._memory.safe_against(o, view) if view.frozen[o] else set()
                for o in view.seats]
        danger = DangerModel(view, ctx.others, safe, rules.declare_void, table_pace(view),
                             table_stake(rules))
        planner = WildPlanner(ctx, rules)
        weights = wild_weights(rules)
        if "pass" in by_kind:
            return choose_claim(obs, view, planner, danger, by_kind, weights)
        return choose_turn(view, planner, danger, by_kind, weights)

    # -- the value model, exposed (the review of a hand, docs/review.md) ---------------------------

    def option_values(self, observation: Mapping[str, Any],
                      legal_actions: Sequence[Any]) -> List[Tuple[Any, float]]:
        """:meth:`valued_options` without the ``valued`` flags: ``[(action, value), ...]``."""
        return [(o.action, o.value) for o in self.valued_options(observation, legal_actions)]

    def valued_options(self, observation: Mapping[str, Any],
                       legal_actions: Sequence[Any]) -> List[OptionValue]:
        """The value of every legal option, in expected payment units to the end of the hand,
        from this seat's ``observation`` only, as :class:`OptionValue` ``(action, value,
        valued)``: the expert's own choice first (it is the one :meth:`act` returns for this
        observation), then the others from the highest value down. The first value is the
        largest, so ``max`` by value is the expert's choice (ties are listed with the choice
        first).

        Call it exactly where :meth:`act` would be called (each time the seat must decide, in
        order): it keeps the bot's memory of the hand (:class:`HandMemory`) exactly as ``act``
        does, so a review sees the same estimates as the play.

        Most decisions compare values already (discards, kongs, claims); where the expert decides
        by a rule first (exchange and void: the lowest shanten first; 选倍 by shanten; void tiles
        shed by danger alone; a won hand takes its kongs), an option the rule ranks below the
        choice is shown at most at the choice's value, so the list never contradicts the choice.
        A win is always taken: any other option is shown at most at the win's value less what
        the win collects now (passing a win forfeits at least that). ``valued`` says whether
        the model valued the option at all (:class:`OptionValue`); the flag, not the number,
        tells (a value may be exactly 0.0 either way). docs/review.md."""
        choice = self.act(observation, legal_actions)
        memory = copy.deepcopy(self._memory)
        raw, skipped = self._raw_values(observation, legal_actions, memory)
        top = raw[choice]
        if choice.kind == "hu":
            ceiling = top - self._last_win_pay
            raw = {a: v if a is choice or v < ceiling else ceiling for a, v in raw.items()}
        rest = sorted((a for a in legal_actions if a is not choice),
                      key=lambda a: (-raw[a], a.id))
        return [OptionValue(choice, top, choice not in skipped)] + [
            OptionValue(a, raw[a] if raw[a] < top else top, a not in skipped) for a in rest]

    def _raw_values(self, obs: Mapping[str, Any], legal: Sequence[Any],
                    memory: HandMemory) -> Tuple[Dict[Any, float], Set[Any]]:
        """Each option's value by the model alone (before :meth:`option_values` orders them),
        and the options it skipped (valued at 0.0, a discard less its danger)."""
        by_kind: Dict[str, List[Any]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        rules = self._rules
        if rules is None:
            rules = Rules.preset(obs.get("mode", "xueliu"))
        view = read_view(obs, rules.shape)
        memory.update(obs, view)
        out: Dict[Any, float] = {}
        if "exchange" in by_kind or "void" in by_kind:
            give = len(by_kind["exchange"][0].tiles) if "exchange" in by_kind else 0
            suits = [u for u in view.suits
                     if "void" in by_kind or sum(view.counts[9 * u:9 * u + 9]) >= give]
            if not suits:  # no suit holds that many (换四张, 7 tiles): rate every suit
                suits = list(view.suits)
            values = self._suit_values(view, rules, suits)
            for a in by_kind.get("exchange", []):
                out[a] = values[KIND[a.tiles[0]] // 9]
            for a in by_kind.get("void", []):
                out[a] = values[SUIT[a.suit]]
            return out, set()
        if "multiplier" in by_kind:
            if self._shanten(view, view.void, rules) > MULTIPLIER_MAX_SHANTEN:
                per = -FAR_HAND_LOSS
            elif rules.has_wilds:
                per = WildPlanner(self._context(view, rules), rules).hand_value(
                    wild_hand(view), view.void)
            else:
                planner = Planner(self._context(view, rules), rules._scoring)
                per = planner.hand_value(view.counts, tuple(view.melds), view.void)
            for a in by_kind["multiplier"]:
                out[a] = float(a.value) * per
            return out, set()
        if rules.has_wilds:
            return self._raw_values_wild(obs, view, memory, by_kind, legal, rules)
        ctx = self._context(view, rules)
        safe = [memory.safe_against(o, view) if view.frozen[o] else set() for o in view.seats]
        danger = DangerModel(view, ctx.others, safe, rules.declare_void, table_pace(view))
        planner = Planner(ctx, rules._scoring)
        counts = view.counts
        melds: Melds = tuple(view.melds)
        void = view.void
        held = [k for k in range(27) if counts[k]]
        next_risk = min((danger.cost(k) for k in held), default=0.0)
        units = sum(view.unit(o) for o in ctx.others)
        w = DANGER_WEIGHT
        claim = obs.get("claim") or {}
        skipped: Set[Any] = set()
        if "discard" in by_kind:  # own turn
            kinds = [KIND[a.tile] for a in by_kind["discard"]]
            skipped_kinds: Set[int] = set()
            values, _ = planner.discard_values(counts, melds, void, kinds, skipped_kinds)
            for a, d in zip(by_kind["discard"], kinds):
                out[a] = values[d] - w * danger.cost(d)
                if d in skipped_kinds:
                    skipped.add(a)
        for a in by_kind.get("concealed_kong", []) + by_kind.get("added_kong", []):
            k = KIND[a.tile]
            after = list(counts)
            if a.kind == "concealed_kong":
                after[k] -= 4
                new_melds = melds + ((2, k),)
                income, risk = 2.0 * units, 0.0
            else:
                after[k] -= 1
                new_melds = tuple((1, k) if m == (0, k) else m for m in melds)
                income, risk = 1.0 * units, 2.0 * danger.cost(k)
            keep = self._kong_keep(planner, danger, after, new_melds, void, rules)
            out[a] = (planner.hand_value(after, new_melds, void, 1.0) + keep * income - risk
                      - next_risk)
        if "pass" in by_kind:  # a claim window
            peng_values: Dict[int, float] = {}
            if "peng" in by_kind:
                pass_value, peng_values = planner.claim_values(
                    counts, melds, void, KIND[by_kind["peng"][0].tile])
            else:
                pass_value = planner.hand_value(counts, melds, void)
            for a in by_kind["pass"]:
                out[a] = pass_value - next_risk
            for a in by_kind.get("peng", []):
                out[a] = max((v - w * danger.cost(d) for d, v in peng_values.items()),
                             default=0.0)
                if not peng_values:
                    skipped.add(a)
            giver = claim.get("from")
            for a in by_kind.get("kong", []):
                k = KIND[a.tile]
                after = list(counts)
                after[k] -= 3
                gain = view.unit(giver) * 2.0 if isinstance(giver, int) else 0.0
                gain += sum(view.unit(o) * rules.direct_kong_others
                            for o in ctx.others if o != giver)
                keep = self._kong_keep(planner, danger, after, melds + ((1, k),), void, rules)
                out[a] = (planner.hand_value(after, melds + ((1, k),), void, 1.0) + keep * gain
                          - next_risk)
        for a in by_kind.get("hu", []):
            self._last_win_pay, out[a] = self._win_value(obs, view, planner, rules)
        for a in legal:  # a won hand's kong the engine offers alone, or anything left unvalued
            if a not in out:
                out[a] = 0.0
                skipped.add(a)
        return out, skipped

    def _raw_values_wild(self, obs: Mapping[str, Any], view: TableView, memory: HandMemory,
                         by_kind: Dict[str, List[Any]], legal: Sequence[Any], rules: Rules
                         ) -> Tuple[Dict[Any, float], Set[Any]]:
        """:meth:`_raw_values` of a turn or a claim window at a table with wild tiles
        (:mod:`.expert_wild`: the values its choices compare)."""
        ctx = self._context(view, rules)
        safe = [memory.safe_against(o, view) if view.frozen[o] else set() for o in view.seats]
        danger = DangerModel(view, ctx.others, safe, rules.declare_void, table_pace(view),
                             table_stake(rules))
        planner = WildPlanner(ctx, rules)
        weights = wild_weights(rules)
        out: Dict[Any, float] = {}
        skipped: Set[Any] = set()
        if "pass" in by_kind:
            for a, v in claim_values(obs, view, planner, danger, by_kind, weights).items():
                out[a] = 0.0 if v is None else v
                if v is None:
                    skipped.add(a)
        elif any(k in by_kind for k in ("discard", "swap_back", "concealed_kong",
                                         "added_kong")):
            tv = turn_values(view, planner, danger, by_kind, weights)
            for a in by_kind.get("discard", []):
                d = discard_kind(a, view)
                out[a] = tv.discards[d]
                if d in tv.skipped:
                    skipped.add(a)
            out.update(tv.others)
        for a in by_kind.get("hu", []):
            self._last_win_pay, out[a] = win_value(obs, view, planner)
        for a in legal:  # a won hand's kong the engine offers alone, or anything left unvalued
            if a not in out:
                out[a] = 0.0
                skipped.add(a)
        return out, skipped

    def _suit_values(self, view: TableView, rules: Rules, suits: Sequence[int]
                     ) -> Dict[int, float]:
        """Value of the hand with each of ``suits`` void (the exchange gives it away): the
        numbers :meth:`_suit_order` compares among the suits of the lowest shanten."""
        counts = view.counts
        out: Dict[int, float] = {}
        if rules.has_wilds:
            wild = WildPlanner(self._context(view, rules), rules)
            hand = wild_hand(view)
            for u in suits:
                out[u] = wild_hand_value(wild, hand, u)
            return out
        planner = Planner(self._context(view, rules), rules._scoring)
        for u in suits:
            if sum(counts) % 3 == 2:  # the dealer's 14: its best discard
                kinds = [k for k in range(27) if counts[k]]
                out[u] = max(planner.discard_values(counts, (), u, kinds)[0].values())
            else:
                out[u] = planner.hand_value(counts, (), u)
        return out

    def _win_value(self, obs: Mapping[str, Any], view: TableView, planner: Planner,
                   rules: Rules) -> Tuple[float, float]:
        """A win now, as ``(what it collects, its value)``: it collects its multiplier from the
        fan table (without flags such as 杠上花) times the units of whoever pays; its value adds,
        in 血流, what the frozen hand left is still worth on its waits, in 血战 what leaving now
        saves (the seat pays nothing more: the model's loss per draw over the draws left)."""
        counts = list(view.counts)
        melds: Melds = tuple(view.melds)
        ctx = planner.ctx
        claim = obs.get("claim")
        if claim:  # on a discard or a robbed kong: the discarder pays
            k = KIND[claim["tile"]]
            giver = claim.get("from")
            waits = ready_waits(bytes(counts), melds, view.void, rules._scoring)
            mult = next((dw for t, dw, _sd in waits if t == k), 1.0)
            pay = mult * (view.unit(giver) if isinstance(giver, int) else ctx.dw_units)
        else:  # a self-draw: every other seat in play pays
            drawn = obs.get("drawn")
            options = [KIND[drawn]] if drawn else [t for t in range(27) if counts[t]]
            pay, waits = 0.0, ()
            for k in options:
                counts[k] -= 1
                waits = ready_waits(bytes(counts), melds, view.void, rules._scoring)
                won = [sd for t, _dw, sd in waits if t == k]
                if won:
                    pay = won[0] * ctx.sd_units + ctx.sd_bonus
                    break
                counts[k] += 1
        if not ctx.continues:
            return pay, pay + ctx.exit_rate * max(0.0, ctx.draws)
        if not waits:
            return pay, pay
        return pay, pay + ctx.ready_value(wait_pays(waits, planner.remaining), ctx.draws)

    def _context(self, view: TableView, rules: Rules) -> Context:
        others = [o for o in view.seats if o != view.seat and view.in_play[o]]
        pace = table_pace(view)
        ready = {o: ready_chance(view, o, pace) for o in others}
        horizon = None
        if view.mode == "daodaohu":  # 倒倒胡: the hand ends at the first win, anyone's
            horizon = first_win_horizon(view.draws_left, [ready[o] for o in others], pace)
        elif view.mode != "xueliu":  # 血战: the hand ends when the others have won
            horizon = game_horizon(view.draws_left, [ready[o] for o in others], pace)
        refund = 0.0
        if rules.refund_kongs:  # 退税: a seat not ready at the end returns its kong income
            units = sum(view.unit(o) for o in others)
            for typ, _k in view.melds:
                refund += 2.0 * units if typ == 2 else units if typ == 1 else 0.0
        # 只能自摸 / 起胡番 (docs/rules.md §11.2): a wait whose discard win is not offered is won only by
        # a self-draw. The wait's fan is known without the win's flags (杠上炮 ...), so a
        # discard win below the minimum counts as not offered.
        min_discard_fan = None if rules.self_draw_only else rules.min_fan_discard_win
        if rules.has_wilds:  # (docs/expert-bot.md, "Wild tiles")
            return Context(view, rules.self_draw_bonus, rules.multipliers or (),
                           rules.max_fan or 0, horizon, ready, refund, pace, min_discard_fan,
                           table_stake(rules), True, WILD_LOSS_PACE)
        return Context(view, rules.self_draw_bonus, rules.multipliers or (), rules.max_fan or 0,
                       horizon, ready, refund, pace, min_discard_fan)

    def _models(self, view: TableView, rules: Rules) -> Tuple[Planner, DangerModel]:
        ctx = self._context(view, rules)
        safe = [self._memory.safe_against(o, view) if view.frozen[o] else set()
                for o in view.seats]
        danger = DangerModel(view, ctx.others, safe, rules.declare_void, table_pace(view))
        return Planner(ctx, rules._scoring), danger

    # -- before play ------------------------------------------------------------------------------
    def _suit_order(self, view: TableView, rules: Rules, suits: Sequence[int]) -> List[int]:
        """``suits`` best first to give away and declare void: the lowest shanten with that suit
        void, then (among those) the highest value of the hand (:meth:`Planner.hand_value`: the
        清一色 plan included), then fewer tiles of it, then the lower suit."""
        counts = view.counts
        shanten = {u: self._shanten(view, u, rules) for u in suits}
        low = min(shanten.values(), default=0)
        value = {u: 0.0 for u in suits}
        tied = [u for u in suits if shanten[u] == low]
        if len(tied) > 1 and rules.has_wilds:
            wild = WildPlanner(self._context(view, rules), rules)
            hand = wild_hand(view)
            for u in tied:
                value[u] = wild_hand_value(wild, hand, u)
        elif len(tied) > 1:
            planner = Planner(self._context(view, rules), rules._scoring)
            for u in tied:
                if sum(counts) % 3 == 2:  # the dealer's 14: its best discard
                    kinds = [k for k in range(27) if counts[k]]
                    value[u] = max(planner.discard_values(counts, (), u, kinds)[0].values())
                else:
                    value[u] = planner.hand_value(counts, (), u)
        return sorted(suits, key=lambda u: (shanten[u], -round(value[u], 6),
                                            sum(counts[9 * u:9 * u + 9]), u))

    def _exchange(self, view: TableView, rules: Rules, options: List[Any]) -> Any:
        counts = view.counts
        give = len(options[0].tiles)  # 换三张 or 换四张 (docs/rules.md §11.1): what the table asks
        suits = [u for u in view.suits if sum(counts[9 * u:9 * u + 9]) >= give]
        for u in self._suit_order(view, rules, suits):
            tiles = [k for k in range(9 * u, 9 * u + 9) for _ in range(counts[k])]
            tiles.sort(key=lambda k: (_connection(counts, k), -k))
            want = tuple(sorted(tiles[:give]))
            for a in options:
                if tuple(KIND[t] for t in a.tiles) == want:
                    return a
        # No suit holds that many (换四张 with 7-tile hands): any tiles may go, so the least
        # connected of the whole hand.
        tiles = sorted((k for k in range(27) for _ in range(counts[k])),
                       key=lambda k: (_connection(counts, k), -k))
        want = tuple(sorted(tiles[:give]))
        return next((a for a in options if tuple(KIND[t] for t in a.tiles) == want), options[0])

    def _void(self, view: TableView, rules: Rules, options: List[Any]) -> Any:
        u = self._suit_order(view, rules, list(view.suits))[0]
        for a in options:
            if a.suit == "mps"[u]:
                return a
        return options[0]

    @staticmethod
    def _shanten(view: TableView, void: int, rules: Rules) -> int:
        if rules.has_wilds:  # the natural tiles and the wilds
            return WildPlanner.shanten_of(wild_hand(view), void, rules, view.wild_kinds)
        return _shanten_of(view.counts, view.melds, void, rules)

    def _multiplier(self, view: TableView, rules: Rules, options: List[Any]) -> Any:
        if self._shanten(view, view.void, rules) <= MULTIPLIER_MAX_SHANTEN:
            return max(options, key=lambda a: a.value)
        return min(options, key=lambda a: a.value)

    # -- own turn ---------------------------------------------------------------------------------

    def _discard_scores(self, planner: Planner, danger: DangerModel, counts: Sequence[int],
                        melds: Melds, void: int, kinds: Sequence[int]) -> Dict[int, float]:
        values, _ = planner.discard_values(counts, melds, void, kinds)
        w = DANGER_WEIGHT
        return {d: values[d] - w * danger.cost(d) for d in kinds}

    @staticmethod
    def _best(scores: Mapping[int, float], counts: Sequence[int]) -> int:
        """The highest score; among equal ones the least connected tile, then the highest."""
        top = max(scores.values())
        ties = [d for d, v in scores.items() if v >= top - 1e-6]
        if len(ties) == 1:
            return ties[0]
        return max(ties, key=lambda d: (-_connection(counts, d), d))

    def _turn(self, view: TableView, rules: Rules, planner: Planner, danger: DangerModel,
              by_kind: Dict[str, List[Any]]) -> Any:
        counts = view.counts
        melds: Melds = tuple(view.melds)
        legal = {KIND[a.tile]: a for a in by_kind["discard"]}
        if view.void >= 0 and all(k // 9 == view.void for k in legal):
            # Void tiles must go first (docs/rules.md §3.2) and all of them will: the shape is the same
            # whichever goes now, so shed the safest now (ties: the middle ranks, which grow
            # more dangerous as the others' hands fill).
            return legal[min(legal, key=lambda k: (round(danger.cost(k), 6), abs(k % 9 - 4), k))]
        scores = self._discard_scores(planner, danger, counts, melds, view.void, list(legal))
        best = self._best(scores, counts)
        best_score = scores[best]
        kongs = by_kind.get("concealed_kong", []) + by_kind.get("added_kong", [])
        if kongs:
            others = planner.ctx.others
            units = sum(view.unit(o) for o in others)
            next_risk = min(danger.cost(k) for k in range(27) if counts[k])
            for a in kongs:
                k = KIND[a.tile]
                after = list(counts)
                if a.kind == "concealed_kong":
                    after[k] -= 4
                    new_melds = melds + ((2, k),)
                    income = 2.0 * units
                    risk = 0.0
                else:
                    after[k] -= 1
                    new_melds = tuple((1, k) if m == (0, k) else m for m in melds)
                    income = 1.0 * units
                    risk = 2.0 * danger.cost(k)  # robbed: paid as a deal-in, with 抢杠 +1 fan
                keep = self._kong_keep(planner, danger, after, new_melds, view.void, rules)
                value = (planner.hand_value(after, new_melds, view.void, 1.0) + keep * income
                         - risk - next_risk)
                if value >= best_score:
                    return a
        return legal[best]

    @staticmethod
    def _kong_keep(planner: Planner, danger: DangerModel, counts: Sequence[int], melds: Melds,
                   void: int, rules: Rules) -> float:
        """Share of a kong's income the seat keeps: 呼叫转移 hands it to whoever wins on the
        discard after the replacement draw (the safest tile held is the best guess of that
        discard), 退税 returns it if the hand is not ready at the end, and under ``kong_settle =
        "on_win"`` it is collected only if the seat wins after."""
        keep = 1.0
        if rules.call_transfer:
            keep *= 1.0 - min((danger.chance(k) for k in range(27) if counts[k]), default=0.0)
        ready = planner.ready_chance(counts, melds, void)
        if rules.refund_kongs:
            keep *= ready
        if rules.kong_settle == "on_win":
            keep *= ON_WIN_KEEP * ready
        return keep

    # -- claim window -----------------------------------------------------------------------------

    def _claims_worth_valuing(self, obs: Mapping[str, Any], by_kind: Dict[str, List[Any]],
                              rules: Rules) -> bool:
        """Drops from ``by_kind`` a peng or kong that sets the shape back (a peng or a kong that
        raises the shanten): it is passed without valuing it, cheap, and the value never prefers
        it. Whether a claim is left to value. Reads only the seat's own hand."""
        if not CLAIM_PREFILTER:
            return True
        counts = [0] * 27
        for t in obs["hand"]:
            counts[KIND[t]] += 1
        seat = obs["seat"]
        melds: Melds = tuple((MELD_TYPE[m["type"]], KIND[m["tile"]]) for m in obs["melds"][seat])
        v = obs.get("void")
        void = -1 if v is None else SUIT[v]
        now = _shanten_of(counts, melds, void, rules)
        for kind, used, typ in (("peng", 2, 0), ("kong", 3, 1)):
            offered = by_kind.get(kind)
            if offered:
                k = KIND[offered[0].tile]
                after = list(counts)
                after[k] -= used
                if _shanten_of(after, melds + ((typ, k),), void, rules) > now:
                    del by_kind[kind]
        return "peng" in by_kind or "kong" in by_kind

    def _claim(self, obs: Mapping[str, Any], view: TableView, rules: Rules,
               by_kind: Dict[str, List[Any]]) -> Any:
        passes = by_kind["pass"]
        kong = by_kind.get("kong")
        peng = by_kind.get("peng")
        counts = view.counts
        melds: Melds = tuple(view.melds)
        void = view.void
        planner, danger = self._models(view, rules)
        claim = obs.get("claim") or {}
        giver = claim.get("from")
        held = [k for k in range(27) if counts[k]]
        next_risk = min((danger.cost(k) for k in held), default=0.0)
        peng_values: Dict[int, float] = {}
        if peng:
            pass_value, peng_values = planner.claim_values(counts, melds, void, KIND[peng[0].tile])
        else:
            pass_value = planner.hand_value(counts, melds, void)
        best_value = pass_value - next_risk
        best = passes[0]
        if kong:
            k = KIND[kong[0].tile]
            after = list(counts)
            after[k] -= 3
            units = view.unit(giver) * 2.0 if isinstance(giver, int) else 0.0
            units += sum(view.unit(o) * rules.direct_kong_others
                         for o in planner.ctx.others if o != giver)
            keep = self._kong_keep(planner, danger, after, melds + ((1, k),), void, rules)
            value = (planner.hand_value(after, melds + ((1, k),), void, 1.0) + keep * units
                     - next_risk)
            if value > best_value:
                best, best_value = kong[0], value
        if peng:
            w = DANGER_WEIGHT
            value = max(v - w * danger.cost(d) for d, v in peng_values.items())
            if value > best_value:
                best, best_value = peng[0], value
        return best
