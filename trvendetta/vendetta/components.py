"""Component data for Vendetta: tiles, dice faces, token mixes, vehicles, crews.

Loaded from ``trvendetta/data/vendetta/`` and validated when a game is set
up; a malformed file raises :class:`DataError` naming the file and the line
or field.  The engine never hard-codes a die face, a token count, a vehicle's
size or the lane count: a game's components ride in its first event
(``GameStarted.components``) and live in its state, so folding a game never
reads these files and editing them never changes an old game.  Games
recorded before that carry no components and fold with ``components_v1.v1()``
(the data as it was, frozen as code).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from pathlib import Path

import msgspec

from ..core.errors import DataError

LANES = 6
ROWS = 8
HALF = 2 * ROWS  # half-spaces per tile

TERRAIN_SYMBOLS = {".": "road", ":": "offroad", "~": "mud", "#": "impassable", "*": "road", "+": "offroad"}
HAZARD_SYMBOLS = {"*": 0, "+": 0, "2": 2, "3": 3, "4": 4}
SIZES = {"small": "S", "medium": "M", "large": "L"}  # a crew's size names -> the size letters
SIZE_LETTERS = ("S", "M", "L")  # the sizes of the shot die and the slam rules
FACINGS = ("F", "FR", "BR", "B", "BL", "FL")  # a vehicle may face any of the six directions
DIE_NAMES = ("movement", "road", "shot", "slam", "direction", "stunt")
HAZARD_KINDS = ("road", "mud", "oil-slick", "mine", "wreckage")
DAMAGE_KINDS = ("dent", "skid-FL", "skid-FR", "skid-BL", "skid-BR", "shrapnel", "dazed", "blast-off")


class TileSide(msgspec.Struct, frozen=True):
    """One side of a road tile: terrain per (lane, row) and its hazard spaces."""

    name: str
    tile: int
    start: bool
    #: terrain[row][lane], row 0 = rear row (space 1 of the tile)
    terrain: tuple[tuple[str, ...], ...]
    #: (lane, row, min_players) of each hazard space; min_players 0 = always
    hazards: tuple[tuple[int, int, int], ...]


class Die(msgspec.Struct, frozen=True):
    name: str
    faces: tuple[str, ...]


class VehicleKind(msgspec.Struct, frozen=True):
    """A kind of vehicle: its size (S, M or L: shots and slams) and how many
    spaces it takes in a line (1 for a car; 3 for a Big Rig, cab first)."""

    name: str
    size: str
    sections: int = 1


class Crew(msgspec.Struct, frozen=True):
    """A crew as data: its vehicles (names; for cars the name is the kind),
    how many movement dice it rolls and which die, the vehicle kind and size
    when every vehicle shares one (the Final Five's motorcycles), how many
    damage tokens make a vehicle inoperable, and how often one may coast.
    A vehicle's size and sections come from its kind (``Components.vehicles``)."""

    name: str
    vehicles: tuple[str, ...]
    dice: int
    die: str = "movement"
    kind: str | None = None  # None: each vehicle's name is its kind and size (cars)
    size: str | None = None
    slots: int = 2
    coast: int = 2

    def kind_of(self, vehicle: str, kinds: dict[str, VehicleKind]) -> str:
        """A vehicle's kind; each section of a kind of many sections (``kinds``: the
        components' vehicle kinds; the Big Rig's three) is a vehicle of kind ``KIND-NAME``."""
        if self.kind is not None and self.kind in kinds and kinds[self.kind].sections > 1:
            return f"{self.kind}-{vehicle}"
        return self.kind or vehicle


class Components(msgspec.Struct, frozen=True):
    sides: dict[str, TileSide]
    dice: dict[str, Die]
    hazards: dict[str, int]
    damage: dict[str, int]
    crews: dict[str, Crew]
    vehicles: dict[str, VehicleKind] = {}
    lanes: int = LANES
    rows: int = ROWS  # rows of spaces per tile

    @property
    def half(self) -> int:
        """Half-spaces per tile (a tile of ``rows`` rows holds ``2 * rows``)."""
        return 2 * self.rows

    def tiles(self) -> dict[int, tuple[str, str]]:
        """Physical tiles: number -> its two side names."""
        out: dict[int, list[str]] = {}
        for side in self.sides.values():
            out.setdefault(side.tile, []).append(side.name)
        return {k: tuple(v) for k, v in sorted(out.items())}  # type: ignore[misc]

    def start_sides(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides.values() if s.start)


def parse_tiles(text: str, file: str = "tiles.txt") -> dict[str, TileSide]:
    """Parse the tile map format documented at the top of ``tiles.txt``."""
    sides: dict[str, TileSide] = {}
    header: tuple[str, int, bool, int] | None = None
    rows: list[tuple[int, list[str]]] = []

    def finish() -> None:
        if header is None:
            return
        side_name, tile, start, line_no = header
        if len(rows) != ROWS:
            raise DataError(file, f"line {line_no}", f"side {side_name!r} has {len(rows)} rows, expected {ROWS}")
        terrain: list[tuple[str, ...]] = [()] * ROWS
        hazards = []
        for expected, (line, symbols) in zip(range(ROWS, 0, -1), rows):
            row = expected - 1
            lane_terrain = []
            for lane, sym in enumerate(symbols):
                if sym in TERRAIN_SYMBOLS:
                    lane_terrain.append(TERRAIN_SYMBOLS[sym])
                elif sym in "234":
                    if not start:
                        raise DataError(file, f"line {line}", f"player-count hazard {sym!r} outside a starting piece")
                    lane_terrain.append("road")
                else:
                    raise DataError(file, f"line {line}", f"unknown symbol {sym!r}; legend: . : ~ # * + 2 3 4")
                if sym in HAZARD_SYMBOLS:
                    hazards.append((lane, row, HAZARD_SYMBOLS[sym]))
            terrain[row] = tuple(lane_terrain)
        sides[side_name] = TileSide(side_name, tile, start, tuple(terrain), tuple(sorted(hazards)))

    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip() if raw.lstrip().startswith("#") else raw.rstrip()
        if not line.strip():
            continue
        if line.startswith("="):
            finish()
            parts = [p.strip() for p in line[1:].split("|")]
            if len(parts) < 2 or not parts[1].startswith("tile "):
                raise DataError(file, f"line {line_no}", "header must be '= NAME | tile N [| start]'")
            try:
                tile = int(parts[1][5:])
            except ValueError:
                raise DataError(file, f"line {line_no}", f"tile number {parts[1][5:]!r} is not an integer") from None
            if parts[0] in sides:
                raise DataError(file, f"line {line_no}", f"side {parts[0]!r} defined twice")
            extra = parts[2:]
            if extra not in ([], ["start"]):
                raise DataError(file, f"line {line_no}", f"unknown header flag {extra!r}; only 'start'")
            header = (parts[0], tile, extra == ["start"], line_no)
            rows = []
            continue
        if header is None:
            raise DataError(file, f"line {line_no}", "map row before any '= NAME | tile N' header")
        cells = line.split()
        try:
            row_number = int(cells[0])
        except ValueError:
            raise DataError(file, f"line {line_no}", f"row must start with its number, got {cells[0]!r}") from None
        expected = ROWS - len(rows)
        if row_number != expected:
            raise DataError(file, f"line {line_no}", f"expected row {expected}, got {row_number}")
        if len(cells) - 1 != LANES:
            raise DataError(file, f"line {line_no}", f"row has {len(cells) - 1} lanes, expected {LANES}")
        rows.append((line_no, cells[1:]))
    finish()
    if not sides:
        raise DataError(file, "line 1", "no tile sides defined")
    return sides


def _toml(text: str, file: str) -> dict:
    import tomllib  # here, not at the top: reading a stored game never parses a data file (trv show)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, "toml", str(exc)) from None


def parse_dice(text: str, file: str = "dice.toml") -> dict[str, Die]:
    data = _toml(text, file).get("dice", {})
    dice = {}
    for name in DIE_NAMES:
        if name not in data:
            raise DataError(file, f"dice.{name}", "missing die")
        faces = data[name].get("faces")
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) for f in faces):
            raise DataError(file, f"dice.{name}.faces", "must be a non-empty list of strings")
        dice[name] = Die(name, tuple(faces))
    for name, check in (("movement", "123456"), ("road", "123456"), ("stunt", "123456789")):
        for face in dice[name].faces:
            if face not in check:
                raise DataError(file, f"dice.{name}.faces", f"face {face!r} is not a number 1-6")
    for name, spec in data.items():
        if name in dice:
            continue
        faces = spec.get("faces") if isinstance(spec, dict) else None
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) and f in "123456" and f for f in faces):
            raise DataError(file, f"dice.{name}.faces", "a crew's movement die lists faces among 1-6")
        dice[name] = Die(name, tuple(faces))
    for face in dice["shot"].faces:
        if not face or set(face) - set("SML"):
            raise DataError(file, "dice.shot.faces", f"face {face!r} must be made of S, M and L")
    for face in dice["slam"].faces:
        if face not in ("TOP", "BOTTOM"):
            raise DataError(file, "dice.slam.faces", f"face {face!r} must be TOP or BOTTOM")
    for face in dice["direction"].faces:
        if face not in ("F", "FL", "FR", "B", "BL", "BR"):
            raise DataError(file, "dice.direction.faces", f"face {face!r} is not a direction")
    return dice


