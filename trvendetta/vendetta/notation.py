"""``trv turn`` flags read as answers to the turn's successive decisions.

Parsing reuses the rules (python-chess style): each flag is turned into a
candidate action and the engine checks it against the legal options, so there
is no second copy of the rules here.
"""

from __future__ import annotations

from ..core.errors import RuleViolation
from . import board as b
from .actions import AssignDie, NoCommand, NoShoot, PlaceChopper, RoadBonus, Shoot, SlamReroll, Step, UseCommand
from .actions import describe_action
from .rules import pending

COMMANDS = ("nitro", "drift", "repair", "airstrike")


class TurnDriver:
    """Answers the pending decisions of one turn from ``trv turn`` flags.

    A ``--path`` longer than the move can ever be is refused; steps left over
    because a slam, a mine or damage stopped the car are dropped (the player
    could not know), and the printed events show where the car stopped.

    ``next(state)`` returns the next action, or None when the flags do not
    answer the pending decision (it belongs to someone else, or a flag is
    missing) or the turn is over.
    """

    def __init__(self, flags: dict):
        self.flags = flags
        self.path = list(flags.get("path") or [])
        self.explicit_path = flags.get("path") is not None
        #: the Final Five: one group of flags per motorcycle (``--bike N --assign N ...``)
        self.bikes = [dict(g, path=list(g["path"]) if g.get("path") is not None else None)
                      for g in flags.get("bikes") or ()]
        self.checked: set[str] = set()
        self.turn_key: tuple | None = None
        self.player: str | None = None
        self.path_checked = False

    def _car_id(self, state, name: str) -> str:
        car = self.flags.get("car")
        if car is None:
            return ""
        if "-" in car:
            return car
        return f"{b.player(state, name).color}-{car}"

    def _bike_id(self, state, name: str, text) -> str:
        text = str(text)
        if "-" in text:
            return text
        return f"{b.player(state, name).color}-{text if text.startswith('bike') else 'bike' + text}"

    def _group(self, state):
        """The flag group of the motorcycle now moving (None if it has none)."""
        t = state.turn
        for g in self.bikes:
            if self._bike_id(state, t.player, g["bike"]) == t.car:
                return g
        return None

    def _next_bike(self, state, d):
        """The Final Five's turn from ``--bike`` groups (see cli.play.bike_groups)."""
        f, kind = self.flags, d.kind
        if kind == "assign":
            g = self.bikes[0]
            if g.get("assign") is None:
                return None
            return AssignDie(self._bike_id(state, d.player, g["bike"]), int(g["assign"]), g["momentum"])
        if kind == "command":
            if len(self.bikes) > 1:
                g = self.bikes[1]
                if f.get("command"):
                    raise RuleViolation("trv turn --bike", "two --bike groups and --command: once a round the Final Five "
                                        "may give one die to a motorcycle and one to a command, not both",
                                        [describe_action(o) for o in d.options])
                if g.get("assign") is None:
                    return None
                return AssignDie(self._bike_id(state, d.player, g["bike"]), int(g["assign"]), g["momentum"])
            if not f.get("command") and NoCommand() not in d.options:
                raise RuleViolation("trv turn --bike", "the Final Five gives two dice to two motorcycles each turn "
                                    "while an unmoved one is left: add a second --bike group, or --command "
                                    "(once a round); nothing was played", [describe_action(o) for o in d.options])
            return self._command(state, d)
        g = self._group(state)
        if g is None:
            return None if kind in ("step", "road-bonus", "shoot") else self._plain(state, d)
        if kind == "step":
            if state.turn.car not in self.checked:
                self.checked.add(state.turn.car)
                path = g["path"] or []
                most = state.turn.moves_left + ((state.road_die or 0) if g["road_die"] else 0)
                if len(path) > most:
                    raise RuleViolation("trv turn --path", f"--path for --bike {g['bike']} has {len(path)} steps but "
                                        f"its move has at most {most} ({','.join(path)}); nothing was played")
            if g["path"]:
                return Step(g["path"].pop(0).strip().upper())
            return None if g["path"] is not None else Step("F")
        if kind == "road-bonus":
            return RoadBonus(g["road_die"])
        if kind == "shoot":
            if g["shoot"]:
                return Shoot(g["shoot"])
            return NoShoot() if g["no_shoot"] else None
        return self._plain(state, d)

    def _command(self, state, d):
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

    def _plain(self, state, d):
        """Decisions that are no vehicle's own: the air strike and slam answers."""
        f, kind = self.flags, d.kind
        if kind == "airstrike-place":
            return PlaceChopper(f["airstrike_at"]) if f.get("airstrike_at") else None
        if kind == "airstrike-target":
            return Shoot(f["airstrike_target"]) if f.get("airstrike_target") else NoShoot()
        if kind == "slam-reroll":
            return None if f.get("reroll") is None else SlamReroll(bool(f["reroll"]))
        return None

    def next(self, state):
        d = pending(state)
        if d is None or state.turn is None:
            return None
        key = (state.round, state.turn_number)
        if self.turn_key is None:
            self.turn_key, self.player = key, state.turn.player
            if d.kind != "assign" and (self.flags.get("car") or self.flags.get("assign") is not None or self.bikes):
                raise RuleViolation("trv turn", f"{d.player}'s turn is past assigning a die (pending: {d.kind}); "
                                    "answer it with `trv decide` or run `trv turn` without --car/--assign",
                                    [describe_action(o) for o in d.options])
        if key != self.turn_key or d.player != self.player:
            return None
        if self.bikes:
            return self._next_bike(state, d)
        f = self.flags
        kind = d.kind
        if kind == "assign":
            if f.get("assign") is None or f.get("car") is None:
                return None
            return AssignDie(self._car_id(state, d.player), int(f["assign"]), bool(f.get("momentum")))
        if kind == "command":
            command = f.get("command")
            if not command:
                return NoCommand()
            target = None
            if command == "repair":
                target = f.get("repair")
                if target and "-" not in target:
                    target = f"{b.player(state, d.player).color}-{target}"
            die = f.get("command_die")
            if die is None:
                return None
            return UseCommand(command, int(die), target)
        if kind == "airstrike-place":
            return PlaceChopper(f["airstrike_at"]) if f.get("airstrike_at") else None
        if kind == "airstrike-target":
            return Shoot(f["airstrike_target"]) if f.get("airstrike_target") else NoShoot()
        if kind == "step":
            if not self.path_checked:
                self.path_checked = True
                most = state.turn.moves_left + ((state.road_die or 0) if f.get("road_die") else 0)
                if len(self.path) > most:
                    raise RuleViolation("trv turn --path", f"--path has {len(self.path)} steps but this move has "
                                        f"at most {most} ({','.join(self.path)}); nothing was played")
            if self.path:
                return Step(self.path.pop(0).strip().upper())
            return None if self.explicit_path else Step("F")
        if kind == "road-bonus":
            return RoadBonus(bool(f.get("road_die")))
        if kind == "shoot":
            if f.get("shoot"):
                return Shoot(f["shoot"])
            return NoShoot() if f.get("no_shoot") else None
        if kind == "slam-reroll":
            return None if f.get("reroll") is None else SlamReroll(bool(f["reroll"]))
        return None
