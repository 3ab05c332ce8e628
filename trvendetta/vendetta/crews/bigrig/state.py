"""What the Big Rig keeps of its own: its player's round (Hydraulic Steering, the sections
used, damage still to place) and its turn (the section and command the die went to), and
how base Vendetta's set-up and damage pile treat its sections (001, The Big Rig)."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Any

import msgspec
from msgspec.structs import replace

from ... import board as b
from ... import parts
from . import sectionboard
from ...model import CrewPlayer, CrewTurn, Player, State, Turn, Vehicle

NAME = "bigrig"


@parts.state
class RigPlayer(msgspec.Struct, CrewPlayer, frozen=True, tag=NAME, tag_field="crew"):
    """The Big Rig's player: lane changes left on Hydraulic Steering, whether its die is set
    this round, the sections that took a die this round, minor damage tokens still to place."""

    steering: int = 0
    steering_set: bool = False
    sections_used: tuple[str, ...] = ()
    unplaced: int = 0

    def round_ended(self) -> "RigPlayer":
        return RigPlayer(unplaced=self.unplaced)  # damage to place stays; the round's steering goes


@parts.state
class RigTurn(msgspec.Struct, CrewTurn, frozen=True, tag=f"{NAME}-turn", tag_field="crew"):
    """The Big Rig's turn: the section and command the die went to (``active`` unless the
    command is damaged); the Cow Catcher ready for the first vehicle met; the Targeting
    Computer's reroll ready, and the shot it may reroll; the after-move command resolved."""

    section: str | None = None
    command: str | None = None
    active: bool = False
    cow: bool = False
    targeting: bool = False
    after_done: bool = False
    shot_target: str | None = None

    def moved(self, state: State, e: Any) -> State:
        """A lane change of the front section spends one of Hydraulic Steering's."""
        t = state.turn
        if e.how == "step" and e.direction != "F" and self.section is not None and t is not None and t.car == e.vehicle:
            p = next(p for p in state.players if p.name == t.player)
            return with_rig(state, t.player, steering=rig(p).steering - 1)
        return state

    def missed(self, state: State, e: Any) -> State | None:
        """A missed shot with the Targeting Computer ready waits for its reroll (``shot-reroll``)."""
        if not self.targeting:
            return None
        t = state.turn
        assert t is not None, "a shot of the turn"
        return replace(state, turn=replace(t, phase="shot-reroll", crew_state=replace(self, shot_target=e.target)))


NO_PLAYER, NO_TURN = RigPlayer(), RigTurn()


def rig(p: Player) -> RigPlayer:
    """Player ``p``'s Big Rig state (the default for a player of another crew)."""
    s = p.crew_state
    return s if isinstance(s, RigPlayer) else NO_PLAYER


def rig_turn(t: Turn) -> RigTurn:
    """The Big Rig's state of turn ``t`` (the default before its die went to a section)."""
    s = t.crew_state
    return s if isinstance(s, RigTurn) else NO_TURN


def is_rig(state: State, oid: str) -> bool:
    """A section of the Big Rig (001: The Big Rig): a vehicle of its kind, not a wreck."""
    return not b.is_wreck(oid) and b.vehicle(state, oid).kind.startswith(NAME)


def sections(state: State, name: str) -> dict:
    """The Big Rig of player ``name``: section (rear, mid, front) -> vehicle."""
    color = b.player(state, name).color
    return {s: b.vehicle(state, f"{color}-{s}") for s in ("rear", "mid", "front")}


def section_name(vid: str) -> str:
    return vid.rsplit("-", 1)[1]


def targetable_commands(state: State, vid: str) -> list[str]:
    """The commands a shot at section ``vid`` may name: undamaged, not Repair."""
    v = b.vehicle(state, vid)
    return [c for c in sectionboard.targetable(section_name(vid)) if c not in v.damage]


def damage_count(state: State, name: str) -> int:
    """Minor damage tokens on the rig: on its commands and still to be placed."""
    return sum(len(v.damage) for v in sections(state, name).values()) + rig(b.player(state, name)).unplaced


def with_rig(state: State, name: str, **changes: Any) -> State:
    """``state`` with player ``name``'s Big Rig state changed (and the player's own fields in ``player``)."""
    own = changes.pop("player", {})
    return replace(state, players=tuple(replace(p, crew_state=replace(rig(p), **changes), **own) if p.name == name
                                        else p for p in state.players))


def with_rig_turn(state: State, **changes: Any) -> State:
    """``state`` with the turn's Big Rig state changed (and the turn's own fields in ``turn``)."""
    t = state.turn
    assert t is not None, "a turn event outside a turn"
    own = changes.pop("turn", {})
    return replace(state, turn=replace(t, crew_state=replace(rig_turn(t), **changes), **own))


class RigFold(parts.CrewFold):
    """The Big Rig at set-up: its round state from the position, its three sections in one
    lane, each section's damage its damaged commands (never the damage pile's tokens)."""

    one_lane = True
    pile_damage = False

    def player(self, p: Player, pos: Any) -> Player:
        """A position's Big Rig round state (docs/positions.md): ``command_used`` = the
        steering die is set, the front section's ``momentum`` = lane changes left,
        a section's ``moved`` = it took a die this round."""
        listed = {v.id: v for v in pos.vehicles}
        front = listed.get(f"{p.color}-front")
        used = tuple(s for s in ("rear", "mid", "front") if getattr(listed.get(f"{p.color}-{s}"), "moved", False))
        return replace(p, command_used=False, crew_state=RigPlayer(
            steering=front.momentum if front is not None else 0, steering_set=p.command_used, sections_used=used))

    def vehicle(self, v: Vehicle, setup: Any, slots: int) -> Vehicle:
        return replace(v, damage=tuple(setup.damage), moved=setup.moved, momentum=setup.momentum)


FOLD = parts.crew_fold(NAME, RigFold())
PLAYER_FIELDS = ("steering", "steering_set", "sections_used", "unplaced")
TURN_FIELDS = ("section", "command", "active", "cow", "targeting", "after_done", "shot_target", "shot_command")


def _upcast_player(fields: dict) -> dict | None:
    """An old player's flat Big Rig fields: its state when its crew is the Big Rig."""
    own = {f: fields.pop(f) for f in PLAYER_FIELDS if f in fields}
    return {"crew": NAME, **own} if own and fields.get("crew") == NAME else None


def _upcast_turn(fields: dict) -> dict | None:
    """An old turn's flat Big Rig fields: its state once any says something (its die went to a
    section); ``shot_command`` was never set."""
    own = {f: fields.pop(f) for f in TURN_FIELDS if f in fields}
    own.pop("shot_command", None)
    return {"crew": f"{NAME}-turn", **own} if any(own.values()) else None


parts.upcast(_upcast_player, _upcast_turn)
