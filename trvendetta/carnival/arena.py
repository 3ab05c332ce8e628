"""Driving in the arena: pure queries on one side of the arena board
(rulebook "Entering the Arena", "Keep Cool Till We Get There", "Driving in
the Arena", "Leaving the Arena", "Direction Die", "Killer Pillars").

Every function takes the :class:`ArenaSide` (from the game's components) and
plain spaces and facings; nothing here knows a game state, so the arena
board (``board.py``) calls these from its move, slam and shot hooks.  A space is one of:
an arena space, a space of a road tile in a slot, or off the board.
"""

from __future__ import annotations

from typing import Literal

from ..core import geometry
from ..core.errors import RuleViolation
from .components import ArenaSide, Slot

Space = tuple[int, int]
Where = Literal["arena", "road", "off"]


def where(side: ArenaSide, space: Space) -> Where:
    """Whether ``space`` is in the arena, on a road tile, or off the board."""
    if space in _arena(side):
        return "arena"
    return "road" if slot_of(side, space) is not None else "off"


def slot_of(side: ArenaSide, space: Space) -> Slot | None:
    """The road-tile slot a space belongs to, if any."""
    for slot in side.slots:
        if space in slot.spaces:
            return slot
    return None


def _arena(side: ArenaSide) -> frozenset[Space]:
    return frozenset(side.arena)


def impassable(side: ArenaSide, raised: tuple[str, ...] | frozenset[str]) -> set[Space]:
    """The spaces of the killer pillars showing their impassable side."""
    return {side.pillars[p] for p in raised}


def facing_after_active_step(side: ArenaSide, facing: str, relative: str, to: Space) -> str:
    """The facing of an active car after one step of its own move ("Driving in
    the Arena"): moving into an arena space that is NOT straight forward turns
    it to face the direction it moved (its rear to the space it left), and so
    does moving from a road tile into the arena; on a road tile a car keeps
    its facing, as in the standard game."""
    if where(side, to) != "arena" or relative == "F":
        return facing
    return geometry.turn(facing, relative)


def active_steps(side: ArenaSide, space: Space, facing: str,
                 raised: tuple[str, ...] | frozenset[str] = ()) -> dict[str, tuple[Space, str, str]]:
    """The steps an active car may choose: relative direction -> (space, facing
    after the step, outcome), outcome ``arena``, ``road`` or ``eliminated``
    (off an edge with no road tile, or onto a raised killer pillar: legal but
    fatal, as a careful player may still choose it).  A step from the arena
    back onto a road tile is not offered ("You may NOT deliberately move an
    active car from the arena back onto a road tile")."""
    out: dict[str, tuple[Space, str, str]] = {}
    here = where(side, space)
    blocked = impassable(side, raised)
    for relative in geometry.FRONT_ARC:
        to = geometry.neighbour(space, relative, facing)
        there = where(side, to)
        if here == "arena" and there == "road":
            continue
        outcome = "eliminated" if there == "off" or to in blocked else there
        out[relative] = (to, facing_after_active_step(side, facing, relative, to), outcome)
    return out


def check_active_step(side: ArenaSide, space: Space, facing: str, relative: str,
                      raised: tuple[str, ...] | frozenset[str] = ()) -> tuple[Space, str, str]:
    """The step ``relative`` of an active car, or a RuleViolation naming the legal ones."""
    steps = active_steps(side, space, facing, raised)
    if relative not in steps:
        to = geometry.neighbour(space, relative, facing)
        why = ("a car may not deliberately drive from the arena back onto a road tile"
               if relative in geometry.FRONT_ARC and where(side, to) == "road"
               else f"{relative} is not in the front arc")
        raise RuleViolation("leaving-the-arena", f"cannot step {relative} from {geometry.name(space)}: {why}",
                            [f"{r} to {geometry.name(s)}" for r, (s, _, _) in steps.items()])
    return steps[relative]


def slammed_facing(top_facing: str) -> str:
    """"Whenever a car slams another car, immediately turn the bottom car to
    face in the same direction as the top car" (before the slam resolves)."""
    return top_facing


def may_shoot_from(side: ArenaSide, space: Space) -> bool:
    """"A vehicle may ONLY shoot while it is on the arena board", even after
    round 1 ("Keep Cool Till We Get There"); its target may be on a road tile."""
    return where(side, space) == "arena"


def entry_slots(side: ArenaSide, entered: tuple[int, ...], final_five: bool = False) -> tuple[int, ...]:
    """The road tiles (slot numbers) a player's next car may make its first
    move of round 1 onto, given the slots its earlier cars first moved onto,
    in order: one "that you have not previously moved a car onto".  With
    ``final_five`` (a crew whose ``Crew.enters_tiles_again``), once every tile
    was entered on the next vehicles take different tiles again: the Final
    Five's first three motorcycles take three different tiles and the last
    two "any two different road boards" ("Entering the Arena", "Big Rig Final 5")."""
    slots = tuple(s.number for s in side.slots)
    taken = entered[len(slots):] if final_five and len(entered) >= len(slots) else entered
    return tuple(n for n in slots if n not in taken)


def drive(side: ArenaSide, space: Space, facing: str, path: tuple[str, ...] | list[str],
          raised: tuple[str, ...] | frozenset[str] = ()) -> tuple[Space, str, str, int]:
    """An active car's move along ``path`` (relative steps, each checked by
    :func:`check_active_step`, each turning the car as it goes): the space
    and facing it ends on, the outcome of its last step, and the steps taken
    (the move stops where the car is eliminated)."""
    outcome: str = where(side, space)
    for taken, relative in enumerate(path, 1):
        space, facing, outcome = check_active_step(side, space, facing, relative, raised)
        if outcome == "eliminated":
            return space, facing, outcome, taken
    return space, facing, outcome, len(path)
