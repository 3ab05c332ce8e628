"""Thunder Road (1986): the original game as the ``classic`` ruleset.

The switch-and-link board, three ranked cars and a chopper per player, yellow
movement dice, the black road die and red attack dice.  Pure rules: no I/O
except reading its own data files, no clock, no global randomness.
"""

from typing import Any

from ..core.protocol import Ruleset
from .rules import Classic

#: events that show something new beyond the rolls: a board laid from the pile, its wrecks
REVEALING_KINDS = frozenset({"board-linked", "wrecks-placed"})


def _reveals(self: Classic, event: Any) -> bool:
    """Rolls and scripted outcomes (the default), and every newly laid board and its wrecks."""
    return self.event_kind(event) in REVEALING_KINDS or Ruleset.reveals(self, event)


Classic.reveals = _reveals  # type: ignore[method-assign]

RULESET = Classic()

__all__ = ["RULESET", "Classic"]
