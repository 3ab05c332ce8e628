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

import itertools
from typing import Any

from ....core import geometry
from ....core.protocol import Decision
from ....core.turnflags import TurnFlag
from ... import board as b
from ... import crew as crews
from ... import effects as fx
from ... import events as ev
from ...actions import NoShoot, Pass, Step
from ...cars import Cars, shot_options
from ...context import Ctx, Suspend
from ...model import State
from . import sectionboard
from .actions import AssignSection, CowCatcher, DispenseHazard, PlaceDamage, RerollShot, SetSteering, ShootCommand
from .events import (BigRigDamaged, CowCatcherMet, CowCatcherPush, DamagePlaced, HazardDispensed, MissileLaunched,
                     SectionAssigned, SectionRepaired, ShotRerollChosen, SteeringSet)
from .state import damage_count, rig, rig_turn, sections, targetable_commands

CREW = "bigrig"
SECTIONS = sectionboard.SECTIONS
BEFORE_MOVE = ("repair", "traction-drive", "targeting-computer", "cow-catcher", "airstrike")


def is_big_rig(state: State, name: str) -> bool:
    return b.player(state, name).crew == CREW


def damage(ctx: Ctx, vid: str, cause: str, command: str | None = None) -> None:
    """One minor damage token on the Big Rig (001 Taking Damage): on ``command``
    of the section when a shot named it, else for the rig's player to place.
    The rig is never stopped by damage; six tokens eliminate it."""
    v = b.vehicle(ctx.state, vid)
    if v.at is None:
        return
    ctx.emit(BigRigDamaged(v.owner, vid if command else None, command, cause))
    limit = sectionboard.ELIMINATED_AT
    if damage_count(ctx.state, v.owner) >= limit:
        eliminate(ctx, v.owner, f"the Big Rig holds {limit} minor damage tokens")


def eliminate(ctx: Ctx, owner: str, cause: str) -> None:
    """The Big Rig is eliminated: every section leaves the road (001 Getting Eliminated)."""
    for v in sections(ctx.state, owner).values():
        if v.at is not None:
            ctx.emit(ev.VehicleEliminated(v.id, cause))


