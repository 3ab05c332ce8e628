"""Events: every roll, draw, assignment and effect, past tense, immutable.

Each is a tagged msgspec struct (the tag is its stable name in the store);
spaces are written by name (``c5``).  A roll carries ``scripted=True`` when a
position's script forced it, so folding consumes the script exactly as
deciding did.  ``describe`` gives one short sentence per event.  These are base
Vendetta's (``OWN``); a crew's own are registered from its package
(``vendetta/crews/<crew>/events.py``) and ``Event``, the union the ruleset
decodes with, is assembled from every registered one (``parts.events``).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import Any, ClassVar

from ..core.events import BaseEvent, GameOver, PlayerOut, TurnEnded
from . import parts
from .components import Components
from .position import Position

_Event = BaseEvent  # the shared base; the shared end-of-turn/game events are imported above

#: the version of these rules a game records in its ``GameStarted`` (and its snapshots):
#: 2 places the Big Rig's Solid damage token before the turn ends
#: (``rules.turn_waits_for_its_end``); a game recorded under 1 re-executes under 1
#: (``Vendetta.restart``)
RULES_VERSION = "2"


class GameStarted(_Event, tag="game-started", omit_defaults=True, frozen=True):
    """The set-up position and the components the game is played with.

    ``components`` is None (and absent from the JSON) in games recorded
    before the components rode here; those fold with ``components_v1.v1()``.
    """

    position: Position
    rules_version: str
    components: Components | None = None


class RoadLaid(_Event, tag="road-laid", frozen=True):
    reveals: ClassVar[bool] = True
    road: tuple[str, ...]  # sides, rear to front
    pile: tuple[str, ...]  # the rest of the tiles, top first, side showing
    first: int = 0  # the rear piece's number (0 = the starting piece)


class HazardsPlaced(_Event, tag="hazards-placed", frozen=True):
    reveals: ClassVar[bool] = True
    spaces: tuple[str, ...]


class InitiativeRolled(_Event, tag="initiative-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    player: str
    dice: tuple[int, ...]
    scripted: int = 0


class FirstPlayerChosen(_Event, tag="first-player", frozen=True):
    reveals: ClassVar[bool] = True
    player: str


class RoundStarted(_Event, tag="round-started", frozen=True):
    round: int
    first_player: str


class RoundEnded(_Event, tag="round-ended", frozen=True):
    round: int


class DiceRolled(_Event, tag="dice-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    player: str
    dice: tuple[int, ...]
    scripted: int = 0


class RoadDieRolled(_Event, tag="road-die-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    value: int
    scripted: bool = False


class TurnStarted(_Event, tag="turn-started", frozen=True):
    player: str
    number: int


class DieAssigned(_Event, tag="die-assigned", frozen=True):
    player: str
    car: str
    die: int
    momentum: bool = False


class MotorcycleDrifted(_Event, tag="motorcycle-drifted", frozen=True):
    """A motorcycle drifts through a space holding another road vehicle (no slam)."""

    car: str
    past: str


class SlamDirectionRolled(_Event, tag="slam-direction-rolled", frozen=True):
    """A slam with a motorcycle: only the direction die is rolled; the motorcycle
    moves, or ``chooser`` (owner of both motorcycles) picks which one."""

    reveals: ClassVar[bool] = True
    direction: str
    moved: str | None
    chooser: str | None = None
    scripted: bool = False


class SlamVehicleChosen(_Event, tag="slam-vehicle-chosen", frozen=True):
    player: str
    vehicle: str


class OffRoadPlaced(_Event, tag="off-road-placed", frozen=True):
    """An off-road token: the space is off-road from now on; a token there is removed."""

    at: str
    cause: str


class ChopperReturned(_Event, tag="chopper-returned", frozen=True):
    owner: str
    cause: str


class MinorDamageTaken(_Event, tag="minor-damage", frozen=True):
    """A minor damage token (a motorcycle hit; 001: Taking Damage)."""

    vehicle: str
    cause: str


class Passed(_Event, tag="passed", frozen=True):
    player: str
    die: int | None


class CommandUsed(_Event, tag="command-used", frozen=True):
    player: str
    command: str  # nitro | drift | repair | airstrike | none
    die: int = 0
    target: str | None = None


class ChopperPlaced(_Event, tag="chopper-placed", frozen=True):
    player: str
    at: str


class MoveStarted(_Event, tag="move-started", frozen=True):
    car: str
    moves: int
    road_ok: bool


class VehicleMoved(_Event, tag="vehicle-moved", frozen=True):
    vehicle: str
    frm: str
    to: str
    how: str  # step | slide | push | skid | dazed | blast-off
    direction: str
    cost: int = 0
    offroad: bool = False  # the space entered is not road (ends road die eligibility)


class TokenRevealed(_Event, tag="token-revealed", frozen=True):
    reveals: ClassVar[bool] = True
    at: str
    kind: str
    scripted: bool = False


class TokenReturned(_Event, tag="token-returned", frozen=True):
    at: str
    kind: str


class WreckPlaced(_Event, tag="wreck-placed", frozen=True):
    wreck: str
    at: str


class WreckRemoved(_Event, tag="wreck-removed", frozen=True):
    wreck: str
    cause: str


class DieRolled(_Event, tag="die-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    die: str  # direction | stunt
    face: str
    purpose: str
    scripted: bool = False


class SlamStarted(_Event, tag="slam-started", frozen=True):
    top: str
    bottom: str
    at: str


class SlamRolled(_Event, tag="slam-rolled", frozen=True):
    reveals: ClassVar[bool] = True
    slam: str
    direction: str
    chooser: str | None = None
    scripted_slam: bool = False
    scripted_direction: bool = False


class SlamAnswered(_Event, tag="slam-answered", frozen=True):
    player: str
    reroll: bool


class SlamResolved(_Event, tag="slam-resolved", frozen=True):
    moved: str


class DriftUsed(_Event, tag="drift-used", frozen=True):
    car: str
    past: str


class MovementEnded(_Event, tag="movement-ended", frozen=True):
    car: str
    reason: str


class MoveFinished(_Event, tag="move-finished", frozen=True):
    car: str
    at: str | None


class RoadBonusChosen(_Event, tag="road-bonus", frozen=True):
    car: str
    take: bool
    value: int = 0


class ShotFired(_Event, tag="shot-fired", frozen=True):
    reveals: ClassVar[bool] = True
    shooter: str
    target: str
    face: str
    hit: bool
    scripted: bool = False


class DamageDrawn(_Event, tag="damage-drawn", frozen=True):
    reveals: ClassVar[bool] = True
    car: str
    token: str
    scripted: bool = False


class DamageIgnored(_Event, tag="damage-ignored", frozen=True):
    car: str
    reason: str


class CarDisabled(_Event, tag="car-disabled", frozen=True):
    car: str


class CarRepaired(_Event, tag="car-repaired", frozen=True):
    car: str
    token: str


class VehicleEliminated(_Event, tag="vehicle-eliminated", frozen=True):
    vehicle: str
    cause: str


class TileRemoved(_Event, tag="tile-removed", frozen=True):
    side: str
    index: int
    returned_as: str  # the side showing when it goes under the pile


class TileAdded(_Event, tag="tile-added", frozen=True):
    reveals: ClassVar[bool] = True
    side: str
    index: int


class FinalPieceSet(_Event, tag="final-piece", frozen=True):
    reveals: ClassVar[bool] = True
    index: int


#: base Vendetta's event types (a crew's own are registered from its package: ``vendetta/crews``)
OWN = (
    GameStarted, RoadLaid, HazardsPlaced, InitiativeRolled, FirstPlayerChosen, RoundStarted, RoundEnded,
    DiceRolled, RoadDieRolled, TurnStarted, DieAssigned, MotorcycleDrifted, SlamDirectionRolled, SlamVehicleChosen,
    MinorDamageTaken, OffRoadPlaced, ChopperReturned, Passed, CommandUsed, ChopperPlaced, MoveStarted,
    VehicleMoved, TokenRevealed, TokenReturned, WreckPlaced, WreckRemoved, DieRolled, SlamStarted, SlamRolled,
    SlamAnswered, SlamResolved, DriftUsed, MovementEnded, MoveFinished, RoadBonusChosen, ShotFired, DamageDrawn,
    DamageIgnored, CarDisabled, CarRepaired, VehicleEliminated, TileRemoved, TileAdded, FinalPieceSet, TurnEnded,
    PlayerOut, GameOver,
)
for _cls in OWN:
    parts.event(_cls)


def __getattr__(name: str) -> type[Any]:
    """``Event``: the union of every registered event type (``parts.events``); any other
    name: a crew's event type of that name (``events.SteeringSet``), for the rules that use it."""
    if name == "Event":
        return parts.events()
    return parts.named("events", name)


