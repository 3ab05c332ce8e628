"""A greedy bot: the one-decision heuristic each ruleset declares.

The bot asks the ruleset to score every option of the pending decision
(``Ruleset.score_options``: Vendetta's rules are in ``vendetta/bot.py``,
classic's in ``classic/bot.py``) and takes the best, ties broken by the
seat's RNG.  A ruleset (or a decision kind) without a heuristic is answered
like the random bot: uniform over the legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.errors import TrvError
from ..core.protocol import Decision, Ruleset
from ..core.rng import Rng


class GreedyBot:
    """The best option by the ruleset's own heuristic; random where it has none."""

    name = "greedy"

    def choose(self, ruleset: Ruleset, state: Any, rng: Rng, decision: Decision | None = None) -> Any:
        decision = decision if decision is not None else ruleset.pending(state)
        if decision is None or not decision.options:
            raise TrvError("no decision is pending; a bot has nothing to choose")
        options = decision.options
        scores = self.scores(ruleset, state, decision)
        if scores is None:
            return rng.pick(options)
        top = max(scores)
        return rng.pick([a for s, a in zip(scores, options) if s == top])

    def scores(self, ruleset: Ruleset, state: Any, decision: Decision) -> Sequence[float] | None:
        """A score per option of ``decision`` (higher is better), or None (random): the
        ruleset's heuristic; a variant (``front.FrontBot``) changes some."""
        return ruleset.score_options(state, decision)

    def __repr__(self) -> str:
        return "GreedyBot()"
