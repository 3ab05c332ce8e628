"""Setting up a Carnival game (rulebook "Setup"), as events.

Vendetta's set-up with the rulebook's changes: the arena side and three
road tiles in the foundation board's slots (``foundation.choose_tiles``),
face-down party favors instead of hazards (``foundation.favor_spaces``),
super-weapon tokens on their spaces, killer pillars road side up; each car
waits behind a different road tile (``evolve._start_of``).  Tina's cards
are drawn when she flips them (``tina_turn``).  Then Vendetta's last steps:
initiative, the road die, round 1 and the first turn (``rules.begin``).
"""

from __future__ import annotations

from ..core.rng import Rng
from ..vendetta import rules
from ..vendetta.board import nm
from ..vendetta.context import Ctx
from . import events as cev
from . import evolve  # noqa: F401  (registers the Carnival event handlers)
from . import foundation
from .components import CarnivalComponents
from .model import CarnivalState
from .position import CarnivalPosition

#: 2: mid-effect favors, favor decisions blind to which favors are held, the
#: super-weapons' follow-ups, the Auto-Cannon after moving (``extras.v2``);
#: 3: Killer Pillar also before Shrapnel's line and before the Thwumper lands,
#: Double Barrel's shot with the super-weapon or the Thwumper (``extras.v3``);
#: 4: Bootleg Turn never ends on a car, the Thwumper rolls before it aims, favors after the
#: shot, Precision's stunt die under Let's Get Wild!, the Energizer after any hit, scripted
#: roll-offs (``extras.v4``);
#: 5: a declined shot ends the car's shooting, so every turn ends (``extras.v5``)
RULES_VERSION = "5"


def start(position: CarnivalPosition, components: CarnivalComponents, rng: Rng | None = None,
          rules_version: str = RULES_VERSION, private_favors: bool | None = None) -> list:
    """Every set-up event of a new game from a validated position (under
    ``rules_version``: a recorded game is set up again under its own).  ``private_favors``
    (None: whenever the dice are a host's, whose RNG has a favor key): the host deals the
    favors face down (``favors.deck``)."""
    ctx = Ctx(CarnivalState(), rng if rng is not None else Rng.for_action(position.seed, 0))
    if private_favors is None:
        private_favors = getattr(rng, "favor_key", None) is not None and not position.favors
    ctx.emit(cev.CarnivalStarted(position, rules_version, components, private_favors))
    c = components
    tiles = position.tiles or foundation.choose_tiles(c.vendetta, ctx.rng)
    if not position.tiles:
        ctx.emit(cev.TilesLaid(tiles))
    if position.favor_tokens is None:
        spaces = foundation.favor_spaces(c.sides[position.side], c.vendetta, tiles)
        ctx.emit(cev.FavorsPlaced(tuple(nm(s) for s in spaces)))
    rules.begin(ctx, position)
    return ctx.events
