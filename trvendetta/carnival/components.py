"""Component data for Carnival of Chaos: the arena sides, Tina's cards, the
super-weapon deck and the party favors.

Read from ``trvendetta/data/carnival/`` (``arena.txt``, ``cards.toml``) and
validated at load: a malformed file raises :class:`DataError` naming the file
and the line or field.  Like Vendetta's, these components are meant to be
injected: a game records them in its first event and every rule reads them
from the state, so editing the files never changes an old game.  The road
tiles, dice and crews are Vendetta's (``vendetta.components``), carried in
:attr:`CarnivalComponents.vendetta`.

The arena map, the two sides, Tina's nine cards and the card counts are our
design (rules-facts.md section 4; docs/rules-decisions.md "Carnival of Chaos").
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import re
import tomllib
from importlib import resources
from pathlib import Path

import msgspec

from ..core import geometry
from ..core.errors import DataError, NotationError
from ..vendetta import components as vendetta_components
from ..vendetta.components import Components

Space = tuple[int, int]

SIDES = ("haulasseum", "slaytona")
PILLARS = "ABCDEFGHI"
SLOT_ROWS = 6  # rows of a road tile left uncovered by the arena board (rows 7-8 lie under it)
SLOT_LANES = 6
SUPER_WEAPON_SPACES = 6
SUPER_WEAPONS = ("amplifier", "auto-cannon", "big-friendly-gun", "cluster-missiles", "energizer",
                 "laser-kebab", "thwumper")
PARTY_FAVORS = ("bootleg-turn", "double-barrel", "full-throttle", "killer-pillar", "mega-repair",
                "precision", "solid-gold-muffler")
DECREES = ("commit-to-the-crash", "danger-ahead", "in-the-mood-for-mayhem", "lets-get-wild",
           "lets-keep-it-close", "whatever-it-takes")
MAP_SYMBOLS = {".": "arena", "S": "spotlight", "P": "favor", "W": "weapon"}


class Slot(msgspec.Struct, frozen=True):
    """A road-tile slot of the foundation board: the tile placed there runs
    ``forward``; ``spaces[row * 6 + lane]`` is the board space of its lane
    ``lane`` (0 = a), row ``row`` (0 = row 1); ``entrances`` are the arena
    spaces its cars may enter (the printed arrows)."""

    number: int
    forward: str
    rear_left: Space
    spaces: tuple[Space, ...]
    entrances: tuple[Space, ...]

    def local(self, space: Space) -> tuple[int, int]:
        """(lane, row) on the tile of a board space of this slot."""
        i = self.spaces.index(space)
        return i % SLOT_LANES, i // SLOT_LANES


class ArenaSide(msgspec.Struct, frozen=True):
    """One side of the arena and its foundation board."""

    name: str
    arena: tuple[Space, ...]  # every arena space, sorted
    pillars: dict[str, Space]  # letter -> space
    spotlights: tuple[Space, ...]
    favors: tuple[Space, ...]  # party-favor spaces of the arena (the road tiles' hazard spaces add to them)
    weapons: tuple[Space, ...]  # super-weapon spaces
    slots: tuple[Slot, ...]


class TinaCard(msgspec.Struct, frozen=True):
    """A Tina's Turn card: spotlight scrap, the pillars it flips impassable, its decree."""

    name: str
    spotlight: int
    pillars: tuple[str, ...]
    decree: str


class GameRules(msgspec.Struct, frozen=True):
    players: tuple[int, int] = (2, 4)
    rounds: int = 6
    tina_deck: int = 5
    scrap_per_damage: int = 2
    scrap_per_elimination: int = 3
    scrap_per_witnessed_attack: int = 1
    muffler_scrap: int = 2


class CarnivalComponents(msgspec.Struct, frozen=True):
    sides: dict[str, ArenaSide]
    tina: tuple[TinaCard, ...]
    super_weapons: dict[str, int]
    party_favors: dict[str, int]
    game: GameRules
    vendetta: Components


