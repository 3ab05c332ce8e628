"""What a position may say of the Big Rig (docs/positions.md): each section's damaged commands,
its facing and lane changes left, and the three sections standing as a train."""

from __future__ import annotations

from ....core.errors import PositionError
from ....core.setup import parse_space
from ... import components as comp
from ... import parts
from . import sectionboard
from ...position import CrewCheck, Position, PlayerSetup, VehicleSetup
from ...road import Geometry

NAME = "bigrig"


class RigCheck(CrewCheck):
    """The Big Rig's sections in a position."""

    one_a_game = True

    def vehicle(self, field: str, v: VehicleSetup, spec: comp.Crew) -> None:
        """A section lists its damaged commands, each once, among those a shot may name; it faces F;
        only the front's momentum is used (lane changes left on Hydraulic Steering, 0 to 3)."""
        section = v.id.rsplit("-", 1)[1]
        allowed = sectionboard.targetable(section)
        if len(set(v.damage)) != len(v.damage) or any(t not in allowed for t in v.damage):
            raise PositionError(f"{field}.damage", f"the {section} section's damaged commands, each once, among "
                                                   f"{', '.join(allowed)}")
        if v.facing != "F":
            raise PositionError(f"{field}.facing", "the Big Rig faces F")
        if not 0 <= v.momentum <= (3 if section == "front" else 0):
            raise PositionError(f"{field}.momentum", "only the front section's momentum is used: lane changes left "
                                                     "on Hydraulic Steering, 0 to 3")

    def crew(self, pos: Position, p: PlayerSetup, board: Geometry) -> None:
        """The Big Rig's sections are listed all three or none, and stand as a train:
        all in the starting area, or each section next to the one in front of it (on
        ``board``: a ring road's lanes wrap)."""
        listed = {v.id.rsplit("-", 1)[1]: v for v in pos.vehicles if v.id.startswith(p.color + "-")}
        if not listed:
            return
        if len(listed) != 3:
            raise PositionError("vehicles", f"list all three sections of {p.color}'s Big Rig (rear, mid, front), or none")
        where = [listed[s].at for s in ("rear", "mid", "front")]
        if any(w == "eliminated" for w in where):
            if not all(w == "eliminated" for w in where):
                raise PositionError("vehicles", "the Big Rig's sections are eliminated together")
            return
        if all(w == "start" for w in where):
            return
        spaces = [parse_space(w, "vehicles.at") for w in where]
        for behind, ahead, name in ((spaces[0], spaces[1], "rear"), (spaces[1], spaces[2], "mid")):
            if behind not in [board.neighbour(ahead, d, "F") for d in ("B", "BL", "BR", "FL", "FR")]:
                raise PositionError("vehicles", f"{p.color}-{name} must stand next to the section in front of it "
                                                f"({', '.join(where)}, rear to front)")


CHECK = parts.crew_check(NAME, RigCheck())
