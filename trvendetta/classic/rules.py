"""The rules of Thunder Road (1986) as a decider: pending, decide, evolve.

``decide`` holds every rule; ``evolve`` is one tiny handler per event type
and never validates.  Moves are decided one step at a time, and only steps
from which the full count can still be completed are offered (see
docs/rules-decisions.md for every interpretation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from ..core import geometry
from ..core.geometry import FRONT_ARC, OFFSETS
from ..core.protocol import Decision, PlayedRuleset
from ..core.rng import Rng
from . import components as comp
from . import events as ev
from .actions import (Action, AssignDie, ChopperAttack, EndTurn, NoRepair, Ram, Repair, Shoot, Stay, Step,
                      describe_action)
from .driver import TURN_FLAGS
from .model import Board, Car, Chopper, Move, Player, Space, State, Turn
from .position import Position

name_of = geometry.name
number_of = geometry.number


# --------------------------------------------------------------- look-ahead
class Road:
    """What a moving car sees: who occupies each space, where it may go.

    Built once per question, excluding the moving car itself.  The board that
    a switch would link in front (``rear + 2``) is included with the wrecks
    it would receive, so a look-ahead across a switch is exact.
    """

    __slots__ = ("occ", "lanes", "top", "road", "_memo")

    def __init__(self, s: State, c: comp.Components, exclude: str | None = None):
        occ: dict[Space, list[int]] = {}  # space -> [objects, running cars, wrecks]
        for car in s.cars:
            if car.at is None or car.id == exclude:
                continue
            o = occ.setdefault(car.at, [0, 0, 0])
            o[0] += 1
            if car.status == "running":
                o[1] += 1
            else:
                o[2] += 1
        for w in s.wrecks:
            o = occ.setdefault(w, [0, 0, 0])
            o[0] += 1
            o[2] += 1
        rear = s.boards[0]
        for w in c.wreck_spaces(rear.name, rear.index + 2):
            occ[w] = [1, 0, 1]
        self.occ = occ
        self.lanes = c.lanes
        self.top = (rear.index + 3) * c.squares
        self.road = c.road_lanes
        self._memo: dict[tuple, bool] = {}

    def enter_ok(self, t: Space, left: int, road: bool, clean: bool) -> bool:
        """May the car step into ``t`` with ``left`` steps to go (this one included)?"""
        if not 0 <= t[0] < self.lanes or number_of(t) > self.top:
            return False
        if road and t[0] not in self.road:
            return False
        o = self.occ.get(t)
        if o is not None:
            if o[0] >= 2:  # at most two cars or wrecks on a space
                return False
            if left > 1 and o[1]:  # never through a running car
                return False
            if clean and o[2]:
                return False
        return True

    def can_finish(self, frm: Space, left: int, road: bool, clean: bool = False) -> bool:
        """Can a car at ``frm`` move exactly ``left`` more spaces?"""
        key = (frm, left, road, clean)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        result = False
        for d in FRONT_ARC:
            dl, dy = OFFSETS[d]
            t = (frm[0] + dl, frm[1] + dy)
            if self.enter_ok(t, left, road, clean) and (left == 1 or self.can_finish(t, left - 1, road, clean)):
                result = True
                break
        self._memo[key] = result
        return result

    def steps(self, frm: Space, left: int, road: bool) -> list[str]:
        out = []
        for d in FRONT_ARC:
            dl, dy = OFFSETS[d]
            t = (frm[0] + dl, frm[1] + dy)
            if self.enter_ok(t, left, road, False) and (left == 1 or self.can_finish(t, left - 1, road)):
                out.append(d)
        return out


# ------------------------------------------------------------------- evolve
def _up(s: State, **changes) -> State:
    return replace(s, version=s.version + 1, **changes)


def _cars(s: State, car_id: str, **changes) -> tuple[Car, ...]:
    return tuple(replace(c, **changes) if c.id == car_id else c for c in s.cars)


def _pop(s: State, colour: str, n: int) -> dict[str, tuple[int, ...]]:
    if not n:
        return s.script
    script = dict(s.script)
    script[colour] = script.get(colour, ())[n:]
    return script


def _on_game_started(s: State, e: ev.GameStarted) -> State:
    pos = e.position
    owner = {f"{p.color}-{r}": p.name for p in pos.players for r in comp.RANKS}
    cars = tuple(
        Car(cs.id, owner[cs.id], int(cs.id.rsplit("-", 1)[1]),
            None if cs.at == "dumped" else geometry.parse(cs.at),
            "dumped" if cs.at == "dumped" else cs.status)
        for cs in pos.cars or ())
    players = tuple(Player(p.name, p.color, p.crew,
                           out=not any(c.owner == p.name and c.status != "dumped" for c in cars))
                    for p in pos.players)
    return State(
        seed=pos.seed, version=s.version + 1, rules_version=e.rules_version, phase="playing", players=players,
        cars=cars, wrecks=tuple(sorted(geometry.parse(w) for w in pos.wrecks or ())),
        choppers=tuple(Chopper(ch.owner, geometry.parse(ch.at) if ch.at else None, ch.next_board or 0)
                       for ch in pos.choppers),
        round=pos.round, active=pos.active_player,
        script={"yellow": pos.script.yellow, "black": pos.script.black, "red": pos.script.red},
    )


def _turn(s: State, **changes: Any) -> Turn:
    assert s.turn is not None, "a turn event outside a turn"
    return replace(s.turn, **changes)


def _on_dice(s: State, e: ev.DiceRolled) -> State:
    players = tuple(replace(p, dice=e.dice) if p.name == e.player else p for p in s.players)
    return _up(s, players=players, turn=_turn(s, dice=e.dice), script=_pop(s, "yellow", e.scripted))


def _on_die_assigned(s: State, e: ev.DieAssigned) -> State:
    assert s.turn is not None, "a die assigned outside a turn"
    dice = list(s.turn.dice)
    dice.remove(e.die)
    return _up(s, cars=_cars(s, e.car, moved=True),
               turn=_turn(s, dice=tuple(dice), repair_done=True, move=Move(e.car, e.steps, e.road)))


def _on_car_moved(s: State, e: ev.CarMoved) -> State:
    assert s.turn is not None and s.turn.move is not None, "a car moved outside a move"
    mv = s.turn.move
    return _up(s, cars=_cars(s, e.car, at=geometry.parse(e.to)),
               turn=_turn(s, move=replace(mv, steps_left=mv.steps_left - 1, taken=mv.taken + 1)))


def _on_board_removed(s: State, e: ev.BoardRemoved) -> State:
    wrecks = tuple(w for w in s.wrecks if not e.first <= number_of(w) <= e.last)
    return _up(s, wrecks=wrecks, boards=s.boards[1:])


def _on_wrecks_placed(s: State, e: ev.WrecksPlaced) -> State:
    return _up(s, wrecks=tuple(sorted(s.wrecks + tuple(geometry.parse(w) for w in e.spaces))))


def _on_chopper(s: State, e: ev.ChopperAttacked) -> State:
    choppers = tuple(replace(ch, at=geometry.parse(e.at), next_board=e.board + 1) if ch.owner == e.owner else ch
                     for ch in s.choppers)
    return _up(s, choppers=choppers, turn=_turn(s, chopper_used=True), script=_pop(s, "red", e.scripted))


def _on_turn_ended(s: State, e: ev.TurnEnded) -> State:
    cars = tuple(replace(c, moved=False, landed=False, attacked=False) if c.owner == e.player else c for c in s.cars)
    return _up(s, cars=cars, turn=None)


# each handler takes the event of its key's type: a dict keyed by type cannot say so, hence Any
EVOLVE: dict[type, Callable[[State, Any], State]] = {
    ev.GameStarted: _on_game_started,
    ev.TurnStarted: lambda s, e: _up(s, turn=Turn(e.player), active=e.player, round=e.round),
    ev.DiceRolled: _on_dice,
    ev.RoadDieRolled: lambda s, e: _up(s, turn=_turn(s, road_die=e.value), script=_pop(s, "black", e.scripted)),
    ev.CarRepaired: lambda s, e: _up(s, cars=_cars(s, e.car, status="running"), turn=_turn(s, repair_done=True)),
    ev.RepairDeclined: lambda s, e: _up(s, turn=_turn(s, repair_done=True)),
    ev.DieAssigned: _on_die_assigned,
    ev.CarBlocked: lambda s, e: _up(s, turn=_turn(s, move=None)),
    ev.CarMoved: _on_car_moved,
    ev.CrashRolled: lambda s, e: _up(s, script=_pop(s, "red", e.scripted)),
    ev.CarWrecked: lambda s, e: _up(s, cars=_cars(s, e.car, status="wrecked")),
    ev.MoveFinished: lambda s, e: _up(s, cars=_cars(s, e.car, landed=e.landed), turn=_turn(s, move=None)),
    ev.CarDumped: lambda s, e: _up(s, cars=_cars(s, e.car, status="dumped", at=None)),
    ev.ChopperReturned: lambda s, e: _up(s, choppers=tuple(replace(ch, at=None) if ch.owner == e.owner else ch
                                                           for ch in s.choppers)),
    ev.BoardRemoved: _on_board_removed,
    ev.BoardLinked: lambda s, e: _up(s, boards=s.boards + (Board(e.board, e.name, e.first, e.last),)),
    ev.WrecksPlaced: _on_wrecks_placed,
    ev.RamRolled: lambda s, e: _up(s, cars=_cars(s, e.car, attacked=True), script=_pop(s, "red", e.scripted)),
    ev.ShotFired: lambda s, e: _up(s, cars=_cars(s, e.car, attacked=True), script=_pop(s, "red", e.scripted)),
    ev.ChopperAttacked: _on_chopper,
    ev.TurnEnded: _on_turn_ended,
    ev.PlayerOut: lambda s, e: _up(s, players=tuple(replace(p, out=True) if p.name == e.player else p
                                                    for p in s.players)),
    ev.GameOver: lambda s, e: _up(s, phase="over", winner=e.winner, end_reason=e.reason, turn=None),
}


# ------------------------------------------------------------------- decide
class _Run:
    """One decide call: the events so far and the state they fold to."""

    __slots__ = ("s", "events", "rng", "c")

    def __init__(self, s: State, rng: Rng, c: comp.Components):
        self.s = s
        self.events: list = []
        self.rng = rng
        self.c = c

    def emit(self, event) -> None:
        self.events.append(event)
        self.s = EVOLVE[type(event)](self.s, event)

    def roll(self, colour: str, n: int = 1) -> tuple[tuple[int, ...], int]:
        """Roll ``n`` dice of ``colour``: scripted values first, then the RNG."""
        script = self.s.script.get(colour, ())
        k = min(n, len(script))
        faces = getattr(self.c, colour)
        return tuple(script[:k]) + tuple(self.rng.pick(faces) for _ in range(n - k)), k


class Classic(PlayedRuleset[State, Action, ev.Event]):
    name = "classic"
    title = "Thunder Road (1986)"
    turn_flags = TURN_FLAGS
    rules_version = "1"
    min_players = 2
    max_players = 4
    max_events = 200_000
    action_type = Action
    event_type = ev.Event
    state_type = State
    position_type = Position
    #: every seat's crew in the 1986 game (it has no choice of crews: ``crews()`` is empty)
    default_crew = "cars"

    def __init__(self, components: comp.Components | None = None):
        super().__init__()
        self.c = components or comp.default()

    # ------------------------------------------------------------- basics
    def initial_state(self) -> State:
        return State()

    def evolve(self, state: State, event) -> State:
        return EVOLVE[type(event)](state, event)

    def pieces(self, state: State) -> tuple[str, ...]:
        return tuple(c.id for c in state.cars)

    def running(self, state: State, player: str) -> int:
        return sum(1 for c in state.cars if c.owner == player and c.status == "running")

    def score_options(self, state: State, decision: Decision) -> list[float] | None:
        """The greedy bot's heuristics: ``classic/bot.py``."""
        from .bot import score_options

        return score_options(self.c, state, decision)

    # ------------------------------------------------------------- start
    def start(self, position: Position, rng: Rng | None = None) -> list:
        from .position import resolve

        pos = resolve(position, self.c)
        run = _Run(self.initial_state(), rng if rng is not None else Rng(pos.seed, 0), self.c)
        run.emit(ev.GameStarted(pos, self.rules_version))
        assert pos.boards is not None and run.s.active is not None, "resolve names the boards and the first player"
        for index, board_name in zip((pos.rear_board, pos.rear_board + 1), pos.boards):
            first, last = self.c.board_spaces(index)
            run.emit(ev.BoardLinked(index, board_name, first, last))
        self._begin_turn(run, run.s.active, run.s.round)
        self._advance(run)
        return run.events

    # ------------------------------------------------------------ pending
    def pending(self, state: State) -> Decision | None:
        if state.phase != "playing" or state.turn is None:
            return None
        t = state.turn
        p = t.player
        if not t.repair_done and t.dice.count(6) >= 2:
            wrecked = [c for c in state.cars if c.owner == p and c.status == "wrecked"]
            if wrecked:
                return Decision(p, "repair", tuple(Repair(c.id) for c in wrecked) + (NoRepair(),),
                                f"{p} rolled double sixes: repair a wrecked car?")
        if t.move is not None:
            mv = t.move
            car = state.car(mv.car)
            at = car.at
            assert at is not None, "the moving car is on the road"
            road = Road(state, self.c, exclude=car.id)
            options: list = [Step(d) for d in road.steps(at, mv.steps_left, mv.road)]
            if mv.taken == 0 and not road.can_finish(at, mv.steps_left, mv.road, clean=True):
                options.append(Stay())
            return Decision(p, "step", tuple(options),
                            f"move {car.id} from {name_of(at)}: {mv.steps_left} space(s) to go"
                            + (" on the road" if mv.road else ""))
        unmoved = [c for c in state.cars if c.owner == p and c.status == "running" and not c.moved]
        if unmoved and t.dice:
            return Decision(p, "assign", tuple(self._assign_options(state, unmoved)),
                            f"{p}: assign a yellow die ({' '.join(map(str, t.dice))}) to a running car")
        attacks = self._attack_options(state)
        if attacks:
            return Decision(p, "attack", tuple(attacks) + (EndTurn(),), f"{p}: attack or end the turn")
        return None

    def _assign_options(self, s: State, unmoved: list[Car]) -> list[AssignDie]:
        t = s.turn
        assert t is not None, "dice are assigned in a turn"
        out = []
        for car in unmoved:
            at = car.at
            assert at is not None, "a running car is on the road"
            road = None
            for die in sorted(set(t.dice)):
                out.append(AssignDie(car.id, die))
                if t.road_die and at[0] in self.c.road_lanes:
                    road = road or Road(s, self.c, exclude=car.id)
                    if road.can_finish(at, die + t.road_die, True):
                        out.append(AssignDie(car.id, die, True))
        return out

    def _attack_options(self, s: State) -> list:
        if s.round <= 1:
            return []
        t = s.turn
        assert t is not None, "attacks are made in a turn"
        p = t.player
        mine = [c for c in s.cars if c.owner == p and c.status == "running"]
        if not mine:
            return []
        theirs = [c for c in s.cars if c.owner != p and c.status == "running"]
        out: list = []
        for car in mine:
            at = car.at
            if not car.landed or car.attacked or at is None:  # a running car is never off the road
                continue
            ahead = (at[0], at[1] + 2)
            out.extend(Ram(car.id, o.id) for o in theirs if o.at == at)
            out.extend(Shoot(car.id, o.id) for o in theirs if o.at == ahead)
        if not t.chopper_used:
            nb = s.chopper(p).next_board
            out.extend(ChopperAttack(o.id) for o in theirs if o.at is not None and self.c.board_of(o.at) >= nb)
        return out

    # ------------------------------------------------------------- decide
    def decide(self, state: State, action: Action, rng: Rng) -> list:
        self.check_legal(state, action)
        run = _Run(state, rng, self.c)
        turn = state.turn
        assert turn is not None, "a legal action answers a turn's decision"
        p = turn.player
        match action:
            case Repair(car):
                run.emit(ev.CarRepaired(p, car))
            case NoRepair():
                run.emit(ev.RepairDeclined(p))
            case AssignDie(car, die, road):
                steps = die + ((turn.road_die or 0) if road else 0)
                run.emit(ev.DieAssigned(p, car, die, road, steps))
                at = state.car(car).at
                assert at is not None, "a die is assigned to a running car"
                if not Road(state, self.c, exclude=car).can_finish(at, steps, road):
                    run.emit(ev.CarBlocked(car, f"cannot move the full count of {steps}"))
            case Step(direction):
                self._step(run, direction)
            case Stay():
                assert turn.move is not None, "Stay is offered during a move"
                run.emit(ev.CarBlocked(turn.move.car, "stays rather than crash through a wreck"))
            case Ram(car, target):
                (a, d), k = run.roll("red", 2)
                rammer, defender = state.car(car), state.car(target)
                att, dfn = a + rammer.rank, d + defender.rank
                run.emit(ev.RamRolled(car, target, (a, d), att, dfn, att > dfn, k))
                if att > dfn:
                    assert defender.at is not None, "a running car is rammed on the road"
                    run.emit(ev.CarWrecked(target, name_of(defender.at), f"rammed by {car}"))
            case Shoot(car, target):
                (roll,), k = run.roll("red")
                tgt = state.car(target)
                run.emit(ev.ShotFired(car, target, roll, roll >= tgt.rank, k))
                if roll >= tgt.rank:
                    assert tgt.at is not None, "a running car is shot on the road"
                    run.emit(ev.CarWrecked(target, name_of(tgt.at), f"shot by {car}"))
            case ChopperAttack(target):
                (roll,), k = run.roll("red")
                tgt = state.car(target)
                assert tgt.at is not None, "a chopper attacks a running car on the road"
                run.emit(ev.ChopperAttacked(p, target, name_of(tgt.at), self.c.board_of(tgt.at), roll,
                                            roll >= tgt.rank, k))
                if roll >= tgt.rank:
                    run.emit(ev.CarWrecked(target, name_of(tgt.at), f"attacked by {p}'s chopper"))
            case EndTurn():
                run.emit(ev.TurnEnded(p))
        self._advance(run)
        return run.events

    def _step(self, run: _Run, direction: str) -> None:
        s = run.s
        assert s.turn is not None and s.turn.move is not None, "a step is taken during a move"
        mv = s.turn.move
        car = s.car(mv.car)
        at = car.at
        assert at is not None, "the moving car is on the road"
        dl, dy = OFFSETS[direction]
        to = (at[0] + dl, at[1] + dy)
        if number_of(to) > s.boards[-1].last:
            self._switch(run)
        run.emit(ev.CarMoved(car.id, name_of(at), name_of(to), direction))
        s = run.s
        if to in s.wrecks or any(c.at == to and c.status == "wrecked" for c in s.cars):
            (roll,), k = run.roll("red")
            passed = roll >= self.c.crash_pass
            run.emit(ev.CrashRolled(car.id, name_of(to), roll, passed, k))
            if not passed:
                run.emit(ev.CarWrecked(car.id, name_of(to), "failed to crash through a wreck"))
                run.emit(ev.MoveFinished(car.id, name_of(to), False))
                return
        if mv.steps_left == 1:
            run.emit(ev.MoveFinished(car.id, name_of(to), True))

    def _switch(self, run: _Run) -> None:
        """Dump the rear board and everything on it; relink it in front with its wrecks."""
        s = run.s
        rear = s.boards[0]
        for c in s.cars:
            if c.at is not None and rear.first <= number_of(c.at) <= rear.last:
                run.emit(ev.CarDumped(c.id, name_of(c.at)))
        for ch in s.choppers:
            if ch.at is not None and rear.first <= number_of(ch.at) <= rear.last:
                run.emit(ev.ChopperReturned(ch.owner, name_of(ch.at)))
        run.emit(ev.BoardRemoved(rear.index, rear.name, rear.first, rear.last))
        index = rear.index + 2
        first, last = self.c.board_spaces(index)
        run.emit(ev.BoardLinked(index, rear.name, first, last))
        run.emit(ev.WrecksPlaced(index, tuple(name_of(w) for w in self.c.wreck_spaces(rear.name, index))))

    def _begin_turn(self, run: _Run, player: str, round_: int) -> None:
        run.emit(ev.TurnStarted(player, round_))
        dice, k = run.roll("yellow", 3)
        run.emit(ev.DiceRolled(player, dice, k))
        road = self.c.road_lanes
        if any(c.owner == player and c.at is not None and c.at[0] in road for c in run.s.cars):
            (value,), k = run.roll("black")
            run.emit(ev.RoadDieRolled(player, value, k))

    def _check_end(self, run: _Run) -> bool:
        for p in run.s.players:
            if not p.out and not any(c.owner == p.name and c.status != "dumped" for c in run.s.cars):
                run.emit(ev.PlayerOut(p.name, "every car dumped"))
        s = run.s
        alive = [p.name for p in s.players if not p.out]
        running = {c.owner for c in s.cars if c.status == "running"}
        if len(running) == 1:
            w = next(iter(running))
            run.emit(ev.GameOver(w, f"{w} owns the only running cars"))
            return True
        if len(alive) <= 1:
            last = alive[0] if alive else None
            run.emit(ev.GameOver(last, "every other player is out" if last else "every player is out"))
            return True
        return False

    def _advance(self, run: _Run) -> None:
        """Play every automatic step until a player must decide or the game ends."""
        while True:
            s = run.s
            if s.phase == "over" or self._check_end(run):
                return
            s = run.s
            if s.turn is None:
                names = [p.name for p in s.players]
                assert s.active is not None, "GameStarted names the active player"
                i = names.index(s.active)
                for j in range(1, len(names) + 1):
                    nxt = (i + j) % len(names)
                    if not s.players[nxt].out:
                        break
                self._begin_turn(run, names[nxt], s.round + (1 if nxt <= i else 0))
                continue
            if self.pending(s) is not None:
                return
            run.emit(ev.TurnEnded(s.turn.player))

    # --------------------------------------------------------- positions
    def default_position(self, players, seed: int) -> Position:
        from .position import PlayerSetup, resolve

        pos = Position(players=tuple(PlayerSetup(n, col, self.default_crew) for n, col, _crew in players), seed=seed)
        return resolve(pos, self.c)

    def position_from_dict(self, data: dict) -> Position:
        from .position import from_dict

        return from_dict(data)

    def colors(self) -> tuple[str, ...]:
        return tuple(self.c.start_lanes)

    # ------------------------------------------------------- presentation
    def sentence(self, event) -> str:
        return ev.describe(event)

    def describe_action(self, action) -> str:
        return describe_action(action)

    def view(self, state: State) -> dict:
        from .view import view

        return view(self, state)

    def render(self, state: State, color: bool = False) -> str:
        from .view import render

        return render(self, state, color)

    def legend(self) -> str:
        from .view import legend

        return legend()

    def turn_driver(self, flags: dict):
        from .driver import TurnDriver

        return TurnDriver(self, flags)



__all__ = ["Classic"]
