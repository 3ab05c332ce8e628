"""What people see: the ``trv show --json`` document and the text board."""

from __future__ import annotations

from ..core import geometry
from .actions import describe_action
from .model import State

_ANSI = {"red": "31", "blue": "34", "green": "32", "yellow": "33"}


def view(rs, s: State) -> dict:
    """The ``trv show --json`` document (without game/version/head)."""
    d = rs.pending(s)
    wrecked = [c.at for c in s.cars if c.status == "wrecked" and c.at is not None]
    return {
        "round": s.round,
        "active_player": s.active,
        "pending": None if d is None else {
            "player": d.player, "kind": d.kind, "options": [describe_action(o) for o in d.options]},
        "finished": s.phase == "over",
        "winner": s.winner,
        "road_die": s.turn.road_die if s.turn is not None else None,
        "road": [{"name": b.name, "first": b.first, "last": b.last} for b in s.boards],
        "players": [{"name": p.name, "color": p.color, "crew": p.crew, "dice": list(p.dice),
                     "command_used": False, "out": p.out} for p in s.players],
        "vehicles": [{"id": c.id, "owner": c.owner, "kind": "car", "size": c.rank,
                      "at": None if c.at is None else geometry.name(c.at), "facing": "F", "status": c.status,
                      "damage": [], "moved": c.moved, "momentum": 0} for c in s.cars],
        "choppers": [{"owner": ch.owner, "at": None if ch.at is None else geometry.name(ch.at)}
                     for ch in s.choppers],
        "wrecks": [geometry.name(w) for w in sorted(list(s.wrecks) + wrecked, key=lambda sp: (sp[1], sp[0]))],
        "tokens": [],
        "board": board(rs, s),
    }


def board(rs, s: State) -> dict:
    """What a picture of the table needs: the brick-pattern squares of the
    boards (rules-facts.md s.5: 7 lanes, lanes b, d, f half a space ahead),
    the desert beside the road lanes, and each board's printed red X marks."""
    c = rs.c
    desert: list[str] = []
    marks: list[str] = []
    for bd in s.boards:
        for lane in range(c.lanes):
            if lane not in c.road_lanes:
                desert.extend(geometry.name(geometry.at_number(lane, n)) for n in range(bd.first, bd.last + 1))
        marks.extend(geometry.name(sp) for sp in c.wreck_spaces(bd.name, bd.index))
    return {
        "lanes": c.lanes,
        "grid": "brick",
        "default_terrain": "road",
        "terrain": {"desert": desert} if desert else {},
        "command_board": False,
        "marks": marks,
        "finish_after": None,
        "start_area": {},
        "damage": {},
    }


def render(rs, s: State, color: bool = False) -> str:
    """The two boards (lead board on top, forward is up) and a dashboard.

    Each space shows up to two objects: a running car as ``R6`` (colour
    initial, rank), a wrecked car in lower case (``r6``), a black wreck as
    ``XX``; ``*`` marks a chopper.  Road spaces are ``==``, desert ``..``.
    Lanes b, d and f sit half a space ahead of a, c, e and g; the left
    numbers are the space numbers of lanes a, c, e, g, the right ones of b, d, f.
    """
    c = rs.c
    if not s.boards:
        return "(no game)"
    color_of = {p.name: p.color for p in s.players}
    objects: dict[tuple[int, int], list[str]] = {}

    def paint(text: str, colour: str | None) -> str:
        if not color or colour not in _ANSI:
            return text
        return f"\x1b[{_ANSI[colour]}m{text}\x1b[0m"

    for car in s.cars:
        if car.at is None:
            continue
        col = color_of[car.owner]
        code = f"{col[0].upper()}{car.rank}" if car.status == "running" else f"{col[0].lower()}{car.rank}"
        objects.setdefault(car.at, []).append(paint(code, col))
    for w in s.wrecks:
        objects.setdefault(w, []).append("XX")
    choppers = {}
    for ch in s.choppers:
        if ch.at is not None:
            choppers[ch.at] = paint("*", color_of[ch.owner])
    first, last = s.boards[0].first, s.boards[-1].last
    lines = ["      " + "".join(f"{geometry.LANE_LETTERS[lane]:^7}" for lane in range(c.lanes))]
    y_top = geometry.at_number(1, last)[1]
    y_bottom = geometry.at_number(0, first)[1]
    for y in range(y_top, y_bottom - 1, -1):
        cells = []
        for lane in range(c.lanes):
            if (lane + y) % 2:
                cells.append(" " * 7)
                continue
            space = (lane, y)
            objs = objects.get(space)
            if objs:
                text = "/".join(objs)
                width = len("/".join(o[-2:] if not o.startswith("\x1b") else o[5:7] for o in objs))
            else:
                text = "==" if lane in c.road_lanes else ".."
                width = 2
            star = choppers.get(space, "")
            width += 1 if star else 0
            pad = 7 - width
            cells.append(" " * (pad // 2) + text + star + " " * (pad - pad // 2))
        left = f"{geometry.number((0, y)):>4}  " if y % 2 == 0 else " " * 6
        right = f"  {geometry.number((1, y)):<4}" if y % 2 == 1 else ""
        lines.append(left + "".join(cells) + right)
        if y > y_bottom and y % 2 == 0 and (geometry.number((0, y)) - 1) % c.squares == 0:
            lines.append(" " * 6 + "-" * (7 * c.lanes))
    names = " / ".join(f"{b.name} ({b.first}-{b.last})" for b in s.boards)
    lines.append(f"boards, rear / lead: {names}")
    for p in s.players:
        cars = ", ".join(f"{car.id} {car.status}" + (f" at {geometry.name(car.at)}" if car.at else "")
                         for car in s.cars if car.owner == p.name)
        ch = s.chopper(p.name)
        where = geometry.name(ch.at) if ch.at else "off the board"
        lines.append(f"{p.name} ({p.color}){' OUT' if p.out else ''}: {cars}; chopper {where}, "
                     f"may attack from board {ch.next_board + 1}")
    if s.phase == "over":
        lines.append(f"game over: {s.winner or 'no winner'} ({s.end_reason})")
    elif s.turn is not None:
        t = s.turn
        road = f", black die {t.road_die}" if t.road_die is not None else ""
        lines.append(f"round {s.round}: {t.player} to play; yellow dice left {' '.join(map(str, t.dice)) or '-'}{road}")
        d = rs.pending(s)
        if d is not None:
            lines.append(f"{d.prompt}: " + ", ".join(describe_action(o) for o in d.options))
    return "\n".join(lines)


LEGEND = """\
Legend (trv show, Thunder Road 1986): the front of the road is at the top.
  R6    a running car: its owner's colour initial and its rank 6, 5 or 4;
        lower case (r6) when wrecked; two on a space: R6/b5
  XX    a black wreck
  *     a chopper (after the car it sits on, in its owner's colour)
  ==    a road lane (d, e)          ..   off the road
  rows  the left number is the space number of lanes a, c, e and g; rows
        that hold lanes b, d and f (half a space ahead) carry their number
        on the right; a dashed line marks where one board ends"""


def legend() -> str:
    """What every symbol of :func:`render` means."""
    return LEGEND
