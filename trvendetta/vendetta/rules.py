"""The rules: set-up, the pending decision, and ``decide``.

``pending(state)`` is the one decision the game waits for (or None when the
next step is automatic or the game is over); ``decide`` checks the action
against it, resolves it, then *advances* through every automatic step
(ending turns and rounds, rolling dice) until the next real decision.
"""

from __future__ import annotations

from typing import NoReturn

from ..core.errors import RuleViolation
from ..core.protocol import Decision
from ..core.rng import Rng
from . import board as b
from . import components as comp
from . import effects as fx
from . import events as ev
from . import crew as crews
from . import cars  # noqa: F401 (the cars register themselves: the rules ask crews by name)
from .crews import load as _load_crews
from .actions import describe_action, AssignDie, NoCommand, NoShoot, Pass, PlaceChopper, RoadBonus, Shoot, SlamMove, SlamReroll, Step, UseCommand
from .context import Ctx, GameEnds, Suspend
from .model import State
from .position import Position

RULES_VERSION = ev.RULES_VERSION

_load_crews("rules")  # the built-in crews' rules (``crews/<crew>/rules.py``) register themselves


# ------------------------------------------------------------------ set-up
def start(position: Position, components: comp.Components | None, rng: Rng | None = None,
          initial: State | None = None, rules_version: str = RULES_VERSION) -> list:
    """Every set-up event of a new game, from a position validated against
    ``components``, which the first event records (None: a game recorded
    before components were, re-executed with ``components_v1.v1()``); ``rng``
    replaces the seed's chance (an exchange game's set-up draw); ``initial``:
    the ruleset's initial state (its state type says which board it is on);
    ``rules_version``: a recorded game is set up again under its own.

    Rules (set-up): road assembly (rear piece is a starting piece, two more
    drawn), hazards by player count, initiative (lowest total first, ties
    reroll), the first road die, then round 1 begins.
    """
    ctx = Ctx(initial if initial is not None else State(), rng if rng is not None else Rng.for_action(position.seed, 0))
    ctx.emit(ev.GameStarted(position, rules_version, components))
    c = ctx.state.components
    assert c is not None, "GameStarted gives the game its components"
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
    registry = crews.CREWS
    for p in state.players:  # what waits for a player outside the turn (the Big Rig's Cow Catcher, its damage)
        crew = registry[p.crew]
        if crew.waits:
            waiting = crew.waiting(state, p)
            if waiting is not None:
                return waiting
    t = state.turn
    if t is None:
        return None
    p = b.player(state, t.player)
    if p.out or t.phase == "ending":
        return None
    return registry[p.crew].decision(state, p.name, t)


def fatal_step(state: State, car_id: str, direction: str) -> str | None:
    """What makes a step certain elimination (off a side edge, back off the
    road, into impassable terrain), or None: the car's crew says."""
    car = b.vehicle(state, car_id)
    if car.at is None:
        return None
    to = state.board.neighbour(car.at, direction, car.facing)  # where the board says it lands (a ring road wraps)
    return crews.of_vehicle(state, car_id).fatal_step(state, car, to)


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

    def refuse(rule: str, problem: str) -> NoReturn:
        raise RuleViolation(rule, f"{describe_action(action)} does not answer the pending decision "
                                  f"({d.kind} for {d.player}): {problem}", legal)

    if isinstance(action, AssignDie) and d.kind == "assign":
        assert d.player is not None, "a player assigns the dice"
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
            kind, word = crews.of(state, d.player).vehicle_noun, crews.of(state, d.player).coast_word
            most = b.crew_of(state, d.player).coast
            times = {1: "once", 2: "twice"}.get(most, f"{most} times")
            refuse(f"{word}: only when no unmoved operational {kind} is left, at most {times} per {kind}",
                   f"{word} for {car.id} is not allowed now")
    if isinstance(action, UseCommand) and d.kind == "command":
        assert d.player is not None, "a player uses a command"
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
    assert decision is not None, "check raised: an action no decision takes is illegal"
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
        case Step(direction):
            assert t is not None, "a step is taken in a turn"
            crews.of(s, t.player).step(ctx, direction)
        case AssignDie(car, die, momentum):
            assert t is not None, "a die is assigned in a turn"
            crews.of(s, t.player).assigned(ctx, car, die, momentum)
        case RoadBonus(take):
            bonus = s.road_die if take else 0
            assert t is not None and t.car is not None and bonus is not None, "the road die shows for the turn's car"
            ctx.emit(ev.RoadBonusChosen(t.car, take, bonus))
        case NoCommand():
            assert t is not None, "a command is declined in a turn"
            ctx.emit(ev.CommandUsed(t.player, "none"))
        case Shoot(target):
            assert t is not None, "a shot is fired in a turn"
            shooter = f"{t.player}'s chopper" if t.phase == "airstrike-target" else t.car
            assert shooter is not None, "the turn's car shoots"
            fire(ctx, shooter, target)
        case NoShoot():
            assert t is not None, "a shot is declined in a turn"
            if t.phase == "shoot":
                _vehicle_done(ctx)
            else:
                _start_move(ctx)
        case UseCommand(command, die, target):
            assert t is not None, "a command is used in a turn"
            ctx.emit(ev.CommandUsed(t.player, command, die, target))
            if command == "repair":
                assert target is not None, "a repair names its car"
                v = b.vehicle(ctx.state, target)
                ctx.emit(ev.CarRepaired(target, v.damage[-1]))
        case Pass():
            assert t is not None, "a player passes in a turn"
            dice = b.player(s, t.player).dice
            ctx.emit(ev.Passed(t.player, min(dice) if dice else None))
            _end_turn(ctx)
        case PlaceChopper(at):
            assert t is not None, "a chopper is placed in a turn"
            ctx.emit(ev.ChopperPlaced(t.player, at))
        case SlamReroll(reroll):
            assert decision.player is not None, "a player answers a slam"
            ctx.emit(ev.SlamAnswered(decision.player, reroll))
            if reroll:
                fx.roll_slam(ctx, allow_reroll=False)
            else:
                fx.resolve_slam(ctx)
        case SlamMove(vehicle):
            assert decision.player is not None, "a player chooses the vehicle a slam moves"
            ctx.emit(ev.SlamVehicleChosen(decision.player, vehicle))
            fx.resolve_slam(ctx)
        case _:  # a crew's own actions (the Big Rig's, a shot at its section included, whoever answers them), else the board's
            if not any(crews.named(crew).resolve(ctx, decision, action) for crew in dict.fromkeys(p.crew for p in s.players)):
                s.board.resolve(ctx, decision, action)


