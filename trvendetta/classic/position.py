"""Positions: set up any Thunder Road (1986) game directly, like a chess FEN.

A :class:`Position` is what ``trv new --position FILE`` reads (TOML with
``ruleset = "classic"``).  Omitted parts take the rulebook's set-up:
``boards`` the two boards rear first (from the data), ``cars`` the starting
line-up (when ``cars`` is given, every car not listed is dumped), ``wrecks``
a black wreck on every marked space of both boards (``wrecks = []`` for none),
``choppers`` off the board.  The first turn's dice come from the seed unless
``[script]`` lists them: ``yellow``, ``black`` and ``red`` queues of die
values, used first, in order, by every roll of that colour.

``resolve`` validates and fills in the omitted parts; the resolved position is
what ``GameStarted`` records, so folding never needs the data files.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import msgspec

from ..core import geometry
from ..core.bases import Strict
from ..core.errors import PositionError
from ..core.setup import Name, check_count, check_script, check_seats, decode_position, parse_space
from . import components as comp



class PlayerSetup(Strict, frozen=True):
    name: Name
    color: Name
    crew: str = "cars"


class CarSetup(Strict, frozen=True):
    """A car: ``at`` is a space name or ``"dumped"``; ``status`` running or wrecked."""

    id: str
    at: str
    status: str = "running"


class ChopperSetup(Strict, frozen=True):
    owner: str
    at: str | None = None
    #: the lowest game board (0 = the first rear board) it may still attack on
    next_board: int | None = None


class Script(Strict, frozen=True):
    yellow: tuple[int, ...] = ()
    black: tuple[int, ...] = ()
    red: tuple[int, ...] = ()


class Position(Strict, frozen=True):
    players: tuple[PlayerSetup, ...]
    ruleset: str = "classic"
    seed: int = 0
    round: int = 1
    active_player: str | None = None
    #: game board index of the rear board (the lead board is the next one)
    rear_board: int = 0
    boards: tuple[str, ...] | None = None
    cars: tuple[CarSetup, ...] | None = None
    wrecks: tuple[str, ...] | None = None
    choppers: tuple[ChopperSetup, ...] = ()
    script: Script = Script()


def _space(text: str, field: str, c: comp.Components, boards: tuple[int, int]) -> tuple[int, int]:
    space = parse_space(text, field)
    first = c.board_spaces(boards[0])[0]
    last = c.board_spaces(boards[1])[1]
    if not 0 <= space[0] < c.lanes or not first <= geometry.number(space) <= last:
        raise PositionError(field, f"{text} is not on the boards (lanes a-{geometry.LANE_LETTERS[c.lanes - 1]}, "
                                   f"spaces {first}-{last})")
    return space


def resolve(pos: Position, components: comp.Components | None = None) -> Position:
    """Validate ``pos`` and fill in every omitted part; raises PositionError naming the field."""
    c = components or comp.default()
    check_seats("classic", pos.ruleset, pos.players, "Thunder Road", seed=pos.seed)
    names = [p.name for p in pos.players]
    for i, p in enumerate(pos.players):
        if p.color not in c.start_lanes:
            raise PositionError(f"players[{i}].color", f"{p.color!r} has no start lane; colors: {', '.join(c.start_lanes)}",
                                tuple(c.start_lanes))
        if p.crew != "cars":
            raise PositionError(f"players[{i}].crew", f"{p.crew!r}; the 1986 game has only the 'cars' crew", ("cars",))
    check_count(pos.round, "round", 1)
    check_count(pos.rear_board, "rear_board")
    check_script(pos.script)
    rear, lead = pos.rear_board, pos.rear_board + 1
    boards = pos.boards
    if boards is None:
        boards = c.order if rear % 2 == 0 else tuple(reversed(c.order))
    if len(boards) != 2 or sorted(boards) != sorted(c.order):
        raise PositionError("boards", f"{list(boards)}; name the two boards {', '.join(c.order)}, rear first")
    # cars
    owner = {f"{p.color}-{r}": p.name for p in pos.players for r in comp.RANKS}
    count: dict[tuple[int, int], int] = {}
    if pos.cars is None:
        if rear != 0:
            raise PositionError("cars", "the starting line-up is on board 0; list the cars for a later rear board")
        cars = tuple(CarSetup(f"{p.color}-{r}", geometry.name(c.start_space(p.color, r)))
                     for p in pos.players for r in comp.RANKS)
    else:
        listed = {}
        for i, car in enumerate(pos.cars):
            if car.id not in owner:
                raise PositionError(f"cars[{i}].id", f"unknown car {car.id!r}; known: {', '.join(owner)}")
            if car.id in listed:
                raise PositionError(f"cars[{i}].id", f"{car.id} listed twice")
            if car.status not in ("running", "wrecked"):
                raise PositionError(f"cars[{i}].status", f"{car.status!r}; running or wrecked (at = 'dumped' for dumped)")
            listed[car.id] = car
        cars = tuple(listed.get(cid, CarSetup(cid, "dumped")) for cid in owner)
    for i, car in enumerate(cars):
        if car.at != "dumped":
            space = _space(car.at, f"cars[{i}].at", c, (rear, lead))
            count[space] = count.get(space, 0) + 1
    # wrecks
    if pos.wrecks is None:
        wrecks = tuple(geometry.name(s) for b, nm in ((rear, boards[0]), (lead, boards[1])) for s in c.wreck_spaces(nm, b))
    else:
        wrecks = pos.wrecks
    seen = set()
    for i, w in enumerate(wrecks):
        space = _space(w, f"wrecks[{i}]", c, (rear, lead))
        if space in seen:
            raise PositionError(f"wrecks[{i}]", f"two black wrecks on {w}")
        seen.add(space)
        count[space] = count.get(space, 0) + 1
    for space, k in count.items():
        if k > 2:
            raise PositionError("cars", f"{k} cars and wrecks on {geometry.name(space)}; at most two share a space")
    # players still in the game and the game not already decided
    alive = [p.name for p in pos.players if any(car.at != "dumped" for car in cars if owner[car.id] == p.name)]
    if len(alive) < 2:
        raise PositionError("cars", "fewer than two players have a car on the boards; the game would be over")
    running = {owner[car.id] for car in cars if car.at != "dumped" and car.status == "running"}
    if len(running) == 1:
        raise PositionError("cars", f"only {running.pop()} has running cars; the game would be over")
    active = pos.active_player if pos.active_player is not None else alive[0]
    if active not in names:
        raise PositionError("active_player", f"{active!r} is not a player; players: {', '.join(names)}")
    if active not in alive:
        raise PositionError("active_player", f"{active} is out of the game (every car dumped)")
    # choppers
    given = {}
    for i, ch in enumerate(pos.choppers):
        if ch.owner not in names:
            raise PositionError(f"choppers[{i}].owner", f"{ch.owner!r} is not a player")
        if ch.owner in given:
            raise PositionError(f"choppers[{i}].owner", f"two choppers for {ch.owner}")
        if ch.at is not None:
            _space(ch.at, f"choppers[{i}].at", c, (rear, lead))
        if ch.next_board is not None:
            check_count(ch.next_board, f"choppers[{i}].next_board")
        given[ch.owner] = ch
    choppers = []
    for name in names:
        ch = given.get(name, ChopperSetup(name))
        choppers.append(ChopperSetup(name, ch.at, rear if ch.next_board is None else ch.next_board))
    # script
    for field, faces in (("yellow", c.yellow), ("black", c.black), ("red", c.red)):
        for v in getattr(pos.script, field):
            if v not in faces:
                raise PositionError(f"script.{field}", f"{v} is not a face of the {field} die; faces: "
                                                       f"{', '.join(map(str, sorted(set(faces))))}")
    return msgspec.structs.replace(pos, active_player=active, boards=tuple(boards), cars=cars, wrecks=tuple(wrecks),
                                   choppers=tuple(choppers))


def from_dict(data: dict) -> Position:
    """Decode (strictly) and validate a position read from TOML or JSON."""
    return resolve(decode_position(data, Position))
