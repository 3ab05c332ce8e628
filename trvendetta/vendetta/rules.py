"""The rules: set-up, the pending decision, and ``decide``.

``pending(state)`` is the one decision the game waits for (or None when the
next step is automatic or the game is over); ``decide`` checks the action
against it, resolves it, then *advances* through every automatic step
(ending turns and rounds, rolling dice) until the next real decision.
"""

from __future__ import annotations

from ..core import geometry
from ..core.errors import RuleViolation
from ..core.protocol import Decision
from ..core.rng import Rng
from . import board as b
from . import components as comp
from . import effects as fx
from . import events as ev
from . import bigrig as rig
from . import finalfive as ff
from . import sectionboard
from .actions import AssignSection, CowCatcher, DispenseHazard, PlaceDamage, RerollShot, SetSteering, ShootCommand
from .actions import describe_action, AssignDie, NoCommand, NoShoot, Pass, PlaceChopper, RoadBonus, Shoot, SlamMove, SlamReroll, Step, UseCommand
from .context import Ctx, GameEnds, Suspend
from .model import State
from .position import Position

RULES_VERSION = ev.RULES_VERSION


# ------------------------------------------------------------------ set-up
def start(position: Position, components: comp.Components | None, rng: Rng | None = None) -> list:
    """Every set-up event of a new game, from a position validated against
    ``components``, which the first event records (None: a game recorded
    before components were, re-executed with ``components_v1.v1()``); ``rng``
    replaces the seed's chance (an exchange game's set-up draw).

    Rules (set-up): road assembly (rear piece is a starting piece, two more
    drawn), hazards by player count, initiative (lowest total first, ties
    reroll), the first road die, then round 1 begins.
    """
    ctx = Ctx(State(), rng if rng is not None else Rng.for_action(position.seed, 0))
    ctx.emit(ev.GameStarted(position, RULES_VERSION, components))
    c = ctx.state.components
    tiles = c.tiles()
    if position.road:
        road = list(position.road)
    else:
        start_tile = c.sides[c.start_sides()[0]].tile
        road = [ctx.rng.pick(tiles[start_tile])]
    used = {c.sides[s].tile for s in road}
    rest = [ctx.rng.pick(tiles[t]) for t in ctx.rng.shuffled([t for t in tiles if t not in used])]
    need = 3 - len(road)
    ctx.emit(ev.RoadLaid(tuple(road + rest[:need]), tuple(rest[need:]), position.first_piece))
    road = road + rest[:need]
    n = len(position.players)
    if n == 2:
        ctx.emit(ev.FinalPieceSet(4))  # the fifth road piece is the final piece
    if position.tokens is None:
        for index, side in enumerate(road, position.first_piece):
            fx.place_hazards(ctx, index, side, n if index == 0 else None)
    begin(ctx, position)
    return ctx.events


def begin(ctx: Ctx, position: Position) -> None:
    """The set-up's last steps, on any board: initiative (lowest total first,
    ties reroll), the first road die, round 1 and its dice, the first turn."""
    first = position.first_player or position.active_player
    if first is None:
        first = _initiative(ctx, [p.name for p in position.players])
        ctx.emit(ev.FirstPlayerChosen(first))
    if position.road_die is None:
        _roll_road_die(ctx)
    ctx.emit(ev.RoundStarted(position.round, first))
    for p in position.players:
        if p.dice is None:
            _roll_dice(ctx, p.name)
    active = position.active_player or first
    ctx.emit(ev.TurnStarted(active, position.turn + 1))
    _advance(ctx)


def _initiative(ctx: Ctx, names: list[str]) -> str:
    """Everyone rolls their movement dice; lowest total goes first; ties reroll."""
    while True:
        totals = {}
        for name in names:
            crew = b.crew_of(ctx.state, name)
            dice, scripted = ctx.roll_movement(crew.dice, crew.die)
            ctx.emit(ev.InitiativeRolled(name, dice, scripted))
            totals[name] = sum(dice)
        low = min(totals.values())
        names = [n for n in names if totals[n] == low]
        if len(names) == 1:
            return names[0]


def _roll_road_die(ctx: Ctx) -> None:
    face, scripted = ctx.roll("road")
    ctx.emit(ev.RoadDieRolled(int(face), scripted))


def _roll_dice(ctx: Ctx, name: str) -> None:
    crew = b.crew_of(ctx.state, name)
    dice, scripted = ctx.roll_movement(crew.dice, crew.die)
    ctx.emit(ev.DiceRolled(name, dice, scripted))


