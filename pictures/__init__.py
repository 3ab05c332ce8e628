"""Pictures of a game: the board as SVG (``trv show --svg``) and the
self-contained HTML replay viewer (``trv replay --html``).

Shell code: pure functions of a ruleset's view (the ``trv show --json``
document) and of the events' sentences; nothing here knows a rule.
"""

from __future__ import annotations

from typing import Any

from trvendetta.core.layout import parse
from .svg import Last, Scene, scene, svg

__all__ = ["Last", "Scene", "last_of", "scene", "svg"]


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def last_of(ruleset: Any, view: dict, number: int, events: list[Any], sentence: str) -> Last:
    """What to highlight after event ``number``: the vehicles and the spaces that
    ``events`` (the last action's, or the one event) name in their fields."""
    import msgspec

    ids = {v["id"] for v in view.get("vehicles") or ()}
    vehicles, spaces = set(), set()
    for event in events:
        for s in _strings(msgspec.to_builtins(event)):
            if s in ids:
                vehicles.add(s)
            elif parse(s) is not None:
                spaces.add(s)
    return Last(number, sentence, frozenset(vehicles), frozenset(spaces))
