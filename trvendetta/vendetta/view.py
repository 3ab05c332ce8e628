"""Views of a state: the ``show --json`` document and the text board."""

from __future__ import annotations

from . import board as b
from .crews import load as _load_crews
from .crew import CARS_LOOK, LOOKS
from .model import State

_load_crews("looks")  # the built-in crews' looks (``crews/<crew>/looks.py``) register themselves

ANSI = {"red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "purple": 35, "cyan": 36, "white": 37,
        "black": 90, "orange": 91, "pink": 95}
TERRAIN_CELL = {"road": " . ", "offroad": " : ", "mud": " ~ ", "impassable": "###"}
TOKEN_CELL = {None: " ? ", "road": " r ", "mud": " m ", "oil-slick": " o ", "mine": " * ", "wreckage": " w "}


def _at(v) -> str | None:
    if v.at is None:
        return None
    return "start" if v.start else b.nm(v.at)


def _player(p) -> dict:
    out = {"name": p.name, "color": p.color, "crew": p.crew, "dice": list(p.dice),
           "command_used": p.command_used, "out": p.out}
    out.update(LOOKS[p.crew].player(p))  # what the crew shows of its own (the Big Rig's steering)
    return out


def _vehicle(v, crew: str) -> dict:
    out = {"id": v.id, "owner": v.owner, "kind": v.kind, "size": v.size, "at": _at(v), "facing": v.facing,
           "status": v.status, "damage": len(v.damage), "moved": v.moved, "momentum": v.momentum}
    out.update(LOOKS[crew].vehicle(v))  # a Big Rig section: its section and its damaged commands
    return out


def _crews(state: State) -> dict[str, str]:
    """Each player's crew, by name."""
    return {p.name: p.crew for p in state.players}


def _pending(state: State):
    """The pending decision and its options' printed names (the rules and the actions are
    imported here: drawing a finished game needs neither)."""
    from .actions import describe_action
    from .rules import pending

    d = pending(state)
    return d, ([] if d is None else [describe_action(o) for o in d.options])


def view(state: State) -> dict:
    """The stable ``trv show --json`` document (the CLI adds game, version, head)."""
    d, options = _pending(state)
    crew = _crews(state)
    return {
        "ruleset": "vendetta",
        "round": state.round,
        "active_player": state.turn.player if state.turn else None,
        "pending": None if d is None else {"player": d.player, "kind": d.kind, "options": options},
        "finished": state.phase == "over",
        "winner": state.winner,
        "road_die": state.road_die,
        "road": [{"name": t.side, "first": 8 * t.index + 1, "last": 8 * t.index + 8} for t in state.road],
        "players": [_player(p) for p in state.players],
        "vehicles": [_vehicle(v, crew[v.owner]) for v in state.vehicles],
        "choppers": [{"owner": c.owner, "at": b.nm(c.at) if c.at is not None else None} for c in state.choppers],
        "wrecks": [b.nm(w.at) for w in state.wrecks],
        "tokens": [{"at": b.nm(t.at), "kind": t.kind if t.face_up else None} for t in state.tokens],
        "board": board(state),
    }


def board(state: State) -> dict:
    """What a picture of the table needs beyond the pieces: the staggered hex
    spaces of the road tiles (rules-facts.md s.1-2) and the terrain printed on
    them (spaces not listed are road; a position's fill and overrides count),
    the Finish Line once the final piece is laid (s.2: the front edge of the
    final piece), the lane of each car still in the starting area, and each
    vehicle's damage tokens in their slots; and where a vehicle's crew draws it
    otherwise than a car (``Looks``): the sign after its owner's letter (a
    motorcycle's marking, a Big Rig section's ``<`` ``=`` ``>``) and a body's width."""
    terrain: dict[str, list[str]] = {"offroad": [], "mud": [], "impassable": []}
    c = state.components
    assert c is not None, "a started game has its components"
    for tile in state.road:
        lo = c.half * tile.index
        for y in range(lo, lo + c.half):
            for lane in range(y % 2, c.lanes, 2):
                kind = state.board.printed_terrain(state, (lane, y))
                if kind in terrain:
                    terrain[kind].append(b.nm((lane, y)))
    laid = state.final_piece is not None and any(t.index == state.final_piece for t in state.road)
    crew = _crews(state)
    signs, widths = {}, {}
    for v in state.vehicles:
        looks = LOOKS[crew[v.owner]]
        sign = looks.sign(v)
        if sign != v.size:
            signs[v.id] = sign
        if looks.width != CARS_LOOK.width:
            widths[v.id] = looks.width
    return {
        "lanes": c.lanes,
        "grid": "hex",
        "default_terrain": "road",
        "terrain": {k: v for k, v in terrain.items() if v},
        "command_board": True,
        "marks": [],
        "finish_after": c.rows * (state.final_piece + 1) if laid and state.final_piece is not None else None,
        "start_area": {v.id: chr(97 + v.at[0]) for v in state.vehicles if v.start and v.at is not None},
        "damage": {v.id: list(v.damage) for v in state.vehicles if v.damage},
        "signs": signs,
        "widths": widths,
    }


def paint(text: str, color: str | None, on: bool) -> str:
    if not on or color not in ANSI:
        return text
    return f"\x1b[{ANSI[color]}m{text}\x1b[0m"


def car_label(v, colors: dict, crew: str = "cars") -> str:
    """Colour initial + the sign the vehicle's crew gives it (``Looks.sign``): the size
    (``RM``), a motorcycle's marking (``R3``), or ``<``, ``=``, ``>`` for the Big Rig's
    rear, mid and front sections (``R>``); lower case when inoperable."""
    text = colors[v.owner][0] + LOOKS[crew].sign(v)
    return text.upper() if v.status == "operational" else text.lower()