# --------------------------------------------------------- the decision
def pending(state: State) -> Decision | None:
    """The decision the game waits for, or None (over, or an automatic step);
    the state's board may add options or a decision of its own (the arena's
    party favors, super-weapons, decrees)."""
    return state.board.decision(state, _pending(state))


def _pending(state: State) -> Decision | None:
    if state.phase != "playing":
        return None
    if state.slam is not None and state.slam.chooser is not None and state.slam.choose:
        sl = state.slam
        return Decision(sl.chooser, "slam-choose", (SlamMove(sl.top), SlamMove(sl.bottom)),
                        f"direction die {sl.direction}: which of your motorcycles moves?")
    if state.slam is not None and state.slam.chooser is not None:
        return Decision(state.slam.chooser, "slam-reroll", (SlamReroll(True), SlamReroll(False)),
                        f"reroll both slam dice ({state.slam.slam}, {state.slam.direction})?")
    if state.cow is not None:
        return Decision(state.cow[1], "cow-catcher", tuple(rig.cow_options(state)),
                        f"the Cow Catcher met {state.cow[0]}: move it front left or front right")
    for p in state.players:
        if p.unplaced and not p.out:
            return Decision(p.name, "place-damage", tuple(rig.placement_options(state, p.name)),
                            "place a minor damage token on the Big Rig")
    t = state.turn
    if t is None or b.player(state, t.player).out:
        return None
    name = t.player
    if t.phase == "assign" and rig.is_big_rig(state, name):
        p = b.player(state, name)
        if not p.steering_set and p.dice:
            return Decision(name, "steering", tuple(rig.steering_options(state, name)),
                            "a die on Hydraulic Steering (lane changes this round)")
        return Decision(name, "assign", tuple(rig.assign_options(state, name)), "assign a die to a section's command")
    if t.phase == "assign":  # the board says which may go now (the arena: cars entering a road tile)
        if ff.is_final_five(state, name):
            options, prompt = ff.first_options(state, name), "assign a die to a motorcycle"
        else:
            options, prompt = _assign_options(state, name), "assign a die to a car"
        return Decision(name, "assign", state.board.may_assign(state, name, options),
                        state.board.assign_prompt(prompt))
    if t.phase == "command":
        options = _command_options(state, name)
        if ff.is_final_five(state, name):
            options = state.board.may_assign(state, name, ff.command_options(state, name, options))
            prompt = "a die to a second motorcycle, or a command?"
            return Decision(name, "command", tuple(options), prompt) if options else None
        return Decision(name, "command", tuple(options), "use a command?") if options else None
    if t.phase == "airstrike-place":
        spaces = _chopper_spaces(state)
        return Decision(name, "airstrike-place", tuple(PlaceChopper(s) for s in spaces), "place your chopper") if spaces else None
    if t.phase == "airstrike-target":
        facing = state.board.chopper_facing(state, name)  # chosen in the arena
        targets = b.front_arc_targets(state, t.chopper, facing) if b.may_shoot_from(state, t.chopper) else []
        if not targets:
            return None
        options = _shot_options(state, targets)
        return Decision(name, "airstrike-target", tuple(options + [NoShoot()]), "chopper fires at?") if options else None
    car = b.vehicle(state, t.car) if t.car else None
    operational = car is not None and car.status == "operational" and car.at is not None
    if t.phase == "move":
        if not operational or t.stopped:
            return None
        if t.moves_left > 0 and t.section is not None:
            steps = rig.step_options(state)
            return Decision(name, "step", tuple(steps), f"{t.moves_left} moves left") if steps else None
        if t.moves_left > 0:
            steps = state.board.steps(state, car)
            moves = f"{t.moves_left} move{'' if t.moves_left == 1 else 's'} left"
            return Decision(name, "step", steps, moves) if steps else None
        if b.road_bonus_open(state):
            if car.kind != "motorcycle" and b.occupants(state, car.at, exclude=car.id):
                # a drift passed a vehicle with the last base move: the road die's moves carry it on
                # (a motorcycle may decline instead: its move then ends there, in a slam)
                return Decision(name, "road-bonus", (RoadBonus(True),), f"take the road die (+{state.road_die}) to finish the drift")
            return Decision(name, "road-bonus", (RoadBonus(True), RoadBonus(False)), f"take the road die (+{state.road_die})?")
        return None
    if t.phase == "shoot" and t.section is not None:
        return _rig_shoot(state, name)
    if t.phase == "shot-reroll":
        return Decision(name, "shot-reroll", (RerollShot(True), RerollShot(False)),
                        f"Targeting Computer: reroll the shot at {t.shot_target}?")
    if t.phase == "shoot":
        if not operational or not b.may_shoot_from(state, car.at):
            return None
        targets = b.front_arc_targets(state, car.at, car.facing, exclude=car.id)
        options = _shot_options(state, targets)
        if not options:
            return None
        return Decision(name, "shoot", tuple(options + [NoShoot()]), "fire?")
    return None