_ROW = re.compile(r"^ ?(\d{1,2})  (.*)$")
_SLOT = re.compile(r"^slot (\d+) \| forward ([A-Z]{1,2}) \| rear-left ([a-z][0-9]{1,3})$")


def slot_spaces(rear_left: Space, forward: str) -> tuple[Space, ...]:
    """The 36 uncovered spaces of a road tile whose lane a / row 1 corner is on
    ``rear_left`` and which runs ``forward``, in ``row * 6 + lane`` order: a row
    step is ``F`` and a lane step ``FR`` from an even lane, ``BR`` from an odd
    one, all turned with ``forward`` (geometry.neighbour)."""
    out = []
    row_start = rear_left
    for _ in range(SLOT_ROWS):
        space = row_start
        for lane in range(SLOT_LANES):
            out.append(space)
            space = geometry.neighbour(space, "FR" if lane % 2 == 0 else "BR", forward)
        row_start = geometry.neighbour(row_start, "F", forward)
    return tuple(out)


def _side(name: str, header_line: int, slot_lines: list[tuple[int, str]], rows: list[tuple[int, int, str]],
          file: str) -> ArenaSide:
    drawn: dict[Space, tuple[str, int]] = {}  # space -> (symbol, line)
    for line_no, y, cells in rows:
        for col, sym in enumerate(cells):
            if sym == " ":
                continue
            lane = col // 2
            if col % 2 or not geometry.is_space(lane, y):
                raise DataError(file, f"line {line_no}", f"symbol {sym!r} in column {col + 5} is not on a space of "
                                                        f"half-row {y} (lane symbols sit in every other column)")
            if sym not in MAP_SYMBOLS and sym not in PILLARS and sym not in "123":
                raise DataError(file, f"line {line_no}", f"unknown symbol {sym!r}; legend: . S P W A-I 1 2 3")
            drawn[(lane, y)] = (sym, line_no)
    slots = []
    for line_no, text in slot_lines:
        m = _SLOT.match(text)
        if not m:
            raise DataError(file, f"line {line_no}", "slot line must be 'slot N | forward DIR | rear-left SPACE'")
        number, forward = int(m.group(1)), m.group(2)
        if forward not in geometry.DIRECTIONS:
            raise DataError(file, f"line {line_no}", f"forward {forward!r}; one of {' '.join(geometry.DIRECTIONS)}")
        try:
            rear_left = geometry.parse(m.group(3))
        except NotationError as exc:
            raise DataError(file, f"line {line_no}", str(exc)) from None
        spaces = slot_spaces(rear_left, forward)
        marked = {s for s, (sym, _) in drawn.items() if sym == str(number)}
        if marked != set(spaces):
            wrong = sorted((marked ^ set(spaces)))
            raise DataError(file, f"line {line_no}", f"slot {number} covers {len(spaces)} spaces but the map draws "
                                                    f"{len(marked)} with '{number}'; differing at "
                                                    f"{', '.join(geometry.name(s) for s in wrong[:4])}")
        slots.append((number, forward, rear_left, spaces))
    if sorted(n for n, *_ in slots) != [1, 2, 3]:
        raise DataError(file, f"line {header_line}", f"side {name!r} needs slots 1, 2 and 3 (three road tiles)")
    stray = sorted(s for s, (sym, _) in drawn.items() if sym in "123" and int(sym) not in {n for n, *_ in slots})
    if stray:
        raise DataError(file, f"line {drawn[stray[0]][1]}", f"road-tile space {geometry.name(stray[0])} of no slot")
    arena = {s for s, (sym, _) in drawn.items() if sym not in "123"}
    by_symbol: dict[str, list[Space]] = {}
    for s in sorted(arena):
        by_symbol.setdefault(drawn[s][0], []).append(s)
    for letter in PILLARS:
        if len(by_symbol.get(letter, [])) != 1:
            raise DataError(file, f"line {header_line}", f"side {name!r} must draw killer pillar {letter} once, "
                                                        f"found {len(by_symbol.get(letter, []))}")
    if len(by_symbol.get("W", [])) != SUPER_WEAPON_SPACES:
        raise DataError(file, f"line {header_line}", f"side {name!r} has {len(by_symbol.get('W', []))} super-weapon "
                                                    f"spaces, expected {SUPER_WEAPON_SPACES}")
    for sym, what in (("S", "spotlight"), ("P", "party-favor")):
        if not by_symbol.get(sym):
            raise DataError(file, f"line {header_line}", f"side {name!r} has no {what} space")
    _check_connected(name, arena, header_line, file)
    built = []
    for number, forward, rear_left, spaces in sorted(slots):
        entrances = sorted({a for s in spaces for a in geometry.arc(s, forward) if a in arena})
        front = spaces[-SLOT_LANES:]
        if len(entrances) < 2 or not all(geometry.neighbour(s, "F", forward) in arena for s in front):
            raise DataError(file, f"line {header_line}", f"slot {number} of side {name!r} does not lead into the "
                                                        "arena: its front row must face arena spaces")
        built.append(Slot(number, forward, rear_left, spaces, tuple(entrances)))
    return ArenaSide(name, tuple(sorted(arena)), {p: by_symbol[p][0] for p in PILLARS}, tuple(by_symbol["S"]),
                     tuple(by_symbol["P"]), tuple(by_symbol["W"]), tuple(built))


