"""How the Big Rig is shown: its :class:`~trvendetta.vendetta.crew.Looks`.

Kept apart from its rules (``rules.py``), which import the deciding code:
drawing a game imports only this (tests/cli/test_show_startup.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import crew as crews
from .state import rig, section_name

if TYPE_CHECKING:  # for the type checker only
    from ...model import Player, Vehicle


class Rig(crews.Looks):
    """The Big Rig: its sections ``<``, ``=``, ``>`` (rear, mid, front); its Hydraulic
    Steering, the sections used this round and the damage still to place; each
    section's damaged commands."""

    SIGNS = {"bigrig-rear": "<", "bigrig-mid": "=", "bigrig-front": ">"}

    def player(self, p: Player) -> dict:
        own = rig(p)
        return {"steering": own.steering, "steering_set": own.steering_set, "sections_used": list(own.sections_used),
                "damage_to_place": own.unplaced}

    def vehicle(self, v: Vehicle) -> dict:
        return {"section": section_name(v.id), "damaged_commands": list(v.damage), "moved": False, "momentum": 0}

    def sign(self, v: Vehicle) -> str:
        return self.SIGNS.get(v.kind, v.size)

    def dashboard(self, p: Player) -> str:
        own = rig(p)
        return (f"  steering: {own.steering if own.steering_set else 'to set'}  sections used: "
                f"{', '.join(own.sections_used) or '-'}" + (f"  damage to place: {own.unplaced}" if own.unplaced else ""))

    def vehicle_line(self, v: Vehicle, where: str) -> str:
        dmg = ", ".join(f"{c} damaged" for c in v.damage) or "no damage"
        return f"    {v.id:<16} {where:<6} {v.status:<12} {dmg}"


RIG = crews.register_looks("bigrig", Rig())
