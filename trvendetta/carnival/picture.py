"""The Carnival of Chaos arena, drawn from a view's ``board["arena"]``: the
drawing the arena's board names (``ArenaBoard.drawing``, ``arena``), registered
with the drawings (``core/drawing.py``) when the Carnival's view is imported.

A board that declares ``arena`` is not a road of tiles one after another: it
lists its own spaces (the hexagons of ``data/carnival/arena.txt``, on the one
staggered grid of rules-facts.md s.1), the three road tiles in their slots,
the killer pillars A-I (raised: impassable), the spotlights and the
party-favor and super-weapon spaces.  Spaces are drawn with the same
:class:`~.layout.Layout` hexagons as the road, so vehicles, tokens and
highlights land on them through the usual drawing code.
"""

from __future__ import annotations

from html import escape

from ..core.drawing import register_drawing
from ..core.layout import Layout, lane_letters, parse

ARENA_FILL = "#ece3cc"
ROAD_FILL = "#d9d4c7"
SPOTLIGHT_FILL = "#fff1a8"
#: a road tile's terrain: the patterns every picture's ``<defs>`` holds (``pictures/svg.py``)
#: terrain dark enough that a space's name is written light on it (mud's brown, impassable's hatching)
DARK = ("mud", "impassable")
TERRAIN_FILL = {"offroad": "url(#offroad)", "mud": "url(#mud)", "impassable": "url(#impassable)"}
#: the printed mark of an arena space of each kind
#: the size of a space's name (in the picture's pixels): the hexagon's top holds three letters of it
LABEL_PX = 10
MARKS = {"spotlights": ("spotlight", "S", SPOTLIGHT_FILL), "favors": ("favor", "P", ARENA_FILL),
         "weapons": ("weapon", "W", ARENA_FILL)}


def spaces_of(board: dict) -> list[tuple[int, int]]:
    """Every space the arena picture must hold: arena, road tiles, and where
    the cars waiting behind a road tile stand."""
    arena = board.get("arena") or {}
    names = list(arena.get("spaces") or ())
    for slot in arena.get("slots") or ():
        names += slot.get("spaces") or ()
    names += (board.get("start_spots") or {}).values()
    return [sp for sp in map(parse, names) if sp is not None]


def layout(board: dict) -> Layout:
    spaces = spaces_of(board) or [(0, 0)]
    return Layout("hex", max(s[0] for s in spaces) + 1, min(s[1] for s in spaces), max(s[1] for s in spaces))


def _hexagon(lay: Layout, name: str, fill: str, cls: str, extra: str = "") -> str:
    sp = parse(name)
    if sp is None:
        return ""
    return (f'<polygon class="{cls}" data-at="{escape(name)}"{extra} points="{lay.outline(sp)}" fill="{fill}" '
            f'stroke="#8d877a" stroke-width="0.8"/>')


def _text(lay: Layout, name: str, text: str, cls: str = "mark", ink: str = "#555") -> str:
    sp = parse(name)
    if sp is None:
        return ""
    cx, cy = lay.center(sp)
    return f'<text class="{cls}" x="{cx:.1f}" y="{cy:.1f}" fill="{ink}">{escape(text)}</text>'


def label(lay: Layout, name: str, ink: str = "#555") -> str:
    """The space's name (``m17``, what ``trv turn`` and ``trv legal`` call it), at the top of
    its hexagon, clear of the mark or token at its centre, at the size of the road's row
    numbers (``.lbl``, 10px: readable where the picture is shown at its own size), on a halo of
    the opposite shade (readable on mud and off-road too)."""
    halo = "#222" if ink == "#ddd" else "#fff"
    sp = parse(name)
    if sp is None:
        return ""
    cx, cy = lay.center(sp)
    return (f'<text class="lbl space-name" data-at="{escape(name)}" x="{cx:.1f}" y="{cy - lay.hh * 0.8:.1f}" '
            f'text-anchor="middle" dominant-baseline="central" style="font-size:{LABEL_PX}px;fill:{ink};'
            f'stroke:{halo};stroke-width:2.4px;stroke-opacity:.75;paint-order:stroke">{escape(name)}</text>')


