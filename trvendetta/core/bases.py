"""The bases every ruleset builds its vocabulary and its bot on.

* :class:`Strict`: a frozen record that refuses unknown fields when decoded
  (a position and its parts: a typo in a position file is an error, not a
  silently ignored key).
* :class:`BaseAction`: a player action, frozen, tagged by ``type`` (the tags
  are what ``trv legal --json`` prints and ``trv act`` reads back), strict.
  Events share the same shape in :class:`~trvendetta.core.events.BaseEvent`.
* :class:`Heuristics`: a greedy bot's scores, one method ``_<kind>`` per
  decision kind (``-`` read as ``_``); a kind without one has no heuristic
  and the bot answers it at random.

Subclassing changes no encoded byte: a struct encodes its own fields under
its own tag, whatever base it names.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Any

import msgspec

from .protocol import Decision


class Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every set-up record: frozen, strict when decoded."""


class BaseAction(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every player action: frozen, tagged by ``type``, strict when decoded."""


class Heuristics:
    """A ruleset's greedy heuristics for one decision: ``scores`` calls the
    method named after the decision's kind once per option."""

    def __init__(self, state: Any, decision: Decision):
        self.state = state
        self.decision = decision
        self.me = decision.player

    def scores(self) -> list[float] | None:
        """A score per option of the decision (higher is better); None for a
        decision kind with no heuristic."""
        handler = getattr(self, "_" + self.decision.kind.replace("-", "_"), None)
        if handler is None:
            return None
        return [handler(a) for a in self.decision.options]
