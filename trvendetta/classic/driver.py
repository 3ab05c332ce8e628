"""``trv turn`` for the 1986 game: flags in, the successive actions of one turn out.

Flags (a dict the CLI builds from its options):

``move``  list of strings, one per yellow die, used in order: ``CAR:PATH``,
          ``CAR:DIE:PATH`` or ``CAR:DIE`` (a car that turns out blocked).
          CAR is a rank (``6``) or a car id (``red-6``); DIE is a yellow die
          value, with ``+road`` for the road bonus (``4+road``); PATH is
          comma-separated steps ``F``, ``FL``, ``FR``, or ``stay`` to refuse a
          crash when only wrecks are in the way.  Without DIE the die is the
          yellow die equal to the path length, else the one that with the
          black die makes it (road bonus).  Example: ``--move 6:F,F,FR``.
``repair`` a car (rank or id) to repair on double sixes, or ``none``.
``ram``    list of ``CAR:TARGET`` (``6:blue-5``), in order.
``shoot``  list of ``CAR:TARGET``, in order.
``chopper`` a target car id (``blue-4``).

The shared ``trv turn`` options work too, for one car: ``car`` (a rank, an id,
or small/medium/large for ranks 4/5/6), ``assign`` (the yellow die), ``path``
(a list of steps; default straight ahead), ``road_die`` (take the road bonus),
``airstrike_target`` (as ``chopper``).  A ``ram`` or ``shoot`` value without
``CAR:`` attacks that target with whichever car is in position.

After the listed attacks the turn ends (``end-turn``).  ``next`` returns None
when the flags do not answer the pending decision or the turn is over;
``finish`` then lists every flag that was not used, and why (a turn uses
every flag it is given or is refused; see ``core.turnflags``).
"""

from __future__ import annotations

from ..core import geometry
from ..core.errors import NotationError
from ..core.turnflags import FlagProblem, TurnFlag, option
from .actions import AssignDie, ChopperAttack, EndTurn, NoRepair, Ram, Repair, Shoot, Stay, Step
from .actions import describe_action

TURN_FLAGS = (
    TurnFlag("move", metavar="CAR:[DIE:]PATH", multiple=True,
             help="One per yellow die, in order: 6:F,F,FR, 5:4+road:F,F,F,F,F, 4:3 (blocked), 6:2:stay."),
    TurnFlag("repair", metavar="CAR|none", help="On double sixes: the wrecked car to repair (or none)."),
    TurnFlag("ram", metavar="CAR:TARGET", multiple=True, help="Ram with CAR (rank), e.g. 6:blue-5."),
    TurnFlag("shoot", metavar="[CAR:]TARGET", multiple=True, help="Shoot with CAR (rank), e.g. 5:blue-6."),
    TurnFlag("chopper", metavar="TARGET", help="A chopper attack on TARGET, e.g. blue-4 (one a turn)."),
    TurnFlag("car", metavar="6|5|4|large|medium|small", choices=("6", "5", "4", "large", "medium", "small"),
             help="One car's move (instead of --move), with --assign."),
    TurnFlag("assign", "int", metavar="N", help="The yellow die for --car."),
    TurnFlag("path", "steps", metavar="F,FL,FR,...", help="--car's steps (default straight ahead)."),
    TurnFlag("road-die", "flag", help="--car adds the black die and keeps to the road."),
    TurnFlag("airstrike-target", metavar="TARGET", help="As --chopper."),
)

_STEPS = {"F", "FL", "FR", "STAY"}
_SIZES = {"large": "6", "medium": "5", "small": "4", "l": "6", "m": "5", "s": "4"}


