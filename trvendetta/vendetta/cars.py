"""The cars: base Vendetta's crew, and the :class:`~trvendetta.vendetta.crew.Crew`
every other crew builds on (rules: shared/seeds/000_*.txt, "Your Turn").

A turn: assign a die to a car, maybe a command with a second die (Nitro,
Drift, Repair, Air Attack), move (the road die after), shoot.  The Final
Five and the Big Rig (``crews/<crew>/rules.py``) subclass
:class:`Cars` and override where their turn differs.
"""

from __future__ import annotations

from typing import Any

from ..core.protocol import Decision
from ..core.turnflags import TurnFlag
from . import board as b
from . import crew as crews
from . import effects as fx
from . import events as ev
from .actions import AssignDie, NoCommand, NoShoot, Pass, PlaceChopper, RoadBonus, Shoot, UseCommand
from .context import Ctx
from .model import Player, State, Turn, Vehicle


def shot_options(state: State, targets: list[str]) -> list:
    """The shot options at ``targets``: each target's crew says how it is shot
    at (a Big Rig section by naming a command); a wreck is shot at plainly."""
    out: list = []
    for x in targets:
        out += [Shoot(x)] if b.is_wreck(x) else crews.of_vehicle(state, x).target_options(state, x)
    return out


def chopper_spaces(state: State) -> list[str]:
    """Air Attack: any empty space of the board (no vehicle, wreck or chopper)."""
    busy = {v.at for v in state.vehicles if v.at is not None and not v.start}
    busy |= {w.at for w in state.wrecks} | b.chopper_spaces(state)
    return [name for space, name in state.board.chopper_spaces(state) if space not in busy]