fire = fx.fire  # (the arena's super-weapons fire through it too)


def _start_move(ctx: Ctx) -> None:
    assert ctx.state.turn is not None, "a move starts in a turn"
    crews.of(ctx.state, ctx.state.turn.player).start_move(ctx)


def _vehicle_done(ctx: Ctx) -> None:
    """The turn's vehicle has moved and shot: the crew's next vehicle goes
    (the Final Five's second motorcycle), otherwise the turn ends."""
    assert ctx.state.turn is not None, "a vehicle is done in a turn"
    if not crews.of(ctx.state, ctx.state.turn.player).next_vehicle(ctx):
        _end_turn(ctx)


def _end_turn(ctx: Ctx) -> None:
    """End of turn: a car (of anyone) ending the turn on a chopper's space is
    eliminated (its crew says: the Big Rig is Solid).  Under rules version 2 a
    decision this raises (Solid's damage token to place) is answered before the
    turn ends: the turn waits in phase ``ending`` and comes back here."""
    s = ctx.state
    for chopper in s.choppers:
        if chopper.at is None:
            continue
        for v in s.vehicles:
            if v.at == chopper.at and not v.start and v.status != "eliminated":
                if crews.of_vehicle(s, v.id).under_chopper(ctx, v, chopper.owner):
                    break
    s = ctx.state
    assert s.turn is not None, "a turn ends in a turn"
    if s.turn.phase == "ending" and turn_waits_for_its_end(s) and _pending(s) is not None:
        return
    ctx.emit(ev.TurnEnded(s.turn.player))


def turn_waits_for_its_end(state: State) -> bool:
    """Rules version 2 and later: what the end of a turn raises is answered
    before the turn ends.  Version 1 ended the turn first (its records keep
    that order).  (A Carnival game records its own version here, but no crew
    of the arena raises a decision at the end of a turn: the Big Rig is refused.)"""
    return state.rules_version not in ("", "1")


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
        elif t.phase == "ending" or b.player(s, t.player).out:
            _end_turn(ctx)
        elif t.phase in ("command", "command-done", "airstrike-place", "airstrike-target", "airstrike-done"):
            _start_move(ctx)
        elif t.phase == "move":
            assert t.car is not None, "a move is the turn's car's"
            car = b.vehicle(s, t.car)
            if crews.of(s, t.player).move_ends(ctx, car):  # the Final Five: a drift ending in a slam
                continue
            ctx.emit(ev.MoveFinished(car.id, b.nm(car.at) if car.at is not None and not car.start else None))
        elif t.phase == "shoot" and crews.of(s, t.player).fires_itself(ctx):
            continue  # the Big Rig's Missile Launcher
        elif t.phase in ("shoot", "done"):
            _vehicle_done(ctx)
        else:
            raise AssertionError(f"no progress from phase {t.phase}")


def _next_turn(ctx: Ctx) -> None:
    """Turns pass to the left; a round ends when every player has had three
    turns; then the first player passes left, everyone rolls, and the new
    first player rolls the road die."""
    s = ctx.state
    seats = [p.name for p in s.players]
    assert s.first_player is not None, "initiative names the first player"
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
