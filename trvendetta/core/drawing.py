"""How a board is drawn: the one registry of drawings, by the name a view's board gives.

A view's ``board`` entry (``trv show --json``) names the drawing it takes
(``drawing``; none named: ``road``), and a board declares that name
(``Board.drawing``: the road's ``road``, the Carnival's arena ``arena``).  A
drawing is registered here by whoever brings it: the pictures
(``trvendetta.pictures``) register the road of tiles, which draws whatever a
view's ``road`` and ``board`` entries declare; a ruleset or board that is not
a road of tiles registers its own from its own package (the Carnival's
``carnival/picture.py``), so the pictures never ask which ruleset or board
they draw.  Pure: a drawing turns a view into SVG text, on the one
:class:`~.layout.Layout` of hexagons or squares.
"""

from __future__ import annotations

from typing import Protocol

from .layout import Layout


class Drawing(Protocol):
    """How one kind of board is drawn: its spaces' layout and everything under the pieces."""

    def layout(self, view: dict) -> Layout: ...

    def background(self, view: dict, lay: Layout) -> str: ...


#: every drawing, by the name a view's board gives (``drawing``)
DRAWINGS: dict[str, Drawing] = {}


def register_drawing(name: str, drawing: Drawing) -> Drawing:
    """Make ``drawing`` the one a view's board names ``name`` (a plug-in board registers its own)."""
    DRAWINGS[name] = drawing
    return drawing


def drawing_named(name: str) -> Drawing:
    """The drawing registered as ``name``; a name no drawing has is a ValueError naming the known ones."""
    if name not in DRAWINGS:
        raise ValueError(f"the board is drawn as {name!r}, which no drawing is; drawings: {', '.join(DRAWINGS)}")
    return DRAWINGS[name]
