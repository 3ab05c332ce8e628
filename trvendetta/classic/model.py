"""The Thunder Road (1986) vocabulary: the state of a game as frozen msgspec structs.

Read like the rulebook: players each own three cars (ranks 6, 5 and 4) and a
chopper; two boards lie on the table (rear and lead); black wrecks sit on
spaces; the active player's turn holds the yellow dice still to use, the
black (road) die and the move in progress.  Spaces are ``(lane, y)`` tuples
(see core.geometry).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import msgspec

Space = tuple[int, int]


class Player(msgspec.Struct, frozen=True):
    name: str
    color: str
    crew: str = "cars"
    #: the yellow dice of this player's latest roll
    dice: tuple[int, ...] = ()
    out: bool = False


class Car(msgspec.Struct, frozen=True):
    """A car: ``status`` is running, wrecked or dumped (``at`` is None once dumped).

    ``moved`` (its die is used), ``landed`` (it finished a full count) and
    ``attacked`` are this turn's flags, cleared when its owner's turn starts.
    """

    id: str
    owner: str
    rank: int
    at: Space | None
    status: str = "running"
    moved: bool = False
    landed: bool = False
    attacked: bool = False


class Chopper(msgspec.Struct, frozen=True):
    """A player's chopper: off the board (``at`` None) until it attacks.

    ``next_board`` is the lowest game board it may still attack on: once per
    board, and never back on a board it skipped.
    """

    owner: str
    at: Space | None = None
    next_board: int = 0


class Move(msgspec.Struct, frozen=True):
    """The car being moved, one step at a time."""

    car: str
    steps_left: int
    road: bool = False
    taken: int = 0


class Turn(msgspec.Struct, frozen=True):
    player: str
    #: yellow dice not yet assigned
    dice: tuple[int, ...] = ()
    road_die: int | None = None
    #: the repair window closes with a repair, a refusal or the first assigned die
    repair_done: bool = False
    move: Move | None = None
    chopper_used: bool = False


class Board(msgspec.Struct, frozen=True):
    """A board on the table: game board ``index`` (0 = the first rear board),
    the physical board's ``name`` and the space numbers it holds."""

    index: int
    name: str
    first: int
    last: int


class State(msgspec.Struct, frozen=True):
    seed: int = 0
    version: int = 0
    rules_version: str = ""
    phase: str = "new"  # new | playing | over
    players: tuple[Player, ...] = ()
    cars: tuple[Car, ...] = ()
    #: black wrecks (wrecked cars are cars with status "wrecked")
    wrecks: tuple[Space, ...] = ()
    choppers: tuple[Chopper, ...] = ()
    #: the two boards on the table, rear first
    boards: tuple[Board, ...] = ()
    round: int = 0
    #: whose turn it is (or whose turn starts next)
    active: str | None = None
    turn: Turn | None = None
    winner: str | None = None
    end_reason: str | None = None
    #: scripted dice still to come, per colour: yellow, black, red
    script: dict[str, tuple[int, ...]] = {}

    def car(self, car_id: str) -> Car:
        for c in self.cars:
            if c.id == car_id:
                return c
        raise KeyError(car_id)

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def chopper(self, owner: str) -> Chopper:
        for ch in self.choppers:
            if ch.owner == owner:
                return ch
        raise KeyError(owner)