def _shot_options(state: State, targets: list[str]) -> list:
    """A shot at a Big Rig section names an undamaged command other than Repair
    before rolling (001 Getting Shot); a section with none left is no target."""
    out: list = []
    for x in targets:
        if b.is_rig(state, x):
            out += [ShootCommand(x, c) for c in rig.targetable_commands(state, x)]
        else:
            out.append(Shoot(x))
    return out


def _rig_shoot(state: State, name: str):
    """After the move: the Hazard Dispenser's token, then the shot from the front
    section's front arc or the rear section's rear arc (001 Step 4)."""
    t = state.turn
    if t.active and t.command == "hazard-dispenser" and not t.after_done:
        return Decision(name, "hazard-dispense", tuple(rig.hazard_options(state, name)),
                        "Hazard Dispenser: a token face down in the rear arc?")
    if t.active and t.command == "missile-launcher" and not t.after_done:
        return None  # fired automatically (rules._advance)
    front = b.vehicle(state, t.car)
    if front.at is None:
        return None
    own = {v.id for v in rig.sections(state, name).values()}
    targets = [x for x in b.front_arc_targets(state, front.at, front.facing) if x not in own]
    for sp in rig.rear_arc(state, name):
        targets += [x for x in b.occupants(state, sp) if x not in own and x not in targets]
    options = _shot_options(state, targets)
    return Decision(name, "shoot", tuple(options + [NoShoot()]), "fire from the front or rear arc?") if options else None


def _assign_options(state: State, name: str) -> list:
    """Assign: an unmoved operational car; momentum only when none is left
    (a car that already moved, at most twice a round)."""
    dice = sorted(set(b.player(state, name).dice))
    cars = [v for v in state.vehicles if v.owner == name and v.status == "operational" and v.at is not None]
    unmoved = [v for v in cars if not v.moved]
    if not dice:
        return [Pass()]  # no die left to assign (a position can start a turn so)
    if unmoved:
        return [AssignDie(v.id, d) for v in unmoved for d in dice]
    # momentum is a permission ("you may"): passing stays open
    coast = b.crew_of(state, name).coast
    return [AssignDie(v.id, d, True) for v in cars if v.momentum < coast for d in dice] + [Pass()]


def _command_options(state: State, name: str) -> list:
    """Commands, once a round, with a second die: Nitro 1-3 (not with
    momentum), Drift 3-5, Repair 6 (a damaged car of yours), Air Attack any
    die but not in round 1."""
    p = b.player(state, name)
    t = state.turn
    if p.command_used or not p.dice:
        return []
    options: list = [NoCommand()]
    for d in sorted(set(p.dice)):
        if 1 <= d <= 3 and not t.momentum:
            options.append(UseCommand("nitro", d))
        if 3 <= d <= 5:
            options.append(UseCommand("drift", d))
        if d == 6:
            for v in state.vehicles:
                if v.owner == name and v.damage and v.at is not None:
                    options.append(UseCommand("repair", d, v.id))
        if state.round > 1:
            options.append(UseCommand("airstrike", d))
    return options


def _chopper_spaces(state: State) -> list[str]:
    """Air Attack: any empty space of the road (no vehicle, wreck or chopper)."""
    busy = {v.at for v in state.vehicles if v.at is not None and not v.start}
    busy |= {w.at for w in state.wrecks} | b.chopper_spaces(state)
    return [name for space, name in state.board.chopper_spaces(state) if space not in busy]


