"""Helpers shared by the ruleset test packages (vendetta, classic, carnival).

Each package's ``helpers.py`` names its ruleset and a base position; ``games``
gives it the three helpers every rules test uses, built on that base.
"""

from __future__ import annotations

import copy


def games(ruleset, base):
    """``(position, game, play)`` for ``ruleset`` starting from the position dict ``base``."""

    def position(**changes):
        """The position ``base`` with top-level ``changes``, read through the ruleset."""
        data = copy.deepcopy(base)
        data.update(changes)
        return ruleset.position_from_dict(data)

    def game(**changes):
        """A new game from the base position with ``changes``: (state, events)."""
        return ruleset.new_game(position(**changes))

    def play(state, *actions):
        """Apply actions in order; returns (state, events of all of them)."""
        out = []
        for action in actions:
            state, events = ruleset.apply(state, action)
            out += events
        return state, out

    return position, game, play
