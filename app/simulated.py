"""``trv sim --store``: a simulated game played by bots and stored whole, in one save.

The simulator (``trvendetta.bots.simulate``) is pure; :func:`store_simulated`
has it note every action with its events and the state after it, and hands
the store the set-up, the steps and the states it already has (so the store
neither folds the game again nor re-reads it to snapshot it).  Until 1 Dec
2026 a wrapper of the ruleset noted them, and every call the simulator made
to the ruleset went through the wrapper's ``__getattr__`` (a tenth of a
stored game's time).
"""

from __future__ import annotations

from typing import Any

from trvendetta.bots import simulate
from trvendetta.store import GameStore


def store_simulated(store: GameStore, ruleset: Any, players: int, seed: int, bots: tuple[str, ...],
                    crew: Any = "", name: str | None = None) -> Any:
    """Play one game with ``bots`` (``trvendetta.bots.simulate``) and store it whole as ``name``
    (default ``sim-RULESET-Np-SEED``); the simulator's result."""
    events: list = []
    noted: list = []
    result = simulate(ruleset, players, seed, bots, crew, events_out=events, steps_out=noted)
    setup = events[: len(events) - sum(len(e) for _, e, _ in noted)]
    steps = [(action, new) for action, new, _ in noted]
    store.create_game(name or f"sim-{ruleset.name}-{players}p-{seed}", ruleset.name, setup, steps=steps,
                      state=noted[-1][2] if noted else None)
    return result