def fire_at_command(ctx: Ctx, shooter: str, target: str, command: str) -> None:
    """A shot at a section naming one of its commands (001 Getting Shot): a hit puts a
    minor damage token on that command."""
    if fx.shot(ctx, shooter, target):
        damage(ctx, target, f"a shot by {shooter}", command)


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
        if section in rig(p).sections_used:
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
    never steers off the board (it cannot be eliminated so): the board says where a
    step lands (a ring road's lanes wrap)."""
    t = state.turn
    assert t is not None and t.car is not None and state.components is not None, "the rig steps in its turn"
    front = b.vehicle(state, t.car)
    assert front.at is not None, "the moving rig is on the road"
    out = []
    for d in ("FL", "F", "FR"):
        if d != "F" and rig(b.player(state, t.player)).steering <= 0:
            continue
        if state.board.terrain(state, state.board.neighbour(front.at, d, front.facing)) == "offboard":
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


def rear_arc(state: State, name: str) -> list:
    rear = sections(state, name)["rear"]
    return list(state.board.arc(rear.at, rear.facing, geometry.REAR_ARC))


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
    assert t is not None, "the rig steps in its turn"
    rig = sections(s, t.player)
    front = rig["front"]
    assert front.at is not None, "the moving rig is on the road"
    to = s.board.neighbour(front.at, direction, front.facing)
    if b.terrain(s, to) == "beyond":
        if s.final_piece is not None and s.road[-1].index >= s.final_piece:
            ctx.emit(ev.VehicleMoved(front.id, b.nm(front.at), b.nm(to), "step", direction, 1))
            from ....core.events import GameOver
            from ...context import GameEnds

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
    now = ctx.state.turn
    if terrain == "mud" and now is not None and now.moves_left == 0 and cost < 2:
        fx.stop_movement(ctx, front.id, "stuck in the mud")
    if terrain == "impassable":  # Dependable
        off_road(ctx, to, "the Big Rig is Dependable")
        damage(ctx, front.id, f"drove into impassable terrain at {b.nm(to)}")
        return
    others = b.occupants(ctx.state, to, exclude=front.id)
    if others:
        other = others[0]
        t = ctx.state.turn
        assert t is not None, "the rig steps in its turn"
        cow = rig_turn(t).cow
        if cow and not b.is_wreck(other):
            owner = b.owner_of(ctx.state, other)
            chooser = owner if owner is not None and not b.player(ctx.state, owner).out else t.player
            ctx.emit(CowCatcherMet(other, chooser))
            raise Suspend()
        if cow and b.is_wreck(other):
            ctx.emit(CowCatcherMet(other, t.player))
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
    assert ctx.state.cow is not None, "the Cow Catcher met a vehicle"
    vid, _ = ctx.state.cow
    ctx.emit(CowCatcherPush(player, vid, direction))
    at = b.position_of(ctx.state, vid)
    if at is not None:
        fx.enter(ctx, vid, ctx.state.board.neighbour(at, direction, "F"), "push", direction)


def missile_launcher(ctx: Ctx, player: str) -> None:
    """After moving: roll the shot die; every road vehicle on or adjacent to the
    space two in front of the front section takes one minor damage if the roll
    hits its size (each as its crew takes minor damage: a car puts a minor
    damage token in a damage slot)."""
    front = sections(ctx.state, player)["front"]
    board = ctx.state.board
    centre = board.neighbour(board.neighbour(front.at, "F", front.facing), "F", front.facing)
    face, scripted = ctx.roll("shot")
    ctx.emit(MissileLaunched(player, b.nm(centre), face, scripted))
    spaces = [centre, *board.arc(centre, "F", ("F", "FR", "BR", "B", "BL", "FL"))]
    hit = [v.id for sp in spaces for v in ctx.state.vehicles
           if v.at == sp and not v.start and v.size in face]
    for vid in hit:
        v = b.vehicle(ctx.state, vid)
        if v.at is None:
            continue
        crews.of_vehicle(ctx.state, vid).minor_damage(ctx, vid, "the missile launcher")


def solid(ctx: Ctx, vid: str, chopper_owner: str) -> None:
    """Solid: a section ending a turn on a chopper's space is not eliminated; the
    rig takes a minor damage and the chopper goes back to its owner."""
    ctx.emit(ev.ChopperReturned(chopper_owner, f"the Big Rig is Solid ({vid})"))
    damage(ctx, vid, f"{chopper_owner}'s chopper")


def rig_shoot(state: State, name: str) -> Decision | None:
    """After the move: the Hazard Dispenser's token, then the shot from the front
    section's front arc or the rear section's rear arc (001 Step 4)."""
    t = state.turn
    assert t is not None and t.car is not None, "the rig shoots in its turn"
    rt = rig_turn(t)
    if rt.active and rt.command == "hazard-dispenser" and not rt.after_done:
        return Decision(name, "hazard-dispense", tuple(hazard_options(state, name)),
                        "Hazard Dispenser: a token face down in the rear arc?")
    if rt.active and rt.command == "missile-launcher" and not rt.after_done:
        return None  # fired automatically (BigRig.fires_itself)
    front = b.vehicle(state, t.car)
    if front.at is None:
        return None
    own = {v.id for v in sections(state, name).values()}
    targets = [x for x in b.front_arc_targets(state, front.at, front.facing) if x not in own]
    for sp in rear_arc(state, name):
        targets += [x for x in b.occupants(state, sp) if x not in own and x not in targets]
    options = shot_options(state, targets)
    return Decision(name, "shoot", tuple(options + [NoShoot()]), "fire from the front or rear arc?") if options else None


class BigRig(Cars):
    """The Big Rig's :class:`~trvendetta.vendetta.crew.Crew` (see the module doc)."""

    direction_only_slams = True
    waits = True
    slam_rank = 2
    out_sets_final_piece = True  # 001 Getting Eliminated: the finish line at once
    #: 002 "Using Other Expansions": "The Big Rig? No. Absolutely not."
    arena_refusal: str | None = "The Big Rig is not allowed in the arena. Tina was very clear about that."
    #: its ``trv turn`` flags (its part of the driver, :meth:`flag_part`, maps them onto its decisions)
    turn_flags: tuple[TurnFlag, ...] = (
        TurnFlag("steering", "int", metavar="N",
                 help="Big Rig: the round's first die, on Hydraulic Steering (that many lane changes this round)."),
        TurnFlag("section", metavar="rear|mid|front", choices=("rear", "mid", "front"),
                 help="Big Rig: the section whose --command takes this turn's --assign die (commands: "
                      "hazard-dispenser, repair, targeting-computer; traction-drive, repair, airstrike; "
                      "missile-launcher, repair, cow-catcher)."),
        TurnFlag("target-command", metavar="COMMAND",
                 help="Shooting (--shoot or --airstrike-target) at a Big Rig section: the command aimed at "
                      "(not repair, not damaged)."),
        TurnFlag("hazard-at", metavar="SPACE", help="Big Rig Hazard Dispenser: where the token goes (rear arc)."),
        TurnFlag("place-damage", metavar="SECTION:COMMAND", multiple=True,
                 help="Big Rig: where each minor damage token of the turn goes (Dependable, Sturdy, Solid...), in order."),
        TurnFlag("reroll-shot", "switch", help="Big Rig Targeting Computer: reroll (or keep) a missed shot."),
        TurnFlag("cow-catcher", metavar="FL|FR", help="Big Rig Cow Catcher met a wreck: where it goes."),
    )

    def flag_part(self, driver: Any) -> Any:
        from .flags import RigFlags  # with the turn driver only

        return RigFlags(driver)

    # ------------------------------------------------------------- deciding
    def waiting(self, state: State, player) -> Decision | None:
        if state.cow is not None:  # the Cow Catcher met a vehicle: its chooser may be that vehicle's owner
            return Decision(state.cow[1], "cow-catcher", tuple(cow_options(state)),
                            f"the Cow Catcher met {state.cow[0]}: move it front left or front right")
        if rig(player).unplaced and not player.out:
            return Decision(player.name, "place-damage", tuple(placement_options(state, player.name)),
                            "place a minor damage token on the Big Rig")
        return None

    def decision(self, state: State, name: str, t) -> Decision | None:
        if t.phase == "shot-reroll":
            return Decision(name, "shot-reroll", (RerollShot(True), RerollShot(False)),
                            f"Targeting Computer: reroll the shot at {rig_turn(t).shot_target}?")
        return super().decision(state, name, t)

    def assign(self, state: State, name: str) -> Decision | None:
        p = b.player(state, name)
        if not rig(p).steering_set and p.dice:
            return Decision(name, "steering", tuple(steering_options(state, name)),
                            "a die on Hydraulic Steering (lane changes this round)")
        return Decision(name, "assign", tuple(assign_options(state, name)), "assign a die to a section's command")

    def move(self, state: State, name: str, t, car) -> Decision | None:
        if t.moves_left > 0 and rig_turn(t).section is not None:
            steps = step_options(state)
            return Decision(name, "step", tuple(steps), f"{t.moves_left} moves left") if steps else None
        return super().move(state, name, t, car)

    def shoot(self, state: State, name: str, t, car) -> Decision | None:
        if rig_turn(t).section is not None:
            return rig_shoot(state, name)
        return super().shoot(state, name, t, car)

    def target_options(self, state: State, vid: str) -> list:
        """A shot at a section names an undamaged command other than Repair before
        rolling (001 Getting Shot); a section with none left is no target."""
        return [ShootCommand(vid, c) for c in targetable_commands(state, vid)]

    def fatal_step(self, state: State, car, to) -> str | None:
        """Dependable: impassable is a minor damage; the sixth one eliminates."""
        terrain = b.terrain(state, to)
        last = damage_count(state, car.owner) + 1 >= sectionboard.ELIMINATED_AT
        if terrain == "impassable" and b.token_at(state, to) is None and last:
            return f"drives into impassable terrain at {b.nm(to)} (the sixth minor damage: eliminated)"
        return None

    # ------------------------------------------------------------- resolving
    def step(self, ctx: Ctx, direction: str) -> None:
        assert ctx.state.turn is not None, "a step is taken in a turn"
        if rig_turn(ctx.state.turn).section is not None:
            step(ctx, direction)
        else:
            super().step(ctx, direction)

    def resolve(self, ctx: Ctx, decision: Decision, action) -> bool:
        s = ctx.state
        t = s.turn
        match action:
            case SetSteering(die):
                assert t is not None, "steering is set in a turn"
                ctx.emit(SteeringSet(t.player, die))
            case AssignSection(section, command, die):
                assert t is not None, "a section is assigned in a turn"
                active = command_active(s, t.player, section, command)
                ctx.emit(SectionAssigned(t.player, section, command, die, active))
                if active and command == "repair":
                    v = sections(ctx.state, t.player)[section]
                    if v.damage:  # Repair: before moving, remove one damage token from the section
                        ctx.emit(SectionRepaired(v.id, v.damage[-1]))
            case PlaceDamage(section, command):
                assert decision.player is not None, "the rig's player places its damage"
                ctx.emit(DamagePlaced(decision.player, sections(s, decision.player)[section].id, command))
            case CowCatcher(direction):
                assert decision.player is not None, "a player answers the Cow Catcher"
                cow_push(ctx, decision.player, direction)
            case DispenseHazard(at):
                assert t is not None, "a hazard is dispensed in a turn"
                ctx.emit(HazardDispensed(t.player, at))
            case ShootCommand(target, command):  # any player's shot at a section (or their chopper's)
                assert t is not None, "a shot is fired in a turn"
                shooter = f"{t.player}'s chopper" if t.phase == "airstrike-target" else t.car
                assert shooter is not None, "the turn's car shoots"
                fire_at_command(ctx, shooter, target, command)
            case RerollShot(reroll):
                assert t is not None, "a shot is rerolled in a turn"
                ctx.emit(ShotRerollChosen(t.player, reroll))
                if reroll:
                    missed = rig_turn(t).shot_target
                    assert t.car is not None and missed is not None, "the turn's car shot at a target"
                    fx.fire(ctx, t.car, missed)
            case _:
                return False
        return True

    def start_move(self, ctx: Ctx) -> None:
        t = ctx.state.turn
        assert t is not None, "a move starts in a turn"
        own = rig_turn(t)
        if own.section is None:
            super().start_move(ctx)
            return
        assert t.car is not None, "the rig's section moves"
        car = b.vehicle(ctx.state, t.car)  # the road die only with Traction Drive
        ctx.emit(ev.MoveStarted(car.id, t.die, own.active and own.command == "traction-drive"))

    def fires_itself(self, ctx: Ctx) -> bool:
        t = ctx.state.turn
        assert t is not None, "the rig fires in its turn"
        own = rig_turn(t)
        if own.active and own.command == "missile-launcher" and not own.after_done:
            missile_launcher(ctx, t.player)
            return True
        return False

    def damage(self, ctx: Ctx, v, cause: str) -> None:
        damage(ctx, v.id, cause)

    def minor_damage(self, ctx: Ctx, vid: str, cause: str) -> None:
        damage(ctx, vid, cause)

    def left_behind(self, ctx: Ctx, v) -> None:
        """Dumped only with every section on the rear piece (or trailing off it): the front
        decides; otherwise the sections behind it trail off the back of the road and follow it back on."""
        if v.kind == "bigrig-front":
            eliminate(ctx, v.owner, "dumped off the rear piece when it was removed")

    def under_chopper(self, ctx: Ctx, v, chopper_owner: str) -> bool:
        solid(ctx, v.id, chopper_owner)
        return True

    # ------------------------------------------------------------- the bots
    #: how much a command is worth keeping (the greedy bot's minor damage goes on the least useful)
    KEEP = {"traction-drive": 6, "missile-launcher": 5, "cow-catcher": 4, "airstrike": 3,
            "targeting-computer": 2, "hazard-dispenser": 1}

    def score_option(self, h, a) -> float | None:
        """The greedy bot's Big Rig: steering takes a 2 when it can (else a 1); the section die
        (:func:`section_score`); a minor damage token goes on the least useful command; the
        Targeting Computer always rerolls a miss; the Hazard Dispenser always drops its token."""
        kind = h.decision.kind
        if kind == "steering":
            return {2: 3.0, 1: 2.0, 3: 1.0}.get(a.die, 0.0)
        if kind == "assign" and isinstance(a, AssignSection):
            return section_score(h, a)
        if kind == "place-damage":
            return -float(self.KEEP.get(a.command, 0))
        if kind == "hazard-dispense":
            return 1.0 if a.at else 0.0
        if kind == "shot-reroll":
            return 1.0 if a.reroll else 0.0
        return None


def section_score(h, a) -> float:
    """The greedy bot's section die (``h``: the ruleset's heuristics): the largest die; a Repair
    of a damaged section first; a command that will do something now (Traction Drive, the Cow
    Catcher with a vehicle ahead, an Air Attack with a target)."""
    s = h.state
    rig = sections(s, h.me)
    v = rig[a.section]
    score = 2.0 * a.die
    if a.command in v.damage:
        return score
    if a.command == "repair":
        return score + (20.0 if v.damage else -10.0)
    front = rig["front"]
    ahead = list(itertools.islice(s.board.line(front.at, "F", front.facing), a.die))
    busy = any(b.occupants(s, sp) for sp in ahead if b.on_board(s, sp))
    if a.command == "cow-catcher":
        return score + (3.0 if busy else 0.0)
    if a.command == "traction-drive":
        return score + 1.5
    if a.command == "airstrike":
        return score + (2.0 if s.round > 1 and max(h._strike_map().values(), default=0.0) > 0 else -1.0)
    if a.command == "missile-launcher":
        return score + 1.0
    return score + 0.5


BIG_RIG = crews.register(CREW, BigRig())
