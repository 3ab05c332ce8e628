"""trvendetta: Thunder Road: Vendetta, its expansions and the 1986 Thunder Road,
as a pure rules engine (no I/O, no clock, no global randomness) and a library.

The public API (docs/library.md)::

    import trvendetta

    game = trvendetta.Game.new("vendetta", [("ann", "red"), ("bob", "blue")], seed=7)
    name, action = game.legal()[0]      # the pending decision's options, with their printed names
    game.play(name)                     # by name (or the action itself): the new events
    game.view()["pending"]              # the `trv show --json` document
    trvendetta.fold("vendetta", game.encoded()) == game.state   # a record's events fold to the state

Underneath, every game is a :class:`Ruleset` (found by name: :func:`load`,
:func:`ruleset_names`; a ruleset kept anywhere plugs in with :func:`register`).
"""

from .core.errors import NotationError, PositionError, RuleViolation, TrvError
from .core.protocol import Decision, Ruleset, Seat, Summary
from .game import Game, fold, load
from .rulesets import names as ruleset_names
from .rulesets import register

__version__ = "0.1.0"

__all__ = [
    "Decision", "Game", "NotationError", "PositionError", "RuleViolation", "Ruleset", "Seat", "Summary",
    "TrvError", "fold", "load", "register", "ruleset_names", "__version__",
]
