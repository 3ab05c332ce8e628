"""The Big Rig's own actions and how each is named (what ``trv decide`` matches)."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from ....core.bases import BaseAction
from ... import parts


class SetSteering(BaseAction, tag="steering", frozen=True):
    """The Big Rig: the round's first die on Hydraulic Steering (lane changes)."""

    die: int


def _say_SetSteering(a: SetSteering) -> str:
    die = a.die
    return f"steering {die}"


parts.action(SetSteering, describe=_say_SetSteering)


class AssignSection(BaseAction, tag="assign-section", frozen=True):
    """The Big Rig: a die to a command of a section not used this round."""

    section: str
    command: str
    die: int


def _say_AssignSection(a: AssignSection) -> str:
    section = a.section
    command = a.command
    die = a.die
    return f"assign {die} to {section} {command}"


parts.action(AssignSection, describe=_say_AssignSection)


class ShootCommand(BaseAction, tag="shoot-command", frozen=True):
    """Fire at a Big Rig section, naming an undamaged command it may hit."""

    target: str
    command: str


def _say_ShootCommand(a: ShootCommand) -> str:
    target = a.target
    command = a.command
    return f"shoot {target} {command}"


parts.action(ShootCommand, describe=_say_ShootCommand)


class PlaceDamage(BaseAction, tag="place-damage", frozen=True):
    """The Big Rig's player places a minor damage token on an undamaged command."""

    section: str
    command: str


def _say_PlaceDamage(a: PlaceDamage) -> str:
    section = a.section
    command = a.command
    return f"damage {section} {command}"


parts.action(PlaceDamage, describe=_say_PlaceDamage)


class CowCatcher(BaseAction, tag="cow-catcher", frozen=True):
    """Move the vehicle the Cow Catcher met to the rig's front left or front right."""

    direction: str


def _say_CowCatcher(a: CowCatcher) -> str:
    direction = a.direction
    return f"cow-catcher {direction}"


parts.action(CowCatcher, describe=_say_CowCatcher)


class DispenseHazard(BaseAction, tag="dispense-hazard", frozen=True):
    """Hazard Dispenser: a random token face down on an empty space of the rear arc (or none)."""

    at: str | None = None


def _say_DispenseHazard(a: DispenseHazard) -> str:
    at = a.at
    return f"hazard {at}" if at else "no-hazard"


parts.action(DispenseHazard, describe=_say_DispenseHazard)


class RerollShot(BaseAction, tag="reroll-shot", frozen=True):
    """Targeting Computer: reroll the shot (or keep it)."""

    reroll: bool


def _say_RerollShot(a: RerollShot) -> str:
    reroll = a.reroll
    return "reroll-shot" if reroll else "keep-shot"


parts.action(RerollShot, describe=_say_RerollShot)
