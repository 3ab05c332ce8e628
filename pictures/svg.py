"""The board as people know it, drawn as SVG from a ruleset's view.

One drawing code for ``trv show --svg`` and the HTML replay viewer: both draw
the ``trv show --json`` document (``ruleset.view(state)``), never the state,
so nothing here knows a rule and every ruleset draws through the seam.  The
view's ``board`` entry declares the grid (hex tiles or brick squares), the
terrain, printed marks, the Finish Line and the starting area, and names
the drawing it takes (``drawing``, the board's ``Board.drawing``: the road
of tiles here unless it names another, which the board's own package
registers with ``core/drawing.py``, as the Carnival's arena does in
``carnival/picture.py``), so no code here asks which ruleset or board it draws.

:func:`scene` cuts the picture into pieces (the road, each token, each
vehicle, each dashboard...), so the viewer stores each distinct piece once
and a frame is a list of pieces; :func:`svg` joins them into a document.

Players are told apart by a letter on every car and a shape beside their
name, not by colour alone (grey-scale prints, colour-blind readers).
"""

from __future__ import annotations

import math
import threading
from html import escape
from typing import Any, NamedTuple

import msgspec

from trvendetta.core.drawing import Drawing, drawing_named, register_drawing
from trvendetta.core.layout import Layout, lane_letters, parse

#: fills for the colours players choose; anything else is drawn grey
PALETTE = {
    "red": "#d7301f", "blue": "#2166ac", "green": "#1a9850", "yellow": "#f6c700", "black": "#252525",
    "white": "#f7f7f7", "orange": "#f07b12", "purple": "#7b3294", "magenta": "#c51b7d", "pink": "#f49ac2",
    "cyan": "#35b8c9", "brown": "#8c510a", "grey": "#8a8a8a", "gray": "#8a8a8a",
}
_LIGHT = {"yellow", "white", "pink", "cyan", "orange"}
#: a second mark per seat, drawn beside the name and on choppers
SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "star")
TERRAIN_FILL = {"road": "#d9d4c7", "offroad": "url(#offroad)", "mud": "url(#mud)",
                "impassable": "url(#impassable)", "desert": "url(#desert)"}
CAR_LENGTH = {"S": 0.58, "M": 0.74, "L": 0.9}
STRIP = 300  # width of the side strip

DEFS = """<defs>
<pattern id="offroad" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#b7c98f"/>\
<circle cx="2" cy="2" r="1.2" fill="#6d7f45"/><circle cx="6" cy="6" r="1.2" fill="#6d7f45"/></pattern>
<pattern id="desert" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#e9d3a0"/>\
<circle cx="3" cy="5" r="1" fill="#b08f4a"/></pattern>
<pattern id="mud" width="10" height="8" patternUnits="userSpaceOnUse"><rect width="10" height="8" fill="#9c7a4f"/>\
<path d="M0 4 q2.5 -3 5 0 t5 0" stroke="#5a4026" stroke-width="1.2" fill="none"/></pattern>
<pattern id="impassable" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#4a4a4a"/>\
<path d="M0 8 L8 0 M0 0 L8 8" stroke="#1b1b1b" stroke-width="1.5"/></pattern>
</defs>
<style>
text{font-family:sans-serif}
.lbl{font-size:10px;fill:#555}
.tile{font-size:11px;fill:#333;font-weight:bold}
.mark{font-size:13px;font-weight:bold;text-anchor:middle;dominant-baseline:central}
.dash{font-size:12px;fill:#111}
.small{font-size:10.5px;fill:#333}
</style>"""


class Scene(NamedTuple):
    """A picture cut into pieces: ``width``/``height`` in pixels and SVG fragments."""

    width: float
    height: float
    pieces: list[str]


class Last(NamedTuple):
    """What to highlight: the event's number, its sentence, and the vehicles and
    spaces it names (found by the shell in the event's fields)."""

    number: int
    sentence: str
    vehicles: frozenset[str] = frozenset()
    spaces: frozenset[str] = frozenset()


def fill_of(color: str) -> str:
    return PALETTE.get(str(color).lower(), "#8a8a8a")


def ink_on(color: str) -> str:
    return "#000" if str(color).lower() in _LIGHT else "#fff"


