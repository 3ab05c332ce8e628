"""The Big Rig (rules: shared/seeds/001_*.txt, The Big Rig and its section board).

One road vehicle of three Large sections, ``COLOR-rear``, ``COLOR-mid`` and
``COLOR-front``, each a vehicle of the state (kind ``bigrig-SECTION``) so that
board queries, shots and slams see every section where it stands.  The turn:

1. the round's first die on Hydraulic Steering (lane changes this round), then
   one die on a command of a section not used this round (Repair needs a 3; a
   damaged command, or an Air Attack in round 1, only moves the rig);
2. Repair, Traction Drive, Targeting Computer, Cow Catcher and Air Attack take
   effect before moving; Missile Launcher and Hazard Dispenser after;
3. the rig moves like a train: the front section steps F (or FL/FR, spending
   a lane change), the mid section takes the front's old space, the rear the
   mid's.  Only the front looks at the spaces it enters (Massive);
4. it shoots from the front section's front arc or the rear section's rear arc.

Damage to the rig is a minor damage token: on the command a shot named, or
placed by the rig's player (a ``place-damage`` decision taken as soon as the
effect chain is over: nothing in a chain depends on which command is
covered).  Six tokens eliminate it; so does being dumped off the rear piece
with all three sections on it.
"""

from __future__ import annotations

from ..core import geometry
from . import board as b
from . import effects as fx
from . import sectionboard
from . import events as ev
from .actions import AssignSection, CowCatcher, DispenseHazard, Pass, PlaceDamage, SetSteering, Step
from .context import Ctx, Suspend
from .model import State

CREW = "bigrig"
SECTIONS = sectionboard.SECTIONS
BEFORE_MOVE = ("repair", "traction-drive", "targeting-computer", "cow-catcher", "airstrike")


def is_big_rig(state: State, name: str) -> bool:
    return b.player(state, name).crew == CREW


sections = b.rig_sections
section_name = b.section_name
damage = fx.rig_damage


# ----------------------------------------------------------------- options
def steering_options(state: State, name: str) -> list:
    """Step 1, first turn of the round: a die on Hydraulic Steering."""
    return [SetSteering(d) for d in sorted(set(b.player(state, name).dice))]


def assign_options(state: State, name: str) -> list:
    """Step 1: a die on a command of a section not used this round; Repair
    needs a 3 (a damaged command takes any die and only moves the rig)."""
    p = b.player(state, name)
    dice = sorted(set(p.dice))
    if not dice:
        return [Pass()]
    out = []
    for section in SECTIONS:
        if section in p.sections_used:
            continue
        for command in sectionboard.COMMANDS[section]:
            for d in dice:
                if command == "repair" and d != sectionboard.REPAIR_DIE:
                    continue
                out.append(AssignSection(section, command, d))
    return out or [Pass()]


def command_active(state: State, name: str, section: str, command: str) -> bool:
    """A command takes effect unless it is damaged; Air Attack not in round 1."""
    damaged = command in sections(state, name)[section].damage
    return not damaged and not (command == "airstrike" and state.round <= 1)


def step_options(state: State) -> list:
    """The rig steps F, or FL/FR while Hydraulic Steering has lane changes; it
    never steers off the side of the road (it cannot be eliminated so)."""
    t = state.turn
    front = b.vehicle(state, t.car)
    out = []
    for d in ("FL", "F", "FR"):
        if d != "F" and b.player(state, t.player).steering <= 0:
            continue
        to = geometry.neighbour(front.at, d, front.facing)
        if not 0 <= to[0] < state.components.lanes:
            continue
        out.append(Step(d))
    return out


def placement_options(state: State, name: str) -> list:
    """Where the rig's player may place a minor damage token: an undamaged command
    that a shot could target (the section board's faded X)."""
    out = []
    for section, v in sections(state, name).items():
        for command in sectionboard.targetable(section):
            if command not in v.damage:
                out.append(PlaceDamage(section, command))
    return out


