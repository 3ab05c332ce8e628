"""What a seat may not see of a Vendetta game, drawn again (``Vendetta.determinize``).

A face-down hazard or damage token has no kind in the state (it is drawn when
revealed), so the state hides only two things: the seed the coming dice and
draws derive from, and the road pieces in the draw pile under the top one (the
top piece's side shows; the others' order and sides do not).  A determinization
replaces both with draws from the given RNG: the same pieces, shuffled, each on
a random side.  Pure.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..core.rng import Rng
from .model import State


def determinize(state: State, rng: Rng) -> State:
    """``state`` with the hidden road pieces shuffled (each on a random side) and a new seed."""
    pile = state.tile_pile
    c = state.components
    if c is not None and len(pile) > 1:
        tiles = c.tiles()
        under = [rng.pick(tiles[tile]) for tile in rng.shuffled(sorted(c.sides[side].tile for side in pile[1:]))]
        pile = pile[:1] + tuple(under)
    return replace(state, tile_pile=pile, seed=rng.below(1 << 62))
