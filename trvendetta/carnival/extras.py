"""What the turn being played has used of the Carnival's extras, and the decree in force.

Read by the seam and the turn's rules alike (``seam.py``, ``turn.py``); the
state keeps one :class:`TurnExtras`, which counts only for the turn it names.
"""

from __future__ import annotations

import msgspec

from . import decrees


class TurnExtras(msgspec.Struct, frozen=True):
    """What the turn ``(round, number)`` has used of the Carnival's extras (a
    state whose turn differs reads it as empty: ``turn.extras``)."""

    round: int = 0
    number: int = 0
    witness: bool = False  # Witness Me! played this turn
    precision: dict[str, str] = {}  # FX die -> the face Precision set it to, until it is used
    bootleg: bool = False
    cannon: bool = False  # the Auto-Cannon's shot taken
    shots: int = 0  # shots after moving (In the Mood for Mayhem! allows two)
    passed: str = ""  # the player played no more favors before moving


def extras(state) -> TurnExtras:
    """What this turn has used so far (empty at the start of a turn, and between turns)."""
    e = state.extras
    if state.turn is not None and (e.round, e.number) == (state.round, state.turn_number):
        return e
    return TurnExtras(state.round, state.turn_number)


def decree_now(state) -> str | None:
    """The decree in force this round, or None ("until the end of next round")."""
    return state.decree if decrees.in_force(state.decree_round, state.round) else None
