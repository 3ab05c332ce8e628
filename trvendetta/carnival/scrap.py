"""Scrap, the coin of the realm (rulebook "Scrap", "Damage & Eliminations",
"Witness Me!").

The ruleset reports what happened on a turn as :class:`Happening` values, in
order; :func:`award` says how much scrap the active player gains for one of
them.  Pure: no state, only the game's numbers (``GameRules``).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Literal

import msgspec

from .components import GameRules


class Happening(msgspec.Struct, frozen=True):
    """One thing that happened on a turn: a car ``owner``'s gained a damage
    token, or was eliminated; or the active player shot or slammed
    (``attack``, owner None).  A damage that gave no token (the car was
    already inoperable) is not a happening: "no scrap is awarded"."""

    kind: Literal["damage", "elimination", "attack"]
    owner: str | None = None


def award(active: str | None, happening: Happening, rules: GameRules, witness_me: bool = False) -> int:
    """Scrap the active player gains for one happening.

    - 2 each time an opposing car gains a damage token on your turn, 3 each
      time one is eliminated; "it doesn't matter what causes" it, "if it
      happens on YOUR turn, and it's NOT your car, YOU get the scrap";
    - with Witness Me! played, 1 more each time you shoot or slam;
    - none on Tina's turn (``active`` None): "No one gains scrap if a car is
      damaged or eliminated during Tina's Turn".
    """
    if active is None:
        return 0
    if happening.kind == "attack":
        return rules.scrap_per_witnessed_attack if witness_me else 0
    if happening.owner == active:
        return 0
    return rules.scrap_per_damage if happening.kind == "damage" else rules.scrap_per_elimination


def turn_scrap(active: str | None, happenings: list[Happening] | tuple[Happening, ...], rules: GameRules,
               witness_me: bool = False) -> int:
    """The scrap of a whole turn: the awards stack ("if an opposing car takes
    one damage and is eliminated on your turn, you get 5 scrap total")."""
    return sum(award(active, h, rules, witness_me) for h in happenings)