def _mix(data: dict, section: str, kinds: tuple[str, ...], file: str) -> dict[str, int]:
    mix = data.get(section)
    if not isinstance(mix, dict):
        raise DataError(file, section, "missing table")
    for kind, count in mix.items():
        if kind not in kinds:
            raise DataError(file, f"{section}.{kind}", f"unknown token; known: {', '.join(kinds)}")
        if not isinstance(count, int) or count < 0:
            raise DataError(file, f"{section}.{kind}", "count must be a non-negative integer")
    return {k: mix.get(k, 0) for k in kinds}


def parse_vehicles(data: dict, file: str = "tokens.toml") -> dict[str, VehicleKind]:
    """The ``[vehicles.KIND]`` tables: ``size`` (S, M or L) and ``sections``."""
    kinds = {}
    for name, kind in data.get("vehicles", {}).items():
        if not isinstance(kind, dict) or kind.get("size") not in SIZE_LETTERS:
            raise DataError(file, f"vehicles.{name}.size", f"must be one of {', '.join(SIZE_LETTERS)}")
        sections = kind.get("sections", 1)
        if not isinstance(sections, int) or not 1 <= sections <= 3:
            raise DataError(file, f"vehicles.{name}.sections", "must be an integer 1-3")
        kinds[name] = VehicleKind(name, kind["size"], sections)
    if not kinds:
        raise DataError(file, "vehicles", "missing table: no vehicle kinds")
    return kinds