#: how a PlayerOut's stored reason reads: it names cars, though a crew may be motorcycles or
#: the Big Rig's sections (the stored words stay as they are: re-execution must give them)
OUT_REASON = {"all cars eliminated": "all vehicles eliminated", "no operational car": "no operational vehicle"}


def describe(event: BaseEvent) -> str:
    """One short human sentence for an event."""
    match event:
        case GameStarted(position, rules_version):
            names = ", ".join(f"{p.name} ({p.color})" for p in position.players)
            return f"Vendetta game started (rules v{rules_version}, seed {position.seed}) with {names}"
        case RoadLaid(road, _):
            return "road laid, rear to front: " + ", ".join(road)
        case HazardsPlaced(spaces):
            return f"{len(spaces)} hazard tokens placed face down" + (f": {', '.join(spaces)}" if spaces else "")
        case InitiativeRolled(player, dice):
            return f"{player} rolls {' '.join(map(str, dice))} for initiative (total {sum(dice)})"
        case FirstPlayerChosen(player):
            return f"{player} has the lowest total and goes first"
        case RoundStarted(number, first):
            return f"round {number} begins; {first} is first player"
        case RoundEnded(number):
            return f"round {number} ends"
        case DiceRolled(player, dice):
            return f"{player} rolls movement dice: {' '.join(map(str, dice))}"
        case RoadDieRolled(value):
            return f"road die: {value}"
        case TurnStarted(player, number):
            return f"{player}'s turn ({number})"
        case DieAssigned(player, car, die, momentum):
            return f"{player} assigns {die} to {car}" + (" as momentum (1 space)" if momentum else "")
        case MotorcycleDrifted(car, past):
            return f"{car} rides into {past}'s space (a motorcycle slams only where its move ends)"
        case SlamDirectionRolled(direction, moved, chooser):
            who = f"{chooser} chooses which motorcycle moves" if chooser else f"{moved} moves"
            return f"slam direction die: {direction} (no slam die with a motorcycle or the Big Rig); {who}"
        case SlamVehicleChosen(player, vehicle):
            return f"{player} moves {vehicle} in the slam"
        case OffRoadPlaced(at, cause):
            return f"an off-road token is placed at {at} ({cause})"
        case ChopperReturned(owner, cause):
            return f"{owner}'s chopper is returned ({cause})"
        case MinorDamageTaken(vehicle, cause):
            return f"{vehicle} takes a minor damage token ({cause})"
        case Passed(player, die):
            return f"{player} has no car to move and passes" + (f", spending a {die}" if die else "")
        case CommandUsed(player, command, die, target):
            if command == "none":
                return f"{player} uses no command"
            return f"{player} uses {command} with a {die}" + (f" on {target}" if target else "")
        case ChopperPlaced(player, at):
            return f"{player}'s chopper flies to {at}"
        case MoveStarted(car, moves, _):
            return f"{car} has {moves} move{'s' if moves != 1 else ''}"
        case VehicleMoved(vehicle, frm, to, "follow"):
            return f"{vehicle} follows from {frm} to {to}"
        case VehicleMoved(vehicle, frm, to, how, direction, cost):
            verb = {"step": "moves", "slide": "slides", "push": "is pushed", "skid": "skids",
                    "dazed": "lurches", "blast-off": "is blasted"}.get(how, "moves")
            return f"{vehicle} {verb} {direction} from {frm} to {to}" + (f" (cost {cost})" if cost > 1 else "")
        case TokenRevealed(at, kind):
            return f"hazard at {at} revealed: {kind}"
        case TokenReturned(at, kind):
            return f"the {kind} token at {at} goes back to the pile"
        case WreckPlaced(wreck, at):
            return f"{wreck} lands on {at}"
        case WreckRemoved(wreck, cause):
            return f"{wreck} removed ({cause})"
        case DieRolled(die, face, purpose):
            return f"{die} die for {purpose}: {face}"
        case SlamStarted(top, bottom, at):
            return f"{top} slams {bottom} at {at}"
        case SlamRolled(slam, direction, chooser):
            extra = f"; {chooser} may reroll" if chooser else ""
            return f"slam die: {slam}; direction die: {direction}{extra}"
        case SlamAnswered(player, reroll):
            return f"{player} {'rerolls the slam dice' if reroll else 'accepts the slam dice'}"
        case SlamResolved(moved):
            return f"the slam moves {moved}"
        case DriftUsed(car, past):
            return f"{car} drifts past {past} without slamming"
        case MovementEnded(car, reason):
            return f"{car} stops: {reason}"
        case MoveFinished(car, at):
            return f"{car} ends its move at {at}" if at else f"{car}'s move ends off the board"
        case RoadBonusChosen(car, take, value):
            return f"{car} takes the road die bonus (+{value})" if take else f"{car} declines the road die bonus"
        case ShotFired(shooter, target, face, hit):
            return f"{shooter} fires at {target}; shot die: {face}; {'hit' if hit else 'miss'}"
        case DamageDrawn(car, token):
            return f"{car} takes damage: {token}"
        case DamageIgnored(car, reason):
            return f"{car} takes no damage token ({reason})"
        case CarDisabled(car):
            return f"{car} is inoperable and turned backward"
        case CarRepaired(car, token):
            return f"{car} is repaired (a {token} token goes back to the pile)"
        case VehicleEliminated(vehicle, cause):
            return f"{vehicle} is eliminated: {cause}"
        case TileRemoved(side, index, _):
            return f"rear piece {side} (piece {index + 1}) is removed"
        case TileAdded(side, index):
            return f"new lead piece {side} (piece {index + 1}, spaces {8 * index + 1}-{8 * index + 8})"
        case FinalPieceSet(index):
            return f"piece {index + 1} is the final piece; the Finish Line lies beyond it"
        case TurnEnded(player):
            return f"{player}'s turn ends"
        case PlayerOut(player, reason):
            return f"{player} is out ({OUT_REASON.get(reason, reason)})"
        case GameOver(winner, reason):
            return f"game over: {winner} wins ({reason})" if winner else f"game over: no winner ({reason})"
    own = parts.EVENTS.get(type(event))
    if own is not None:  # a crew's own event
        return own(event)
    raise TypeError(f"not a Vendetta event: {event!r}")
