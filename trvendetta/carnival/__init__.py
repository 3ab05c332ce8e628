"""Thunder Road: Vendetta - Carnival of Chaos (rules: shared/seeds/002_*.txt).

Exports ``RULESET``, registered as ``carnival``: Vendetta's rules played in
the arena (``ruleset.py``).  The arena's component data (``components``)
and the pure rules it is built from (``arena``, ``foundation``, ``scrap``,
``tina``, ``decrees``, ``favors``, ``weapons``, ``scoring``, ``render``)
plug into Vendetta's rules through the state's board (``board.py``);
docs/architecture.md "Carnival of Chaos" tells how.
"""

from __future__ import annotations

from ..rulesets import register
from .ruleset import Carnival

RULESET = register(Carnival())
