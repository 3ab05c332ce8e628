"""Bots and simulation (pure: the standard library and msgspec only).

* :class:`Bot`: ``choose(ruleset, state, rng) -> action`` for the pending decision;
* :class:`RandomBot` (every ruleset) and :class:`GreedyBot` (Vendetta; random elsewhere);
* :func:`get_bot` / :func:`bot_names`: the registry;
* :func:`simulate` (one game), :func:`run_many` (many, optionally in parallel),
  :func:`sim_summary_text` (the printed summary).
"""

from __future__ import annotations

from .base import Bot, RandomBot, bot_names, get_bot
from .greedy import GreedyBot
from .sim import GameResult, SimSummary, Stats, new_position, run_many, seat_name, sim_summary_text, simulate, summarize

__all__ = [
    "Bot", "RandomBot", "GreedyBot", "bot_names", "get_bot", "GameResult", "SimSummary", "Stats",
    "new_position", "run_many", "seat_name", "sim_summary_text", "simulate", "summarize",
]
