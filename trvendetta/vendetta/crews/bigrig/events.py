"""The Big Rig's own events: their types, how each reads, and what each does to the state."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import ClassVar

from msgspec.structs import replace

from ... import parts
from ...board import sq
from ...events import _Event
from ...evolve import _spend, _vehicle, handles, pop_script
from ...model import State, Token
from .state import rig, with_rig, with_rig_turn


class SteeringSet(_Event, tag="steering-set", frozen=True):
    """The Big Rig's first die of the round goes on Hydraulic Steering: that many lane changes."""

    player: str
    die: int


def _say_SteeringSet(e: SteeringSet) -> str:
    player = e.player
    die = e.die
    return f"{player} sets Hydraulic Steering to {die} (lane changes this round)"


parts.event(SteeringSet, describe=_say_SteeringSet)


@handles(SteeringSet)
def _steering(state: State, e: SteeringSet) -> State:
    p = next(p for p in state.players if p.name == e.player)
    return with_rig(state, e.player, steering=e.die, steering_set=True, player={"dice": _spend(p.dice, e.die)})


class SectionAssigned(_Event, tag="section-assigned", frozen=True):
    """The Big Rig: a die to a command of a section; ``active`` is False when the
    command is damaged (or an Air Attack in round 1): the die then only moves the rig."""

    player: str
    section: str
    command: str
    die: int
    active: bool


def _say_SectionAssigned(e: SectionAssigned) -> str:
    player = e.player
    section = e.section
    command = e.command
    die = e.die
    active = e.active
    return f"{player} assigns {die} to the {section} section's {command}" + ("" if active else " (it only moves)")


parts.event(SectionAssigned, describe=_say_SectionAssigned)


@handles(SectionAssigned)
def _section(state: State, e: SectionAssigned) -> State:
    p = next(p for p in state.players if p.name == e.player)
    state = with_rig(state, e.player, sections_used=rig(p).sections_used + (e.section,),
                     player={"dice": _spend(p.dice, e.die)})
    on = e.active
    phase = "airstrike-place" if on and e.command == "airstrike" else "command-done"
    return with_rig_turn(state, section=e.section, command=e.command, active=on, cow=on and e.command == "cow-catcher",
                         targeting=on and e.command == "targeting-computer",
                         turn={"car": f"{p.color}-front", "die": e.die, "phase": phase})


class SectionRepaired(_Event, tag="section-repaired", frozen=True):
    section: str
    command: str


def _say_SectionRepaired(e: SectionRepaired) -> str:
    section = e.section
    command = e.command
    return f"the {section} section's {command} is repaired"


parts.event(SectionRepaired, describe=_say_SectionRepaired)


@handles(SectionRepaired)
def _section_repaired(state: State, e: SectionRepaired) -> State:
    v = next(v for v in state.vehicles if v.id == e.section)
    damage = list(v.damage)
    damage.remove(e.command)
    return _vehicle(state, e.section, damage=tuple(damage))


class BigRigDamaged(_Event, tag="bigrig-damaged", frozen=True):
    """A minor damage token on the Big Rig: on ``command`` of ``section`` (a shot
    names it), or, when ``command`` is None, to be placed by the rig's player."""

    player: str
    section: str | None
    command: str | None
    cause: str


def _say_BigRigDamaged(e: BigRigDamaged) -> str:
    player = e.player
    section = e.section
    command = e.command
    cause = e.cause
    where = f"on the {section} section's {command}" if command else f"for {player} to place"
    return f"the Big Rig takes a minor damage token {where} ({cause})"


parts.event(BigRigDamaged, describe=_say_BigRigDamaged)


@handles(BigRigDamaged)
def _bigrig_damaged(state: State, e: BigRigDamaged) -> State:
    if e.command is None:
        p = next(p for p in state.players if p.name == e.player)
        return with_rig(state, e.player, unplaced=rig(p).unplaced + 1)
    assert e.section is not None, "a placed damage names its section"
    v = next(v for v in state.vehicles if v.id == e.section)
    return _vehicle(state, e.section, damage=v.damage + (e.command,))