def fatal_step(state: State, car_id: str, direction: str) -> str | None:
    """What makes a step certain elimination (off a side edge, back off the
    road, into impassable terrain), or None."""
    car = b.vehicle(state, car_id)
    if car.at is None:
        return None
    to = geometry.neighbour(car.at, direction, car.facing)
    terrain = b.terrain(state, to)
    if car.kind.startswith("bigrig"):  # Dependable: impassable is a minor damage; the sixth one eliminates
        last = b.rig_damage_count(state, car.owner) + 1 >= sectionboard.ELIMINATED_AT
        if terrain == "impassable" and b.token_at(state, to) is None and last:
            return f"drives into impassable terrain at {b.nm(to)} (the sixth minor damage: eliminated)"
        return None
    if terrain == "offboard" or (terrain == "start" and not car.start):
        return state.board.fatal_exit(state, to)  # the board says why (an arena edge may be off the named grid)
    if terrain == "impassable" and b.token_at(state, to) is None:
        return f"drives into impassable terrain at {b.nm(to)} (eliminated)"
    return None


def warning(state: State, action) -> str:
    """A note for ``trv legal`` beside an option: fatal steps are marked."""
    d = pending(state)
    if isinstance(action, Step) and d is not None and d.kind == "step" and state.turn and state.turn.car:
        fatal = fatal_step(state, state.turn.car, action.direction)
        return f"fatal: {fatal}" if fatal else ""
    return ""


# ------------------------------------------------------------------ decide
def explain(state: State, action) -> None:
    """Raise a RuleViolation that names the exact problem with an illegal action
    (the generic check only says it is not among the options)."""
    d = pending(state)
    if d is None or action in d.options:
        return
    legal = [describe_action(o) for o in d.options]

    def refuse(rule: str, problem: str) -> None:
        raise RuleViolation(rule, f"{describe_action(action)} does not answer the pending decision "
                                  f"({d.kind} for {d.player}): {problem}", legal)

    if isinstance(action, AssignDie) and d.kind == "assign":
        p = b.player(state, d.player)
        own = [v for v in state.vehicles if v.owner == d.player]
        car = next((v for v in own if v.id == action.car), None)
        if car is None:
            refuse("assign", f"{action.car!r} is not one of {d.player}'s cars ({', '.join(v.id for v in own)})")
        if action.die not in p.dice:
            refuse("assign", f"die {action.die} is not in {d.player}'s pool ({' '.join(map(str, p.dice)) or 'no dice left'})")
        if car.status != "operational":
            refuse("assign: an operational car", f"{car.id} is {car.status}")
        if car.moved and not action.momentum:
            refuse("assign", f"{car.id} has already moved this round")
        if action.momentum:
            refuse("momentum: only when no unmoved operational car is left, at most twice per car",
                   f"momentum for {car.id} is not allowed now")
    if isinstance(action, UseCommand) and d.kind == "command":
        ranges = {"nitro": "1-3", "drift": "3-5", "repair": "6", "airstrike": "any die, not in round 1"}
        if action.command not in ranges:
            refuse("commands", f"unknown command {action.command!r}; commands: nitro, drift, repair, airstrike")
        if action.die not in b.player(state, d.player).dice:
            refuse("commands", f"die {action.die} is not in {d.player}'s pool")
        refuse(f"{action.command}: {ranges[action.command]}", f"{action.command} is not allowed with that die or target now")
    if isinstance(action, Step) and d.kind == "step":
        refuse("movement: a car enters one of the three spaces of its front arc", f"{action.direction!r} is not FL, F or FR")


def decide(state: State, action, rng: Rng, check) -> list:
    """Resolve ``action`` (checked legal by ``check``) and advance: the events."""
    return resolve(state, action, rng, check)[1]


def resolve(state: State, action, rng: Rng, check, decision: Decision | None = None
            ) -> tuple[State, list, Decision | None]:
    """Like :func:`decide`, also returning the state the events fold to (the
    context folded each event as it was emitted, so folding again is waste)
    and that state's pending decision (``_advance`` found it to stop there).
    ``decision``, when given, is ``pending(state)``, already known."""
    if decision is None:
        decision = pending(state)
    if decision is None or action not in decision.options:
        explain(state, action)
        check(state, action)  # raises the generic RuleViolation
    ctx = Ctx(state, rng)
    after: Decision | None = None
    try:
        _resolve(ctx, decision, action)
        after = _advance(ctx)
    except Suspend:
        after = pending(ctx.state)  # a slam waits for its reroll answer; who is out is settled once it resolves
    except GameEnds:
        pass
    return ctx.state, ctx.events, after


