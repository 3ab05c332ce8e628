"""The foundation board with its three road tiles (rulebook "Setup" 1-3).

Pure: which Vendetta road-tile side lies in each slot, the terrain of any
board space, and the spaces that get a face-down party favor at set-up.
"""

from __future__ import annotations

from ..core.rng import Rng
from ..vendetta.components import Components
from .components import SLOT_ROWS, ArenaSide

Space = tuple[int, int]


def choose_tiles(vendetta: Components, rng: Rng) -> tuple[str, ...]:
    """Three road-tile sides, one per slot, from three different physical
    tiles, each showing a random side ("Choose 3 road tiles ... You can use
    any road tiles on any sides"; the starting piece is one of them)."""
    tiles = vendetta.tiles()
    numbers = rng.shuffled(sorted(tiles))[:3]
    return tuple(rng.pick(tiles[n]) for n in numbers)


def terrain(side: ArenaSide, vendetta: Components, tiles: tuple[str, ...], space: Space) -> str | None:
    """The terrain of a board space: every arena space is road (a raised
    killer pillar is checked apart: ``arena.impassable``); a road-tile space
    has its tile's terrain (its row and lane on the tile); None off the board."""
    if space in side.arena:
        return "road"
    for slot, name in zip(side.slots, tiles):
        if space in slot.spaces:
            lane, row = slot.local(space)
            return vendetta.sides[name].terrain[row][lane]
    return None


def favor_spaces(side: ArenaSide, vendetta: Components, tiles: tuple[str, ...]) -> tuple[Space, ...]:
    """The spaces that get a face-down party favor at set-up: each marked
    party-favor space of the arena and each hazard space of the road tiles
    (a starting tile's too, "regardless of player count"), except those in
    the rows under the arena board."""
    out = list(side.favors)
    for slot, name in zip(side.slots, tiles):
        for lane, row, _need in vendetta.sides[name].hazards:
            if row < SLOT_ROWS:
                out.append(slot.spaces[row * 6 + lane])
    return tuple(sorted(out))
