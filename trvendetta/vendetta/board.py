"""Questions about the board: what is on a space, its terrain, the road's extent.

Pure reads of a :class:`State`; nothing here changes anything.
"""

from __future__ import annotations

from functools import lru_cache

from ..core import geometry
from .model import Space, State, Vehicle
from .road import front_y, rear_y, tile_terrain, token_at  # noqa: F401 (read here by the rules and views)

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


def on_board(state: State, space: Space) -> bool:
    return state.board.on_board(state, space)


def terrain(state: State, space: Space) -> str:
    """The terrain a vehicle meets: ``offboard``, ``start``, a revealed road or
    mud token's terrain, or the tile's terrain (the state's board decides:
    ``road.Road`` or another, such as the arena)."""
    return state.board.terrain(state, space)


def off_cause(state: State, space: Space) -> str:
    """Why a vehicle entering ``space`` (off the board) is eliminated."""
    return state.board.off_cause(state, space)


def may_shoot_from(state: State, space: Space) -> bool:
    """Whether a vehicle (or chopper) on ``space`` may fire: anywhere on the
    road; in the arena only from an arena space (Carnival "Keep Cool")."""
    return state.board.may_shoot_from(state, space)


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
    for sp in state.board.arc(space, facing):
        out += occupants(state, sp, exclude)
    return out


def is_motorcycle(state: State, oid: str) -> bool:
    """A Final Five motorcycle (001: Motorcycles), not a car or a wreck."""
    return not is_wreck(oid) and vehicle(state, oid).kind == "motorcycle"


def crew_of(state: State, name: str):
    """The crew data of player ``name``."""
    c = state.components
    assert c is not None, "a game's components come with its first event"
    return c.crews[player(state, name).crew]


def live_players(state: State) -> list[str]:
    return [p.name for p in state.players if not p.out]


def has_operational(state: State, name: str) -> bool:
    return any(v.owner == name and v.status == "operational" for v in state.vehicles)


def road_bonus_open(state: State) -> bool:
    """Road die: the car started on road and moved only on road, no momentum;
    offered once the base moves are done."""
    t = state.turn
    assert t is not None, "the road die is offered in a turn"
    return bool(t.road_ok and not t.road_taken and not t.momentum and not t.stopped and state.road_die)
