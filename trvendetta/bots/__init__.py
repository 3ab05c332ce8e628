"""Bots and simulation (pure: the standard library and msgspec only).

* :class:`Bot`: ``choose(ruleset, state, rng) -> action`` for the pending decision;
* :class:`RandomBot` and :class:`GreedyBot` (each ruleset's own heuristic,
  ``Ruleset.score_options``; random where a ruleset has none);
* :func:`get_bot` / :func:`bot_names`: the registry (``bots.registry``), and
  :func:`seat_name_problem`: the names no bot seat takes;
* :func:`simulate` (one game), :func:`run_many` (many, optionally in parallel),
  :func:`sim_summary_text` (the printed summary).
"""

from __future__ import annotations

from .base import Bot, RandomBot
from .greedy import GreedyBot
from .registry import RESERVED_SEAT_NAMES, bot_names, get_bot, seat_name_problem
from .sim import GameResult, SimSummary, Stats, new_position, run_many, seat_name, sim_summary_text, simulate, summarize

__all__ = [
    "Bot", "RandomBot", "GreedyBot", "RESERVED_SEAT_NAMES", "bot_names", "get_bot", "seat_name_problem", "GameResult", "SimSummary", "Stats",
    "new_position", "run_many", "seat_name", "sim_summary_text", "simulate", "summarize",
]
