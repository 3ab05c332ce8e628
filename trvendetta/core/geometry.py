"""One geometry for every board (rules-facts.md section 1).

A space is ``(lane, y)``: ``lane`` counts across the road from the left edge
(0 = leftmost when facing forward), ``y`` counts *half-spaces* forward from the
rear edge of the road.  A space exists only where ``lane + y`` is even, so odd
lanes sit half a space forward of even lanes and every space has six
neighbours.

Human notation: lane letter + space number counted from the start of the road
(``c5``).  Numbers never restart, so a name means the same space all game.
Space number ``n`` of lane ``l`` is at ``y = 2 * (n - 1) + l % 2``; number 0
is the row just behind the road (Vendetta's starting area).
"""

from __future__ import annotations

import re
from typing import Final

from .errors import NotationError

#: The six directions in clockwise order, with their (lane, y) offsets when
#: facing ``F``.
DIRECTIONS: Final = ("F", "FR", "BR", "B", "BL", "FL")
OFFSETS: Final = {
    "F": (0, 2),
    "FR": (1, 1),
    "BR": (1, -1),
    "B": (0, -2),
    "BL": (-1, -1),
    "FL": (-1, 1),
}
FRONT_ARC: Final = ("FL", "F", "FR")
REAR_ARC: Final = ("BL", "B", "BR")
LANE_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"

Space = tuple[int, int]
"""A space as ``(lane, y)``.  Plain tuples: hashable, compact and fast."""

_NAME = re.compile(r"^([a-z])([0-9]{1,4})$")  # ASCII only: no Unicode digits (c\u0663 is not c3)


def is_space(lane: int, y: int) -> bool:
    """True when ``(lane, y)`` is a space of the staggered grid."""
    return (lane + y) % 2 == 0


def turn(facing: str, relative: str) -> str:
    """The absolute direction of ``relative`` for a vehicle facing ``facing``.

    >>> turn("B", "FL")
    'BR'
    """
    i = DIRECTIONS.index(facing) + DIRECTIONS.index(relative)
    return DIRECTIONS[i % 6]


def opposite(direction: str) -> str:
    """The direction pointing the other way (``F`` <-> ``B``)."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + 3) % 6]


def neighbour(space: Space, relative: str, facing: str = "F") -> Space:
    """The space one step from ``space`` in direction ``relative`` of ``facing``."""
    dl, dy = OFFSETS[turn(facing, relative) if facing != "F" else relative]
    return (space[0] + dl, space[1] + dy)


def arc(space: Space, facing: str = "F", directions: tuple[str, ...] = FRONT_ARC) -> list[Space]:
    """The spaces of an arc (front arc by default) of a vehicle at ``space``."""
    return [neighbour(space, d, facing) for d in directions]


def number(space: Space) -> int:
    """The space number within its lane, counted from 1 at the start of the road."""
    lane, y = space
    return (y - lane % 2) // 2 + 1


def at_number(lane: int, n: int) -> Space:
    """The space with number ``n`` in ``lane`` (inverse of :func:`number`)."""
    return (lane, 2 * (n - 1) + lane % 2)


def name(space: Space) -> str:
    """The human name of a space, ``c5`` style.

    >>> name((2, 8))
    'c5'
    """
    return f"{LANE_LETTERS[space[0]]}{number(space)}"


def parse(text: str) -> Space:
    """Parse a space name (``c5``); the inverse of :func:`name`.

    Raises :class:`NotationError` naming the input when it is not a space name.
    """
    m = _NAME.match(text.strip().lower()) if isinstance(text, str) and text.isascii() else None
    if not m:
        raise NotationError(f"{text!r} is not a space name; expected a lane letter and a number, like 'c5'")
    lane = LANE_LETTERS.index(m.group(1))
    return at_number(lane, int(m.group(2)))


def straight_line(space: Space, relative: str, facing: str = "F"):
    """Yield the spaces in a straight line from ``space`` (not including it)."""
    dl, dy = OFFSETS[turn(facing, relative)]
    lane, y = space
    while True:
        lane, y = lane + dl, y + dy
        yield (lane, y)
