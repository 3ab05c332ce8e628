"""Super-weapons: claiming them and the pure parts of what each does
(rulebook "Super-Weapons", "Clarifications: Super-Weapons").

Pure: spaces and facings in, spaces and counts out; the ruleset resolves the
shots, damage and slams with Vendetta's effects.  Lines, neighbours and jumps
are the board's (``grid``: the game's ``state.board``, whose geometry is the
arena's; the plain grid unless told).
"""

from __future__ import annotations

from ..core import geometry
from ..core.rng import Rng
from ..vendetta.road import ROAD, Geometry
from . import arena
from .components import ArenaSide

Space = tuple[int, int]


def draw(deck: dict[str, int], rng: Rng) -> str:
    """The super-weapon card drawn from what is left of the deck."""
    return rng.weighted(deck)


def claims(has_weapon: bool, token_here: bool) -> bool:
    """A car that ENDS its movement on a super-weapon token collects it, on
    any turn; "A car cannot have more than one super-weapon" (the token stays)."""
    return token_here and not has_weapon


def shoots_normally(weapon: str | None) -> bool:
    """The Thwumper: "You cannot shoot with this car" (it may thwump instead)."""
    return weapon != "thwumper"


def laser_kebab_targets(side: ArenaSide, space: Space, facing: str, occupied: set[Space],
                        grid: Geometry = ROAD) -> list[Space]:
    """Laser Kebab: any car in a straight line from the front arc, not only the
    first, on a road tile too; the line ends at the edge of the board."""
    out = []
    for relative in geometry.FRONT_ARC:
        for s in grid.line(space, relative, facing):
            if arena.where(side, s) == "off":
                break
            if s in occupied:
                out.append(s)
    return out


def cluster_spaces(target: Space, occupied: set[Space], grid: Geometry = ROAD) -> list[Space]:
    """Cluster Missiles: each car adjacent to the target first takes a face-down damage token."""
    return [s for s in grid.arc(target, "F", geometry.DIRECTIONS) if s in occupied]


def big_friendly_gun_tokens(open_slots: int) -> tuple[int, int]:
    """Big Friendly Gun: (face-down tokens, normal tokens) a hit gives: with two
    open damage slots a face-down one first, then one as normal; else one as normal."""
    return (1, 1) if open_slots >= 2 else (0, 1)


def thwump(side: ArenaSide, space: Space, direction: str, distance: int,
           occupied: set[Space], grid: Geometry = ROAD) -> tuple[Space, str, list[Space]]:
    """The Thwumper: the car jumps ``distance`` (the stunt die) spaces in a
    straight line in any direction, ignoring the spaces between: (landing
    space, its outcome, spaces given a face-down damage token).  Landing on a
    car is a slam (no tokens); landing off the board eliminates."""
    landing = grid.reach(space, direction, distance)
    where = arena.where(side, landing)
    if where == "off":
        return landing, "eliminated", []
    if landing in occupied:
        return landing, "slam", []
    return landing, where, cluster_spaces(landing, occupied - {space}, grid)
