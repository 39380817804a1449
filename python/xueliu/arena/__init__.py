"""The arena that ranks bots: duplicate one-against-three matches, a clustered interval and one
rating scale (docs/strength.md).

>>> from xueliu.arena import arena, format_table
>>> result = arena(["greedy", "random"], 2, seed=1)
>>> [line.hands for line in result.lines]
[8, 8]
>>> result.ratings["greedy"]
0.0

Every bot plays one seat against three copies of a reference (default ``greedy``), or, with
``mode="pairs"``, against three copies of every other bot; each match plays the same walls, each
wall in its four seatings (the bot once in every seat), through ``simulate``'s own hand, so any
bot ``simulate`` plays — built-in names (a future ``neural`` among them once it is in
:data:`xueliu.bots.BOTS`), ``module:Class`` or ``cmd:`` programs — plays here.

Modules: :mod:`.plan` (the matches and their seating), :mod:`.tally` (what is kept of each hand),
:mod:`.stats` (the mean and its interval clustered by wall), :mod:`.rating` (Bradley–Terry, Elo
points), :mod:`.run` (workers), :mod:`.report` (table and JSON), :mod:`.command` (``xueliu
arena``).
"""

from .command import run_command
from .plan import MODES, Match, plan_matches
from .rating import elo, fit_bradley_terry
from .report import format_table, to_json
from .run import ArenaResult, MatchLine, arena
from .stats import ClusteredMean, clustered_mean, t_quantile

__all__ = ["arena", "ArenaResult", "MatchLine", "format_table", "to_json", "run_command",
           "plan_matches", "Match", "MODES", "fit_bradley_terry", "elo", "clustered_mean",
           "ClusteredMean", "t_quantile"]
