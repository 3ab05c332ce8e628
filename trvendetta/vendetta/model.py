"""The Vendetta vocabulary: the state of a game as frozen msgspec structs.

Read like the rulebook: a game has players (each a crew with movement dice,
a command board and a chopper), vehicles on a road of three tiles, wrecks,
hazard tokens, piles of hazard and damage tokens, the road die, and the one
turn being played.  Spaces are ``(lane, y)`` tuples (see core.geometry).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Any, ClassVar

import msgspec

from .components import Components
from .road import ROAD, Board

Space = tuple[int, int]


class CrewPlayer:
    """What a crew keeps of its own on a player (``Player.crew_state``): a frozen msgspec struct
    of the crew's package that also derives from this class, tagged (``tag_field="crew"``) and
    registered with :func:`.parts.state`, so a stored state decodes it (the tagged union of the
    registered types, ``parts.decode_crew_state``).  The Big Rig's Hydraulic Steering, sections
    used and damage to place are one (``crews/bigrig/state.py``).  Base Vendetta's fold asks it
    only what the methods here say; the crew's own events' handlers change the rest."""

    __slots__ = ()

    def round_ended(self) -> "CrewPlayer | None":
        """What is left of it when the round ends (``round-ended``): all of it, unless a crew says."""
        return self


class CrewTurn:
    """What a crew keeps of its own in the turn being played (``Turn.crew_state``), registered
    as :class:`CrewPlayer` is: the Big Rig's section and command, the Final Five's second
    motorcycle.  Base Vendetta's events that the crew's turn treats its own way ask it here."""

    __slots__ = ()

    def moved(self, state: "State", e: Any) -> "State":
        """``state`` after a ``vehicle-moved`` of this turn was folded (the Big Rig's lane changes)."""
        return state

    def missed(self, state: "State", e: Any) -> "State | None":
        """The state after the turn's shot missed (``shot-fired`` in the shoot step), when the crew
        treats a miss its own way (the Targeting Computer's reroll); None: as any other shot."""
        return None


class Player(msgspec.Struct, frozen=True):
    name: str
    color: str
    crew: str
    dice: tuple[int, ...] = ()
    command_used: bool = False
    out: bool = False
    turns: int = 0  # turns taken this round
    #: what its crew keeps of its own (None: nothing; the cars keep nothing)
    crew_state: CrewPlayer | None = None


class Vehicle(msgspec.Struct, frozen=True):
    """A land vehicle, described by its kind's data (``components.vehicles``):
    ``kind``, ``size`` (S, M, L), ``sections`` (spaces it takes in a line, the
    front one at ``at``) and ``facing`` (any of the six directions; a step
    or a die direction turns with it).  ``at`` is None once eliminated.

    ``start`` is True while the car waits in the starting area, in which case
    ``at`` is its lane's virtual space just behind the rear tile (number 0).
    """

    id: str
    owner: str
    kind: str
    size: str
    at: Space | None
    start: bool = False
    facing: str = "F"
    status: str = "operational"
    damage: tuple[str, ...] = ()
    moved: bool = False
    momentum: int = 0
    sections: int = 1


class Wreck(msgspec.Struct, frozen=True):
    """A wreck on the road: an ownerless obstacle; for shots and slams it is Large."""

    id: str
    at: Space


class Chopper(msgspec.Struct, frozen=True):
    owner: str
    at: Space | None = None


class Token(msgspec.Struct, frozen=True):
    """A hazard token on a space.  ``kind`` is None for a face-down token whose
    kind has not been drawn yet (it is drawn from the pile when revealed)."""

    at: Space
    kind: str | None = None
    face_up: bool = False


class Tile(msgspec.Struct, frozen=True):
    """A road piece on the table: which side shows and its place in the road.

    ``index`` counts pieces laid since the start (0 = the starting piece); the
    piece holds half-spaces ``16 * index`` to ``16 * index + 15``.
    """

    side: str
    index: int


class Turn(msgspec.Struct, frozen=True):
    """The turn being played: the assigned car and the progress of its move."""

    player: str
    #: assign | command | command-done | airstrike-place | airstrike-target |
    #: airstrike-done | move | shoot | done | ending (what the end raised waits: rules v2)
    phase: str = "assign"
    car: str | None = None
    die: int = 0
    momentum: bool = False
    nitro: int = 0
    drift: bool = False  # a drift is ready to pass the next vehicle
    moves_left: int = 0
    stopped: bool = False  # movement ended by damage, a slam or a mine
    road_ok: bool = True  # started on road and moved only on road so far
    road_taken: bool = False
    chopper: Space | None = None  # where this turn's air attack placed the chopper
    oil: tuple[Space, ...] = ()  # oil slicks already slid on this turn (each once)
    #: what the player's crew keeps of its own in this turn (None: nothing yet)
    crew_state: CrewTurn | None = None


class Slam(msgspec.Struct, frozen=True):
    """A slam waiting for the larger vehicle's owner to accept or reroll."""

    top: str
    bottom: str
    at: Space
    slam: str
    direction: str
    chooser: str | None = None
    rerolled: bool = False
    #: a slam with a motorcycle: only the direction die; ``chooser`` picks which of two motorcycles moves
    choose: bool = False


class State(msgspec.Struct, frozen=True):
    """A Vendetta game.  ``board`` (a class variable, not a field) is the
    board it is played on: the road (``road.ROAD``); a ruleset that plays on
    another board (Carnival's arena) subclasses the state and sets its own
    :class:`~trvendetta.vendetta.road.Board`, so the rules never ask which."""

    board: ClassVar[Board] = ROAD
    seed: int = 0
    version: int = 0
    rules_version: str = ""
    phase: str = "new"  # new | playing | over
    players: tuple[Player, ...] = ()
    vehicles: tuple[Vehicle, ...] = ()
    wrecks: tuple[Wreck, ...] = ()
    choppers: tuple[Chopper, ...] = ()
    tokens: tuple[Token, ...] = ()
    terrain: tuple[tuple[Space, str], ...] = ()  # overrides from a position
    fill: str | None = None  # "road": every space plain road, no hazard spaces
    road: tuple[Tile, ...] = ()  # rear to front
    tile_pile: tuple[str, ...] = ()  # sides showing, top first
    final_piece: int | None = None
    starting_players: int = 0
    hazard_pile: dict[str, int] = {}
    damage_pile: dict[str, int] = {}
    round: int = 0
    first_player: str | None = None
    turn_number: int = 0  # turns started this round
    road_die: int | None = None
    turn: Turn | None = None
    slam: Slam | None = None
    #: the Cow Catcher met a vehicle: (vehicle, who chooses FL or FR)
    cow: tuple[str, str] | None = None
    wreck_counter: int = 0
    winner: str | None = None
    end_reason: str | None = None
    script: dict[str, tuple[str, ...]] = {}
    #: the game's components, from its first event (None only before it)
    components: Components | None = None
