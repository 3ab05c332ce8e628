"""Where a space of the foundation board lies, looked up fast (rules read it often).

``arena.where`` and ``arena.slot_of`` answer by scanning the side; the rules
ask for every step, shot and slam, so this keeps one dictionary per side.
The start: a car waiting to enter stands behind a slot's road tile, on the
row just behind its row 1 (like Vendetta's starting area behind the rear
piece), facing the tile's forward.
"""

from __future__ import annotations

from ..core import geometry
from .components import SLOT_LANES, ArenaSide, Slot

Space = tuple[int, int]

#: id(side) -> (side, {space: "arena" | slot number}, {start space: slot number})
_CACHE: dict[int, tuple[ArenaSide, dict[Space, str | int], dict[Space, int]]] = {}


def _maps(side: ArenaSide) -> tuple[dict[Space, str | int], dict[Space, int]]:
    hit = _CACHE.get(id(side))
    if hit is not None and hit[0] is side:
        return hit[1], hit[2]
    board: dict[Space, str | int] = {s: "arena" for s in side.arena}
    starts: dict[Space, int] = {}
    for slot in side.slots:
        for s in slot.spaces:
            board[s] = slot.number
        for lane in start_lanes(slot):
            starts[start_space(slot, lane)] = slot.number
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(side)] = (side, board, starts)
    return board, starts


def start_space(slot: Slot, lane: int) -> Space:
    """The space behind lane ``lane`` of a slot's row 1, where a car waits to enter."""
    return geometry.neighbour(slot.spaces[lane], "B", slot.forward)


def start_lanes(slot: Slot) -> list[int]:
    """The slot's lanes whose start space is a named space of the grid (a slot
    at the board's left edge has no start space beyond lane a)."""
    return [lane for lane in range(SLOT_LANES) if 0 <= start_space(slot, lane)[0] < len(geometry.LANE_LETTERS)]


def where(side: ArenaSide, space: Space) -> str:
    """``arena``, ``road`` (a road tile), ``start`` (behind a road tile) or ``off``."""
    board, starts = _maps(side)
    here = board.get(space)
    if here is None:
        return "start" if space in starts else "off"
    return "arena" if here == "arena" else "road"


def slot_number(side: ArenaSide, space: Space) -> int | None:
    """The slot of a road-tile space or of a start space behind it."""
    board, starts = _maps(side)
    here = board.get(space)
    return starts.get(space) if here is None else (None if isinstance(here, str) else here)  # str: "arena"


def slot(side: ArenaSide, number: int) -> Slot:
    return next(s for s in side.slots if s.number == number)