def _beside(lay: Layout, tile: list[tuple[float, float]], arena: list[tuple[float, float]]) -> tuple[float, float, str]:
    """Where a road tile's name goes: beside the tile, off its spaces (where tokens and cars
    stand), on the side of it that faces down the picture, or its left for a tile that runs
    up and down; and the text's anchor."""
    import math

    x = sum(c[0] for c in tile) / len(tile)
    y = sum(c[1] for c in tile) / len(tile)
    ax = sum(c[0] for c in arena) / len(arena) if arena else x
    ay = sum(c[1] for c in arena) / len(arena) if arena else y - 1
    dx, dy = x - ax, y - ay
    norm = math.hypot(dx, dy) or 1.0
    px, py = -dy / norm, dx / norm  # across the tile
    if abs(py) < 0.3:  # a tile running up and down: its left
        px, py = (-abs(px), 0.0)
    elif py < 0:
        px, py = -px, -py
    reach = max(abs((cx - x) * px + (cy - y) * py) for cx, cy in tile) + lay.space_len * 0.75
    anchor = "end" if px < -0.3 else "start" if px > 0.3 else "middle"
    return x + px * reach, y + py * reach, anchor


#: about how wide a character of a tile's name is drawn (11px bold sans-serif)
CHAR_WIDTH = 7.0


def _inside(lay: Layout, x: float, anchor: str, text: str) -> float:
    """``x`` moved so that ``text`` drawn there with ``anchor`` stays on the board's side of the
    picture: never into the side strip of dashboards (from ``lay.width``) nor off its left edge."""
    width = CHAR_WIDTH * len(text)
    left = {"start": x, "end": x - width}.get(anchor, x - width / 2)
    shift = min(0.0, lay.width - 4 - (left + width)) or max(0.0, 4 - left)
    return x + shift


def background(board: dict, lay: Layout) -> str:
    """The arena: its spaces (spotlights lit, favor and weapon spaces marked),
    the road tiles with their names, and the killer pillars, raised ones
    hatched impassable with an upper-case letter, lowered ones lower case;
    every space, arena and road tile alike, carries its name."""
    arena = board.get("arena") or {}
    kinds = {n: kind for kind, names in (board.get("terrain") or {}).items() for n in names}
    out = ['<g class="arena">']
    for slot in arena.get("slots") or ():
        names = list(slot.get("spaces") or ())
        out.append(f'<g class="road-tile" data-slot="{slot.get("number")}" '
                   f'data-tile="{escape(str(slot.get("tile", "")))}" data-forward="{escape(str(slot.get("forward")))}">')
        out.extend(_hexagon(lay, n, TERRAIN_FILL.get(kinds.get(n, ""), ROAD_FILL), "space",
                            f' data-terrain="{escape(kinds.get(n, "road"))}"') for n in names)
        out.extend(label(lay, n, "#ddd" if kinds.get(n) in DARK else "#555") for n in names)
        centres = [lay.center(sp) for sp in map(parse, names) if sp is not None]
        if centres:
            x, y, anchor = _beside(lay, centres, [lay.center(sp) for sp in map(parse, arena.get("spaces") or ())
                                                  if sp is not None])
            text = f'{slot.get("number")}: {slot.get("tile", "")}'
            x = _inside(lay, x, anchor, text)
            out.append(f'<text class="tile" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(text)}</text>')
        out.append("</g>")
    marks = {n: k for k in MARKS for n in arena.get(k) or ()}
    pillars = {n: letter for letter, n in (arena.get("pillars") or {}).items()}
    raised = set(arena.get("raised") or ())
    for n in arena.get("spaces") or ():
        if n in pillars:
            letter = pillars[n]
            up = letter in raised
            out.append(_hexagon(lay, n, "url(#impassable)" if up else ARENA_FILL, "pillar",
                                f' data-letter="{letter}" data-raised="{str(up).lower()}"'))
            out.append(_text(lay, n, letter if up else letter.lower(), ink="#fff" if up else "#555"))
        elif n in marks:
            cls, mark, fill = MARKS[marks[n]]
            out.append(_hexagon(lay, n, fill, cls))
            out.append(_text(lay, n, mark, ink="#b08f4a"))
        else:
            out.append(_hexagon(lay, n, ARENA_FILL, "space"))
        out.append(label(lay, n, "#ddd" if pillars.get(n) in raised else "#555"))
    out.append("</g>")
    return "".join(out)


class ArenaDrawing:
    """The spaces a board's ``arena`` entry declares."""

    def layout(self, view: dict) -> Layout:
        return layout(view["board"])

    def background(self, view: dict, lay: Layout) -> str:
        return background(view["board"], lay) + lane_letters(lay)


ARENA = register_drawing("arena", ArenaDrawing())
