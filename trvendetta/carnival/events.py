"""Carnival's own events (rulebook 002); the road's events are Vendetta's.

Tagged msgspec structs like Vendetta's (``vendetta/events.py``); a game's
union is Vendetta's events plus these.  A draw (a Tina card, a party favor,
a super-weapon) is recorded when it is made, with ``scripted`` when a
position's script chose it.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import ClassVar, Union

from ..core.events import BaseEvent
from ..vendetta import events as vev
from .components import CarnivalComponents
from .position import CarnivalPosition


class CarnivalStarted(BaseEvent, tag="carnival-started", omit_defaults=True, frozen=True):
    """The set-up position and every component the game is played with; ``private_favors``:
    a host deals the favors face down for real (``FavorDealt``; games made before: absent)."""

    position: CarnivalPosition
    rules_version: str
    components: CarnivalComponents
    private_favors: bool = False


class TilesLaid(BaseEvent, tag="tiles-laid", frozen=True):
    """Set-up 1: the road-tile side in each slot of the foundation board."""

    reveals: ClassVar[bool] = True
    tiles: tuple[str, ...]


class FavorsPlaced(BaseEvent, tag="favors-placed", frozen=True):
    """Set-up 3: a face-down party favor on each of these spaces."""

    spaces: tuple[str, ...]


class Faced(BaseEvent, tag="faced", frozen=True):
    """A car now faces ``facing`` (it moved in the arena, was slammed, or was
    forced onto a road tile)."""

    vehicle: str
    facing: str


class TileEntered(BaseEvent, tag="tile-entered", frozen=True):
    """A car's first move took it from the start onto the road tile in ``slot``."""

    player: str
    vehicle: str
    slot: int


class ScrapGained(BaseEvent, tag="scrap-gained", frozen=True):
    player: str
    amount: int
    reason: str


class FavorCollected(BaseEvent, tag="favor-collected", frozen=True):
    """A car ended its movement on a party favor: its owner keeps it face down."""

    reveals: ClassVar[bool] = True
    player: str
    vehicle: str
    at: str
    kind: str
    scripted: bool = False


class FavorDealt(BaseEvent, tag="favor-dealt", omit_defaults=True, frozen=True):
    """A private-favor game's ``FavorCollected``: the ``index``-th favor of the host's deck, known
    by its ``commitment`` only; ``sealed``: its kind and nonce sealed to its owner's key by the
    host's shell (seat -> base64), opaque to the rules."""

    reveals: ClassVar[bool] = True
    player: str
    vehicle: str
    at: str
    index: int
    commitment: str
    sealed: dict[str, str] = {}


class WeaponClaimed(BaseEvent, tag="weapon-claimed", frozen=True):
    reveals: ClassVar[bool] = True
    vehicle: str
    at: str
    weapon: str
    scripted: bool = False


class TinaFlipped(BaseEvent, tag="tina-flipped", frozen=True):
    """Tina's turn: the top card of her pile."""

    reveals: ClassVar[bool] = True
    card: str
    scripted: bool = False


class PillarsSet(BaseEvent, tag="pillars-set", frozen=True):
    """The killer pillars showing their impassable side now (all others road)."""

    raised: tuple[str, ...]


class DecreeSet(BaseEvent, tag="decree-set", frozen=True):
    """Tina's decree, in force until the end of the round after ``round``."""

    decree: str
    round: int


class RollOff(BaseEvent, tag="roll-off", omit_defaults=True, frozen=True):
    """The last tie-break: each tied player's total of all their movement dice, per roll;
    ``scripted``: how many of those dice a position's ``movement`` script gave (rules v4)."""

    reveals: ClassVar[bool] = True
    rolls: tuple[dict[str, int], ...]
    scripted: int = 0





class WitnessMePlayed(BaseEvent, tag="witness-me-played", frozen=True):
    player: str


class FavorPlayed(BaseEvent, tag="favor-played", omit_defaults=True, frozen=True):
    """A party favor played (and removed from play)."""

    player: str
    favor: str
    pillars: tuple[str, ...] = ()
    die: str | None = None
    face: str | None = None
    target: str | None = None
    shot: str | None = None  # Double Barrel (rules v3): ``weapon`` or ``thwump`` (``target`` its direction)
    nonce: str | None = None  # a private favor's nonce: with ``favor`` it opens the commitment it was dealt with


class FavorsPassed(BaseEvent, tag="favors-passed", frozen=True):
    """The player plays no (more) favors before moving: the move starts."""

    player: str
    stage: str