def _check_connected(name: str, arena: set[Space], line: int, file: str) -> None:
    start = min(arena)
    seen, todo = {start}, [start]
    while todo:
        s = todo.pop()
        for d in geometry.DIRECTIONS:
            n = geometry.neighbour(s, d)
            if n in arena and n not in seen:
                seen.add(n)
                todo.append(n)
    if seen != arena:
        cut = min(arena - seen)
        raise DataError(file, f"line {line}", f"side {name!r}: arena space {geometry.name(cut)} is cut off")


def parse_arena(text: str, file: str = "arena.txt") -> dict[str, ArenaSide]:
    """Parse the arena map format documented at the top of ``arena.txt``."""
    sides: dict[str, ArenaSide] = {}
    current: tuple[str, int] | None = None
    slot_lines: list[tuple[int, str]] = []
    rows: list[tuple[int, int, str]] = []
    seen_y: set[int] = set()

    def finish() -> None:
        if current is not None:
            sides[current[0]] = _side(current[0], current[1], slot_lines, rows, file)

    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("="):
            finish()
            name = line[1:].strip()
            if name not in SIDES:
                raise DataError(file, f"line {line_no}", f"unknown side {name!r}; the arena's sides: {', '.join(SIDES)}")
            if name in sides:
                raise DataError(file, f"line {line_no}", f"side {name!r} defined twice")
            current, slot_lines, rows, seen_y = (name, line_no), [], [], set()
            continue
        if current is None:
            raise DataError(file, f"line {line_no}", "map line before any '= SIDE' header")
        if line.startswith("slot"):
            slot_lines.append((line_no, line))
            continue
        m = _ROW.match(line)
        if not m:
            raise DataError(file, f"line {line_no}", "a map row starts with its half-row number and two spaces")
        y = int(m.group(1))
        if y in seen_y:
            raise DataError(file, f"line {line_no}", f"half-row {y} drawn twice")
        seen_y.add(y)
        rows.append((line_no, y, m.group(2)))
    finish()
    missing = [s for s in SIDES if s not in sides]
    if missing:
        raise DataError(file, "sides", f"missing side(s) {', '.join(missing)}; the arena has {', '.join(SIDES)}")
    return sides


