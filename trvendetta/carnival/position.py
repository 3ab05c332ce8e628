"""Carnival positions: a Vendetta position plus the arena's (like a chess FEN).

A :class:`CarnivalPosition` is Vendetta's :class:`~trvendetta.vendetta.position.Position`
with the arena's side and road tiles, where the favors and super-weapon
tokens lie, the pillars raised, each player's scrap, favors and Witness Me!,
each car's super-weapon, the Tina cards already flipped and the decree in
force, and script queues for the Carnival's draws (``favor``, ``weapon``,
``tina``).  Omitted parts are set up by the seed.  Vehicles stand on arena
or road-tile spaces, or wait at the start behind a slot (``starts``).

``validate`` checks the Vendetta parts with Vendetta's own checks (the
board-independent ones) and the board parts against the arena.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from ..core.errors import PositionError
from ..core.setup import check_count, decode_position, parse_space
from ..vendetta import position as vpos
from . import arena
from .components import DECREES, PARTY_FAVORS, PILLARS, SIDES, SUPER_WEAPONS, CarnivalComponents

#: the words the Big Rig is refused with (its ``Crew.arena_refusal``, 002); a position seating a
#: crew the arena does not take is refused with whatever words that crew declares (:func:`validate`)
BIG_RIG = "The Big Rig is not allowed in the arena. Tina was very clear about that."


def arena_refusal(crew: str) -> str | None:
    """Why the crew called ``crew`` may not play in the arena (its ``Crew.arena_refusal``), or None."""
    from ..vendetta import crew as crews
    from ..vendetta import rules  # noqa: F401  (registers the built-in crews' rules)

    return crews.named(crew).arena_refusal


class CarnivalScript(vpos.Script, frozen=True):
    favor: tuple[str, ...] = ()
    weapon: tuple[str, ...] = ()
    tina: tuple[str, ...] = ()


class CarnivalPosition(vpos.Position, frozen=True):
    ruleset: str = "carnival"
    script: CarnivalScript = CarnivalScript()
    side: str = "haulasseum"
    tiles: tuple[str, ...] = ()  # the road-tile side in slots 1, 2, 3 (empty: drawn at set-up)
    starts: dict[str, int] = {}  # vehicle -> the slot it waits behind (default: spread over the slots)
    entered: dict[str, tuple[int, ...]] = {}  # player -> slots first moved onto this round 1, in order
    raised: tuple[str, ...] = ()
    favor_tokens: tuple[str, ...] | None = None  # face-down favors on the board (None: set-up places them)
    weapon_tokens: tuple[str, ...] | None = None  # super-weapon tokens (None: every super-weapon space)
    scrap: dict[str, int] = {}
    favors: dict[str, tuple[str, ...]] = {}  # player -> favors held (kinds)
    weapons: dict[str, str] = {}  # vehicle -> its super-weapon
    witness_used: tuple[str, ...] = ()
    tina: tuple[str, ...] = ()  # Tina's cards already flipped, in order
    decree: str | None = None
    decree_round: int | None = None


_BOARD_FIELDS = ("vehicles", "choppers", "wrecks", "terrain", "tokens", "road", "first_piece", "fill")


def _vendetta_part(pos: CarnivalPosition) -> vpos.Position:
    """The position's board-independent Vendetta part, for Vendetta's checks."""
    fields = {f: getattr(pos, f) for f in vpos.Position.__struct_fields__ if f not in _BOARD_FIELDS}
    return vpos.Position(**{**fields, "ruleset": "vendetta"})


def validate(pos: CarnivalPosition, c: CarnivalComponents) -> CarnivalPosition:
    """Check a position; returns it unchanged or raises PositionError naming the field."""
    if pos.ruleset != "carnival":
        raise PositionError("ruleset", f"{pos.ruleset!r} is not 'carnival'")
    for i, p in enumerate(pos.players):
        refusal = arena_refusal(p.crew)
        if refusal is not None:
            raise PositionError(f"players[{i}].crew", refusal)
    low, high = c.game.players
    if not low <= len(pos.players) <= high:
        raise PositionError("players", f"{len(pos.players)} players; Carnival of Chaos is for {low} to {high}")
    vpos.validate(_vendetta_part(pos), c.vendetta)
    for field in _BOARD_FIELDS[1:5]:
        if getattr(pos, field):
            raise PositionError(field, "not used in the arena (no choppers placed, wrecks, terrain overrides or "
                                       "hazard tokens)")
    if pos.road or pos.first_piece or pos.fill:
        raise PositionError("road", "the arena has no road to lay: its road tiles are 'tiles'")
    if pos.side not in SIDES:
        raise PositionError("side", f"{pos.side!r}; the arena's sides: {', '.join(SIDES)}")
    side = c.sides[pos.side]
    _check_tiles(pos, c)
    names = [p.name for p in pos.players]
    ids = {f"{p.color}-{v}": p.name for p in pos.players for v in c.vendetta.crews[p.crew].vehicles}
    occupied: dict = {}
    for i, v in enumerate(pos.vehicles):
        f = f"vehicles[{i}]"
        if v.id not in ids:
            raise PositionError(f"{f}.id", f"unknown vehicle {v.id!r}; known: {', '.join(ids)}")
        if v.id in {w.id for w in pos.vehicles[:i]}:
            raise PositionError(f"{f}.id", f"{v.id} listed twice")
        if v.facing not in arena.geometry.DIRECTIONS:
            raise PositionError(f"{f}.facing", f"{v.facing!r}; one of {', '.join(arena.geometry.DIRECTIONS)}")
        if v.at in ("start", "eliminated"):
            continue
        space = _board_space(side, v.at, f"{f}.at")
        if space in occupied:
            raise PositionError(f"{f}.at", f"{v.at} is already occupied by {occupied[space]}")
        if space in arena.impassable(side, pos.raised):
            raise PositionError(f"{f}.at", f"{v.at} is a raised killer pillar")
        occupied[space] = v.id
    for vid, slot in pos.starts.items():
        if vid not in ids:
            raise PositionError(f"starts.{vid}", f"unknown vehicle; known: {', '.join(ids)}")
        if slot not in (1, 2, 3):
            raise PositionError(f"starts.{vid}", f"slot {slot}; the road tiles are in slots 1, 2, 3")
    for player, slots in pos.entered.items():
        _player(player, names, "entered")
        if any(s not in (1, 2, 3) for s in slots):
            raise PositionError(f"entered.{player}", "slots are 1, 2, 3")
    for letter in pos.raised:
        if letter not in PILLARS:
            raise PositionError("raised", f"{letter!r}; killer pillars are A to I")
    for field in ("favor_tokens", "weapon_tokens"):
        spaces = getattr(pos, field) or ()
        seen = set()
        for text in spaces:
            space = _board_space(side, text, field)
            if space in seen:
                raise PositionError(field, f"two tokens on {text}")
            seen.add(space)
    for player, amount in pos.scrap.items():
        _player(player, names, "scrap")
        check_count(amount, f"scrap.{player}")
    for player, kinds in pos.favors.items():
        _player(player, names, "favors")
        for k in kinds:
            if k not in PARTY_FAVORS:
                raise PositionError(f"favors.{player}", f"{k!r}; party favors: {', '.join(PARTY_FAVORS)}")
    for vid, weapon in pos.weapons.items():
        if vid not in ids:
            raise PositionError(f"weapons.{vid}", f"unknown vehicle; known: {', '.join(ids)}")
        if weapon not in SUPER_WEAPONS:
            raise PositionError(f"weapons.{vid}", f"{weapon!r}; super-weapons: {', '.join(SUPER_WEAPONS)}")
    for player in pos.witness_used:
        _player(player, names, "witness_used")
    cards = [t.name for t in c.tina]
    if len(set(pos.tina)) != len(pos.tina) or any(t not in cards for t in pos.tina):
        raise PositionError("tina", f"Tina's cards flipped, each once, among {', '.join(cards)}")
    if len(pos.tina) > c.game.tina_deck:
        raise PositionError("tina", f"{len(pos.tina)} cards flipped; her pile holds {c.game.tina_deck}")
    if (pos.decree is None) != (pos.decree_round is None):
        raise PositionError("decree", "give the decree and the round it was revealed in (decree_round) together")
    if pos.decree is not None and pos.decree not in DECREES:
        raise PositionError("decree", f"{pos.decree!r}; decrees: {', '.join(DECREES)}")
    s = pos.script
    for field, values, allowed in (("favor", s.favor, PARTY_FAVORS), ("weapon", s.weapon, SUPER_WEAPONS),
                                   ("tina", s.tina, tuple(cards))):
        for value in values:
            if value not in allowed:
                raise PositionError(f"script.{field}", f"{value!r}; one of {', '.join(allowed)}")
    return pos


def _check_tiles(pos: CarnivalPosition, c: CarnivalComponents) -> None:
    if not pos.tiles:
        return
    if len(pos.tiles) != 3:
        raise PositionError("tiles", f"{len(pos.tiles)} tile sides; the foundation board takes 3 (slots 1, 2, 3)")
    seen = set()
    for i, name in enumerate(pos.tiles):
        if name not in c.vendetta.sides:
            raise PositionError(f"tiles[{i}]", f"unknown tile side {name!r}; known: {', '.join(c.vendetta.sides)}")
        tile = c.vendetta.sides[name].tile
        if tile in seen:
            raise PositionError(f"tiles[{i}]", f"{name!r} is the other side of a tile already laid")
        seen.add(tile)


def _board_space(side, text: str, field: str):
    space = parse_space(text, field)
    if arena.where(side, space) == "off":
        raise PositionError(field, f"{text} is not a space of the arena or its road tiles")
    return space


def _player(name: str, names: list[str], field: str) -> None:
    if name not in names:
        raise PositionError(f"{field}.{name}", f"{name!r} is not a player; players: {', '.join(names)}")


def from_dict(data: dict, components: CarnivalComponents) -> CarnivalPosition:
    """Decode (strictly) and validate a position read from TOML or JSON."""
    return validate(decode_position(data, CarnivalPosition), components)
