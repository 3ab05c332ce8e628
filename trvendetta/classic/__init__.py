"""Thunder Road (1986): the original game as the ``classic`` ruleset.

The switch-and-link board, three ranked cars and a chopper per player, yellow
movement dice, the black road die and red attack dice.  Pure rules: no I/O
except reading its own data files, no clock, no global randomness.
"""

from ..rulesets import register
from .rules import Classic

RULESET = register(Classic())

__all__ = ["RULESET", "Classic"]
