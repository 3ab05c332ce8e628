"""``trv sim --store``: a simulated game played by bots and stored whole, in one save.

The simulator (``trvendetta.bots.simulate``) is pure; :func:`store_simulated`
plays one game through a :class:`Recording` of the ruleset, which notes every
action with its events and the state after it, and hands the store the
set-up, the steps and the states it already has (so the store neither folds
the game again nor re-reads it to snapshot it).
"""

from __future__ import annotations

from typing import Any

from trvendetta.bots import simulate
from trvendetta.store import GameStore


class Recording:
    """The ruleset, noting every (action, events) it applies so the store records the actions."""

    def __init__(self, ruleset: Any):
        self._ruleset = ruleset
        self.steps: list[tuple[Any, list]] = []
        #: the state after each action (the store takes the last instead of folding the game again,
        #: and snapshots the game on its way from the others)
        self.states: list[Any] = []
        self.state: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def apply(self, state: Any, action: Any) -> tuple[Any, list]:
        state, events = self._ruleset.apply(state, action)
        self.steps.append((action, events))
        self.states.append(state)
        self.state = state
        return state, events


def store_simulated(store: GameStore, ruleset: Any, players: int, seed: int, bots: tuple[str, ...],
                    crew: Any = "cars", name: str | None = None) -> Any:
    """Play one game with ``bots`` (``trvendetta.bots.simulate``) and store it whole as ``name``
    (default ``sim-RULESET-Np-SEED``); the simulator's result."""
    recording = Recording(ruleset)
    events: list = []
    result = simulate(recording, players, seed, bots, crew, events_out=events)
    setup = events[: len(events) - sum(len(e) for _, e in recording.steps)]
    store.create_game(name or f"sim-{ruleset.name}-{players}p-{seed}", ruleset.name, setup, steps=recording.steps,
                      state=recording.state, states=recording.states)
    return result
