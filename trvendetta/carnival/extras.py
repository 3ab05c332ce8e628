"""What the turn being played has used of the Carnival's extras, and the decree in force.

Read by the arena board and the turn's rules alike (``board.py``, ``turn.py``, ``offers.py``); the
state keeps one :class:`TurnExtras`, which counts only for the turn it names.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

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
    cannon_after: bool = False  # ... after moving, in the shoot step (the car may still shoot as normal)
    shots: int = 0  # shots after moving (In the Mood for Mayhem! allows two)
    passed: str = ""  # the player played no more favors before moving
    done: tuple[str, ...] = ()  # rules v4: the cars whose turn's favors after shooting were passed


#: the stage of ``favors-passed`` after a car's shots (rules v4): ``after-shooting:CAR``
AFTER_SHOOTING = "after-shooting:"


def extras(state) -> TurnExtras:
    """What this turn has used so far (empty at the start of a turn, and between turns)."""
    e = state.extras
    if state.turn is not None and (e.round, e.number) == (state.round, state.turn_number):
        return e
    return TurnExtras(state.round, state.turn_number)


def v2(state) -> bool:
    """The game follows rules version 2 or later (set up by this trv): Killer
    Pillar and Precision in the middle of a slam or damage effect, favor
    decisions that do not depend on which favors are held, the super-weapons'
    follow-ups after a pause, the Auto-Cannon after moving, a second shot under
    In the Mood for Mayhem! with the super-weapon or the Thwumper.  A game recorded
    under version 1 keeps version 1's rules (its record re-executes as it was
    played: ``setup.start`` is given the recorded version)."""
    return state.rules_version not in ("", "1")


def v3(state) -> bool:
    """The game follows rules version 3 or later: Killer Pillar (and Precision)
    also in the middle of Shrapnel, before its line is searched, and of the
    Thwumper's jump, before it lands; Double Barrel's shot before moving with
    the super-weapon, or the Thwumper's jump.  A version 2 record would
    re-execute differently (a pause it never answered), so it keeps version 2."""
    return state.rules_version not in ("", "1", "2")


def v4(state) -> bool:
    """The game follows rules version 4 or later: Bootleg Turn moves through cars but never ends
    on one (a slam, as for a drift or a motorcycle); the Thwumper's stunt die is rolled before
    its direction is chosen (``jump``); favors such as Killer Pillar after the shot ("at any
    time on your turn"); a stunt die Precision set is never rerolled under Let's Get Wild!; the
    Energizer acts again after any hit on another car; a roll-off takes scripted movement dice.
    A version 3 record would re-execute differently, so it keeps version 3."""
    return state.rules_version not in ("", "1", "2", "3")


def v5(state) -> bool:
    """The game follows rules version 5 or later: declining a shot after moving ends the car's
    shooting, after an Auto-Cannon shot in the shoot step too (under In the Mood for Mayhem!
    version 4 offered the second shot again after every decline, a turn that need never end),
    and the shot named as the one In the Mood for Mayhem! follows is the car's own first, not the
    Auto-Cannon's.  A version 4 record may hold such repeated declines, so it keeps version 4."""
    return state.rules_version not in ("", "1", "2", "3", "4")


def decree_now(state) -> str | None:
    """The decree in force this round, or None ("until the end of next round")."""
    return state.decree if decrees.in_force(state.decree_round, state.round) else None
