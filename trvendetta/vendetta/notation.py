"""``trv turn`` flags read as answers to the turn's successive decisions.

Parsing reuses the rules (python-chess style): each flag is turned into a
candidate action and checked against the legal options, so there is no
second copy of the rules here.  Every flag given must answer a decision of
the turn: a flag the turn could not use becomes a :class:`FlagProblem`
naming it, why, and what was legal (see ``core.turnflags``).

The flags here are every crew's turn (:data:`TURN_FLAGS`).  A crew's own flags
(``Crew.turn_flags``) come with its part of the driver (a :class:`FlagPart`,
``Crew.flag_part``: the Big Rig's and the Final Five's in ``crews/<crew>/flags.py``),
which the driver asks at fixed points of each decision; a crew may instead answer
its own decisions with ``Crew.flag_action`` alone.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..core.errors import RuleViolation
from ..core.turnflags import FlagProblem, TurnFlag, option
from . import board as b
from . import crew as crews
from .actions import AssignDie, NoCommand, NoShoot, PlaceChopper, RoadBonus, Shoot, SlamReroll, Step, UseCommand
from .actions import describe_action
from .rules import explain, pending

#: the flags of every crew's turn (the cars'); a crew's own are its ``Crew.turn_flags``, which a
#: ruleset adds for the crews it takes (:func:`crew_flags`, ``Vendetta.turn_flags``)
TURN_FLAGS = (
    TurnFlag("car", metavar="small|medium|large", choices=("small", "medium", "large"), help="The car to move this turn (with --assign)."),
    TurnFlag("assign", "int", metavar="N", help="The movement die to assign to it."),
    TurnFlag("momentum", "flag", help="Assign the die to the car's momentum (a car that already moved)."),
    TurnFlag("command", metavar="nitro|drift|repair|airstrike", help="Use a command this turn (with --command-die)."),
    TurnFlag("command-die", "int", metavar="N", help="The second die, assigned to the command."),
    TurnFlag("repair", metavar="CAR", help="The car the repair command fixes (with --command repair)."),
    TurnFlag("airstrike-at", metavar="SPACE", help="Where the air attack puts the chopper."),
    TurnFlag("airstrike-target", metavar="TARGET", help="What the chopper shoots at."),
    TurnFlag("path", "steps", metavar="F,FL,FR,...",
             help="Every step of the move (base die, nitro, road die); default straight ahead."),
    TurnFlag("road-die", "flag", help="Take the road die bonus moves.", excludes=("no-road-die",)),
    TurnFlag("no-road-die", "flag", help="Decline the road die bonus (the default)."),
    TurnFlag("shoot", metavar="TARGET", help="Fire at TARGET after moving.", excludes=("no-shoot",)),
    TurnFlag("no-shoot", "flag", help="Do not fire."),
    TurnFlag("reroll", "switch", help="Reroll (or accept) the slam dice, if that is yours to decide."),
)


def crew_flags(names) -> tuple[TurnFlag, ...]:
    """The ``trv turn`` flags of the crews called ``names``: each crew's own
    (``Crew.turn_flags``), tagged with its name (``trv turn --help`` lists them
    under it); a crew of the data with none registered plays the cars' turn and
    adds none.  A ruleset's ``turn_flags`` are :data:`TURN_FLAGS` and these, for
    the crews it takes."""
    out: list[TurnFlag] = []
    for name in names:
        out += (f if f.crew == name else msgspec.structs.replace(f, crew=name) for f in crews.named(name).turn_flags)
    return tuple(out)


#: the turn's decisions in order, and the flags that answer each (a crew's part adds its own)
STAGES = ("assign", "command", "airstrike-place", "airstrike-target", "step", "road-bonus", "shoot")
STAGE_OF = {"car": "assign", "assign": "assign", "momentum": "assign", "command": "command",
            "command_die": "command", "repair": "command", "airstrike_at": "airstrike-place",
            "airstrike_target": "airstrike-target", "path": "step", "road_die": "road-bonus",
            "no_road_die": "road-bonus", "shoot": "shoot", "no_shoot": "shoot", "reroll": "slam-reroll"}
#: flags that decline: satisfied when their decision does not come (there was nothing to decline)
DECLINING = {"no_road_die", "no_shoot"}
#: what a crew's part answers when the decision is not its to answer: the driver goes on
NOT_MINE: Any = object()


def legal(d) -> tuple[str, ...]:
    """The options of decision ``d`` as a problem lists them."""
    return tuple(describe_action(o) for o in d.options) if d is not None else ()


class FlagPart:
    """One crew's part of the driver (``Crew.flag_part``): the decisions its own flags answer,
    where they come in the turn, and the hooks the driver asks at fixed points of each
    decision.  ``driver`` is the :class:`TurnDriver` it is part of: its ``flags`` (every flag
    given), ``used``, ``problems``, :meth:`~TurnDriver.problem` and :meth:`~TurnDriver.checked`.
    This base answers nothing."""

    #: its own decisions (stages), each with the stage it comes right after ("": first)
    stages: dict[str, str] = {}
    #: each of its flags (by key) and the stage it answers
    stage_of: dict[str, str] = {}
    #: decisions that may come at any point of a turn, each with the flag (key) answering it
    anytime: dict[str, str] = {}
    #: its own shot actions (a shot at one of its vehicles), besides ``Shoot``
    shots: tuple[type, ...] = ()

    def __init__(self, driver: TurnDriver) -> None:
        self.driver = driver
        self.flags = driver.flags

    def check(self, state, d) -> None:
        """Before anything is played at ``d``: a RuleViolation for flags that cannot apply to this turn."""

    def drive(self, state, d) -> Any:
        """``d``'s answer when the crew drives the whole turn its own way (the Final Five's
        ``--bike`` groups), asked before any other flag; else NOT_MINE."""
        return NOT_MINE

    def anytime_answer(self, state, d) -> Any:
        """The answer to ``d``, one of its :attr:`anytime` decisions, or None (no flag answers it)."""
        return None

    def answer(self, state, d) -> Any:
        """``d``'s answer from its flags, asked before the driver's own stages (the flags of
        earlier stages already checked); else NOT_MINE."""
        return NOT_MINE

    def aim(self, target: str) -> Any:
        """A shot flag's ``target`` as the crew's own shot at it (the command aimed at on a Big
        Rig section), or None: a plain ``Shoot``."""
        return None

    def refused(self, state, d, action) -> str | None:
        """Why a flag's ``action``, not an option of ``d``, is refused, when the crew says it
        better than the rules (a section shot at without naming a command); else None."""
        return None

    def why(self, stage: str, key: str, state, last, t, car) -> str | None:
        """Why flag ``key`` of ``stage`` answered nothing this turn, when the crew knows (``last``:
        the turn's last state seen, ``t`` its turn, ``car`` the turn's vehicle); else None."""
        return None

    def finish(self, state, d, waiting: bool) -> None:
        """At the end: a problem for each of its own flags not used (``waiting``: the turn
        waits on ``d``)."""


def _parts(driver: TurnDriver, declared: tuple[TurnFlag, ...]) -> list[FlagPart]:
    """The parts of the crews whose flags the ruleset declares, in the order it declares them."""
    out = []
    for name in dict.fromkeys(f.crew for f in declared if f.crew):
        part = crews.named(name).flag_part(driver)
        if part is not None:
            out.append(part)
    return out


class TurnDriver:
    """Answers the pending decisions of one turn from ``trv turn`` flags.

    ``next(state)`` returns the next action, or None when the flags answer
    nothing more (the turn is over, the decision is someone else's, or no
    flag answers it); ``finish(state)`` then lists every flag given that
    was not used, with the reason.
    """

    def __init__(self, flags: dict, declared: tuple[TurnFlag, ...] = ()):
        #: the crew each crew's own flag is for (``TurnFlag.crew``: the ruleset's declarations)
        self.crew_of = {f.key: f.crew for f in declared if f.crew}
        self.flags = {k: v for k, v in flags.items()
                      if v is not None and v not in ((), []) and (v is not False or k == "reroll")}
        self.path = list(flags.get("path") or [])
        self.explicit_path = flags.get("path") is not None
        self.turn_key: tuple | None = None
        self.player: str | None = None
        self.used: set[str] = set()
        self.problems: list[FlagProblem] = []
        self.path_checked = False
        self.base = 0  # the move's steps before any road die (seen at its first step)
        self.driven = 0  # --path steps played
        #: the --path step that was certain elimination: (its number, direction, space, why), or None
        self.fatal: tuple[int, str, str, str] | None = None
        self.last = None  # the last state of this turn seen with our decision pending
        self.accepted = 0  # problems the player has been told of after a die roll; play goes on
        self._refused_at = None  # the state at which a flag was last refused (never asked twice)
        #: the crews' parts (:class:`FlagPart`), and what they add to the stages
        self.parts = _parts(self, declared)
        self.stages = list(STAGES)
        self.stage_of = dict(STAGE_OF)
        self.anytime: dict[str, FlagPart] = {}
        self.anytime_keys: set[str] = set()
        self.shots: tuple[type, ...] = (Shoot,)
        for part in self.parts:
            for stage, after in part.stages.items():
                self.stages.insert(self.stages.index(after) + 1 if after else 0, stage)
            self.stage_of.update(part.stage_of)
            self.anytime.update(dict.fromkeys(part.anytime, part))
            self.anytime_keys.update(part.anytime.values())
            self.shots += part.shots

    def go_on(self) -> bool:
        """After a die roll changed the turn: accept the problems so far (they
        are reported, what was played stands) and go on with the other flags."""
        if len(self.problems) > self.accepted:
            self.accepted = len(self.problems)
            return True
        return False

    # ------------------------------------------------------------ helpers
    def _text(self, key: str) -> str:
        value = self.flags.get(key)
        if key == "path":
            value = self.path if self.path else value
        return option(key.replace("_", "-"), value)

    def problem(self, key: str, why: str, d=None) -> None:
        self.used.add(key)  # reported once
        self.problems.append(FlagProblem(self._text(key), why, legal(d)))

    def _car_id(self, state, name: str) -> str:
        car = self.flags.get("car")
        if car is None or "-" in car:
            return car or ""
        return f"{b.player(state, name).color}-{car}"

    def _past(self, state, d, stage: str) -> None:
        """The turn reached ``stage``: flags of earlier decisions not used could not be."""
        here = self.stages.index(stage)
        for key in list(self.flags):
            if key in self.used or key in DECLINING or key == "path":
                continue
            st = self.stage_of.get(key)
            if st in self.stages and self.stages.index(st) < here:
                self.problem(key, self._why(key, state, reached=stage), d)

    def _why(self, key: str, state, reached: str | None = None) -> str:
        """Why the flag ``key`` found no decision to answer this turn (``state``:
        the latest state; the turn's own record is the last one seen)."""
        last = self.last if self.last is not None else state
        t = last.turn if last.turn is not None and last.turn.player == self.player else None
        p = b.player(state, self.player) if self.player else None
        car = b.vehicle(state, t.car) if t is not None and t.car else None
        where = f" at {b.nm(car.at)}" if car is not None and car.at is not None else ""
        stage = self.stage_of.get(key) or ""
        crew_why = next((w for part in self.parts if (w := part.why(stage, key, state, last, t, car))), None)
        if stage == "assign":
            return f"the turn is past assigning a die (pending: {reached})" if reached else "no die to assign"
        if stage == "command":
            if key != "command" and "command" not in self.flags:
                return "no --command to go with it"
            if key == "repair" and self.flags.get("command") != "repair":
                return f"--repair needs --command repair (the command is {self.flags.get('command')})"
            if p is not None and p.command_used and "command" not in self.used:
                return f"{self.player} already used a command this round"
            if p is not None and not p.dice:
                return f"{self.player} has no die left for a command"
            return "no command could be used this turn"
        if stage in ("airstrike-place", "airstrike-target"):
            if self.flags.get("command") != "airstrike":
                return "no air attack this turn (use --command airstrike)"
            if crew_why:
                return crew_why
            chopper = next((c.at for c in state.choppers if c.owner == self.player), None)
            if key == "airstrike_target" and chopper is not None:
                return f"nothing in the chopper's front arc at {b.nm(chopper)} to fire at"
            return "the air attack was not made"
        if stage == "road-bonus":
            if car is None or t is None:  # a car only with its turn (t None: for the checker)
                return "no car moved this turn"
            if t.momentum:
                return "a momentum move cannot take the road die"
            if car.status != "operational" or car.at is None:
                return f"{car.id} is {car.status}"
            if t.stopped:
                return f"{car.id}'s movement ended early{where} (a slam, a hazard, damage or mud)"
            if crew_why:
                return crew_why
            if not t.road_ok or (not car.start and b.terrain(state, car.at) not in ("road", "start")):
                return f"{car.id} did not start on the road or left it (now{where})"
            if not state.road_die:
                return "no road die is showing"
            return f"the road die was not offered ({car.id}'s movement ended early{where})"
        if stage == "shoot":
            if car is None:
                return "no car moved this turn"
            if car.status != "operational" or car.at is None:
                return f"{car.id} is {car.status} and cannot fire"
            if not b.front_arc_targets(state, car.at, car.facing, exclude=car.id):
                return f"nothing in {car.id}'s front arc{where} to fire at"
            return crew_why or f"the turn ended before {car.id} could fire"
        if stage == "slam-reroll":
            return f"no slam reroll was {self.player}'s to decide"
        return crew_why or self._not_theirs(key, state) or "no decision of this turn takes it"

    def _not_theirs(self, key: str, state) -> str:
        """Why a crew's own flag that no stage takes (a plug-in crew's, which its
        ``Crew.flag_action`` answers) is no flag of this turn: the player plays another crew; ""
        when it is theirs.  (A crew's stages may answer another crew's player: a shot aimed at a
        Big Rig section's command, the Cow Catcher asking a wreck's owner.)"""
        crew = self.crew_of.get(key)
        if crew is None or key in self.stage_of or key in self.anytime_keys or self.player is None:
            return ""
        theirs = b.player(state, self.player).crew
        return "" if theirs == crew else f"a flag of the {crew} crew's turn; {self.player} plays the {theirs}"

    def _note_fatal(self, state, step: str) -> None:
        """Remember the --path step about to be played if it is certain elimination (its number,
        direction, space and why), so the refusal of the steps after it names it."""
        from .rules import fatal_step

        car = b.vehicle(state, state.turn.car) if state.turn is not None and state.turn.car else None
        if car is None or car.at is None or step not in ("F", "FL", "FR"):
            return
        fatal = fatal_step(state, car.id, step)
        if fatal:
            self.fatal = (self.driven, step, b.nm(car.at), fatal)

    def _path_left(self, state, d=None) -> None:
        if not self.path:
            return
        t = self.last.turn if self.last is not None else state.turn
        car = b.vehicle(state, t.car) if t is not None and t.car else None
        if car is None:
            why = "no car moved"
        elif car.at is None:
            why = f"{car.id} was eliminated" + (f": --path step {self.fatal[0]} ({self.fatal[1]}) from "
                                                f"{self.fatal[2]} {self.fatal[3]}" if self.fatal else "")
        elif "road_die" in self.flags and self.driven >= self.base > 0 and not t.road_taken:
            why = f"the move's {self.base} steps were driven, and these needed the road die, which was not offered"
        else:
            why = f"{car.id}'s movement ended at {b.nm(car.at)} (a slam, a hazard, damage or mud)"
        self.problem("path", f"{len(self.path)} step(s) not driven: {why}", d)
        self.path = []

    def shot(self, target: str) -> Any:
        """A shot flag's ``target`` as an action: a crew's own shot at it (``FlagPart.aim``), or ``Shoot``."""
        return next((a for part in self.parts if (a := part.aim(target)) is not None), None) or Shoot(target)

    def command_given(self, state, d) -> Any:
        """``--command`` (with ``--command-die``, and ``--repair`` for a repair) as an action, as a
        crew that drives its own turn reads it: None without the die."""
        f = self.flags
        command = f.get("command")
        if not command:
            return NoCommand() if NoCommand() in d.options else None
        target = None
        if command == "repair":
            target = f.get("repair")
            if target and "-" not in target:
                target = f"{b.player(state, d.player).color}-{target}"
        die = f.get("command_die")
        if die is None:
            return None
        return UseCommand(command, int(die), target)

    # --------------------------------------------------------------- play
    def next(self, state):
        """The next action (see the class)."""
        if state is self._refused_at:
            return None  # a flag was refused at this very decision: after a die roll it is reported, not retried
        return self._next(state)

    def _next(self, state):
        if len(self.problems) > self.accepted:
            return None  # a flag could not be used: the turn goes no further on these flags
        d = pending(state)
        if self.turn_key is None:
            if d is None:
                return None
            self.turn_key = (state.round, state.turn_number)
            self.player = d.player
        if d is None or (state.round, state.turn_number) != self.turn_key or d.player != self.player:
            return None
        self.last = state
        for part in self.parts:
            part.check(state, d)
        own = crews.of(state, d.player).flag_action(state, d, self.flags)
        if own is not None:  # the crew's own flags answer it (a plug-in crew's: ``Crew.flag_action``)
            action, keys = own
            self.used |= set(keys)
            return self.checked(state, d, keys[0], action)
        for part in self.parts:
            action = part.drive(state, d)
            if action is not NOT_MINE:
                return action
        f = self.flags
        kind = d.kind
        if kind == "slam-reroll":
            if "reroll" in f and "reroll" not in self.used:
                self.used.add("reroll")
                return SlamReroll(bool(f["reroll"]))
            return None
        if kind in self.anytime:
            return self.anytime[kind].anytime_answer(state, d)
        if kind not in self.stages:
            return None  # a decision no flag answers (answer it with `trv decide`)
        self._past(state, d, kind)
        if len(self.problems) > self.accepted:
            return None
        for part in self.parts:
            action = part.answer(state, d)
            if action is not NOT_MINE:
                return action
        answer = self.ANSWERS.get(kind)
        return answer(self, state, d) if answer is not None else None

    # ---------------------------------------------- the stages every crew's turn has
    def _assign(self, state, d):
        f = self.flags
        if "car" not in f and "assign" not in f:
            return None
        if "car" not in f or "assign" not in f:
            missing, given = ("car", "assign") if "car" not in f else ("assign", "car")
            self.problem(given, f"needs --{missing} too", d)
            return None
        self.used |= {"car", "assign", "momentum"}
        return AssignDie(self._car_id(state, d.player), int(f["assign"]), "momentum" in f)

    def _command(self, state, d):
        f = self.flags
        command = f.get("command")
        if not command:
            for key in ("command_die", "repair"):
                if key in f:
                    self.problem(key, "no --command to go with it", d)
            return NoCommand()
        if "command_die" not in f:
            self.problem("command", "needs --command-die N (the second die)", d)
            return None
        target = None
        if command == "repair":
            target = f.get("repair")
            if target and "-" not in target:
                target = f"{b.player(state, d.player).color}-{target}"
        elif "repair" in f:
            self.problem("repair", f"--repair needs --command repair (the command is {command})", d)
        self.used |= {"command", "command_die"} | ({"repair"} if command == "repair" else set())
        return UseCommand(command, int(f["command_die"]), target)

    def _airstrike_place(self, state, d):
        if "airstrike_at" not in self.flags:
            return None
        self.used.add("airstrike_at")
        return self.checked(state, d, "airstrike_at", PlaceChopper(self.flags["airstrike_at"]))

    def _airstrike_target(self, state, d):
        return self.air_shot(state, d)

    def _step(self, state, d):
        if not self.path_checked:
            self.path_checked = True
            self.base = state.turn.moves_left
            most = state.turn.moves_left + ((state.road_die or 0) if self.flags.get("road_die") else 0)
            if len(self.path) > most:
                raise RuleViolation("trv turn --path", f"--path has {len(self.path)} steps but this move has "
                                    f"at most {most} ({','.join(self.path)}); nothing was played")
        if self.path:
            self.used.add("path")
            self.driven += 1
            step = self.path.pop(0).strip().upper()
            self._note_fatal(state, step)
            return self.checked(state, d, "path", Step(step))
        if self.explicit_path:
            return None
        return self._straight_ahead(state, d)

    def _road_bonus(self, state, d):
        f = self.flags
        if self.path and "road_die" not in f:
            self.problem("path", f"{len(self.path)} step(s) beyond the base move; add --road-die to drive "
                          "them with the road die", d)
            self.path = []
            return None
        self.used |= {"road_die", "no_road_die"}
        if RoadBonus(False) not in d.options:  # a drift onto a vehicle must go on
            if "no_road_die" in f:
                self.problem("no_road_die", "the drift passed a vehicle with the last base move, so "
                              "the road die must carry the car on", d)
                return None
            return RoadBonus(True)
        return RoadBonus("road_die" in f)

    def _shoot(self, state, d):
        self._path_left(state, d)
        if len(self.problems) > self.accepted:
            return None
        self.used |= {"shoot", "no_shoot"}
        if "shoot" in self.flags:
            return self.checked(state, d, "shoot", Shoot(self.flags["shoot"]))
        return NoShoot() if "no_shoot" in self.flags else None

    #: how each of :data:`STAGES` is answered from the flags
    ANSWERS = {"assign": _assign, "command": _command, "airstrike-place": _airstrike_place,
               "airstrike-target": _airstrike_target, "step": _step, "road-bonus": _road_bonus, "shoot": _shoot}

    def air_shot(self, state, d):
        """The air attack's shot: ``--airstrike-target`` (``none`` holds fire; a crew's own shot
        at one of its vehicles, :meth:`shot`).  Without it the chopper's shot is never skipped in
        silence: the decision only comes with something in the chopper's arc, so that is a
        problem naming what it could fire at."""
        f = self.flags
        target = f.get("airstrike_target")
        if target is None:
            chopper = next((c.at for c in state.choppers if c.owner == d.player), None)
            targets = sorted({o.target for o in d.options if isinstance(o, self.shots)})
            where = f" at {b.nm(chopper)}" if chopper is not None else ""
            key = "airstrike_at" if "airstrike_at" in f else "command"
            self._refused_at = state
            self.problem(key, f"{d.player}'s chopper{where} can fire at {', '.join(targets)}: name the shot with "
                          "--airstrike-target TARGET (--airstrike-target none to hold fire)", d)
            return None
        self.used.add("airstrike_target")
        if str(target).lower() == "none":
            return NoShoot()
        return self.checked(state, d, "airstrike_target", self.shot(target))

    def checked(self, state, d, key: str, action):
        """``action`` if it answers ``d``; else a problem naming the flag (with
        the rules' own explanation) and None."""
        if action in d.options:
            return action
        self._refused_at = state
        why = next((w for part in self.parts if (w := part.refused(state, d, action))), None)
        if why is None and isinstance(action, Shoot) and d.kind == "shoot":
            car = b.vehicle(state, state.turn.car)
            why = f"{action.target} is not in {car.id}'s front arc at {b.nm(car.at)}"
        if why is not None:
            self.used.add(key)
            self.problems.append(FlagProblem(self._text(key), why, legal(d)))
            return None
        try:
            explain(state, action)
            why = f"{describe_action(action)} is not an option now"
        except RuleViolation as exc:
            why = str(exc).split("; legal: ")[0]
        self.used.add(key)
        if key == "path":
            self.path.insert(0, action.direction)
            text = option("path", self.path)
            self.path = []
            self.problems.append(FlagProblem(text, why, legal(d)))
            return None
        self.problems.append(FlagProblem(self._text(key), why, legal(d)))
        return None

    def _straight_ahead(self, state, d):
        """The default step (no --path): straight ahead, unless that is fatal."""
        from .rules import fatal_step

        t = state.turn
        fatal = fatal_step(state, t.car, "F")
        if fatal:
            safe = [o.direction for o in d.options if not fatal_step(state, t.car, o.direction)]
            raise RuleViolation("trv turn: the default path is straight ahead",
                                f"the straight-ahead step F from {b.nm(b.vehicle(state, t.car).at)} {fatal}; "
                                f"nothing was played; spell the path out with --path "
                                f"(steps that are not fatal: {', '.join(safe) or 'none'})", legal(d))
        return Step("F")

    def unplayed(self, state) -> list[FlagProblem]:
        """The turn stopped before ``state``'s decision (an exchange or host game's action waits for
        remote dice): every flag not played yet, the rest of ``--path`` included."""
        rest = list(self.path)
        problems = self.finish(state)
        if rest and not any(p.flag.startswith("--path") for p in problems):
            problems.append(FlagProblem(option("path", rest), "not driven yet: the turn waits for the dice"))
        return problems

    def finish(self, state) -> list[FlagProblem]:
        """Every flag given that was not used, with why (call after ``next`` returned None)."""
        d = pending(state)
        same_turn = self.turn_key == (state.round, state.turn_number) and state.turn is not None \
            and state.turn.player == self.player
        waiting = same_turn and d is not None
        for part in self.parts:
            part.finish(state, d, waiting)
        if self.path and not (waiting and d is not None and d.player == self.player and d.kind == "step"):
            self._path_left(state, d if waiting else None)  # (a shorter --path just waits on the next step)
        for key in list(self.flags):
            if key in self.used or key == "path":
                continue
            if waiting and d is not None and not self._not_theirs(key, state):  # (waiting implies d)
                whose = "" if d.player == self.player else f"{d.player}'s "
                self.problem(key, f"not reached: the turn waits on {whose}{d.kind} first", d)
                self.problems[-1] = msgspec.structs.replace(self.problems[-1], waits=True)
            elif key not in DECLINING:  # a declining flag with nothing to decline is satisfied
                self.problem(key, self._why(key, state))
        return self.problems
