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
when the flags do not answer the pending decision or the turn is over.
"""

from __future__ import annotations

from ..core.errors import NotationError
from .actions import AssignDie, ChopperAttack, EndTurn, NoRepair, Ram, Repair, Shoot, Stay, Step

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
        self.moves = [MoveSpec(m) for m in _listify(flags.get("move")) or _single_move(flags)]
        self.repair = flags.get("repair")
        self.attacks: list = []
        for kind in ("ram", "shoot"):
            for text in _listify(flags.get(kind)):
                car, sep, target = text.partition(":")
                if not sep:
                    car, target = None, text
                if not target or (sep and not car):
                    raise NotationError(f"--{kind} {text!r}: expected CAR:TARGET or TARGET, like '6:blue-5'")
                self.attacks.append((kind, car and car.strip(), target.strip()))
        for target in _listify(flags.get("chopper")) + _listify(flags.get("airstrike_target")):
            self.attacks.append(("chopper", None, target.strip()))
        self._turn = None
        self._move = -1
        self._path: list[str] = []

    def _car(self, state, ref: str) -> str:
        if ref.isdigit():
            color = state.player(state.turn.player).color
            return f"{color}-{ref}"
        return ref

    def next(self, state):
        decision = self.rs.pending(state)
        if decision is None:
            return None
        key = (state.round, state.active)
        if self._turn is None:
            self._turn = key
        elif key != self._turn:
            return None
        kind = decision.kind
        if kind == "repair":
            if self.repair is None:
                return None
            self_repair, self.repair = str(self.repair), None
            if self_repair.lower() in ("none", "no", ""):
                return NoRepair()
            return Repair(self._car(state, self_repair))
        if kind == "assign":
            self._move += 1
            if self._move >= len(self.moves):
                return None
            spec = self.moves[self._move]
            self._path = list(spec.path)
            car = self._car(state, spec.car)
            if spec.die is not None:
                return AssignDie(car, spec.die, spec.road)
            n = len([p for p in spec.path if p != "STAY"])
            dice = state.turn.dice
            if n in dice:
                return AssignDie(car, n, False)
            rd = state.turn.road_die
            if rd and n - rd in dice:
                return AssignDie(car, n - rd, True)
            raise NotationError(f"--move {spec.text!r}: no yellow die ({' '.join(map(str, dice))}) gives a path of "
                                f"{n} step(s); give the die, like '{spec.car}:{dice[0]}:...'")
        if kind == "step":
            if not self._path:
                if self._move < len(self.moves) and self.moves[self._move].straight:
                    return Step("F")
                return None
            step = self._path.pop(0)
            return Stay() if step == "STAY" else Step(step)
        if kind == "attack":
            if not self.attacks:
                return EndTurn()
            what, car, target = self.attacks.pop(0)
            if car is None and what in ("ram", "shoot"):
                cls = Ram if what == "ram" else Shoot
                fits = [o for o in decision.options if isinstance(o, cls) and o.target == target]
                return fits[0] if fits else cls(self._car(state, "6"), target)
            if what == "ram":
                return Ram(self._car(state, car), target)
            if what == "shoot":
                return Shoot(self._car(state, car), target)
            return ChopperAttack(target)
        return None