def _mix(data: dict, section: str, kinds: tuple[str, ...], file: str) -> dict[str, int]:
    mix = data.get(section)
    if not isinstance(mix, dict) or not mix:
        raise DataError(file, section, "missing table")
    for kind, count in mix.items():
        if kind not in kinds:
            raise DataError(file, f"{section}.{kind}", f"unknown kind; known: {', '.join(kinds)}")
        if not isinstance(count, int) or count < 1:
            raise DataError(file, f"{section}.{kind}", "count must be a positive integer")
    return {k: mix[k] for k in kinds if k in mix}


def parse_cards(text: str, file: str = "cards.toml") -> tuple[tuple[TinaCard, ...], dict[str, int], dict[str, int],
                                                                GameRules]:
    """Tina's cards, the super-weapon deck, the party-favor mix and the game's numbers."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, "toml", str(exc)) from None
    game = data.get("game", {})
    defaults = GameRules()
    values = {}
    for field in GameRules.__struct_fields__:
        value = game.get(field, getattr(defaults, field))
        if field == "players":
            if not (isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) for v in value)
                    and 2 <= value[0] <= value[1] <= 5):
                raise DataError(file, "game.players", "must be [fewest, most] within 2-5")
            value = tuple(value)
        elif not isinstance(value, int) or value < 0:
            raise DataError(file, f"game.{field}", "must be a non-negative integer")
        values[field] = value
    unknown = set(game) - set(GameRules.__struct_fields__)
    if unknown:
        raise DataError(file, "game", f"unknown field(s) {', '.join(sorted(unknown))}")
    rules = GameRules(**values)
    weapons = _mix(data, "super_weapons", SUPER_WEAPONS, file)
    favors = _mix(data, "party_favors", PARTY_FAVORS, file)
    cards = []
    for i, card in enumerate(data.get("tina", [])):
        where = f"tina[{i}]"
        if not isinstance(card, dict) or set(card) != {"name", "spotlight", "pillars", "decree"}:
            raise DataError(file, where, "a Tina card has exactly name, spotlight, pillars and decree")
        if not isinstance(card["spotlight"], int) or card["spotlight"] < 0:
            raise DataError(file, f"{where}.spotlight", "must be a non-negative integer")
        pillars = card["pillars"]
        if not isinstance(pillars, list) or any(p not in PILLARS for p in pillars) or len(set(pillars)) != len(pillars):
            raise DataError(file, f"{where}.pillars", "must list killer pillars among A-I, each once")
        if card["decree"] not in DECREES:
            raise DataError(file, f"{where}.decree", f"{card['decree']!r}; one of {', '.join(DECREES)}")
        cards.append(TinaCard(str(card["name"]), card["spotlight"], tuple(sorted(pillars)), card["decree"]))
    if len({c.name for c in cards}) != len(cards):
        raise DataError(file, "tina", "two Tina cards share a name")
    if not 1 <= rules.tina_deck <= len(cards):
        raise DataError(file, "game.tina_deck", f"Tina's deck of {rules.tina_deck} must be drawn from the "
                                                f"{len(cards)} cards")
    missing = [d for d in DECREES if d not in {c.decree for c in cards}]
    if missing:
        raise DataError(file, "tina", f"no card has the decree(s) {', '.join(missing)}")
    return tuple(cards), weapons, favors, rules


def load(folder: Path | None = None, vendetta: Components | None = None) -> CarnivalComponents:
    """Load and validate the Carnival component data (from a folder, for tests)."""

    def read(name: str) -> str:
        if folder is not None:
            return (Path(folder) / name).read_text(encoding="utf-8")
        return resources.files("trvendetta").joinpath("data", "carnival", name).read_text(encoding="utf-8")

    sides = parse_arena(read("arena.txt"))
    tina, weapons, favors, rules = parse_cards(read("cards.toml"))
    return CarnivalComponents(sides, tina, weapons, favors, rules, vendetta or vendetta_components.default())


def default() -> CarnivalComponents:
    """The shipped components (read at set-up only: a game reads its own from its first event)."""
    return load()
