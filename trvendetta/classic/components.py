"""Component data for Thunder Road (1986): the two boards, the line-up, the dice.

Loaded from ``trvendetta/data/classic/`` and validated at start-up; a
malformed file raises :class:`DataError` naming the file and the field (TOML
syntax errors carry the line).  The engine never hard-codes a wreck space,
a start space or a die face.

Coordinates: lane ``L`` (1 to 7 in the data) is lane index ``L - 1`` of the
one geometry; board ``k`` of a game holds squares ``14k + 1 .. 14k + 14`` of
every lane, so a space name (``d18``) means the same space all game.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path

import msgspec

from ..core import geometry
from ..core.errors import DataError

Space = tuple[int, int]
RANKS = (6, 5, 4)


class Components(msgspec.Struct, frozen=True):
    lanes: int
    squares: int
    #: lane indices (0-based) of the road
    road_lanes: tuple[int, ...]
    #: physical boards, rear first at the start
    order: tuple[str, ...]
    #: board name -> red X marks as (lane index, square 1..squares)
    marks: dict[str, tuple[tuple[int, int], ...]]
    #: colour -> lane index of its line-up
    start_lanes: dict[str, int]
    #: rank -> square on the rear board
    start_squares: dict[int, int]
    yellow: tuple[int, ...]
    black: tuple[int, ...]
    red: tuple[int, ...]
    crash_pass: int

    def board_of(self, space: Space) -> int:
        """The game board index (0 = the first rear board) holding ``space``."""
        return (geometry.number(space) - 1) // self.squares

    def board_spaces(self, board: int) -> tuple[int, int]:
        """First and last space number of game board ``board``."""
        return board * self.squares + 1, board * self.squares + self.squares

    def wreck_spaces(self, name: str, board: int) -> tuple[Space, ...]:
        """The marked wreck spaces of physical board ``name`` lying as game board ``board``."""
        return tuple(sorted(geometry.at_number(lane, board * self.squares + sq) for lane, sq in self.marks[name]))

    def start_space(self, color: str, rank: int, rear: int = 0) -> Space:
        return geometry.at_number(self.start_lanes[color], rear * self.squares + self.start_squares[rank])


def _toml(text: str, file: str) -> dict:
    import tomllib  # here, not at the top: reading a stored game never parses a data file (trv show)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, "toml", str(exc)) from None


def _int(value: object, file: str, field: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DataError(file, field, f"{value!r} must be an integer {lo}-{hi}")
    return value


def parse_board(text: str, file: str = "board.toml") -> dict:
    data = _toml(text, file)
    for key in ("lanes", "squares", "road_lanes", "order", "boards", "start"):
        if key not in data:
            raise DataError(file, key, "missing")
    lanes = _int(data["lanes"], file, "lanes", 1, 26)
    squares = _int(data["squares"], file, "squares", 2, 99)
    if not isinstance(data["road_lanes"], list) or not data["road_lanes"]:
        raise DataError(file, "road_lanes", "must be a non-empty list of lanes")
    road = tuple(_int(v, file, "road_lanes", 1, lanes) - 1 for v in data["road_lanes"])
    order = data["order"]
    boards = data["boards"]
    if not isinstance(boards, dict):
        raise DataError(file, "boards", "must be a table of boards")
    if not isinstance(order, list) or len(order) != 2 or len(set(order)) != 2:
        raise DataError(file, "order", "must name the two boards, rear first")
    marks = {}
    for name in order:
        if name not in boards:
            raise DataError(file, f"boards.{name}", "missing board named in 'order'")
    for name, board in boards.items():
        if name not in order:
            raise DataError(file, f"boards.{name}", f"board not named in 'order' {order}")
        wrecks = board.get("wrecks") if isinstance(board, dict) else None
        if not isinstance(wrecks, list):
            raise DataError(file, f"boards.{name}.wrecks", "must be a list of [lane, square] pairs")
        out = []
        for i, pair in enumerate(wrecks):
            field = f"boards.{name}.wrecks[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise DataError(file, field, "must be a [lane, square] pair")
            lane = _int(pair[0], file, field, 1, lanes) - 1
            sq = _int(pair[1], file, field, 1, squares)
            if (lane, sq) in out:
                raise DataError(file, field, "space marked twice")
            out.append((lane, sq))
        marks[name] = tuple(out)
    start = data["start"]
    ranks = start.get("ranks") if isinstance(start, dict) else None
    if not isinstance(ranks, dict) or sorted(ranks) != sorted(str(r) for r in RANKS):
        raise DataError(file, "start.ranks", f"must give a square for each rank {RANKS}")
    squares_by_rank = {int(r): _int(v, file, f"start.ranks.{r}", 1, squares) for r, v in ranks.items()}
    start_lanes = start.get("lanes")
    if not isinstance(start_lanes, dict) or not start_lanes:
        raise DataError(file, "start.lanes", "must map each colour to its lane")
    lanes_by_color = {}
    for color, lane in start_lanes.items():
        lanes_by_color[color] = _int(lane, file, f"start.lanes.{color}", 1, lanes) - 1
    if len(set(lanes_by_color.values())) != len(lanes_by_color):
        raise DataError(file, "start.lanes", "two colours share a lane")
    first = order[0]
    for color, lane in lanes_by_color.items():
        for rank, sq in squares_by_rank.items():
            if (lane, sq) in marks[first]:
                raise DataError(file, f"start.lanes.{color}", f"rank {rank} starts on a wreck space")
    return dict(lanes=lanes, squares=squares, road_lanes=road, order=tuple(order), marks=marks,
                start_lanes=lanes_by_color, start_squares=squares_by_rank)


def parse_dice(text: str, file: str = "dice.toml") -> dict:
    data = _toml(text, file)
    dice = data.get("dice")
    if not isinstance(dice, dict):
        raise DataError(file, "dice", "missing table")
    out: dict[str, tuple[int, ...] | int] = {}
    for name in ("yellow", "black", "red"):
        die = dice.get(name)
        if not isinstance(die, dict):
            raise DataError(file, f"dice.{name}", "missing die")
        faces = die.get("faces")
        if not isinstance(faces, list) or not faces:
            raise DataError(file, f"dice.{name}.faces", "must be a non-empty list of numbers")
        out[name] = tuple(_int(f, file, f"dice.{name}.faces", 1, 9) for f in faces)
    rules = data.get("rules", {})
    out["crash_pass"] = _int(rules.get("crash_pass"), file, "rules.crash_pass", 1, 7)
    return out


def load(folder: Path | None = None) -> Components:
    """Load and validate all classic component data (from a folder, for tests)."""

    def read(name: str) -> str:
        from importlib import resources  # only when data files are read (a new game), not on trv show

        if folder is not None:
            return (Path(folder) / name).read_text(encoding="utf-8")
        return resources.files("trvendetta").joinpath("data", "classic", name).read_text(encoding="utf-8")

    return Components(**parse_board(read("board.toml")), **parse_dice(read("dice.toml")))


@lru_cache(maxsize=1)
def default() -> Components:
    """The shipped components, loaded once."""
    return load()