class Cars:
    """Three cars (or a crew of the same turn): every hook of the :class:`Crew` protocol."""

    direction_only_slams = False
    waits = False
    drifts_through_vehicles = False
    slam_rank = 1
    out_sets_final_piece = False
    vehicle_noun = "car"
    coast_word = "momentum"
    #: the arena takes the cars, each entering on a road tile of its own (002 "Entering the Arena")
    arena_refusal: str | None = None
    enters_tiles_again = False
    #: the assign decision's prompt
    assign_prompt = "assign a die to a car"
    #: the cars' turn takes the flags of every crew's (``notation.TURN_FLAGS``), none of its own
    turn_flags: tuple[TurnFlag, ...] = ()

    # ------------------------------------------------------------- deciding
    def waiting(self, state: State, player: Player) -> Decision | None:
        return None

    def flag_action(self, state: State, decision: Decision, flags: dict) -> tuple[Any, tuple[str, ...]] | None:
        return None  # Vendetta's driver answers from the flags every crew's turn takes

    def flag_part(self, driver: Any) -> Any:
        return None  # the flags every crew's turn takes are the driver's own

    def score_option(self, h: Any, option: Any) -> float | None:
        return None  # the ruleset's heuristics (vendetta/bot.py) are the cars' own

    def decision(self, state: State, name: str, t: Turn) -> Decision | None:
        phase = t.phase
        if phase == "assign":
            return self.assign(state, name)
        if phase == "command":
            return self.command(state, name)
        if phase == "airstrike-place":
            spaces = chopper_spaces(state)
            return Decision(name, "airstrike-place", tuple(PlaceChopper(s) for s in spaces), "place your chopper") if spaces else None
        if phase == "airstrike-target":
            facing = state.board.chopper_facing(state, name)  # chosen in the arena
            assert t.chopper is not None, "the chopper is placed before it picks a target"
            targets = b.front_arc_targets(state, t.chopper, facing) if b.may_shoot_from(state, t.chopper) else []
            if not targets:
                return None
            options = shot_options(state, targets)
            return Decision(name, "airstrike-target", tuple(options + [NoShoot()]), "chopper fires at?") if options else None
        car = b.vehicle(state, t.car) if t.car else None
        operational = car is not None and car.status == "operational" and car.at is not None
        if phase == "move":
            if car is None or not operational or t.stopped:  # car None: never operational, said for the checker
                return None
            return self.move(state, name, t, car)
        if phase == "shoot":
            return self.shoot(state, name, t, car if operational else None)
        return None

    def assign_options(self, state: State, name: str) -> list:
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

    def assign(self, state: State, name: str) -> Decision | None:
        """The board says which may go now (the arena: cars entering a road tile)."""
        board = state.board
        return Decision(name, "assign", board.may_assign(state, name, self.assign_options(state, name)),
                        board.assign_prompt(self.assign_prompt))

    def command_options(self, state: State, name: str) -> list:
        """Commands, once a round, with a second die: Nitro 1-3 (not with
        momentum), Drift 3-5, Repair 6 (a damaged car of yours), Air Attack any
        die but not in round 1."""
        p = b.player(state, name)
        t = state.turn
        assert t is not None, "commands are offered in a turn"
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

    def command(self, state: State, name: str) -> Decision | None:
        options = self.command_options(state, name)
        return Decision(name, "command", tuple(options), "use a command?") if options else None

    def move(self, state: State, name: str, t: Turn, car: Vehicle) -> Decision | None:
        if t.moves_left > 0:
            steps = state.board.steps(state, car)
            moves = f"{t.moves_left} move{'' if t.moves_left == 1 else 's'} left"
            return Decision(name, "step", steps, moves) if steps else None
        if b.road_bonus_open(state):
            return self.road_bonus(state, name, car)
        return None

    def road_bonus(self, state: State, name: str, car: Vehicle) -> Decision:
        assert car.at is not None, "the road die is offered to a car on the road"
        if b.occupants(state, car.at, exclude=car.id):
            # a drift passed a vehicle with the last base move: the road die's moves carry it on
            return Decision(name, "road-bonus", (RoadBonus(True),), f"take the road die (+{state.road_die}) to finish the drift")
        return Decision(name, "road-bonus", (RoadBonus(True), RoadBonus(False)), f"take the road die (+{state.road_die})?")

    def shoot(self, state: State, name: str, t: Turn, car: Vehicle | None) -> Decision | None:
        """``car``: the turn's vehicle, None when it is not operational on the board."""
        if car is None or car.at is None or not b.may_shoot_from(state, car.at):
            return None
        targets = b.front_arc_targets(state, car.at, car.facing, exclude=car.id)
        options = shot_options(state, targets)
        if not options:
            return None
        return Decision(name, "shoot", tuple(options + [NoShoot()]), "fire?")

    def target_options(self, state: State, vid: str) -> list[Any]:
        return [Shoot(vid)]

    def fatal_step(self, state: State, car: Vehicle, to: Any) -> str | None:
        terrain = b.terrain(state, to)
        if terrain == "offboard" or (terrain == "start" and not car.start):
            return state.board.fatal_exit(state, to)  # the board says why (an arena edge may be off the named grid)
        if terrain == "impassable" and b.token_at(state, to) is None:
            return f"drives into impassable terrain at {b.nm(to)} (eliminated)"
        return None

    # ------------------------------------------------------------- resolving
    def step(self, ctx: Ctx, direction: str) -> None:
        s = ctx.state
        assert s.turn is not None and s.turn.car is not None, "a step moves the turn's car"
        car = b.vehicle(s, s.turn.car)
        assert car.at is not None, "the moving car is on the road"
        fx.enter(ctx, car.id, s.board.neighbour(car.at, direction, car.facing), "step", direction)

    def assigned(self, ctx: Ctx, car: str, die: int, momentum: bool) -> None:
        t = ctx.state.turn
        assert t is not None, "a die is assigned in a turn"
        ctx.emit(ev.DieAssigned(t.player, car, die, momentum))

    def resolve(self, ctx: Ctx, decision: Decision, action: Any) -> bool:
        return False

    def start_move(self, ctx: Ctx) -> None:
        t = ctx.state.turn
        assert t is not None and t.car is not None, "a move starts for the turn's car"
        car = b.vehicle(ctx.state, t.car)
        moves = 1 if t.momentum else t.die + t.nitro
        road_ok = not t.momentum and car.at is not None and b.terrain(ctx.state, car.at) in ("road", "start")
        ctx.emit(ev.MoveStarted(car.id, moves, road_ok))

    def move_ends(self, ctx: Ctx, car: Vehicle) -> bool:
        return False

    def fires_itself(self, ctx: Ctx) -> bool:
        return False

    def next_vehicle(self, ctx: Ctx) -> bool:
        return False

    def damage(self, ctx: Ctx, v: Vehicle, cause: str) -> None:
        """One damage: draw a token, keep it in a free slot (the second makes the
        car inoperable, turned backward), then resolve its effect."""
        s = ctx.state
        oid = v.id
        fx.stop_movement(ctx, oid, f"took damage from {cause}")
        if len(v.damage) >= 2:
            ctx.emit(ev.DamageIgnored(oid, "both damage slots are full"))
            return
        if sum(s.damage_pile.values()) <= 0:
            ctx.emit(ev.DamageIgnored(oid, "the damage pile is empty"))
            return
        token, scripted = ctx.draw("damage", s.damage_pile)
        ctx.emit(ev.DamageDrawn(oid, token, scripted))
        if len(v.damage) + 1 >= 2:
            ctx.emit(ev.CarDisabled(oid))
        fx.damage_effect(ctx, oid, token)

    def minor_damage(self, ctx: Ctx, vid: str, cause: str) -> None:
        """A car taking minor damage puts a minor damage token in a damage slot."""
        v = b.vehicle(ctx.state, vid)
        if len(v.damage) >= 2:
            ctx.emit(ev.DamageIgnored(vid, "both damage slots are full"))
            return
        ctx.emit(ev.MinorDamageTaken(vid, cause))
        if len(v.damage) + 1 >= 2:
            ctx.emit(ev.CarDisabled(vid))

    def left_behind(self, ctx: Ctx, v: Vehicle) -> None:
        fx.eliminate(ctx, v.id, "on the rear piece when it was removed")

    def under_chopper(self, ctx: Ctx, v: Vehicle, chopper_owner: str) -> bool:
        fx.eliminate(ctx, v.id, f"ended the turn under {chopper_owner}'s chopper")
        return False


CARS = crews.register("cars", Cars())
