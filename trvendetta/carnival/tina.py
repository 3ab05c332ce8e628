"""Turbo Tina's deck and turn (rulebook "Setup" 6, "Tina's Turn", "Killer Pillars").

Pure: the ruleset gives the card she flips and where the cars are; these
functions say what her turn does, in the rulebook's order (spotlight,
killer pillars, decree).  No one gains scrap for eliminations on her turn
(``scrap.award`` with no active player).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import msgspec

from ..core.rng import Rng
from .components import ArenaSide, CarnivalComponents, TinaCard


class CarAt(msgspec.Struct, frozen=True):
    """A car on the board as Tina's turn sees it."""

    id: str
    owner: str
    at: tuple[int, int]
    operable: bool = True


class TinaTurn(msgspec.Struct, frozen=True):
    """What one of Tina's turns does: scrap per player for the spotlight, the
    pillars showing their impassable side afterwards, the cars they
    eliminate, and the decree in force until the end of next round."""

    card: str
    spotlight: dict[str, int]
    raised: tuple[str, ...]
    eliminated: tuple[str, ...]
    decree: str


def deal_deck(components: CarnivalComponents, rng: Rng) -> tuple[str, ...]:
    """Tina's draw pile: the cards shuffled, ``tina_deck`` (5) of them kept;
    "Return the rest to the box without looking at them"."""
    names = rng.shuffled([c.name for c in components.tina])
    return tuple(names[: components.game.tina_deck])


def card(components: CarnivalComponents, name: str) -> TinaCard:
    """The Tina card called ``name``."""
    return next(c for c in components.tina if c.name == name)


def resolve(side: ArenaSide, tina: TinaCard, cars: list[CarAt] | tuple[CarAt, ...]) -> TinaTurn:
    """Tina's turn with ``tina`` flipped:

    1. Spotlight: each player with at least one operable car on a spotlight
       space gains the card's scrap, once however many spotlights they hold;
    2. Killer pillars: the card's pillars flip to their impassable side and
       any car on them is eliminated (operable or not); all others flip to road;
    3. Decree: hers until the end of next round.
    """
    spotlights = set(side.spotlights)
    lit = sorted({c.owner for c in cars if c.operable and c.at in spotlights})
    raised_spaces = {side.pillars[p] for p in tina.pillars}
    crushed = tuple(sorted(c.id for c in cars if c.at in raised_spaces))
    return TinaTurn(tina.name, {p: tina.spotlight for p in lit}, tina.pillars, crushed, tina.decree)