def parse_tokens(text: str, file: str = "tokens.toml") -> tuple[dict[str, int], dict[str, int], dict[str, Crew],
                                                                  dict[str, VehicleKind]]:
    data = _toml(text, file)
    hazards = _mix(data, "hazard", HAZARD_KINDS, file)
    damage = _mix(data, "damage", DAMAGE_KINDS, file)
    kinds = parse_vehicles(data, file)
    crews = {}
    for name, crew in data.get("crews", {}).items():
        unknown = set(crew) - {"vehicles", "dice", "die", "kind", "size", "slots", "coast"}
        if unknown:
            raise DataError(file, f"crews.{name}", f"unknown field(s) {', '.join(sorted(unknown))}")
        vehicles = crew.get("vehicles")
        kind, size = crew.get("kind"), crew.get("size")
        if (kind is None) != (size is None):
            raise DataError(file, f"crews.{name}", "give both 'kind' and 'size', or neither (cars)")
        if size is not None and size not in SIZES:
            raise DataError(file, f"crews.{name}.size", f"{size!r}; one of {', '.join(SIZES)}")
        if kind is not None and kind not in kinds:
            raise DataError(file, f"crews.{name}.kind", f"{kind!r}; known: {', '.join(kinds)}")
        if kind is not None and SIZES[size] != kinds[kind].size:
            raise DataError(file, f"crews.{name}.size", f"{size!r}, but a {kind} is size {kinds[kind].size}")
        if not isinstance(vehicles, list) or not vehicles or len(set(vehicles)) != len(vehicles):
            raise DataError(file, f"crews.{name}.vehicles", "must list the crew's vehicles, each once")
        if kind is None and any(v not in kinds for v in vehicles):
            raise DataError(file, f"crews.{name}.vehicles", f"must list vehicle kinds among {', '.join(kinds)}")
        if not all(isinstance(v, str) and v.isalnum() and v.islower() for v in vehicles):
            raise DataError(file, f"crews.{name}.vehicles", "vehicle names are lower-case letters and digits")
        if not isinstance(crew.get("dice"), int) or not 1 <= crew["dice"] <= 8:
            raise DataError(file, f"crews.{name}.dice", "must be an integer 1-8")
        for field, low, high in (("slots", 1, 2), ("coast", 0, 8)):
            value = crew.get(field, 2)
            if not isinstance(value, int) or not low <= value <= high:
                raise DataError(file, f"crews.{name}.{field}", f"must be an integer {low}-{high}")
        crews[name] = Crew(name, tuple(vehicles), crew["dice"], crew.get("die", "movement"), kind, size,
                           crew.get("slots", 2), crew.get("coast", 2))
    if "cars" not in crews:
        raise DataError(file, "crews.cars", "missing the base car crew")
    return hazards, damage, crews, kinds


