"""What a position may say of the Final Five (docs/positions.md): a motorcycle's damage."""

from __future__ import annotations

from ....core.errors import PositionError
from ... import parts
from ...position import CrewCheck, VehicleSetup

NAME = "finalfive"


class BikesCheck(CrewCheck):
    """The Final Five's motorcycles in a position: one minor damage token makes one inoperable."""

    one_a_game = True

    def damage(self, field: str, v: VehicleSetup) -> None:
        if len(v.damage) > 1 or any(t != "minor" for t in v.damage):
            raise PositionError(f"{field}.damage", "a motorcycle holds at most one damage token, 'minor'")


CHECK = parts.crew_check(NAME, BikesCheck())
