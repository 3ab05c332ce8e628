"""Positions: set up any Vendetta game state directly, like a chess FEN.

A :class:`Position` is what ``trv new --position FILE`` reads (TOML, format in
the README) and what a new game records in its first event.  Omitted parts
are decided by the seed at set-up (road, hazards, initiative, road die,
dice).  ``validate`` refuses a position that breaks a rule with a
:class:`PositionError` naming the field.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import msgspec

from ..core import geometry
from ..core.bases import Strict
from ..core.errors import PositionError
from ..core.setup import Name, check_count, check_script, check_seats, decode_position, parse_space
from . import components as comp
from . import parts
from .road import ROAD, Geometry


class PlayerSetup(Strict, frozen=True):
    name: Name
    color: Name
    crew: str = "cars"
    dice: tuple[int, ...] | None = None
    command_used: bool = False
    turns: int = 0  # turns already taken this round


class VehicleSetup(Strict, frozen=True):
    id: str
    at: str = "start"
    facing: str = "F"
    damage: tuple[str, ...] = ()
    moved: bool = False
    momentum: int = 0


class TerrainSetup(Strict, frozen=True):
    at: str
    kind: str


class TokenSetup(Strict, frozen=True):
    at: str
    kind: str | None = None
    face_up: bool = False


class WreckSetup(Strict, frozen=True):
    at: str


class ChopperSetup(Strict, frozen=True):
    owner: str
    at: str | None = None


class Script(Strict, frozen=True):
    slam: tuple[str, ...] = ()
    direction: tuple[str, ...] = ()
    shot: tuple[str, ...] = ()
    stunt: tuple[int, ...] = ()
    road: tuple[int, ...] = ()
    movement: tuple[int, ...] = ()
    damage: tuple[str, ...] = ()
    hazard: tuple[str, ...] = ()


class Position(Strict, frozen=True):
    players: tuple[PlayerSetup, ...]
    ruleset: str = "vendetta"
    seed: int = 0
    round: int = 1
    active_player: str | None = None
    first_player: str | None = None
    turn: int = 0  # turns already started this round
    road: tuple[str, ...] = ()
    first_piece: int = 0  # pieces already removed: the road's rear piece holds spaces 8*first_piece+1 on
    road_die: int | None = None
    fill: str | None = None
    vehicles: tuple[VehicleSetup, ...] = ()
    terrain: tuple[TerrainSetup, ...] = ()
    tokens: tuple[TokenSetup, ...] | None = None
    wrecks: tuple[WreckSetup, ...] = ()
    choppers: tuple[ChopperSetup, ...] = ()
    script: Script = Script()


class CrewCheck:
    """What a position may say of a crew's vehicles: the cars' (and any crew's that registers
    none); a crew registers its own with ``parts.crew_check`` (the Big Rig's and the Final
    Five's in ``crews/<crew>/position.py``)."""

    #: a game has at most one player of this crew (each expansion crew is one set)
    one_a_game: bool = False

    def vehicle(self, field: str, v: VehicleSetup, spec: comp.Crew) -> None:
        """One of its vehicles as the position lists it (``field``: where, ``spec``: the crew's data)."""
        self.damage(field, v)
        if not 0 <= v.momentum <= spec.coast:
            raise PositionError(f"{field}.momentum", f"momentum (coasting) is 0 to {spec.coast}")

    def damage(self, field: str, v: VehicleSetup) -> None:
        """The damage tokens a car holds: at most two of the pile's kinds."""
        if len(v.damage) > 2:
            raise PositionError(f"{field}.damage", "a car holds at most two damage tokens")
        for t in v.damage:
            if t not in comp.DAMAGE_KINDS:
                raise PositionError(f"{field}.damage", f"unknown damage token {t!r}; known: {', '.join(comp.DAMAGE_KINDS)}")

    def crew(self, pos: "Position", p: PlayerSetup, board: Geometry) -> None:
        """The crew of player ``p`` as a whole, once its vehicles were checked one by one
        (``board``: the geometry of the board the game is played on)."""


CARS_CHECK = CrewCheck()


def check_of(crew: str) -> CrewCheck:
    """The position check of the crew called ``crew``."""
    return parts.check_of(crew) or CARS_CHECK


def validate(pos: Position, components: comp.Components, ruleset: str = "vendetta", board: Geometry = ROAD) -> Position:
    """Check a position against the rules and the game's components; returns
    it unchanged or raises PositionError.  ``ruleset``: the ruleset playing it,
    when it is one built on Vendetta's rules (its positions say ``vendetta`` or
    its own name); ``board``: the board it is played on (its state type's)."""
    c = components
    check_seats(tuple(dict.fromkeys((ruleset, "vendetta"))), pos.ruleset, pos.players, "Vendetta", seed=pos.seed)
    n = len(pos.players)
    names = [p.name for p in pos.players]
    for i, p in enumerate(pos.players):
        if p.crew not in c.crews:
            raise PositionError(f"players[{i}].crew", f"unknown crew {p.crew!r}; known: {', '.join(c.crews)}",
                                tuple(c.crews))
        if p.dice is not None:
            if len(p.dice) > c.crews[p.crew].dice:
                raise PositionError(f"players[{i}].dice", f"{len(p.dice)} dice; a crew has {c.crews[p.crew].dice}")
            for d in p.dice:
                if not 1 <= d <= 6:
                    raise PositionError(f"players[{i}].dice", f"die value {_die(d)} is not 1-6")
            if not p.dice and p.turns < 2:
                raise PositionError(f"players[{i}].dice", "no dice left after fewer than two turns; a turn "
                                    "uses one die, or two with a command (leave dice out to roll them)")
        check_count(p.turns, f"players[{i}].turns", 0, 3)
    check_count(pos.round, "round", 1)
    check_count(pos.first_piece, "first_piece")
    check_script(pos.script)
    for field in ("active_player", "first_player"):
        value = getattr(pos, field)
        if value is not None and value not in names:
            raise PositionError(field, f"{value!r} is not a player; players: {', '.join(names)}")
    if not 0 <= pos.turn < 3 * n:
        raise PositionError("turn", f"must be 0 to {3 * n - 1}")
    if pos.road:
        if len(pos.road) not in (1, 3):
            raise PositionError("road", f"{len(pos.road)} tile sides; the road is 3 pieces, rear to front "
                                "(or 1: the rear piece, the others drawn)")
        if len(pos.road) == 1 and (pos.first_piece or pos.road[0] not in c.start_sides()):
            raise PositionError("road", f"{pos.road[0]!r}: a road of one side names the starting piece "
                                f"({' or '.join(c.start_sides())}) of a new road (first_piece 0)")
        seen = set()
        for i, side in enumerate(pos.road):
            if side not in c.sides:
                raise PositionError(f"road[{i}]", f"unknown tile side {side!r}; known: {', '.join(c.sides)}")
            if c.sides[side].tile in seen:
                raise PositionError(f"road[{i}]", f"{side!r} is the other side of a tile already in the road")
            seen.add(c.sides[side].tile)
    if pos.road_die is not None and pos.road_die not in {int(f) for f in c.dice["road"].faces}:
        raise PositionError("road_die", f"{_die(pos.road_die)} is not a road die face")
    if pos.fill not in (None, "road"):
        raise PositionError("fill", f"{pos.fill!r}; the only fill is 'road'")
    if pos.first_piece and len(pos.road) != 3:
        raise PositionError("first_piece", "needs the road's three tile sides")
    low, top = c.rows * pos.first_piece + 1, c.rows * (pos.first_piece + 3)
    ids = {f"{p.color}-{v}": p for p in pos.players for v in c.crews[p.crew].vehicles}
    crew_checks = {crew: check_of(crew) for crew in dict.fromkeys(p.crew for p in pos.players)}
    for crew, check in crew_checks.items():
        if check.one_a_game and sum(1 for p in pos.players if p.crew == crew) > 1:
            raise PositionError("players", f"two players chose the {crew} crew; a game has at most one")
    occupied: dict[tuple[int, int], str] = {}
    seen_ids = set()
    for i, v in enumerate(pos.vehicles):
        f = f"vehicles[{i}]"
        if v.id not in ids:
            raise PositionError(f"{f}.id", f"unknown vehicle {v.id!r}; known: {', '.join(ids)}")
        if v.id in seen_ids:
            raise PositionError(f"{f}.id", f"{v.id} listed twice")
        seen_ids.add(v.id)
        if v.facing not in comp.FACINGS:
            raise PositionError(f"{f}.facing", f"{v.facing!r}; a vehicle faces one of {', '.join(comp.FACINGS)}")
        crew_checks[ids[v.id].crew].vehicle(f, v, c.crews[ids[v.id].crew])
        in_start = v.at == "start" or (v.at not in ("eliminated",) and _start_lane(v.at, c.lanes) is not None)
        if in_start and pos.first_piece:
            raise PositionError(f"{f}.at", "the starting area is gone once the first piece is removed")
        if not in_start and v.at != "eliminated":
            space = _on_road(v.at, f"{f}.at", top, low, c.lanes)
            if space in occupied:
                raise PositionError(f"{f}.at", f"{v.at} is already occupied by {occupied[space]}")
            occupied[space] = v.id
    for p in pos.players:
        crew_checks[p.crew].crew(pos, p, board)
    for i, w in enumerate(pos.wrecks):
        space = _on_road(w.at, f"wrecks[{i}].at", top, low, c.lanes)
        if space in occupied:
            raise PositionError(f"wrecks[{i}].at", f"{w.at} is already occupied by {occupied[space]}")
        occupied[space] = "a wreck"
    for i, tr in enumerate(pos.terrain):
        _on_road(tr.at, f"terrain[{i}].at", top, low, c.lanes)
        if tr.kind not in ("road", "offroad", "mud", "impassable"):
            raise PositionError(f"terrain[{i}].kind", f"{tr.kind!r}; one of road, offroad, mud, impassable")
    token_spaces = set()
    for i, tok in enumerate(pos.tokens or ()):
        space = _on_road(tok.at, f"tokens[{i}].at", top, low, c.lanes)
        if space in token_spaces:
            raise PositionError(f"tokens[{i}].at", f"two tokens on {tok.at}")
        token_spaces.add(space)
        if tok.kind is not None and tok.kind not in comp.HAZARD_KINDS:
            raise PositionError(f"tokens[{i}].kind", f"unknown hazard {tok.kind!r}; known: {', '.join(comp.HAZARD_KINDS)}")
        if tok.face_up and tok.kind is None:
            raise PositionError(f"tokens[{i}].kind", "a face-up token needs a kind")
    preset: dict[str, int] = {}
    for tok in pos.tokens or ():
        if tok.kind is not None:
            preset[tok.kind] = preset.get(tok.kind, 0) + 1
    for kind, count in preset.items():
        if count > c.hazards[kind]:
            raise PositionError("tokens", f"{count} {kind} tokens; the pile holds {c.hazards[kind]}")
    tokens = pos.tokens or ()
    if len(tokens) > sum(c.hazards.values()):
        raise PositionError("tokens", f"{len(tokens)} tokens; there are {sum(c.hazards.values())}")
    held: dict[str, int] = {}
    for v in pos.vehicles:
        if not parts.fold_of(ids[v.id].crew).pile_damage:
            continue  # its damage is no pile's tokens (a Big Rig section's: its damaged commands)
        for t in v.damage:
            if t != "minor":
                held[t] = held.get(t, 0) + 1
    for kind, count in held.items():
        if count > c.damage[kind]:
            raise PositionError("vehicles", f"{count} {kind} damage tokens held; the pile holds {c.damage[kind]}")
    owners: set[str] = set()
    for i, ch in enumerate(pos.choppers):
        if ch.owner not in names:
            raise PositionError(f"choppers[{i}].owner", f"{ch.owner!r} is not a player")
        if ch.owner in owners:
            raise PositionError(f"choppers[{i}].owner", f"two choppers for {ch.owner}; a player has one")
        owners.add(ch.owner)
        if ch.at is not None:
            _on_road(ch.at, f"choppers[{i}].at", top, low, c.lanes)
    s = pos.script
    checks = (
        ("slam", s.slam, c.dice["slam"].faces), ("direction", s.direction, c.dice["direction"].faces),
        ("shot", s.shot, c.dice["shot"].faces), ("stunt", tuple(map(str, s.stunt)), c.dice["stunt"].faces),
        ("road", tuple(map(str, s.road)), c.dice["road"].faces),
        ("movement", tuple(map(str, s.movement)), tuple(f for d in sorted({"movement"} | {c.crews[p.crew].die for p in pos.players}) for f in c.dice[d].faces)),
        ("damage", s.damage, comp.DAMAGE_KINDS), ("hazard", s.hazard, comp.HAZARD_KINDS),
    )
    for field, values, allowed in checks:
        for face in values:
            if face not in allowed:
                raise PositionError(f"script.{field}", f"{face!r} is not a face; faces: {', '.join(dict.fromkeys(allowed))}")
    return pos


def _die(value: int) -> str:
    return str(value) if abs(value) < 10**6 else "a number that large"


def _start_lane(text: str, lanes: int) -> int | None:
    """The lane of a starting-area space name (number 0: ``c0``), else None."""
    try:
        lane, y = geometry.parse(text)
    except Exception:
        return None
    return lane if geometry.number((lane, y)) == 0 and 0 <= lane < lanes else None


def _on_road(text: str, field: str, top: int, low: int, lanes: int) -> tuple[int, int]:
    space = parse_space(text, field)
    lane = space[0]
    num = geometry.number(space)
    if not 0 <= lane < lanes or not low <= num <= top:
        raise PositionError(field, f"{text} is off the road (lanes a-{chr(96 + lanes)}, spaces {low}-{top})")
    return space


def from_dict(data: dict, components: comp.Components, ruleset: str = "vendetta", board: Geometry = ROAD) -> Position:
    """Decode (strictly) and validate a position read from TOML or JSON (``ruleset``, ``board``: see :func:`validate`)."""
    return validate(decode_position(data, Position), components, ruleset, board)
