"""AutoPlayBot: the 托管 auto-play policy of docs/rules.md §8, as a bot.

It answers exactly as ``GameState.apply_timeout`` would:

- exchange: the three highest-index tiles of the shortest suit that has at least 3 tiles (换四张:
  four of the shortest suit of at least 4, or the hand's four highest when no suit has 4);
- void: the suit with the fewest tiles (ties: the lower suit, 万 before 筒 before 条);
- multiplier: the knob's default, read from the observation's ``player_multipliers`` (else from
  ``rules=``, for observations that lack it; else the largest allowed value);
- its turn: win when it can, else discard the tile just drawn, or, when that is not legal (the
  void rule), the highest-index legal discard;
- a claim window: win when it can, else pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Mapping, Optional, Sequence

from .base import Bot

from ..game.actions import DISCARD_PHYSICAL, VOID, Action, exchange_action
from ..game.defaults import default_exchange

if TYPE_CHECKING:  # pragma: no cover
    from ..game.view import SeatView

__all__ = ["AutoPlayBot"]

_KIND = {f"{r}{s}": 9 * i + r - 1 for i, s in enumerate("mps") for r in range(1, 10)}


def _suit_sizes(hand: Sequence[str]) -> List[int]:
    sizes = [0, 0, 0]
    for t in hand:
        sizes[_KIND[t] // 9] += 1
    return sizes


def _exchange_count(legal_actions: Sequence[Any]) -> int:
    """How many tiles this table exchanges (换三张 / 换四张), read from the exchanges offered."""
    return next(len(a.tiles) for a in legal_actions if a.kind == "exchange")


class AutoPlayBot(Bot):
    """The docs/rules.md §8 default policy (托管). ``seed`` is accepted and ignored (it is deterministic);
    ``rules`` is needed only for hand-made observations without ``player_multipliers``.

    >>> from xueliu.bots import AutoPlayBot, play_hand
    >>> import xueliu
    >>> play_hand(xueliu.new_game(seed=5), [AutoPlayBot()] * 4).is_over
    True
    """

    name = "autoplay"

    def __init__(self, seed: Optional[int] = None, rules: Any = None) -> None:
        pm = getattr(rules, "player_multipliers", None) if rules is not None else None
        self._multiplier_default = int(pm["default"]) if pm else None

    def start_hand(self, seat: int, rules: Any, seed: int) -> None:
        pm = getattr(rules, "player_multipliers", None)
        self._multiplier_default = int(pm["default"]) if pm else None

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise ValueError("AutoPlayBot was asked to act with no legal action")
        kinds = {a.kind for a in legal_actions}
        if "hu" in kinds:
            return next(a for a in legal_actions if a.kind == "hu")
        hand = observation["hand"]
        wilds = observation.get("wilds")
        if wilds and ("exchange" in kinds or "void" in kinds):
            hand = [t for t in hand if t not in wilds["kinds"]]  # natural tiles only (§12.3)
        if "exchange" in kinds:
            counts = [0] * 27
            for t in hand:
                counts[_KIND[t]] += 1
            want = exchange_action(*default_exchange(counts, _exchange_count(legal_actions)))
            return next(a for a in legal_actions if a is want)
        if "void" in kinds:
            sizes = _suit_sizes(hand)
            letter = "mps"[sizes.index(min(sizes))]
            return next(a for a in legal_actions if a.kind == "void" and a.suit == letter)
        if "multiplier" in kinds:
            values = [a for a in legal_actions if a.kind == "multiplier"]
            pm = observation.get("player_multipliers")
            default = pm["default"] if pm else self._multiplier_default
            for a in values:
                if a.value == default:
                    return a
            return max(values, key=lambda a: a.value)
        if "discard" in kinds:
            drawn = observation.get("drawn")
            discards = [a for a in legal_actions if a.kind == "discard"]
            if drawn is not None:
                for a in discards:
                    if a.tile == drawn:
                        return a
            return max(discards, key=lambda a: _KIND.get(a.tile, 27))  # (红中 last)
        # A claim window without a win (or a frozen hand offered only a kong): pass if possible.
        for a in legal_actions:
            if a.kind == "pass":
                return a
        return legal_actions[0]

    def act_view(self, view: SeatView, legal_actions: Sequence[Action]) -> Action:
        """The same policy, read from the counts of a :class:`~xueliu.game.view.SeatView`."""
        if not legal_actions:
            raise ValueError("AutoPlayBot was asked to act with no legal action")
        kinds = {a.kind for a in legal_actions}
        if "hu" in kinds:
            return next(a for a in legal_actions if a.kind == "hu")
        hand = view.hand
        if view.wild_kinds:  # natural tiles only (docs/rules.md §12.3)
            hand = bytes(0 if k in view.wild_kinds else hand[k] for k in range(27))
        if "exchange" in kinds:
            return exchange_action(*default_exchange(hand, _exchange_count(legal_actions)))
        if "void" in kinds:
            sizes = [sum(hand[9 * u:9 * u + 9]) for u in range(3)]
            return VOID[sizes.index(min(sizes))]
        if "multiplier" in kinds:
            default = view.multiplier_default
            if default is None:
                default = self._multiplier_default
            values = [a for a in legal_actions if a.kind == "multiplier"]
            for a in values:
                if a.value == default:
                    return a
            return max(values, key=lambda a: a.value or 0)
        if "discard" in kinds:
            drawn = view.drawn  # a discard's id is its kind (红中's: DISCARD_PHYSICAL[27])
            discards = [a for a in legal_actions if a.kind == "discard"]
            for a in discards:
                if a is DISCARD_PHYSICAL[drawn] if drawn >= 0 else False:
                    return a
            return max(discards, key=lambda a: 27 if a.tile == "7z" else a.id)
        for a in legal_actions:
            if a.kind == "pass":
                return a
        return legal_actions[0]
