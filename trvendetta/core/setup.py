"""Checks every ruleset's position (set-up) shares: names, seats, space names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from . import geometry
from .errors import PositionError

#: a player's name or colour: short, typeable, safe in a file name
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]


def check_seats(ruleset: str, given: str, players: Sequence[Any], title: str, low: int = 2, high: int = 4) -> None:
    """The position is for ``ruleset``; ``low``-``high`` players with distinct names and colours."""
    if given != ruleset:
        raise PositionError("ruleset", f"{given!r} is not {ruleset!r}")
    n = len(players)
    if not low <= n <= high:
        raise PositionError("players", f"{n} players; {title} is for {low} to {high}")
    if len({p.name for p in players}) != n:
        raise PositionError("players", "two players share a name")
    if len({p.color for p in players}) != n:
        raise PositionError("players", "two players share a color")


def parse_space(text: str, field: str) -> tuple[int, int]:
    """A space name (``c5``) from a position field; PositionError names the field."""
    try:
        return geometry.parse(text)
    except Exception:
        raise PositionError(field, f"{text!r} is not a space name (like 'c5')") from None
