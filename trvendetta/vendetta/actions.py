"""Player actions: each answers the one pending decision (tagged msgspec structs).

Tags are stable strings; ``trv legal --json`` prints these objects and
``trv act`` reads them back.  Names are imperative, as a player says them.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Any

from ..core.bases import BaseAction
from . import parts


class AssignDie(BaseAction, tag="assign", frozen=True):
    """Assign a movement die to an operational car (or to its momentum)."""

    car: str
    die: int
    momentum: bool = False


class Pass(BaseAction, tag="pass", frozen=True):
    """Give up the turn when no car can take a die (the lowest die is spent)."""


class NoCommand(BaseAction, tag="no-command", frozen=True):
    """Use no command this turn."""


class UseCommand(BaseAction, tag="command", frozen=True):
    """Assign a second die to a command: nitro, drift, repair or airstrike."""

    command: str
    die: int
    target: str | None = None  # the car to repair


class PlaceChopper(BaseAction, tag="place-chopper", frozen=True):
    """Air Attack: put the chopper on an empty space."""

    at: str


class Step(BaseAction, tag="step", frozen=True):
    """Move one space into the front arc: FL, F or FR."""

    direction: str


class RoadBonus(BaseAction, tag="road-bonus", frozen=True):
    """Take (or decline) the road die bonus once the base moves are done."""

    take: bool


class Shoot(BaseAction, tag="shoot", frozen=True):
    """Fire at a vehicle or wreck in the front arc (of the car, or of the chopper)."""

    target: str


class NoShoot(BaseAction, tag="no-shoot", frozen=True):
    """Do not fire."""


class SlamReroll(BaseAction, tag="slam-reroll", frozen=True):
    """The larger vehicle's owner rerolls both slam dice (once) or accepts them."""

    reroll: bool


class SlamMove(BaseAction, tag="slam-move", frozen=True):
    """A slam between two of your motorcycles: choose the one that moves (001: Slamming)."""

    vehicle: str


#: base Vendetta's action types (a crew's own are registered from its package: ``vendetta/crews``)
OWN = (AssignDie, Pass, NoCommand, UseCommand, PlaceChopper, Step, RoadBonus, Shoot, NoShoot, SlamReroll, SlamMove)
for _cls in OWN:
    parts.action(_cls)


def __getattr__(name: str) -> type[Any]:
    """``Action``: the union of every registered action type (``parts.actions``); any other
    name: a crew's action type of that name (``actions.SetSteering``), for the rules that use it."""
    if name == "Action":
        return parts.actions()
    return parts.named("actions", name)


def describe_action(action: Any) -> str:
    """The printed name of an action (what ``trv decide`` matches)."""
    match action:
        case AssignDie(car, die, momentum):
            return f"assign {die} to {car}" + (" momentum" if momentum else "")
        case Pass():
            return "pass"
        case NoCommand():
            return "no-command"
        case UseCommand(command, die, target):
            return f"{command} {die}" + (f" {target}" if target else "")
        case PlaceChopper(at):
            return f"chopper {at}"
        case Step(direction):
            return direction
        case RoadBonus(take):
            return "road-die" if take else "no-road-die"
        case Shoot(target):
            return f"shoot {target}"
        case NoShoot():
            return "no-shoot"
        case SlamReroll(reroll):
            return "reroll" if reroll else "accept"
        case SlamMove(vehicle):
            return f"move {vehicle}"
    own = parts.ACTIONS.get(type(action))
    if own is not None:  # a crew's own action
        return own(action)
    if hasattr(action, "describe"):  # another ruleset's own action (Carnival's favors, weapons)
        return action.describe()
    raise TypeError(f"not a Vendetta action: {action!r}")