class DamagePlaced(_Event, tag="damage-placed", frozen=True):
    player: str
    section: str
    command: str


def _say_DamagePlaced(e: DamagePlaced) -> str:
    player = e.player
    section = e.section
    command = e.command
    return f"{player} places the minor damage token on the {section} section's {command}"


parts.event(DamagePlaced, describe=_say_DamagePlaced)


@handles(DamagePlaced)
def _damage_placed(state: State, e: DamagePlaced) -> State:
    p = next(p for p in state.players if p.name == e.player)
    v = next(v for v in state.vehicles if v.id == e.section)
    return _vehicle(with_rig(state, e.player, unplaced=rig(p).unplaced - 1), e.section, damage=v.damage + (e.command,))


class CowCatcherMet(_Event, tag="cow-catcher-met", frozen=True):
    vehicle: str
    chooser: str


def _say_CowCatcherMet(e: CowCatcherMet) -> str:
    vehicle = e.vehicle
    chooser = e.chooser
    return f"the Cow Catcher meets {vehicle}; {chooser} moves it front left or front right"


parts.event(CowCatcherMet, describe=_say_CowCatcherMet)


@handles(CowCatcherMet)
def _cow_met(state: State, e: CowCatcherMet) -> State:
    return with_rig_turn(replace(state, cow=(e.vehicle, e.chooser)), cow=False)


class CowCatcherPush(_Event, tag="cow-catcher-push", frozen=True):
    player: str
    vehicle: str
    direction: str


def _say_CowCatcherPush(e: CowCatcherPush) -> str:
    player = e.player
    vehicle = e.vehicle
    direction = e.direction
    return f"{player} moves {vehicle} {direction} off the Cow Catcher"


parts.event(CowCatcherPush, describe=_say_CowCatcherPush)


@handles(CowCatcherPush)
def _cow_push(state: State, e: CowCatcherPush) -> State:
    return replace(state, cow=None)


class MissileLaunched(_Event, tag="missile-launched", frozen=True):
    """The Big Rig's Missile Launcher rolls the shot die."""

    reveals: ClassVar[bool] = True
    player: str
    at: str  # the space two in front of the front section
    face: str
    scripted: bool = False


def _say_MissileLaunched(e: MissileLaunched) -> str:
    player = e.player
    at = e.at
    face = e.face
    return f"{player}'s missile launcher fires at {at}; shot die: {face}"


parts.event(MissileLaunched, describe=_say_MissileLaunched)


@handles(MissileLaunched)
def _missile(state: State, e: MissileLaunched) -> State:
    return pop_script(with_rig_turn(state, after_done=True), "shot", e.scripted)


class HazardDispensed(_Event, tag="hazard-dispensed", frozen=True):
    player: str
    at: str | None  # None: the player placed no token


def _say_HazardDispensed(e: HazardDispensed) -> str:
    player = e.player
    at = e.at
    return f"{player}'s hazard dispenser drops a token face down at {at}" if at else f"{player} drops no hazard"


parts.event(HazardDispensed, describe=_say_HazardDispensed)


@handles(HazardDispensed)
def _dispensed(state: State, e: HazardDispensed) -> State:
    if e.at is not None:
        state = replace(state, tokens=state.tokens + (Token(sq(e.at)),))
    return with_rig_turn(state, after_done=True)


class ShotRerollChosen(_Event, tag="shot-reroll", frozen=True):
    player: str
    reroll: bool


def _say_ShotRerollChosen(e: ShotRerollChosen) -> str:
    player = e.player
    reroll = e.reroll
    return f"{player} {'rerolls the shot (Targeting Computer)' if reroll else 'keeps the shot'}"


parts.event(ShotRerollChosen, describe=_say_ShotRerollChosen)


@handles(ShotRerollChosen)
def _shot_reroll(state: State, e: ShotRerollChosen) -> State:
    return with_rig_turn(state, targeting=False, turn={"phase": "shoot" if e.reroll else "done"})