class PrecisionUsed(BaseEvent, tag="precision-used", frozen=True):
    """The die Precision set has been used (it cannot be rerolled)."""

    die: str


class ShotTaken(BaseEvent, tag="shot-taken", frozen=True):
    """What a shot of the turn counts for: ``after`` moving (rules v4: ``mayhem`` under In the
    Mood for Mayhem!, which allows a second), ``declined``, the ``auto-cannon``, the ``thwump``."""

    player: str
    kind: str


class PassedThrough(BaseEvent, tag="passed-through", frozen=True):
    """Bootleg Turn: the car moves through another without slamming it."""

    car: str
    past: str


class WildRoll(BaseEvent, tag="wild-roll", frozen=True):
    """Let's Get Wild!: the stunt die rolled with the slam dice: how far the moved car goes."""

    reveals: ClassVar[bool] = True
    face: str
    scripted: bool = False


class Energized(BaseEvent, tag="energized", frozen=True):
    """The Energizer hit: the car's die is rerolled and it takes another turn with it."""

    reveals: ClassVar[bool] = True
    car: str
    die: int
    scripted: int = 0


class ChopperFaced(BaseEvent, tag="chopper-faced", frozen=True):
    """The chopper just placed in the arena faces ``facing``."""

    owner: str
    facing: str


class EffectPaused(BaseEvent, tag="effect-paused", omit_defaults=True, frozen=True):
    """Rules v2: a slam's push or a damage effect's forced move waits while the
    active player may play Killer Pillar (or Precision) in the middle of it;
    ``to``, ``how``, ``direction``: the forced move that comes next."""

    player: str
    effect: str
    vehicle: str = ""
    to: str | None = None
    how: str = ""
    direction: str = ""
    left: int = 0  # Dazed: moves still to roll after this one


class AfterHit(BaseEvent, tag="after-hit", frozen=True):
    """Rules v2: a super-weapon's hit owes a follow-up once its damage effect
    settles (the Amplifier's second effect, the Energizer's new die)."""

    weapon: str
    car: str
    target: str
    before: int


class AfterHitResolved(BaseEvent, tag="after-hit-resolved", frozen=True):
    """The follow-up of ``weapon``'s hit is being resolved now."""

    weapon: str
    car: str


class JumpRolled(BaseEvent, tag="jump-rolled", frozen=True):
    """Rules v4: the Thwumper's stunt die is rolled: ``car`` jumps ``spaces`` in the direction its
    player chooses next; ``counts``: the jump is the shoot step's (not Double Barrel's)."""

    car: str
    spaces: int
    counts: bool


class JumpAimed(BaseEvent, tag="jump-aimed", frozen=True):
    """Rules v4: the direction the Thwumper's car jumps in, chosen after its stunt die."""

    car: str
    direction: str


OWN = (CarnivalStarted, TilesLaid, FavorsPlaced, Faced, TileEntered, ScrapGained, FavorCollected, FavorDealt, WeaponClaimed,
       TinaFlipped, PillarsSet, DecreeSet, RollOff, WitnessMePlayed, FavorPlayed, FavorsPassed, PrecisionUsed,
       ShotTaken, PassedThrough, WildRoll, Energized, ChopperFaced, EffectPaused, AfterHit, AfterHitResolved,
       JumpRolled, JumpAimed)
# a union built when the module loads: no checker can read its members (hence the ignore)
Event = Union[OWN + tuple(t for t in vev.Event.__args__ if t is not vev.GameStarted)]  # type: ignore[valid-type]


#: what each kind of ShotTaken says (the kind as it is stored is no sentence: "ann's after shot")
SHOT_TAKEN = {
    "after": "{player}'s shot after moving is counted",
    "mayhem": "{player}'s shot after moving is counted (In the Mood for Mayhem! allows a second)",
    "declined": "{player} takes no second shot",
    "auto-cannon": "{player}'s Auto-Cannon shot is counted",
    "auto-cannon-after": "{player}'s Auto-Cannon shot after moving is counted (the car's own shot is still to come)",
    "thwump": "{player}'s Thwumper jump is counted as the turn's shot",
}


