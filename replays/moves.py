"""The walker's visitor that collects a record's live actions for its move text
(``replays.notation`` writes and reads that text and needs no walker)."""

from __future__ import annotations

from typing import Any

from .notation import movetext
from .walker import Group, Visitor, Walker


class MovesVisitor(Visitor):
    """Collects the live actions (round, player, action) of a walk."""

    needs_event_state = False  # reads only the groups

    def __init__(self, since: int = 0):
        self.since = since
        self.groups: list[Group] = []

    def on_action(self, walker: Walker, record: Any, group: Group) -> None:
        self.groups.append(group)

    def on_retraction(self, walker: Walker, record: Any, retraction: Any, group: Group) -> None:
        if self.groups and self.groups[-1] is group:
            self.groups.pop()

    def text(self, ruleset: Any) -> str:
        return movetext(ruleset, [g for g in self.groups if g.first > self.since])
