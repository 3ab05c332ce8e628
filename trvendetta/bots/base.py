"""The bot protocol and the random bot (the registry is ``bots.registry``).

A bot answers the one pending decision of a game: ``choose(ruleset, state,
rng)`` returns one of ``ruleset.legal_actions(state)``.  Bots are pure: the
only chance they use is the :class:`~trvendetta.core.rng.Rng` they are given
(seeded by the caller, one stream per seat), so a game played by bots is
reproducible from its seed alone.  A bot never looks ahead by applying
actions: the engine's dice are derived from the game seed, so applying would
peek at the future.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..core.errors import TrvError
from ..core.protocol import Decision, Ruleset
from ..core.rng import Rng


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal action for the pending decision."""

    name: str

    def choose(self, ruleset: Ruleset, state: Any, rng: Rng, decision: Decision | None = None) -> Any:
        """One of ``ruleset.legal_actions(state)``; ``decision`` is
        ``ruleset.pending(state)`` when the caller already has it."""
        ...


class RandomBot:
    """Uniform over ``ruleset.legal_actions(state)``; works for every ruleset."""

    name = "random"

    def choose(self, ruleset: Ruleset, state: Any, rng: Rng, decision: Decision | None = None) -> Any:
        options = decision.options if decision is not None else ruleset.legal_actions(state)
        if not options:
            raise TrvError("no decision is pending; a bot has nothing to choose")
        return rng.pick(options)

    def __repr__(self) -> str:
        return "RandomBot()"