def describe(event) -> str:
    """One short human sentence for an event (Vendetta's own for the road's)."""
    match event:
        case CarnivalStarted(position, rules_version):
            names = ", ".join(f"{p.name} ({p.color})" for p in position.players)
            return (f"Carnival of Chaos started on the {position.side} side (rules v{rules_version}, "
                    f"seed {position.seed}) with {names}")
        case TilesLaid(tiles):
            return "road tiles in slots 1-3: " + ", ".join(tiles)
        case FavorsPlaced(spaces):
            return f"{len(spaces)} party favors placed face down"
        case Faced(vehicle, facing):
            return f"{vehicle} now faces {facing}"
        case TileEntered(player, vehicle, slot):
            return f"{player}'s {vehicle} enters road tile {slot}"
        case ScrapGained(player, amount, reason):
            return f"{player} gains {amount} scrap ({reason})" if amount >= 0 else \
                f"{player} loses {-amount} scrap ({reason})"
        case FavorCollected(player, vehicle, at, _kind):
            return f"{vehicle} collects a party favor at {at} for {player}"
        case FavorDealt(player, vehicle, at):
            return f"{vehicle} collects a party favor at {at} for {player} (dealt face down by the host)"
        case WeaponClaimed(vehicle, at, weapon):
            return f"{vehicle} claims the super-weapon at {at}: {weapon}"
        case TinaFlipped(card):
            return f"Tina's turn: she flips {card}"
        case PillarsSet(raised):
            return "killer pillars raised: " + (", ".join(raised) if raised else "none")
        case DecreeSet(decree, number):
            return f"Tina decrees {decree} (until the end of round {number + 1})"
        case WitnessMePlayed(player):
            return f"{player} plays Witness Me!: 1 scrap for each shot and slam this turn"
        case FavorPlayed(player, favor, pillars, die, face, target, shot):
            barrel = {"weapon": f": a super-weapon shot at {target} before moving",
                      "thwump": f": the Thwumper's jump {target} before moving" if target else
                      ": the Thwumper's jump before moving (its stunt die first, then its way)"}.get(shot or "",
                                                                                 f": a shot at {target} before moving")
            detail = {"killer-pillar": f": {pillars[0] or 'none'} to road, {pillars[-1]} raised" if pillars else "",
                      "precision": f": the {die} die set to {face}", "double-barrel": barrel}
            return f"{player} plays {favor}{detail.get(favor, '')}"
        case FavorsPassed(player, "mid-effect"):
            return f"{player} plays no more party favors: the effect goes on"
        case FavorsPassed(player, stage) if stage.startswith("after-shooting:"):
            return f"{player} plays no more party favors this turn"
        case FavorsPassed(player, _stage):
            return f"{player} plays no more party favors before moving"
        case EffectPaused(player, effect, vehicle, to):
            what = {"slam": "before the slammed car is moved", "skid": f"before {vehicle} skids to {to}",
                    "blast-off": f"before {vehicle} blasts off to {to}",
                    "dazed": f"before dazed {vehicle} moves to {to}",
                    "shrapnel": f"before shrapnel from {vehicle} finds its target",
                    "thwump": f"before the Thwumper of {vehicle} lands on {to}"}
            return f"{player} may play a party favor {what.get(effect, 'in the middle of ' + effect)}"
        case AfterHit(weapon, car, target):
            return f"the {weapon} of {car} hit {target}: what the card adds waits until the damage effect is over"
        case AfterHitResolved(weapon, car):
            return f"the damage effect of the {weapon}'s hit by {car} is over"
        case JumpRolled(car, spaces):
            return f"the Thwumper of {car} jumps {spaces} space{'' if spaces == 1 else 's'}: its player picks the way"
        case JumpAimed(car, direction):
            return f"the Thwumper of {car} jumps {direction}"
        case PrecisionUsed(die):
            return f"the {die} die shows the face Precision set"
        case ShotTaken(player, kind):
            return SHOT_TAKEN.get(kind, "{player}'s {kind} shot is counted").format(player=player, kind=kind)
        case vev.CarDisabled(car):
            return f"{car} is inoperable (it keeps its facing)"  # the arena flips it without turning it
        case PassedThrough(car, past):
            return f"{car} moves through {past} (Bootleg Turn)"
        case WildRoll(face):
            return f"Let's Get Wild!: stunt die {face}: the slammed car goes {face} space{'' if face == '1' else 's'}"
        case Energized(car, die):
            return f"the Energizer: {car} takes another turn with a {die}"
        case ChopperFaced(owner, facing):
            return f"{owner}'s chopper faces {facing}"
        case RollOff(rolls, _scripted):
            return "roll-off: " + "; ".join(", ".join(f"{p} {t}" for p, t in r.items()) for r in rolls)
    return vev.describe(event)