def player_marks(players: list[dict]) -> dict[str, str]:
    """One letter per player: the colour's initial, else the name's, else the seat number."""
    for key in ("color", "name"):
        marks = [str(p.get(key, "?"))[:1].upper() for p in players]
        if len(set(marks)) == len(marks):
            return {p["name"]: m for p, m in zip(players, marks)}
    return {p["name"]: str(i + 1) for i, p in enumerate(players)}


def shape(kind: str, cx: float, cy: float, r: float, fill: str, stroke: str = "#000") -> str:
    """A seat's shape mark centred on ``(cx, cy)``."""
    style = f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"'
    if kind == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {style}/>'
    if kind == "square":
        return f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {style}/>'
    import math

    n, start, inner = {"triangle": (3, -90, None), "diamond": (4, -90, None), "pentagon": (5, -90, None),
                       "star": (5, -90, 0.45)}.get(kind, (6, 0, None))
    pts = []
    for i in range(n * (2 if inner else 1)):
        rr = r * (inner if inner and i % 2 else 1)
        a = math.radians(start + i * 360 / (n * (2 if inner else 1)))
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" {style}/>'


def _y_range(view: dict) -> tuple[int, int]:
    road = view.get("road") or []
    low, high = (2 * (road[0]["first"] - 1), 2 * (road[-1]["last"] - 1) + 1) if road else (0, 15)
    board = view.get("board") or {}
    if board.get("start_area"):  # before the road is laid too (event 1): the cars wait there
        low -= 2  # the starting area: number 0 of every lane
    for v in view.get("vehicles") or []:
        sp = parse(v.get("at") or "")
        if sp is not None:  # a car that crossed the Finish Line stands beyond the road
            low, high = min(low, sp[1]), max(high, sp[1])
    return low, high


def layout_of(view: dict) -> Layout:
    return drawing_of(view).layout(view)


