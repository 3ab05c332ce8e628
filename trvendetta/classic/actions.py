"""Player actions: each answers the one pending decision (tagged msgspec structs).

Tags are stable strings; ``trv legal --json`` prints these objects and
``trv act`` reads them back.  Names are imperative, as a player says them.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Union

from ..core.bases import BaseAction


class Repair(BaseAction, tag="repair", frozen=True):
    """Double sixes: get one of your wrecked cars (still on a board) running again."""

    car: str


class NoRepair(BaseAction, tag="no-repair", frozen=True):
    """Double sixes, but repair nothing."""


class AssignDie(BaseAction, tag="assign", frozen=True):
    """Use one yellow die for one running car (``road``: add the black die and keep to the road)."""

    car: str
    die: int
    road: bool = False


class Step(BaseAction, tag="step", frozen=True):
    """Move the car one space: F, FL or FR."""

    direction: str


class Stay(BaseAction, tag="stay", frozen=True):
    """Do not crash through a wreck: the car is blocked and does not move this turn."""


class Ram(BaseAction, tag="ram", frozen=True):
    """Ram the opponent's car sharing the space the car landed on."""

    car: str
    target: str


class Shoot(BaseAction, tag="shoot", frozen=True):
    """Shoot at the opponent's car one space ahead of the car."""

    car: str
    target: str


class ChopperAttack(BaseAction, tag="chopper", frozen=True):
    """Fly the chopper to an opponent's running car and attack it."""

    target: str


class EndTurn(BaseAction, tag="end-turn", frozen=True):
    """Make no more attacks this turn."""


Action = Union[Repair, NoRepair, AssignDie, Step, Stay, Ram, Shoot, ChopperAttack, EndTurn]


def describe_action(action: Action) -> str:
    """The printed name of an action (what ``trv decide`` matches)."""
    match action:
        case Repair(car):
            return f"repair {car}"
        case NoRepair():
            return "no-repair"
        case AssignDie(car, die, road):
            return f"assign {die}{'+road' if road else ''} to {car}"
        case Step(direction):
            return direction
        case Stay():
            return "stay"
        case Ram(car, target):
            return f"ram {target} with {car}"
        case Shoot(car, target):
            return f"shoot {target} with {car}"
        case ChopperAttack(target):
            return f"chopper {target}"
        case EndTurn():
            return "end-turn"
    raise TypeError(f"not a classic action: {action!r}")