def targetable_commands(state: State, vid: str) -> list[str]:
    """The commands a shot at section ``vid`` may name: undamaged, not Repair."""
    v = b.vehicle(state, vid)
    return [c for c in sectionboard.targetable(section_name(vid)) if c not in v.damage]


def rear_arc(state: State, name: str) -> list:
    rear = sections(state, name)["rear"]
    return geometry.arc(rear.at, rear.facing, geometry.REAR_ARC)


def hazard_spaces(state: State, name: str) -> list[str]:
    """Hazard Dispenser: empty spaces of the rear arc (no vehicle, wreck, token or chopper)."""
    unknown = sum(1 for t in state.tokens if t.kind is None)
    if sum(state.hazard_pile.values()) - unknown <= 0:
        return []
    out = []
    for sp in rear_arc(state, name):
        if not b.on_board(state, sp) or b.occupants(state, sp) or b.token_at(state, sp) is not None:
            continue
        if sp in b.chopper_spaces(state):
            continue
        out.append(b.nm(sp))
    return out


def hazard_options(state: State, name: str) -> list:
    return [DispenseHazard(at) for at in hazard_spaces(state, name)] + [DispenseHazard(None)]


def cow_options(state: State) -> list:
    return [CowCatcher("FL"), CowCatcher("FR")]


# ----------------------------------------------------------------- effects
def off_road(ctx: Ctx, at, cause: str) -> None:
    ctx.emit(ev.OffRoadPlaced(b.nm(at), cause))


def step(ctx: Ctx, direction: str) -> None:
    """The rig moves one space like a train (001 Step 3, Massive, Dependable,
    Sturdy, Cow Catcher, Slamming)."""
    s = ctx.state
    t = s.turn
    rig = sections(s, t.player)
    front = rig["front"]
    to = geometry.neighbour(front.at, direction, front.facing)
    if b.terrain(s, to) == "beyond":
        if s.final_piece is not None and s.road[-1].index >= s.final_piece:
            ctx.emit(ev.VehicleMoved(front.id, b.nm(front.at), b.nm(to), "step", direction, 1))
            from ..core.events import GameOver
            from .context import GameEnds

            ctx.emit(GameOver(t.player, f"{front.id} crossed the Finish Line"))
            raise GameEnds()
        fx.scroll(ctx, front.id)
        s = ctx.state
        if b.vehicle(s, front.id).at is None:
            return
    others = b.occupants(s, to)
    token = b.token_at(s, to)
    if not others and token is not None and not token.face_up:
        fx.reveal(ctx, token)
        s = ctx.state
    terrain = b.terrain(s, to)
    cost = min(2 if terrain == "mud" else 1, t.moves_left)
    trail = [(v.id, v.at) for v in (rig["front"], rig["mid"], rig["rear"])]
    ctx.emit(ev.VehicleMoved(front.id, b.nm(front.at), b.nm(to), "step", direction, cost, False))
    for (vid, _), (_, frm) in zip(trail[1:], trail[:-1]):
        here = b.vehicle(ctx.state, vid).at
        if here != frm:
            ctx.emit(ev.VehicleMoved(vid, b.nm(here), b.nm(frm), "follow", "", 0, False))
    if terrain == "mud" and ctx.state.turn.moves_left == 0 and cost < 2:
        fx.stop_movement(ctx, front.id, "stuck in the mud")
    if terrain == "impassable":  # Dependable
        off_road(ctx, to, "the Big Rig is Dependable")
        damage(ctx, front.id, f"drove into impassable terrain at {b.nm(to)}")
        return
    others = b.occupants(ctx.state, to, exclude=front.id)
    if others:
        other = others[0]
        t = ctx.state.turn
        if t.cow and not b.is_wreck(other):
            owner = b.owner_of(ctx.state, other)
            chooser = owner if owner is not None and not b.player(ctx.state, owner).out else t.player
            ctx.emit(ev.CowCatcherMet(other, chooser))
            raise Suspend()
        if t.cow and b.is_wreck(other):
            ctx.emit(ev.CowCatcherMet(other, t.player))
            raise Suspend()
        fx.slam(ctx, front.id, other, to)
        return
    token = b.token_at(ctx.state, to)
    if token is not None and token.face_up:
        hazard(ctx, front.id, token.kind, to)


