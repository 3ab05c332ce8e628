"""Where things go on a picture: space names to pixels, for every grid a view declares.

Shared by the pictures (``trvendetta.pictures``) and the drawings a ruleset or
board brings of its own (:mod:`.drawing`; the Carnival's arena,
``carnival/picture.py``): pure arithmetic on names and numbers, no rule.

A view's ``board`` says how many lanes there are and which grid its spaces
form (``hex``: Vendetta's staggered road tiles, flat-topped hexagons whose
odd lanes sit half a space forward; ``brick``: the 1986 board's squares in a
brick pattern).  Both are the one staggered geometry of rules-facts.md s.1:
a space is ``(lane, y)`` in half-spaces, forward is up the picture.
"""

from __future__ import annotations

import math
import re

#: the six facings, clockwise from forward (core.geometry.DIRECTIONS)
DIRECTIONS = ("F", "FR", "BR", "B", "BL", "FL")
OFFSETS = {"F": (0, 2), "FR": (1, 1), "BR": (1, -1), "B": (0, -2), "BL": (-1, -1), "FL": (-1, 1)}
_NAME = re.compile(r"^([a-z])(-?\d{1,4})$")


def parse(name: str) -> tuple[int, int] | None:
    """``c5`` -> ``(2, 8)`` (core.geometry.parse, tolerant: None for anything else)."""
    m = _NAME.match(name) if isinstance(name, str) else None
    if not m:
        return None
    lane = ord(m.group(1)) - 97
    return lane, 2 * (int(m.group(2)) - 1) + lane % 2


def name(space: tuple[int, int]) -> str:
    lane, y = space
    return f"{chr(97 + lane)}{(y - lane % 2) // 2 + 1}"


class Layout:
    """Pixel positions of the spaces of a road running from half-space ``y_low``
    to ``y_high`` (inclusive), with a margin on the left for labels."""

    LEFT = 58  # room for tile names and space numbers
    TOP = 26  # room for the lane letters

    def __init__(self, grid: str, lanes: int, y_low: int, y_high: int):
        self.grid, self.lanes, self.y_low, self.y_high = grid, lanes, y_low, y_high
        if grid == "hex":
            self.r = 22.0  # centre to corner of a flat-topped hexagon
            self.hh = math.sqrt(3) / 2 * self.r  # half a space forward
            self.col = 1.5 * self.r
            self.cell_w = 2 * self.r
        else:  # brick (and anything else: squares are the safe reading)
            self.hh = 16.0
            self.col = 40.0
            self.cell_w = 40.0
        self.width = self.LEFT + self.cell_w + (lanes - 1) * self.col + 16
        self.height = self.TOP + (y_high - y_low + 2) * self.hh + 24

    def center(self, space: tuple[int, int]) -> tuple[float, float]:
        lane, y = space
        return (self.LEFT + self.cell_w / 2 + lane * self.col,
                self.TOP + (self.y_high - y + 1) * self.hh)

    def y_of(self, half: float) -> float:
        """The picture's y of a half-space line (for edges between tiles)."""
        return self.TOP + (self.y_high - half + 1) * self.hh

    def outline(self, space: tuple[int, int], inset: float = 1.0) -> str:
        """The SVG points of a space's outline."""
        cx, cy = self.center(space)
        if self.grid == "hex":
            r, h = self.r - inset, self.hh - inset * 0.87
            pts = [(r, 0), (r / 2, h), (-r / 2, h), (-r, 0), (-r / 2, -h), (r / 2, -h)]
        else:
            w, h = self.cell_w / 2 - inset, self.hh - inset
            pts = [(w, h), (-w, h), (-w, -h), (w, -h)]
        return " ".join(f"{cx + x:.1f},{cy + y:.1f}" for x, y in pts)

    def angle(self, facing: str) -> float:
        """Degrees clockwise from up of a vehicle facing ``facing``."""
        dl, dy = OFFSETS.get(facing, (0, 2))
        x0, y0 = self.center((1, 1))
        x1, y1 = self.center((1 + dl, 1 + dy))
        return math.degrees(math.atan2(x1 - x0, y0 - y1))

    @property
    def space_len(self) -> float:
        """The length of a space along the road (its room for a car)."""
        return 2 * self.hh


def lane_letters(lay: Layout) -> str:
    """The lane letters above the board."""
    return "".join(f'<text class="lbl" x="{lay.center((lane, 0))[0]:.1f}" y="{lay.TOP - 10}" '
                   f'text-anchor="middle">{chr(97 + lane)}</text>' for lane in range(lay.lanes))
