"""Events: every roll, step and effect, past tense, immutable.

Each is a tagged msgspec struct (the tag is its stable name in the store);
spaces are written by name (``d18``).  A roll carries ``scripted`` (how many
of its dice a position's ``[script]`` forced) so folding consumes the script
exactly as deciding did.  ``describe`` gives one short sentence per event.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import ClassVar, Union

from ..core.events import BaseEvent, GameOver, PlayerOut, TurnEnded
from .position import Position

_Event = BaseEvent  # the shared base; the shared end-of-turn/game events are imported above


class GameStarted(_Event, tag="game-started", frozen=True):
    position: Position  # resolved: every set-up part explicit
    rules_version: str


class TurnStarted(_Event, tag="turn-started", frozen=True):
    player: str
    round: int


class DiceRolled(_Event, tag="dice-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    player: str
    dice: tuple[int, ...]
    scripted: int = 0


class RoadDieRolled(_Event, tag="road-die-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    player: str
    value: int
    scripted: int = 0


class CarRepaired(_Event, tag="car-repaired", frozen=True):
    player: str
    car: str


class RepairDeclined(_Event, tag="repair-declined", frozen=True):
    player: str


class DieAssigned(_Event, tag="die-assigned", frozen=True):
    player: str
    car: str
    die: int
    road: bool
    steps: int


class CarBlocked(_Event, tag="car-blocked", frozen=True):
    car: str
    reason: str


class CarMoved(_Event, tag="car-moved", frozen=True):
    car: str
    frm: str
    to: str
    direction: str


class CrashRolled(_Event, tag="crash-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    car: str
    at: str
    roll: int
    passed: bool
    scripted: int = 0


class CarWrecked(_Event, tag="car-wrecked", frozen=True):
    car: str
    at: str
    cause: str


class MoveFinished(_Event, tag="move-finished", frozen=True):
    car: str
    at: str
    landed: bool


class CarDumped(_Event, tag="car-dumped", frozen=True):
    car: str
    at: str


class ChopperReturned(_Event, tag="chopper-returned", frozen=True):
    owner: str
    at: str


class BoardRemoved(_Event, tag="board-removed", frozen=True):
    """The rear board is taken away; its black wrecks go with it."""

    board: int
    name: str
    first: int
    last: int


class BoardLinked(_Event, tag="board-linked", frozen=True):
    reveals: ClassVar[bool] = True
    board: int
    name: str
    first: int
    last: int


class WrecksPlaced(_Event, tag="wrecks-placed", frozen=True):
    reveals: ClassVar[bool] = True
    board: int
    spaces: tuple[str, ...]


class RamRolled(_Event, tag="ram-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    car: str
    target: str
    rolls: tuple[int, int]  # the rammer's and the defender's red dice
    attack: int  # red die + rank of the rammer
    defense: int  # red die + rank of the defender
    won: bool
    scripted: int = 0


class ShotFired(_Event, tag="shot-fired", frozen=True):
    reveals: ClassVar[bool] = True
    car: str
    target: str
    roll: int
    hit: bool
    scripted: int = 0


class ChopperAttacked(_Event, tag="chopper-attacked", frozen=True):
    reveals: ClassVar[bool] = True
    owner: str
    target: str
    at: str
    board: int
    roll: int
    hit: bool
    scripted: int = 0


Event = Union[
    GameStarted, TurnStarted, DiceRolled, RoadDieRolled, CarRepaired, RepairDeclined, DieAssigned, CarBlocked,
    CarMoved, CrashRolled, CarWrecked, MoveFinished, CarDumped, ChopperReturned, BoardRemoved, BoardLinked,
    WrecksPlaced, RamRolled, ShotFired, ChopperAttacked, TurnEnded, PlayerOut, GameOver,
]


def describe(event: Event) -> str:
    """One short human sentence for an event."""
    match event:
        case GameStarted(position, rules_version):
            names = ", ".join(f"{p.name} ({p.color})" for p in position.players)
            return f"Thunder Road (1986) game started (rules v{rules_version}, seed {position.seed}) with {names}"
        case TurnStarted(player, number):
            return f"{player}'s turn (round {number})"
        case DiceRolled(player, dice):
            return f"{player} rolls the yellow dice: {' '.join(map(str, dice))}"
        case RoadDieRolled(player, value):
            return f"{player} rolls the black road die: {value}"
        case CarRepaired(player, car):
            return f"{player} rolled double sixes and repairs {car}"
        case RepairDeclined(player):
            return f"{player} rolled double sixes but repairs nothing"
        case DieAssigned(player, car, die, road, steps):
            return f"{player} uses the {die} for {car}" + (f" with the road bonus ({steps} spaces)" if road else "")
        case CarBlocked(car, reason):
            return f"{car} is blocked: {reason}"
        case CarMoved(car, frm, to, direction):
            return f"{car} moves {direction} from {frm} to {to}"
        case CrashRolled(car, at, roll, passed):
            return f"{car} crashes through the wreck at {at}: red {roll}, {'gets through' if passed else 'fails'}"
        case CarWrecked(car, at, cause):
            return f"{car} is wrecked at {at} ({cause})"
        case MoveFinished(car, at, landed):
            return f"{car} lands on {at}" if landed else f"{car} stops at {at}"
        case CarDumped(car, at):
            return f"{car} at {at} is dumped with the rear board"
        case ChopperReturned(owner, at):
            return f"{owner}'s chopper at {at} is dumped and goes back off the board"
        case BoardRemoved(board, name, first, last):
            return f"the rear board {name} (spaces {first}-{last}) is removed"
        case BoardLinked(board, name, first, last):
            return f"board {name} is laid as spaces {first}-{last}"
        case WrecksPlaced(board, spaces):
            return f"black wrecks placed on board {board + 1}: {', '.join(spaces) or 'none'}"
        case RamRolled(car, target, _, attack, defense, won):
            return f"{car} rams {target}: {attack} against {defense}, " + ("the ram wins" if won else "the defender holds")
        case ShotFired(car, target, roll, hit):
            return f"{car} shoots at {target}: red {roll}, {'hit' if hit else 'miss'}"
        case ChopperAttacked(owner, target, at, _, roll, hit):
            return f"{owner}'s chopper attacks {target} at {at}: red {roll}, {'hit' if hit else 'miss'}"
        case TurnEnded(player):
            return f"{player}'s turn ends"
        case PlayerOut(player, reason):
            return f"{player} is out ({reason})"
        case GameOver(winner, reason):
            return f"game over: {winner} wins ({reason})" if winner else f"game over: no winner ({reason})"
    raise TypeError(f"not a classic event: {event!r}")