def hazard(ctx: Ctx, vid: str, kind: str, at) -> None:
    """A hazard the front section enters.  Road and mud only change the terrain;
    an oil slick would move the rig: Sturdy turns it into a minor damage and an
    off-road token; a mine deals its damage (a minor damage token) and, the rig
    being Sturdy, does not stop it; wreckage places a wreck that the rig slams."""
    if kind in ("road", "mud"):
        return
    if kind == "oil-slick":
        off_road(ctx, at, "the Big Rig is Sturdy")
        damage(ctx, vid, f"an oil slick at {b.nm(at)}")
        return
    if kind == "mine":
        ctx.emit(ev.TokenReturned(b.nm(at), "mine"))
        damage(ctx, vid, "a mine")
        return
    if kind == "wreckage":
        ctx.emit(ev.TokenReturned(b.nm(at), "wreckage"))
        wreck = f"wreck-{ctx.state.wreck_counter + 1}"
        ctx.emit(ev.WreckPlaced(wreck, b.nm(at)))
        fx.slam(ctx, vid, wreck, at)
        return
    raise ValueError(f"unknown hazard {kind!r}")


def cow_push(ctx: Ctx, player: str, direction: str) -> None:
    """The Cow Catcher's answer: the met vehicle (or wreck) moves to the rig's
    front left or front right."""
    vid, _ = ctx.state.cow
    ctx.emit(ev.CowCatcherPush(player, vid, direction))
    at = b.position_of(ctx.state, vid)
    if at is not None:
        fx.enter(ctx, vid, geometry.neighbour(at, direction, "F"), "push", direction)


def missile_launcher(ctx: Ctx, player: str) -> None:
    """After moving: roll the shot die; every road vehicle on or adjacent to the
    space two in front of the front section takes one minor damage if the roll
    hits its size (cars put a minor damage token in a damage slot)."""
    front = sections(ctx.state, player)["front"]
    centre = geometry.neighbour(geometry.neighbour(front.at, "F", front.facing), "F", front.facing)
    face, scripted = ctx.roll("shot")
    ctx.emit(ev.MissileLaunched(player, b.nm(centre), face, scripted))
    spaces = [centre] + [geometry.neighbour(centre, d) for d in ("F", "FR", "BR", "B", "BL", "FL")]
    hit = [v.id for sp in spaces for v in ctx.state.vehicles
           if v.at == sp and not v.start and v.size in face]
    for vid in hit:
        v = b.vehicle(ctx.state, vid)
        if v.at is None:
            continue
        if v.kind.startswith("bigrig"):
            damage(ctx, vid, "the missile launcher")
        elif v.kind == "motorcycle":
            fx.damage(ctx, vid, "the missile launcher")
        else:
            minor_to_car(ctx, vid, "the missile launcher")


def minor_to_car(ctx: Ctx, vid: str, cause: str) -> None:
    """A car taking minor damage puts a minor damage token in a damage slot."""
    v = b.vehicle(ctx.state, vid)
    if len(v.damage) >= 2:
        ctx.emit(ev.DamageIgnored(vid, "both damage slots are full"))
        return
    ctx.emit(ev.MinorDamageTaken(vid, cause))
    if len(v.damage) + 1 >= 2:
        ctx.emit(ev.CarDisabled(vid))


def solid(ctx: Ctx, vid: str, chopper_owner: str) -> None:
    """Solid: a section ending a turn on a chopper's space is not eliminated; the
    rig takes a minor damage and the chopper goes back to its owner."""
    ctx.emit(ev.ChopperReturned(chopper_owner, f"the Big Rig is Solid ({vid})"))
    damage(ctx, vid, f"{chopper_owner}'s chopper")