def _resolve(ctx: Ctx, decision: Decision, action) -> None:
    s = ctx.state
    t = s.turn
    # the commonest actions first: each case before the one that matches costs a class check
    match action:
        case Step(direction) if t.section is not None:
            rig.step(ctx, direction)
        case Step(direction):
            car = b.vehicle(s, t.car)
            fx.enter(ctx, car.id, s.board.neighbour(car.at, direction, car.facing), "step", direction)
        case AssignDie(car, die, momentum):
            if t.phase == "command":  # in the command decision: the Final Five's second motorcycle
                ctx.emit(ev.SecondMotorcycleAssigned(t.player, car, die, momentum))
            else:
                ctx.emit(ev.DieAssigned(t.player, car, die, momentum))
        case RoadBonus(take):
            ctx.emit(ev.RoadBonusChosen(t.car, take, s.road_die if take else 0))
        case NoCommand():
            ctx.emit(ev.CommandUsed(t.player, "none"))
        case Shoot(target):
            shooter = f"{t.player}'s chopper" if t.phase == "airstrike-target" else t.car
            fire(ctx, shooter, target)
        case NoShoot():
            if t.phase == "shoot":
                _vehicle_done(ctx)
            else:
                _start_move(ctx)
        case UseCommand(command, die, target):
            ctx.emit(ev.CommandUsed(t.player, command, die, target))
            if command == "repair":
                v = b.vehicle(ctx.state, target)
                ctx.emit(ev.CarRepaired(target, v.damage[-1]))
        case Pass():
            dice = b.player(s, t.player).dice
            ctx.emit(ev.Passed(t.player, min(dice) if dice else None))
            _end_turn(ctx)
        case PlaceChopper(at):
            ctx.emit(ev.ChopperPlaced(t.player, at))
        case SlamReroll(reroll):
            ctx.emit(ev.SlamAnswered(decision.player, reroll))
            if reroll:
                fx.roll_slam(ctx, allow_reroll=False)
            else:
                fx.resolve_slam(ctx)
        case SlamMove(vehicle):
            ctx.emit(ev.SlamVehicleChosen(decision.player, vehicle))
            fx.resolve_slam(ctx)
        case SetSteering(die):
            ctx.emit(ev.SteeringSet(t.player, die))
        case AssignSection(section, command, die):
            active = rig.command_active(s, t.player, section, command)
            ctx.emit(ev.SectionAssigned(t.player, section, command, die, active))
            if active and command == "repair":
                v = rig.sections(ctx.state, t.player)[section]
                if v.damage:  # Repair: before moving, remove one damage token from the section
                    ctx.emit(ev.SectionRepaired(v.id, v.damage[-1]))
        case PlaceDamage(section, command):
            ctx.emit(ev.DamagePlaced(decision.player, b.rig_sections(s, decision.player)[section].id, command))
        case CowCatcher(direction):
            rig.cow_push(ctx, decision.player, direction)
        case DispenseHazard(at):
            ctx.emit(ev.HazardDispensed(t.player, at))
        case RerollShot(reroll):
            ctx.emit(ev.ShotRerollChosen(t.player, reroll))
            if reroll:
                fire(ctx, t.car, t.shot_target)
        case ShootCommand(target, command):
            shooter = f"{t.player}'s chopper" if t.phase == "airstrike-target" else t.car
            fire(ctx, shooter, target, command)
        case _:
            s.board.resolve(ctx, decision, action)  # the board's own actions (none on the road)


def fire(ctx: Ctx, shooter: str, target: str, command: str | None = None) -> None:
    """Firing: roll the shot die; a face hits every size it shows; a hit wreck
    is removed, a hit car takes one damage, a hit Big Rig section a minor
    damage token on the command the shooter named."""
    face, scripted = ctx.roll("shot")
    hit = b.size_of(ctx.state, target) in face
    ctx.emit(ev.ShotFired(shooter, target, face, hit, scripted))
    if hit and command is not None:
        fx.rig_damage(ctx, target, f"a shot by {shooter}", command)
    elif hit:
        fx.damage(ctx, target, f"a shot by {shooter}")


def _start_move(ctx: Ctx) -> None:
    t = ctx.state.turn
    car = b.vehicle(ctx.state, t.car)
    if t.section is not None:  # the Big Rig: the road die only with Traction Drive
        ctx.emit(ev.MoveStarted(car.id, t.die, t.active and t.command == "traction-drive"))
        return
    moves = 1 if t.momentum else t.die + t.nitro
    road_ok = not t.momentum and car.at is not None and b.terrain(ctx.state, car.at) in ("road", "start")
    ctx.emit(ev.MoveStarted(car.id, moves, road_ok))


