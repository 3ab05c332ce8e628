"""Questions about the board: what is on a space, its terrain, the road's extent.

Pure reads of a :class:`State`; nothing here changes anything.
"""

from __future__ import annotations

from functools import lru_cache

from ..core import geometry
from .model import Space, State, Vehicle

SIZE_ORDER = {"S": 1, "M": 2, "L": 3}
WRECK_SIZE = "L"


@lru_cache(maxsize=4096)
def sq(name: str) -> Space:
    """Parse a space name (cached: events name spaces and are folded often)."""
    return geometry.parse(name)


@lru_cache(maxsize=4096)
def nm(space: Space) -> str:
    return geometry.name(space)


def start_space(lane: int) -> Space:
    """The starting area's virtual space for ``lane`` (number 0, behind the road)."""
    return geometry.at_number(lane, 0)


# (``2 * rows`` is ``Components.half``, written out: these run for nearly every event)
def rear_y(state: State) -> int:
    return 2 * state.components.rows * state.road[0].index


def front_y(state: State) -> int:
    """The first half-space beyond the lead tile."""
    return 2 * state.components.rows * (state.road[-1].index + 1)


def on_board(state: State, space: Space) -> bool:
    if state.seam is not None:
        return state.seam.on_board(state, space)
    lane, y = space
    return 0 <= lane < state.components.lanes and rear_y(state) <= y < front_y(state)


def tile_terrain(state: State, space: Space) -> str:
    """Terrain printed on the tile (or the position's fill/overrides)."""
    for at, kind in state.terrain:
        if at == space:
            return kind
    if state.fill == "road":
        return "road"
    lane, y = space
    c = state.components
    half = 2 * c.rows
    index = y // half
    tile = state.road[index - state.road[0].index]
    row = (y - half * index - lane % 2) // 2
    return c.sides[tile.side].terrain[row][lane]


def terrain(state: State, space: Space) -> str:
    """The terrain a vehicle meets: ``offboard``, ``start``, a revealed road or
    mud token's terrain, or the tile's terrain (another board's, through the
    state's seam: the arena)."""
    if state.seam is not None:
        return state.seam.terrain(state, space)
    lane, y = space
    if not 0 <= lane < state.components.lanes:
        return "offboard"
    if state.road and y < rear_y(state):
        if state.road[0].index == 0 and y >= rear_y(state) - 2:
            return "start"
        return "offboard"
    if state.road and y >= front_y(state):
        return "beyond"
    tok = token_at(state, space)
    if tok is not None and tok.face_up and tok.kind in ("road", "mud"):
        return tok.kind
    return tile_terrain(state, space)


def off_cause(state: State, space: Space) -> str:
    """Why a vehicle entering ``space`` (off the board) is eliminated."""
    if state.seam is not None:
        return state.seam.off_cause(state, space)
    return f"left the road {'at the side' if not 0 <= space[0] < state.components.lanes else 'at the rear'}"


def may_shoot_from(state: State, space: Space) -> bool:
    """Whether a vehicle (or chopper) on ``space`` may fire: anywhere on the
    road; in the arena only from an arena space (Carnival "Keep Cool")."""
    return state.seam is None or state.seam.may_shoot_from(state, space)


def token_at(state: State, space: Space):
    for t in state.tokens:
        if t.at == space:
            return t
    return None


def vehicle(state: State, vid: str) -> Vehicle:
    for v in state.vehicles:
        if v.id == vid:
            return v
    raise KeyError(vid)


def occupants(state: State, space: Space, exclude: str | None = None) -> list[str]:
    """Ids of the vehicles (not in the starting area) and wrecks on ``space``."""
    out = [v.id for v in state.vehicles if v.at == space and not v.start and v.id != exclude]
    out += [w.id for w in state.wrecks if w.at == space and w.id != exclude]
    return out


def position_of(state: State, oid: str) -> Space | None:
    for v in state.vehicles:
        if v.id == oid:
            return v.at
    for w in state.wrecks:
        if w.id == oid:
            return w.at
    return None


def is_wreck(oid: str) -> bool:
    return oid.startswith("wreck-")


def size_of(state: State, oid: str) -> str:
    return WRECK_SIZE if is_wreck(oid) else vehicle(state, oid).size


def facing_of(state: State, oid: str) -> str:
    return "F" if is_wreck(oid) else vehicle(state, oid).facing


def owner_of(state: State, oid: str) -> str | None:
    return None if is_wreck(oid) else vehicle(state, oid).owner


def player(state: State, name: str):
    for p in state.players:
        if p.name == name:
            return p
    raise KeyError(name)


def chopper_spaces(state: State) -> set[Space]:
    return {c.at for c in state.choppers if c.at is not None}


def front_arc_targets(state: State, space: Space, facing: str = "F", exclude: str | None = None) -> list[str]:
    """Vehicles and wrecks in the front arc of ``space`` (never choppers)."""
    out = []
    for sp in geometry.arc(space, facing):
        out += occupants(state, sp, exclude)
    return out


def is_motorcycle(state: State, oid: str) -> bool:
    """A Final Five motorcycle (001: Motorcycles), not a car or a wreck."""
    return not is_wreck(oid) and vehicle(state, oid).kind == "motorcycle"


def crew_of(state: State, name: str):
    """The crew data of player ``name``."""
    return state.components.crews[player(state, name).crew]


def is_rig(state: State, oid: str) -> bool:
    """A section of the Big Rig (001: The Big Rig)."""
    return not is_wreck(oid) and vehicle(state, oid).kind.startswith("bigrig")


def rig_sections(state: State, name: str) -> dict:
    """The Big Rig of player ``name``: section (rear, mid, front) -> vehicle."""
    color = player(state, name).color
    return {s: vehicle(state, f"{color}-{s}") for s in ("rear", "mid", "front")}


def section_name(vid: str) -> str:
    return vid.rsplit("-", 1)[1]


def rig_damage_count(state: State, name: str) -> int:
    """Minor damage tokens on the rig: on its commands and still to be placed."""
    return sum(len(v.damage) for v in rig_sections(state, name).values()) + player(state, name).unplaced


def live_players(state: State) -> list[str]:
    return [p.name for p in state.players if not p.out]


def has_operational(state: State, name: str) -> bool:
    return any(v.owner == name and v.status == "operational" for v in state.vehicles)


def road_bonus_open(state: State) -> bool:
    """Road die: the car started on road and moved only on road, no momentum;
    offered once the base moves are done."""
    t = state.turn
    return bool(t.road_ok and not t.road_taken and not t.momentum and not t.stopped and state.road_die)