def _listify(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


class MoveSpec:
    __slots__ = ("car", "die", "road", "path", "text", "straight")

    def __init__(self, text: str):
        self.text = text
        parts = text.strip().split(":")
        if len(parts) not in (2, 3) or not parts[0]:
            raise NotationError(f"--move {text!r}: expected CAR:PATH, CAR:DIE:PATH or CAR:DIE, like '6:F,F,FR'")
        self.car = parts[0].strip()
        self.die: int | None = None
        self.road = False
        self.path: list[str] = []
        rest = parts[1:]
        head = rest[0].strip().lower()
        if head.replace("+road", "").isdigit():
            self.road = head.endswith("+road")
            self.die = int(head.replace("+road", ""))
            rest = rest[1:]
        elif len(rest) == 2:
            raise NotationError(f"--move {text!r}: {rest[0]!r} is not a die value like 4 or 4+road")
        self.straight = bool(rest) and rest[0].strip() == "*"
        if rest and not self.straight:
            steps = [p.strip().upper() for p in rest[0].split(",") if p.strip()]
            for step in steps:
                if step not in _STEPS:
                    raise NotationError(f"--move {text!r}: {step!r} is not a step; steps are F, FL, FR or stay")
            self.path = steps


def _single_move(flags: dict) -> list[str]:
    """The shared ``--car/--assign/--path/--road-die`` options as one move spec."""
    car, die = flags.get("car"), flags.get("assign")
    if car is None and die is None:
        return []
    if car is None or die is None:
        raise NotationError("give both --car and --assign (or use --move CAR:PATH)")
    car = _SIZES.get(str(car).lower(), str(car))
    head = f"{die}+road" if flags.get("road_die") else f"{die}"
    path = flags.get("path")
    return [f"{car}:{head}" + (f":{','.join(path)}" if path else ":*")]


class TurnDriver:
    """Maps ``trv turn`` flags to the actions of one turn, one ``next`` call at a time."""

    def __init__(self, ruleset, flags: dict):
        self.rs = ruleset
        self.problems: list[FlagProblem] = []
        single = [k for k in ("car", "assign", "path", "road_die") if flags.get(k) not in (None, False)]
        if flags.get("move") and single:
            for key in single:
                self.problems.append(FlagProblem(option(key.replace("_", "-"), flags[key]),
                                                 "--move gives every move when it is used; put this car's "
                                                 "move in a --move too"))
            single_moves: list[str] = []
        else:
            single_moves = _single_move(flags)
        self.moves = [MoveSpec(m) for m in _listify(flags.get("move")) or single_moves]
        self.move_flags = ([option("move", m) for m in _listify(flags.get("move"))]
                           or [" ".join(option(k.replace("_", "-"), flags[k]) for k in single)])
        self.repair = flags.get("repair")
        self.attacks: list = []
        for kind in ("ram", "shoot"):
            for text in _listify(flags.get(kind)):
                head, sep, target = text.partition(":")
                car: str | None = head
                if not sep:
                    car, target = None, text
                if not target or (sep and not car):
                    raise NotationError(f"--{kind} {text!r}: expected CAR:TARGET or TARGET, like '6:blue-5'")
                self.attacks.append((kind, car and car.strip(), target.strip(), option(kind, text)))
        for key in ("chopper", "airstrike_target"):
            for target in _listify(flags.get(key)):
                self.attacks.append(("chopper", None, target.strip(), option(key.replace("_", "-"), target)))
        self._turn = None
        self._player = None
        self._move = -1
        self._path: list[str] = []
        self._moving: str | None = None  # the car the current --move drives
        self._last = None
        self.accepted = 0  # problems the player has been told of after a die roll; play goes on

    def go_on(self) -> bool:
        """After a die roll changed the turn: accept the problems so far (they
        are reported, what was played stands) and go on with the other flags."""
        if len(self.problems) > self.accepted:
            self.accepted = len(self.problems)
            return True
        return False

    def _car(self, state, ref: str) -> str:
        if ref.isdigit():
            color = state.player(state.turn.player).color
            return f"{color}-{ref}"
        return ref

    def _problem(self, flag: str, why: str, d=None) -> None:
        legal = tuple(describe_action(o) for o in d.options) if d is not None else ()
        self.problems.append(FlagProblem(flag, why, legal))

    def _path_left(self, state, d=None) -> None:
        """The --move being driven is over: steps left in it could not be driven."""
        if self._path and self._moving is not None:
            car = state.car(self._moving)
            where = "" if car.at is None else f" at {geometry.name(car.at)}"
            why = f"{car.id} was {car.status}{where}" if car.status != "running" else f"the move of {car.id} was over{where}"
            self._problem(self.move_flags[min(self._move, len(self.move_flags) - 1)],
                          f"{len(self._path)} step(s) not driven ({','.join(self._path)}): {why}", d)
        self._path = []
        self._moving = None

    def next(self, state):
        if len(self.problems) > self.accepted:
            return None  # a flag could not be used: the turn goes no further on these flags
        decision = self.rs.pending(state)
        if decision is None:
            return None
        key = (state.round, state.active)
        if self._turn is None:
            self._turn, self._player = key, decision.player
        elif key != self._turn:
            return None
        self._last = state
        kind = decision.kind
        if kind != "step":
            self._path_left(state, decision)
            if len(self.problems) > self.accepted:
                return None
        if kind == "repair":
            if self.repair is None:
                return None
            self_repair, self.repair = str(self.repair), None
            if self_repair.lower() in ("none", "no", ""):
                return NoRepair()
            return self._checked(decision, option("repair", self_repair), Repair(self._car(state, self_repair)))
        if self.repair is not None:
            dice = " ".join(map(str, state.turn.dice))
            self._problem(option("repair", self.repair), f"no repair this turn: it needs double sixes and a "
                          f"wrecked car on a board (yellow dice {dice})", decision)
            self.repair = None
        if kind == "assign":
            self._move += 1
            if self._move >= len(self.moves):
                return None
            spec = self.moves[self._move]
            self._path = list(spec.path)
            car = self._car(state, spec.car)
            self._moving = car
            if spec.die is not None:
                return self._checked(decision, self.move_flags[self._move], AssignDie(car, spec.die, spec.road))
            n = len([p for p in spec.path if p != "STAY"])
            dice = state.turn.dice
            if n in dice:
                return self._checked(decision, self.move_flags[self._move], AssignDie(car, n, False))
            rd = state.turn.road_die
            if rd and n - rd in dice:
                return self._checked(decision, self.move_flags[self._move], AssignDie(car, n - rd, True))
            raise NotationError(f"--move {spec.text!r}: no yellow die ({' '.join(map(str, dice))}) gives a path of "
                                f"{n} step(s); give the die, like '{spec.car}:{dice[0]}:...'")
        if kind == "step":
            if not self._path:
                if self._move < len(self.moves) and self.moves[self._move].straight:
                    return Step("F")
                return None
            step = self._path.pop(0)
            spec = self.moves[self._move]
            number = len(spec.path) - len(self._path)
            car = state.car(self._moving) if self._moving is not None else None
            where = f" from {geometry.name(car.at)}" if car is not None and car.at is not None else ""
            return self._checked(decision, self.move_flags[self._move], Stay() if step == "STAY" else Step(step),
                                 f"step {number} of {len(spec.path)} ({step}{where})")
        if kind == "attack":
            if not self.attacks:
                return EndTurn()
            what, car, target, text = self.attacks.pop(0)
            if car is None and what in ("ram", "shoot"):
                cls = Ram if what == "ram" else Shoot
                fits = [o for o in decision.options if isinstance(o, cls) and o.target == target]
                return self._checked(decision, text, fits[0] if fits else cls(self._car(state, "6"), target))
            if what == "ram":
                return self._checked(decision, text, Ram(self._car(state, car), target))
            if what == "shoot":
                return self._checked(decision, text, Shoot(self._car(state, car), target))
            return self._checked(decision, text, ChopperAttack(target))
        return None

    def _checked(self, decision, flag: str, action, which: str = ""):
        """``action`` if it answers ``decision``, else a problem naming the flag and, for a
        step, which step of the path and where the car stood (``which``)."""
        if action in decision.options:
            return action
        what = which or describe_action(action)
        self._problem(flag, f"{what} is not an option now", decision)
        self._path = []
        return None

    def finish(self, state) -> list:
        """Every flag given that was not used, with why (after ``next`` returned None)."""
        d = self.rs.pending(state)
        same = self._turn == (state.round, state.active) and d is not None
        if not (same and d.kind == "step"):
            self._path_left(state, d if same else None)
        if self.repair is not None:
            self._problem(option("repair", self.repair), "no repair this turn: it needs double sixes and a "
                          "wrecked car on a board")
        waiting = f"not reached: the turn waits on {d.kind} first" if same else None
        for i in range(self._move + 1, len(self.moves)):
            spec = self.moves[i]
            if waiting:
                self._problem(self.move_flags[i], waiting, d)
                continue
            try:
                car = state.car(self._car(self._last or state, spec.car)) if (self._last or state).turn else None
            except KeyError:
                car = None
            why = ("no such car" if car is None else f"{car.id} got no die: it is {car.status}"
                   if car.status != "running" else f"{car.id} got no die (no yellow die was left for it)")
            self._problem(self.move_flags[i], why)
        for what, _, _, text in self.attacks:
            if waiting:
                self._problem(text, waiting, d)
            elif self._last is not None and self._last.round <= 1:
                self._problem(text, "no attacks in the first round")
            else:
                self._problem(text, "no attack was possible: no car of yours is in a ramming or shooting "
                              "position" if what != "chopper" else "no chopper attack was possible")
        self.attacks = []
        return self.problems