def _vehicle_done(ctx: Ctx) -> None:
    """The turn's vehicle has moved and shot: the Final Five's second
    motorcycle moves next (001: "Then, move and shoot with the other one"),
    otherwise the turn ends."""
    t = ctx.state.turn
    if t.second is not None:
        ctx.emit(ev.SecondMotorcycleUp(t.player, t.second))
        return
    _end_turn(ctx)


def _end_turn(ctx: Ctx) -> None:
    """End of turn: a car (of anyone) ending the turn on a chopper's space is eliminated."""
    s = ctx.state
    for chopper in s.choppers:
        if chopper.at is None:
            continue
        for v in s.vehicles:
            if v.at == chopper.at and not v.start and v.status != "eliminated":
                if v.kind.startswith("bigrig"):
                    rig.solid(ctx, v.id, chopper.owner)
                    break
                fx.eliminate(ctx, v.id, f"ended the turn under {chopper.owner}'s chopper")
    ctx.emit(ev.TurnEnded(ctx.state.turn.player))


def _settle(ctx: Ctx) -> None:
    """Out and game over: a player with no operational car is out; with 3+
    players the first one out fixes the current front piece as the final
    piece; the game ends when one player (or none) is left."""
    s = ctx.state
    if s.phase == "over":
        return
    running = {v.owner for v in s.vehicles if v.status == "operational"}
    if all(p.out or p.name in running for p in s.players):
        return
    fx.settle_outs(ctx)
    if len(b.live_players(ctx.state)) <= 1 and not s.board.plays_round_out:  # the arena plays the round out
        fx.end_for_last_player(ctx)


def _advance(ctx: Ctx) -> Decision | None:
    """Take every automatic step until a decision is pending (returned) or the game ends."""
    while True:
        _settle(ctx)
        ctx.state.board.settle(ctx)  # the arena: cars that ended their movement collect what lies there
        s = ctx.state
        if s.phase == "over":
            return None
        decision = pending(s)
        if decision is not None:
            return decision
        t = s.turn
        if t is None:
            _next_turn(ctx)
        elif b.player(s, t.player).out:
            _end_turn(ctx)
        elif t.phase in ("command", "command-done", "airstrike-place", "airstrike-target", "airstrike-done"):
            _start_move(ctx)
        elif t.phase == "move":
            car = b.vehicle(s, t.car)
            if _drifted_into_slam(ctx, car):
                continue
            ctx.emit(ev.MoveFinished(car.id, b.nm(car.at) if car.at is not None and not car.start else None))
        elif t.phase == "shoot" and t.active and t.command == "missile-launcher" and not t.after_done:
            rig.missile_launcher(ctx, t.player)
        elif t.phase in ("shoot", "done"):
            _vehicle_done(ctx)
        else:
            raise AssertionError(f"no progress from phase {t.phase}")


def _drifted_into_slam(ctx: Ctx, car) -> bool:
    """001 Drifting: "If a motorcycle ends its move in the same space as another
    road vehicle, it results in a slam as normal."  Checked once the move is
    over (the road die, if taken, moves it on first)."""
    s = ctx.state
    if car.kind != "motorcycle" or car.at is None or car.start or s.slam is not None:
        return False
    others = b.occupants(s, car.at, exclude=car.id)
    if not others:
        return False
    fx.slam(ctx, car.id, others[0], car.at)
    return True


def _next_turn(ctx: Ctx) -> None:
    """Turns pass to the left; a round ends when every player has had three
    turns; then the first player passes left, everyone rolls, and the new
    first player rolls the road die."""
    s = ctx.state
    seats = [p.name for p in s.players]
    start = seats.index(s.first_player)
    order = [b.player(s, seats[(start + i) % len(seats)]) for i in range(len(seats))]
    waiting = [p for p in order if not p.out and p.turns < 3]
    if waiting:
        fewest = min(p.turns for p in waiting)
        nxt = next(p for p in waiting if p.turns == fewest)
        ctx.emit(ev.TurnStarted(nxt.name, s.turn_number + 1))
        return
    if s.board.round_over(ctx):  # the arena: Tina's turn, and maybe the end
        return
    ctx.emit(ev.RoundEnded(s.round))
    first = next(p.name for p in order[1:] + order[:1] if not p.out)
    ctx.emit(ev.RoundStarted(s.round + 1, first))
    for p in ctx.state.players:
        if not p.out:
            _roll_dice(ctx, p.name)
    _roll_road_die(ctx)
