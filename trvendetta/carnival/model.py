"""A Carnival game's state: Vendetta's, plus the arena's side (rulebook 002).

:class:`CarnivalState` subclasses Vendetta's state, so every road rule
(assigning dice, commands, moving, shooting, slams, damage) runs on it
unchanged; its ``board`` (``carnival/board.py``) answers the questions where
the arena differs.  The road itself is empty: the board is the arena side
and the three road tiles in its slots.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import ClassVar

import msgspec

from ..vendetta.model import State
from ..vendetta.road import Board
from .components import ArenaSide, CarnivalComponents
from .extras import TurnExtras
from .board import ARENA

Space = tuple[int, int]


class Pause(msgspec.Struct, frozen=True):
    """An effect paused for the active player's favors (rules v2): Killer Pillar
    "in the middle of resolving another effect, such as a slam or damage
    effect".  ``effect`` is ``slam`` (its push comes next: ``resolve_slam``) or
    the damage effect whose forced move comes next (``skid``, ``blast-off``,
    each of ``dazed``'s moves, with ``left`` more to roll):
    ``vehicle`` enters ``to`` by ``how`` in ``direction`` once it goes on."""

    player: str
    effect: str
    vehicle: str = ""
    to: Space | None = None
    how: str = ""
    direction: str = ""
    left: int = 0  # Dazed: the moves still to roll after this one


class AfterHit(msgspec.Struct, frozen=True):
    """What a super-weapon's hit still owes once its damage effect has settled
    (rules v2): the Amplifier's second effect, the Energizer's new die."""

    weapon: str
    car: str
    target: str
    before: int  # the target's damage tokens before the hit


class Jump(msgspec.Struct, frozen=True):
    """Rules v4: the Thwumper's stunt die is rolled and its car waits for a direction:
    ``spaces`` to jump; ``counts``: the shoot step's jump (Double Barrel's is not)."""

    car: str
    spaces: int
    counts: bool = True


# frozen=True: msgspec makes every subclass of the frozen State frozen already (the struct's config is the
# same either way); mypy wants it said
class CarnivalState(State, frozen=True):
    board: ClassVar[Board] = ARENA
    side: str = ""
    tiles: tuple[str, ...] = ()  # the road-tile side in slots 1, 2, 3
    entered: dict[str, tuple[int, ...]] = {}  # player -> slots their cars first moved onto (round 1)
    raised: tuple[str, ...] = ()  # killer pillars showing their impassable side
    favor_tokens: tuple[Space, ...] = ()  # face-down party favors on the board
    weapon_tokens: tuple[Space, ...] = ()  # super-weapon tokens on the board
    favor_pile: dict[str, int] = {}  # favors not yet collected, by kind (drawn from when collected)
    weapon_deck: dict[str, int] = {}  # super-weapon cards left, by kind
    scrap: dict[str, int] = {}
    favors: dict[str, tuple[str, ...]] = {}  # player -> favors held (their owner alone looks at them)
    private_favors: bool = False  # a host deals them: a held favor is ``#INDEX:COMMITMENT`` until opened
    favors_dealt: int = 0  # private favors: how many the host's deck dealt
    #: whose favors a view shows face up (the shell's, for the one who asks; None: the player to act)
    viewers: tuple[str, ...] | None = None
    #: a private view's openings: player -> {kind: the nonce of the first favor of that kind they hold face
    #: down}; its options play those favors with their openings (no event adds one: a folded state has none)
    nonces: dict[str, dict[str, str]] = {}
    weapons: dict[str, str] = {}  # vehicle -> its super-weapon
    witness_used: tuple[str, ...] = ()
    witness_now: bool = False  # Witness Me! played this turn
    tina: tuple[str, ...] = ()  # her cards flipped so far
    decree: str | None = None
    decree_round: int | None = None
    rolloff: tuple[dict[str, int], ...] = ()
    extras: TurnExtras = TurnExtras()  # what the turn has used (``extras()``)
    wild: int = 0  # Let's Get Wild!'s stunt die for the slam being resolved
    chopper_facing: dict[str, str] = {}  # owner -> the facing their chopper was placed with
    pause: Pause | None = None  # an effect waiting for the active player's favors (rules v2)
    after_hit: AfterHit | None = None  # a super-weapon's follow-up, once the hit's effects settle (rules v2)
    jump: Jump | None = None  # the Thwumper's die is rolled, its direction still to choose (rules v4)
    carnival: CarnivalComponents | None = None

    @property
    def arena(self) -> ArenaSide:
        assert self.carnival is not None, "CarnivalStarted gives the game its components"
        return self.carnival.sides[self.side]

