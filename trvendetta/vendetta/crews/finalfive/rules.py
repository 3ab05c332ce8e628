"""The Final Five's assignment rules (rules: shared/seeds/001_*.txt, Motorcycles).

"EACH turn, assign TWO of your 6 unused movement dice to two motorcycles.
ONCE PER ROUND, you may instead assign one die to one motorcycle, and one to
a command on your command board and take Step 2: Command (as you would with a
car)."  "If you assigned dice to two motorcycles, choose one to move and then
shoot.  Then, move and shoot with the other one."

How a turn reads here (docs/rules-decisions.md, "The Final Five's turn"):

1. ``assign``: a die to a first motorcycle (an unmoved operational one while
   any is left; otherwise coasting, at most four times per motorcycle a round,
   or passing);
2. ``command``: a die to a *second* motorcycle (an ``AssignDie`` answering the
   command decision), or, once per round, a command instead; "no command" is
   offered only when no unmoved motorcycle is left for the second die
   (coasting is a permission, as for cars);
3. the first motorcycle moves and shoots, then the second one does.

The motorcycle assigned first moves first: no information arrives between the
two assignments and the choice of order, so ordering the assignments is the
choice of order.
"""

from __future__ import annotations

from typing import Any

from ....core.protocol import Decision
from ....core.turnflags import TurnFlag
from ... import board as b
from ... import crew as crews
from ... import effects as fx
from ... import events as ev
from .events import SecondMotorcycleAssigned, SecondMotorcycleUp
from .state import second_of
from ...actions import AssignDie, NoCommand, Pass, RoadBonus
from ...cars import Cars
from ...model import State

CREW = "finalfive"


def is_final_five(state: State, name: str) -> bool:
    return b.player(state, name).crew == CREW


def _bikes(state: State, name: str, exclude: str | None = None) -> list:
    return [v for v in state.vehicles
            if v.owner == name and v.status == "operational" and v.at is not None and v.id != exclude]


def first_options(state: State, name: str) -> list:
    """Step 1 for the Final Five: the first motorcycle's die (see the module doc)."""
    dice = sorted(set(b.player(state, name).dice))
    if not dice:
        return [Pass()]
    bikes = _bikes(state, name)
    unmoved = [v for v in bikes if not v.moved]
    if unmoved:
        return [AssignDie(v.id, d) for v in unmoved for d in dice]
    coast = b.crew_of(state, name).coast
    return [AssignDie(v.id, d, True) for v in bikes if v.momentum < coast for d in dice] + [Pass()]


def second_options(state: State, name: str) -> tuple[list, bool]:
    """The second motorcycle's die: (options, whether "no command" stays open).

    An unmoved operational motorcycle other than the first takes it while any
    is left; otherwise a motorcycle other than the first may coast (a
    permission, so the turn may also go on with one motorcycle)."""
    t = state.turn
    assert t is not None, "the second motorcycle's die is offered in a turn"
    dice = sorted(set(b.player(state, name).dice))
    if not dice:
        return [], True
    bikes = _bikes(state, name, exclude=t.car)
    unmoved = [v for v in bikes if not v.moved]
    if unmoved:
        return [AssignDie(v.id, d) for v in unmoved for d in dice], False
    coast = b.crew_of(state, name).coast
    return [AssignDie(v.id, d, True) for v in bikes if v.momentum < coast for d in dice], True


def command_options(state: State, name: str, commands: list) -> list:
    """The command decision of a Final Five turn: a second motorcycle, or
    (once per round) a command; ``commands`` are the car-style command options
    (``NoCommand`` first when the command is still unused)."""
    seconds, may_skip = second_options(state, name)
    used = [c for c in commands if not isinstance(c, NoCommand)]
    if not seconds and not used:
        return []
    return seconds + ([NoCommand()] if may_skip else []) + used


class FinalFive(Cars):
    """The Final Five's :class:`~trvendetta.vendetta.crew.Crew`: two motorcycles a
    turn (the second's die in the command decision), each moved and shot in
    turn; a motorcycle drifts through vehicles, may decline the road die,
    takes a minor damage token and is inoperable at once, and a slam with
    one rolls only the direction die."""

    direction_only_slams = True
    drifts_through_vehicles = True
    vehicle_noun = "motorcycle"
    coast_word = "coasting"
    slam_rank = 0
    #: 002 "Using Other Expansions": the first three motorcycles enter on different road tiles, the
    #: final two "on any two different road boards"
    enters_tiles_again = True
    assign_prompt = "assign a die to a motorcycle"
    #: its ``trv turn`` flag: a grouping flag, one group per motorcycle (its part of the
    #: driver, :meth:`flag_part`, plays the groups in order)
    turn_flags: tuple[TurnFlag, ...] = (
        TurnFlag("bike", metavar="N", multiple=True,
                 help="Final Five: a motorcycle (1-5) to move; the --assign, --momentum, --path, --road-die, "
                      "--shoot and --no-shoot after it are its own. At most two groups (the first moves first).",
                 groups=("assign", "momentum", "path", "road_die", "shoot", "no_shoot"), most=2, noun="motorcycle"),
    )

    def flag_part(self, driver: Any) -> Any:
        from .flags import BikeFlags  # with the turn driver only

        return BikeFlags(driver)

    def assign_options(self, state: State, name: str) -> list:
        return first_options(state, name)

    def command(self, state: State, name: str) -> Decision | None:
        options = state.board.may_assign(state, name, command_options(state, name, self.command_options(state, name)))
        prompt = "a die to a second motorcycle, or a command?"
        return Decision(name, "command", tuple(options), prompt) if options else None

    def road_bonus(self, state: State, name: str, car) -> Decision:
        # a motorcycle may decline the road die: its move then ends there, in a slam
        return Decision(name, "road-bonus", (RoadBonus(True), RoadBonus(False)), f"take the road die (+{state.road_die})?")

    def assigned(self, ctx, car: str, die: int, momentum: bool) -> None:
        t = ctx.state.turn
        if t.phase == "command":  # in the command decision: the second motorcycle
            ctx.emit(SecondMotorcycleAssigned(t.player, car, die, momentum))
        else:
            ctx.emit(ev.DieAssigned(t.player, car, die, momentum))

    def next_vehicle(self, ctx) -> bool:
        """001: "Then, move and shoot with the other one"."""
        t = ctx.state.turn
        second = second_of(t).second
        if second is None:
            return False
        ctx.emit(SecondMotorcycleUp(t.player, second))
        return True

    def move_ends(self, ctx, car) -> bool:
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

    def damage(self, ctx, v, cause: str) -> None:
        """001 Taking Damage: a minor damage token, and the motorcycle is inoperable."""
        oid = v.id
        fx.stop_movement(ctx, oid, f"took damage from {cause}")
        if v.damage:
            ctx.emit(ev.DamageIgnored(oid, "it already holds a minor damage token"))
            return
        ctx.emit(ev.MinorDamageTaken(oid, cause))
        ctx.emit(ev.CarDisabled(oid))

    def minor_damage(self, ctx, vid: str, cause: str) -> None:
        fx.damage(ctx, vid, cause)

    # ------------------------------------------------------------- the bots
    def score_option(self, h, a) -> float | None:
        """The greedy bot's Final Five: the second motorcycle's die (offered in the command
        decision) scores above every command but a repair, as two motorcycles move."""
        if h.decision.kind == "command" and isinstance(a, AssignDie):
            return 15.0 + h._assign(a)
        return None


FINAL_FIVE = crews.register(CREW, FinalFive())