def background(view: dict, lay: Layout) -> str:
    """The road: every space with its printed terrain, tile names, lane letters,
    space numbers, the starting area and the Finish Line."""
    board = view.get("board") or {}
    terrain = {}
    for kind, names in (board.get("terrain") or {}).items():
        for n in names:
            terrain[n] = kind
    default = board.get("default_terrain", "road")
    out = ['<g class="road">']
    road = view.get("road") or []
    for piece in road:
        lo, hi = 2 * (piece["first"] - 1), 2 * (piece["last"] - 1) + 1
        top, bottom = lay.y_of(hi + 1), lay.y_of(lo)
        out.append(f'<rect x="{lay.LEFT - 4}" y="{top:.1f}" width="{lay.width - lay.LEFT - 8:.1f}" '
                   f'height="{bottom - top:.1f}" fill="#f4f1ea" stroke="#777" stroke-width="1.5"/>')
        for y in range(lo, hi + 1):
            for lane in range(y % 2, lay.lanes, 2):
                kind = terrain.get(f"{chr(97 + lane)}{(y - lane % 2) // 2 + 1}", default)
                out.append(f'<polygon points="{lay.outline((lane, y))}" fill="{TERRAIN_FILL.get(kind, "#d9d4c7")}" '
                           f'stroke="#8d877a" stroke-width="0.8"/>')
        label = escape(str(piece.get("name", "")))
        x, ymid = lay.LEFT - 44, (top + bottom) / 2
        out.append(f'<text class="tile" transform="translate({x:.1f},{ymid:.1f}) rotate(-90)" '
                   f'text-anchor="middle">{label} ({piece["first"]}-{piece["last"]})</text>')
        for n in range(piece["first"], piece["last"] + 1):
            _, cy = lay.center((0, 2 * (n - 1)))
            out.append(f'<text class="lbl" x="{lay.LEFT - 8}" y="{cy + 3:.1f}" text-anchor="end">{n}</text>')
    if board.get("start_area") and road and road[0]["first"] == 1:
        top, bottom = lay.y_of(0), lay.y_of(-2)
        out.append(f'<rect x="{lay.LEFT - 4}" y="{top:.1f}" width="{lay.width - lay.LEFT - 8:.1f}" '
                   f'height="{bottom - top + 6:.1f}" fill="#ffffff" stroke="#777" stroke-dasharray="5 3"/>')
        out.append(f'<text class="lbl" x="{lay.LEFT - 8}" y="{(top + bottom) / 2 + 3:.1f}" '
                   f'text-anchor="end">start</text>')
    finish = board.get("finish_after")
    if finish:
        fy = lay.y_of(2 * finish)
        x0, x1 = lay.LEFT - 4, lay.width - 12
        out.append(f'<g class="finish" data-y="{fy:.1f}">')
        for i in range(int((x1 - x0) // 8)):
            out.append(f'<rect x="{x0 + 8 * i:.1f}" y="{fy - 8 + 4 * (i % 2):.1f}" width="8" height="4" fill="#000"/>')
        out.append(f'<text class="tile" x="{lay.LEFT - 8}" y="{fy - 2:.1f}" text-anchor="end">finish</text></g>')
    out.append(lane_letters(lay))
    for n in board.get("marks") or ():
        sp = parse(n)
        if sp is None:
            continue
        cx, cy = lay.center(sp)
        d = lay.hh * 0.6
        out.append(f'<path d="M{cx - d:.1f} {cy - d:.1f} L{cx + d:.1f} {cy + d:.1f} M{cx - d:.1f} {cy + d:.1f} '
                   f'L{cx + d:.1f} {cy - d:.1f}" stroke="#d7301f" stroke-width="3" stroke-linecap="round"/>')
    out.append("</g>")
    return "".join(out)


def board_background(view: dict, lay: Layout) -> str:
    """The board as its view says it is drawn (:func:`drawing_of`)."""
    return drawing_of(view).background(view, lay)


class RoadDrawing:
    """The road of tiles the view's ``road`` and ``board`` entries declare (the default: a
    board that names no drawing, the road's ``Board.drawing``)."""

    def __init__(self) -> None:
        self._drawn: dict[tuple, str] = {}
        self._lock = threading.Lock()

    def layout(self, view: dict) -> Layout:
        board = view.get("board") or {}
        low, high = _y_range(view)
        return Layout(board.get("grid", "brick"), int(board.get("lanes", 6)), low, high)

    def background(self, view: dict, lay: Layout) -> str:
        """:func:`background`, drawn once for each road, board and layout (it reads nothing else of the
        view): a game's road changes far less often than its pieces, and drawing every space's outline
        was about a third of a club server's document of a move (docs/performance.md)."""
        try:
            key = (lay.grid, lay.lanes, lay.y_low, lay.y_high,
                   msgspec.json.encode([view.get("road"), view.get("board")]))
        except (TypeError, msgspec.EncodeError):  # (a view that is not JSON: drawn, not kept)
            return background(view, lay)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = background(view, lay)
            with self._lock:  # (the replay viewer draws on a thread of its own)
                self._drawn[key] = drawn
                while len(self._drawn) > BACKGROUNDS_KEPT:
                    del self._drawn[next(iter(self._drawn))]
        return drawn


#: road backgrounds kept drawn (the oldest forgotten first)
BACKGROUNDS_KEPT = 64
ROAD = register_drawing("road", RoadDrawing())


def drawing_of(view: dict) -> Drawing:
    """The drawing a view's board names (``core/drawing.py``; the road of tiles when it names
    none); a name no drawing has is a ValueError naming the known ones."""
    return drawing_named((view.get("board") or {}).get("drawing", "road"))


def _start_key(board: dict, vid: str) -> str | None:
    """Where a car waiting to enter stands: a space a board names for it
    (behind an arena's road tile), else its lane of the starting area."""
    return (board.get("start_spots") or {}).get(vid) or (board.get("start_area") or {}).get(vid)


def _spot(lay: Layout, at: str | None, board: dict, vid: str) -> tuple[float, float] | None:
    if at == "start":
        spot = (board.get("start_spots") or {}).get(vid)
        if spot is not None:
            return _spot(lay, spot, board, vid)
        lane = (board.get("start_area") or {}).get(vid)
        if not lane:
            return None
        return lay.center((ord(lane) - 97, -2 + (ord(lane) - 97) % 2))
    sp = parse(at or "")
    return None if sp is None else lay.center(sp)


def token(t: dict, lay: Layout) -> str:
    """A hazard token: face down (``?``) or its face once revealed."""
    sp = parse(t.get("at") or "")
    if sp is None:
        return ""
    cx, cy = lay.center(sp)
    kind = t.get("kind")
    text = "?" if kind is None else {"oil-slick": "oil", "wreckage": "wrk", "super-weapon": "W"}.get(kind, str(kind)[:4])
    face = "#3b3b3b" if kind is None else "#fff8dc"
    ink = "#fff" if kind is None else "#000"
    return (f'<g class="token" data-at="{escape(t["at"])}" data-kind="{escape(str(kind or "face-down"))}">'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{lay.hh * 0.62:.1f}" fill="{face}" stroke="#000" stroke-width="1.2"/>'
            f'<text class="mark" x="{cx:.1f}" y="{cy:.1f}" fill="{ink}" style="font-size:10px">{escape(text)}</text>'
            f'<title>hazard token at {escape(t["at"])}: {escape(str(kind or "face down"))}</title></g>')


def wreck(at: str, lay: Layout) -> str:
    sp = parse(at)
    if sp is None:
        return ""
    cx, cy = lay.center(sp)
    w, h = lay.hh * 1.1, lay.hh * 1.5
    return (f'<g class="wreck" data-at="{escape(at)}"><rect x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="3" fill="#111" stroke="#666"/>'
            f'<text class="mark" x="{cx:.1f}" y="{cy:.1f}" fill="#fff">X</text><title>wreck at {escape(at)}</title></g>')


def _width(v: dict, board: dict) -> float:
    """A body's width as a share of a space: the board's ``widths`` say where a vehicle's
    crew draws it narrower (a motorcycle) or wider than a car."""
    return float((board.get("widths") or {}).get(v["id"], 0.56))


def _label(v: dict, mark: str, board: dict) -> str:
    """The owner's letter and the size (``RL``), or the sign the board's ``signs`` give
    the vehicle (a motorcycle's number ``R3``; a Big Rig section's ``R<`` ``R=`` ``R>``)."""
    sign = (board.get("signs") or {}).get(v["id"])
    if sign is not None:
        return mark + str(sign)
    size = v.get("size")
    return mark + (str(size) if size is not None else "")


def vehicle(v: dict, lay: Layout, board: dict, color: str, mark: str, dx: float = 0.0, scale: float = 1.0,
            dy: float = 0.0) -> str:
    """A vehicle: a car body as long as its size, pointing where it faces, in
    its owner's colour with the owner's letter, its damage as pips; out of
    action: a dashed outline, a blacked-out windscreen, lower-case letters.
    ``dx``, ``dy`` and ``scale`` fit several vehicles on one space side by side.  The
    element carries the vehicle's id, owner, status and space."""
    spot = _spot(lay, v.get("at"), board, v["id"])
    if spot is None:
        return ""
    cx, cy = spot[0] + dx, spot[1] + dy
    size = v.get("size")
    frac = CAR_LENGTH.get(size, 0.82) if isinstance(size, str) else 0.82
    length, width = lay.space_len * frac * max(scale, 0.8), lay.space_len * _width(v, board) * scale
    fill = fill_of(color)
    angle = lay.angle(v.get("facing") or "F")
    status = str(v.get("status", ""))
    out_of_action = status not in ("operational", "running")
    damage = v.get("damage")
    hits = len(damage) if isinstance(damage, list) else int(damage or 0)
    tokens = (board.get("damage") or {}).get(v["id"]) or []
    ident = escape(v["id"])
    label = f"{v['id']} ({v.get('owner')}): size {size}, facing {v.get('facing', 'F')}, {status}"
    if hits:
        label += f", damage {hits}" + (f" ({', '.join(tokens)})" if tokens else "")
    parts = [f'<g class="vehicle" data-id="{ident}" data-owner="{escape(str(v.get("owner")))}" '
             f'data-status="{escape(status)}" data-at="{escape(str(v.get("at")))}" transform="translate({cx:.1f},{cy:.1f})">',
             f'<title>{escape(label)}</title>']
    # out of action: a dashed outline, a blacked-out windscreen and lower-case letters (readable in grey)
    outline = 'stroke-dasharray="3 2" stroke-width="2"' if out_of_action else 'stroke-width="1.4"'
    glass = "#000" if out_of_action else "#cfe8ff"
    body = (f'<rect x="{-width / 2:.1f}" y="{-length / 2:.1f}" width="{width:.1f}" height="{length:.1f}" rx="4" '
            f'fill="{fill}" stroke="#000" {outline}/>'
            f'<path d="M{-width / 2 + 2.5:.1f} {-length / 2 + 7:.1f} L{width / 2 - 2.5:.1f} {-length / 2 + 7:.1f} '
            f'L{width / 2 - 4:.1f} {-length / 2 + 2.5:.1f} L{-width / 2 + 4:.1f} {-length / 2 + 2.5:.1f} Z" '
            f'fill="{glass}" stroke="#000" stroke-width="0.8"/>')
    for i in range(min(hits, 4)):
        body += (f'<circle cx="{width / 2 - 1:.1f}" cy="{length / 2 - 4 - 5.5 * i:.1f}" r="2.6" fill="#000" '
                 f'stroke="#fff" stroke-width="1"/>')
    parts.append(f'<g transform="rotate({angle:.0f})">{body}</g>')
    ink = ink_on(color)
    text = _label(v, mark, board)
    font: float = (11 if len(text) > 1 else 13) if width > 14 else 8
    font = min(font, max(6.0, (width - 3) / (0.75 * max(len(text), 1))))  # the letters fit the body: no overlap
    parts.append(f'<text class="mark" y="1" fill="{ink}" style="font-size:{font:.1f}px">'
                 f'{escape(text if not out_of_action else text.lower())}</text>')
    parts.append("</g>")
    return "".join(parts)


def ring(v: dict, lay: Layout, board: dict, dx: float = 0.0, dy: float = 0.0) -> str:
    """The highlight around a vehicle the last event named (a piece of its own,
    so the vehicle's piece stays the same when only the highlight changes)."""
    spot = _spot(lay, v.get("at"), board, v["id"])
    if spot is None:
        return ""
    cx, cy = spot[0] + dx, spot[1] + dy
    return (f'<circle class="lit" data-id="{escape(v["id"])}" cx="{cx:.1f}" cy="{cy:.1f}" r="{lay.hh * 1.05:.1f}" '
            f'fill="#fff36b" fill-opacity="0.5" stroke="#000" stroke-width="3" stroke-dasharray="4 3"/>')


def chopper(c: dict, lay: Layout, color: str, mark: str, shape_kind: str) -> str:
    sp = parse(c.get("at") or "")
    if sp is None:
        return ""
    cx, cy = lay.center(sp)
    cx, cy = cx + lay.col * 0.35, cy - lay.hh * 0.45
    r = lay.hh * 0.42
    facing = c.get("facing")  # a chopper that faces a way (the arena's): a nose pointing there
    nose = (f'<path transform="translate({cx:.1f},{cy:.1f}) rotate({lay.angle(str(facing)):.0f})" '
            f'd="M{-r * 0.7:.1f} {-r * 1.05:.1f} L0 {-r * 2.1:.1f} L{r * 0.7:.1f} {-r * 1.05:.1f} Z" '
            f'fill="{fill_of(color)}" stroke="#000" stroke-width="1"/>') if facing else ""
    title = f"{c.get('owner')}'s chopper at {c['at']}" + (f", facing {facing}" if facing else "")
    return (f'<g class="chopper" data-owner="{escape(str(c.get("owner")))}" data-at="{escape(c["at"])}"'
            + (f' data-facing="{escape(str(facing))}"' if facing else "") + '>'
            f'<path d="M{cx - r * 1.5:.1f} {cy - r * 1.5:.1f} L{cx + r * 1.5:.1f} {cy + r * 1.5:.1f} '
            f'M{cx - r * 1.5:.1f} {cy + r * 1.5:.1f} L{cx + r * 1.5:.1f} {cy - r * 1.5:.1f}" stroke="#000" '
            f'stroke-width="2"/>{nose}{shape(shape_kind, cx, cy, r, "#fff", fill_of(color))}'
            f'<text class="mark" x="{cx:.1f}" y="{cy + 0.5:.1f}" style="font-size:9px" fill="#000">{escape(mark)}</text>'
            f'<title>{escape(title)}</title></g>')


def _on_road(lay: Layout, at: str) -> bool:
    sp = parse(at)
    return sp is not None and 0 <= sp[0] < lay.lanes and lay.y_low <= sp[1] <= lay.y_high


def highlight_space(at: str, lay: Layout) -> str:
    sp = parse(at)
    if sp is None:
        return ""
    return (f'<polygon class="lit" points="{lay.outline(sp, 0.5)}" fill="#fff36b" fill-opacity="0.45" '
            f'stroke="#000" stroke-width="2.5" stroke-dasharray="5 3"/>')


def _die(x: float, y: float, value: Any) -> str:
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="18" height="18" rx="3" fill="#fff" stroke="#000"/>'
            f'<text class="mark" x="{x + 9:.1f}" y="{y + 9.5:.1f}" style="font-size:12px">{escape(str(value))}</text>')


def dashboard(p: dict, seat: int, vehicles: list[dict], board: dict, mark: str, x: float,
              y: float) -> tuple[list[str], float]:
    """A player's dashboard in the side strip: mark, name, dice, command
    board, and each vehicle's place, status and damage.  Returns its pieces
    (one per line, so a line that did not change is the same piece) and the
    height it took."""
    color = p.get("color", "")
    who = escape(str(p["name"]))
    pieces = [f'<g class="dashboard" data-player="{who}">'
              + shape(SHAPES[seat % len(SHAPES)], x + 9, y + 9, 8, fill_of(color))
              + f'<text class="mark" x="{x + 9:.1f}" y="{y + 9.5:.1f}" fill="{ink_on(color)}" style="font-size:9px">'
              f'{escape(mark)}</text><text class="dash" x="{x + 24:.1f}" y="{y + 13:.1f}"><tspan font-weight="bold">'
              f'{who}</tspan> ({escape(str(color))}, {escape(str(p.get("crew", "")))}){" OUT" if p.get("out") else ""}'
              f'</text></g>']
    y += 24
    dice = p.get("dice") or []
    line = [f'<g class="dice" data-player="{who}"><text class="small" x="{x:.1f}" y="{y + 13:.1f}">dice</text>']
    for i, d in enumerate(dice):
        line.append(_die(x + 30 + 22 * i, y, d))
    if not dice:
        line.append(f'<text class="small" x="{x + 30:.1f}" y="{y + 13:.1f}">-</text>')
    if board.get("command_board", "command_used" in p):
        line.append(f'<text class="small" x="{x + 30 + 22 * max(len(dice), 1) + 8:.1f}" y="{y + 13:.1f}">command: '
                    f'{"used" if p.get("command_used") else "ready"}</text>')
    pieces.append("".join(line) + "</g>")
    y += 24
    for text in (board.get("dashboard") or {}).get(p["name"]) or ():  # what the ruleset adds (the arena's scrap)
        pieces.append(f'<text class="small extra" data-player="{who}" x="{x:.1f}" y="{y + 11:.1f}">'
                      f'{escape(str(text))}</text>')
        y += 15
    for v in vehicles:
        if v.get("owner") != p["name"]:
            continue
        tokens = (board.get("damage") or {}).get(v["id"]) or []
        damage = v.get("damage")
        hits = len(damage) if isinstance(damage, list) else int(damage or 0)
        dmg = ", ".join(tokens) if tokens else (f"{hits} damage" if hits else "")
        where = v.get("at") or ("" if v.get("status") == "eliminated" else "off the board")
        text = "  ".join(t for t in (v["id"], where, str(v.get("status", "")), dmg) if t)
        pieces.append(f'<text class="small" x="{x + 8:.1f}" y="{y + 11:.1f}">{escape(text)}</text>')
        y += 15
    return pieces, y + 10


def status(view: dict, x: float, y: float) -> tuple[str, float]:
    """Round, road die, whose turn, what the game waits on (or who won)."""
    lines = [f"round {view.get('round')}" + (f"   road die {view['road_die']}" if view.get("road_die") else "")]
    if view.get("finished"):
        lines.append(f"game over: {view.get('winner') or 'no winner'}" + (" wins" if view.get("winner") else ""))
    else:
        if view.get("active_player"):
            lines.append(f"{view['active_player']} to play")
        pending = view.get("pending")
        if pending:
            lines.append(f"waiting on {pending.get('player')}: {pending.get('kind')}")
    out = ['<g class="status">']
    for line in lines:
        out.append(f'<text class="dash" x="{x:.1f}" y="{y + 13:.1f}">{escape(line)}</text>')
        y += 17
    out.append("</g>")
    return "".join(out), y + 8


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters (the side strip is narrow)."""
    import textwrap

    return textwrap.wrap(text, width, subsequent_indent="  ") or [""]


def scene(view: dict, last: Last | None = None, caption: bool = True) -> Scene:
    """The picture of ``view`` (a ruleset's ``show --json`` document), in pieces."""
    lay = layout_of(view)
    board = view.get("board") or {}
    players = view.get("players") or []
    marks = player_marks(players)
    colors = {p["name"]: p.get("color", "") for p in players}
    seats = {p["name"]: i for i, p in enumerate(players)}
    pieces = [board_background(view, lay)]
    pieces.extend(token(t, lay) for t in view.get("tokens") or ())
    pieces.extend(wreck(w, lay) for w in view.get("wrecks") or ())
    if last is not None:
        pieces.extend(highlight_space(s, lay) for s in sorted(last.spaces) if _on_road(lay, s))
    vehicles = view.get("vehicles") or []
    crowd: dict[str, list[dict]] = {}
    for v in vehicles:
        at = v.get("at")
        if at == "start":
            at = "start:" + str(_start_key(board, v["id"]))
        if at:
            crowd.setdefault(at, []).append(v)
    for group in crowd.values():
        # several vehicles on one space (a slam being settled, motorcycles, the
        # starting area, the 1986 board's two cars): side by side, smaller
        scale = 1.0 if len(group) == 1 else max(0.55, min(0.8, 1.7 / len(group)))
        widths = [lay.space_len * _width(v, board) * scale + 6 for v in group]  # a gap the letters keep clear of
        # across the bodies: a group facing a slanted way (behind an arena's road tile) is spaced
        # along the slant, so the longer sides of the bodies stand side by side, not end over end
        across = math.radians(lay.angle(group[0].get("facing") or "F") % 180)
        x = -sum(widths) / 2
        for v, w in zip(group, widths):
            off = 0.0 if len(group) == 1 else x + w / 2
            dx, dy = off * math.cos(across), off * math.sin(across)
            x += w
            owner = v.get("owner") or ""  # (no owner: "", no player's name)
            if last is not None and v["id"] in last.vehicles:
                pieces.append(ring(v, lay, board, dx, dy))
            pieces.append(vehicle(v, lay, board, colors.get(owner, ""), marks.get(owner, "?"), dx, scale, dy))
    for c in view.get("choppers") or ():
        owner = c.get("owner")
        pieces.append(chopper(c, lay, colors.get(owner, ""), marks.get(owner, "?"),
                              SHAPES[seats.get(owner, 0) % len(SHAPES)]))
    y: float  # (14 px, then where each line of the strip ends)
    x, y = lay.width + 12, 14
    if last is not None and caption:
        text = f"after event {last.number}: {last.sentence}"
        pieces.append(f'<text class="dash caption" x="{x:.1f}" y="{y + 12}" font-weight="bold">'
                      f'{escape(text[:60] + ("..." if len(text) > 60 else ""))}<title>{escape(text)}</title></text>')
        y += 22
    piece, y = status(view, x, y)
    pieces.append(piece)
    for text in board.get("notes") or ():  # the ruleset's lines for the whole table (the arena's decree)
        lines = _wrap(str(text), 46)
        pieces.append('<g class="note">' + "".join(
            f'<text class="small" x="{x:.1f}" y="{y + 11 + 14 * i:.1f}">{escape(line)}</text>'
            for i, line in enumerate(lines)) + "</g>")
        y += 14 * len(lines) + 4
    y += 4 if board.get("notes") else 0
    for i, p in enumerate(players):
        lines, y = dashboard(p, i, vehicles, board, marks.get(p["name"], "?"), x, y)
        pieces.extend(lines)
    return Scene(lay.width + STRIP, max(lay.height, y + 10), [p for p in pieces if p])


def head(width: float, height: float) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}">')


def svg(view: dict, last: Last | None = None) -> str:
    """A standalone SVG document of ``view``."""
    sc = scene(view, last)
    return "".join([head(sc.width, sc.height), DEFS,
                    f'<rect width="{sc.width:.0f}" height="{sc.height:.0f}" fill="#fff"/>', *sc.pieces, "</svg>\n"])
