"""The Final Five's part of ``trv turn`` (``notation.FlagPart``): its ``--bike`` groups.

``--bike N`` starts a motorcycle's group (``cli.play.flag_groups``): the ``--assign``,
``--momentum``, ``--path``, ``--road-die``, ``--shoot`` and ``--no-shoot`` after it are
that motorcycle's.  The first group's die goes in the assign decision, the second's in
the command decision (or ``--command`` once a round instead); each motorcycle then moves
and shoots with its own flags.  With groups the crew drives the whole turn; without them
the turn reads as a car's.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ....core.errors import RuleViolation
from ....core.turnflags import FlagProblem
from ... import board as b
from ...actions import AssignDie, NoCommand, NoShoot, PlaceChopper, RoadBonus, SlamReroll, Step, describe_action
from ...notation import NOT_MINE, FlagPart, legal


class BikeFlags(FlagPart):
    def __init__(self, driver: Any) -> None:
        super().__init__(driver)
        #: one group of flags per motorcycle, in order (``--bike N --assign N ...``)
        self.bikes = [dict(g, path=list(g["path"]) if g.get("path") is not None else None, used=set())
                      for g in self.flags.get("bikes") or ()]
        self.checked: set[str] = set()  # the motorcycles whose --path length was checked

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

    def drive(self, state, d) -> Any:
        """The Final Five's turn from ``--bike`` groups (each group checked in :meth:`finish`)."""
        if not self.bikes:
            return NOT_MINE
        driver = self.driver
        driver.used |= set(self.flags)
        f, kind = self.flags, d.kind
        if kind == "assign":
            g = self.bikes[0]
            if g.get("assign") is None:
                return None
            g["used"] |= {"assign", "momentum"}
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
                g["used"] |= {"assign", "momentum"}
                return AssignDie(self._bike_id(state, d.player, g["bike"]), int(g["assign"]), g["momentum"])
            if not f.get("command") and NoCommand() not in d.options:
                raise RuleViolation("trv turn --bike", "the Final Five gives two dice to two motorcycles each turn "
                                    "while an unmoved one is left: add a second --bike group, or --command "
                                    "(once a round); nothing was played", [describe_action(o) for o in d.options])
            return driver.command_given(state, d)
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
            g["used"].add("road_die")
            return RoadBonus(g["road_die"])
        if kind == "shoot":
            g["used"] |= {"shoot", "no_shoot"}
            if g["shoot"]:
                action = driver.checked(state, d, "shoot", driver.shot(g["shoot"]))
                if action is None:  # the problem names the motorcycle's own flags
                    driver.problems[-1] = msgspec.structs.replace(driver.problems[-1],
                                                                  flag=f"--bike {g['bike']} --shoot {g['shoot']}")
                return action
            return NoShoot() if g["no_shoot"] else None
        return self._plain(state, d)

    def _plain(self, state, d):
        """Decisions that are no motorcycle's own: the air strike and slam answers."""
        f, kind = self.flags, d.kind
        if kind == "airstrike-place":
            return PlaceChopper(f["airstrike_at"]) if f.get("airstrike_at") else None
        if kind == "airstrike-target":
            return self.driver.air_shot(state, d)
        if kind == "slam-reroll":
            return None if f.get("reroll") is None else SlamReroll(bool(f["reroll"]))
        return None

    def finish(self, state, d, waiting: bool) -> None:
        """Each ``--bike`` group's flags that its motorcycle's turn did not use."""
        problems = self.driver.problems
        for g in self.bikes:
            head = f"--bike {g['bike']}"
            if g["path"]:
                problems.append(FlagProblem(f"{head} --path {','.join(g['path'])}",
                                            f"{len(g['path'])} step(s) not driven (its move ended early)",
                                            legal(d) if waiting else ()))
                g["path"] = []
            for key in ("assign", "road_die", "shoot"):
                if g.get(key) and key not in g["used"]:
                    why = (f"not reached: the turn waits on {d.player}'s {d.kind} first" if waiting else
                           self._road_why(state, g) if key == "road_die" else
                           "no shot was possible" if key == "shoot" else "the motorcycle took no die")
                    value = "" if key == "road_die" else f" {g[key]}"
                    problems.append(FlagProblem(f"{head} --{key.replace('_', '-')}{value}", why,
                                                legal(d) if waiting else (), waits=waiting))
                    g["used"].add(key)

    def _road_why(self, state, g: dict) -> str:
        """Why a ``--bike`` group's ``--road-die`` was not offered, from where its motorcycle is."""
        player = self.driver.player
        car = b.vehicle(state, self._bike_id(state, player, g["bike"])) if player else None
        if car is None:
            return "the road die was not offered"
        if car.at is None:
            return f"the road die was not offered: {car.id} is {car.status}"
        where = b.nm(car.at)
        if g.get("momentum"):
            return "a momentum move cannot take the road die"
        if b.terrain(state, car.at) not in ("road", "start"):
            return f"the road die was not offered: {car.id} left the road (now at {where}, {b.terrain(state, car.at)})"
        if not state.road_die:
            return "the road die was not offered: no road die is showing"
        return (f"the road die was not offered: {car.id}'s movement ended early at {where} (a slam, a hazard, "
                "damage or mud)")
