"""The review of a hand: every decision one seat made, beside the value of each legal option by
:class:`~xueliu.bots.ExpertBot`'s value model (``ExpertBot.option_values``), from that seat's
observation at that moment only. docs/review.md describes the numbers and the ``--json`` object.

>>> import xueliu
>>> from xueliu.bots import ExpertBot, play_hand
>>> from xueliu.review import review_record
>>> state = play_hand(xueliu.new_game(seed=4), [ExpertBot() for _ in range(4)])
>>> r = review_record(state.record(), seat=1)
>>> r.agreement, r.total_regret
(1.0, 0.0)
"""

from .decisions import Decision, Review, review_record
from .report import review_json, review_text, review_written

__all__ = ["Decision", "Review", "review_record", "review_json", "review_text", "review_written"]