def render(state: State, color: bool = False) -> str:
    """The road (front at the top, staggered like the tiles) and the dashboards.

    Cars are shown as colour initial + size (``rM``; lower case when
    inoperable), motorcycles as colour initial + marking (``R3``), two
    vehicles sharing a space side by side without brackets (``R3BM``), wrecks ``XX``, choppers ``^`` + colour initial, hazard tokens
    ``?`` face down or their initial once revealed.
    """
    if not state.road:
        return "(no road yet)"
    colors = {p.name: p.color for p in state.players}
    crew = _crews(state)
    cars: dict = {}
    for v in state.vehicles:
        if v.at is not None and not v.start:
            cars.setdefault(v.at, []).append(v)
    wrecks = {w.at for w in state.wrecks}
    choppers = {c.at: c.owner for c in state.choppers if c.at is not None}
    tokens = {t.at: t for t in state.tokens}
    c = state.components
    assert c is not None, "a started game has its components"
    lines = ["       " + "".join(f"{chr(97 + i)}   " for i in range(c.lanes))]
    for tile in reversed(state.road):
        lo = c.half * tile.index
        marker = " (final piece)" if state.final_piece == tile.index else ""
        lines.append(f"     --- {tile.side} (spaces {c.rows * tile.index + 1}-{c.rows * tile.index + c.rows}){marker} ---")
        for y in range(lo + c.half - 1, lo - 1, -1):
            cells = []
            for lane in range(c.lanes):
                if (lane + y) % 2:
                    cells.append("    ")
                    continue
                sp = (lane, y)
                if sp in cars and len(cars[sp]) > 1:  # side by side (a motorcycle shares the space)
                    cell = "".join(paint(car_label(v, colors, crew[v.owner]), colors[v.owner], color) for v in cars[sp][:2])
                elif sp in cars:
                    v = cars[sp][0]
                    cell = paint(f"[{car_label(v, colors, crew[v.owner])}" + ("^" if sp in choppers else "]"),
                                 colors[v.owner], color)
                elif sp in wrecks:
                    cell = "[XX]"
                elif sp in choppers:
                    cell = paint(f" ^{colors[choppers[sp]][0]} ", colors[choppers[sp]], color)
                elif sp in tokens:
                    t = tokens[sp]
                    cell = TOKEN_CELL[t.kind if t.face_up else None] + " "
                else:
                    cell = TERRAIN_CELL[state.board.printed_terrain(state, sp)] + " "
                cells.append(cell)
            label = f"{(y - y % 2) // 2 + 1:>4}{'+' if y % 2 else ' '} "
            lines.append(label + " " + "".join(cells).rstrip())
    starters = [v for v in state.vehicles if v.start]
    if starters:
        lines.append("  start: " + ", ".join(f"{v.id}@{chr(97 + v.at[0])}" for v in starters if v.at is not None))
    return "\n".join(lines + dashboards(state, color))


def dashboards(state: State, color: bool = False, more=None) -> list[str]:
    """The lines under the board: the round, each player's dice, command and
    vehicles, and what the game waits on.  ``more(player)`` adds text to a
    player's line (Carnival's scrap)."""
    lines = [""]
    if state.phase == "over":
        now = f"game over: {state.winner} wins" if state.winner else "game over: no winner"
    else:
        now = f"{state.turn.player} to play" if state.turn else ""
    lines.append(f"round {state.round}   road die {state.road_die}   {now}".rstrip())
    for p in state.players:
        head = f"{p.name} ({p.color}, {p.crew})" + (" OUT" if p.out else "") + (more(p) if more else "")
        dice = " ".join(map(str, p.dice)) or "-"
        looks = LOOKS[p.crew]
        lines.append(paint(head, p.color, color) + f"  dice: {dice}" + looks.dashboard(p))
        lines.extend(looks.vehicle_line(v, _at(v) or "-") for v in state.vehicles if v.owner == p.name)
    if state.phase == "over":
        lines.append(f"game over: {state.winner or 'no winner'} ({state.end_reason})")
    else:
        d, shown = _pending(state)
        if d is not None:
            more = f" ... ({len(shown)} options)" if len(shown) > 8 else ""
            lines.append(f"waiting on {d.player}: {d.kind}: {', '.join(shown[:8])}{more}")
    return lines


LEGEND = """\
Legend (trv show, Vendetta): the front of the road is at the top.
  [RM]  a car: its owner's colour initial (R red, B blue, G green, Y yellow...)
        and its size S, M or L; lower case (rm) when inoperable
  R3    a motorcycle (Final Five): colour initial and its marking 1-5;
        two vehicles sharing a space are drawn side by side (R3BM)
  [RM^  a car on a chopper's space
  ^B    a chopper (^ and its owner's colour initial)
  [XX]  a wreck
   .    road            :    off-road        ~    mud        ###  impassable
   ?    a face-down hazard token; once revealed: r road, m mud, o oil slick,
        * mine, w wreckage
  rows  the number is the space number in lanes a, c and e; a row marked
        with + (12+) holds lanes b, d and f, whose spaces sit half a space
        ahead of a, c and e (the staggered grid), so b12 is drawn on row 12+
  start: the cars still in the starting area, behind the rear piece, by lane"""


def legend() -> str:
    """What every symbol of :func:`render` means."""
    return LEGEND