def load(folder: Path | None = None) -> Components:
    """Load and validate all Vendetta component data (from a folder, for tests)."""

    def read(name: str) -> str:
        from importlib import resources  # only when data files are read (a new game), not on trv show

        if folder is not None:
            return (Path(folder) / name).read_text(encoding="utf-8")
        return resources.files("trvendetta").joinpath("data", "vendetta", name).read_text(encoding="utf-8")

    sides = parse_tiles(read("tiles.txt"))
    dice = parse_dice(read("dice.toml"))
    hazards, damage, crews, vehicles = parse_tokens(read("tokens.toml"))
    for crew in crews.values():
        if crew.die not in dice:
            raise DataError("tokens.toml", f"crews.{crew.name}.die", f"{crew.die!r} is not a die in dice.toml")
    comps = Components(sides, dice, hazards, damage, crews, vehicles)
    tiles = comps.tiles()
    for number, names in tiles.items():
        if len(names) != 2:
            raise DataError("tiles.txt", f"tile {number}", f"a tile has two sides, found {len(names)}: {', '.join(names)}")
    if len(comps.start_sides()) != 2 or len({comps.sides[s].tile for s in comps.start_sides()}) != 1:
        raise DataError("tiles.txt", "start", "exactly one tile (both sides) must be marked 'start'")
    return comps


#: crews kept outside the data files (a plug-in's, :func:`register_crew`), each with the vehicle
#: kinds it brings and the rulesets that take it; a new game's components take one only when a
#: seat plays it (:func:`with_crews`)
_EXTRA: dict[str, tuple[Crew, tuple[VehicleKind, ...], tuple[str, ...]]] = {}


def register_crew(crew: Crew, vehicles: tuple[VehicleKind, ...] = (), rulesets: tuple[str, ...] = ()) -> Crew:
    """Make ``crew`` (and the vehicle kinds it brings) a crew new games of the rulesets called
    ``rulesets`` may seat (none named: every ruleset built on Vendetta's)."""
    _EXTRA[crew.name] = (crew, vehicles, rulesets)
    return crew


def extra_crews(ruleset: str) -> tuple[str, ...]:
    """The names of the crews registered with :func:`register_crew` that ``ruleset`` takes
    (every installed crew plug-in imported first: the ``trvendetta.crews`` entry points)."""
    from .. import plugins

    plugins.load_all(plugins.CREWS)
    return tuple(n for n, (_, _, takes) in _EXTRA.items() if not takes or ruleset in takes)


def with_crews(c: Components, names, ruleset: str) -> Components:
    """``c`` with the registered crews among ``names`` that ``ruleset`` takes (and their vehicle
    kinds) and ``c`` lacks: a game's recorded components hold only the crews it may seat, so a
    game seating none of them records the same components as before any was registered."""
    extra = extra_crews(ruleset)
    add = [n for n in dict.fromkeys(names) if n in extra and n not in c.crews]
    if not add:
        return c
    kinds = {k.name: k for n in add for k in _EXTRA[n][1]}
    return msgspec.structs.replace(c, crews={**c.crews, **{n: _EXTRA[n][0] for n in add}},
                                   vehicles={**c.vehicles, **kinds})


def default() -> Components:
    """The shipped components, read from the data files (at set-up only: a
    game's rules and fold take its components from its first event)."""
    return load()

