"""The Big Rig's part of ``trv turn`` (``notation.FlagPart``): its flags (``BigRig.turn_flags``)
as answers to its decisions, and to the decisions it brings to other players' turns.

Its stages: Hydraulic Steering first (``--steering``), the section die in the assign
decision (``--section`` with ``--command`` and ``--assign``), the Hazard Dispenser after
the road die (``--hazard-at``) and the Targeting Computer's reroll after the shot
(``--reroll-shot``).  Where a minor damage token goes (``--place-damage``, in order) and
where the Cow Catcher puts a wreck (``--cow-catcher``) may come at any point.  Any
player's shot at a section names the command aimed at (``--target-command``).
"""

from __future__ import annotations

from typing import Any

from ....core.errors import RuleViolation
from ... import board as b
from ...actions import Shoot
from ...notation import NOT_MINE, FlagPart
from .actions import AssignSection, CowCatcher, DispenseHazard, PlaceDamage, RerollShot, SetSteering, ShootCommand
from .state import is_rig, rig_turn, targetable_commands


class RigFlags(FlagPart):
    stages = {"steering": "", "hazard-dispense": "road-bonus", "shot-reroll": "shoot"}
    stage_of = {"steering": "steering", "section": "assign", "hazard_at": "hazard-dispense",
                "target_command": "shoot", "reroll_shot": "shot-reroll"}
    anytime = {"place-damage": "place_damage", "cow-catcher": "cow_catcher"}
    shots = (ShootCommand,)

    def __init__(self, driver: Any) -> None:
        super().__init__(driver)
        self.placed = 0  # --place-damage values used so far

    def check(self, state, d) -> None:
        if "reroll_shot" in self.flags and self.flags.get("command") != "targeting-computer":
            raise RuleViolation("trv turn --reroll-shot", "--reroll-shot can never apply to this turn: only the "
                                "Targeting Computer rerolls a missed shot, on the turn its die is assigned "
                                "(--section rear --command targeting-computer --assign N); nothing was played")

    def answer(self, state, d) -> Any:
        f, driver, kind = self.flags, self.driver, d.kind
        if kind == "steering":
            if "steering" not in f:
                return None
            driver.used.add("steering")
            return driver.checked(state, d, "steering", SetSteering(int(f["steering"])))
        if kind == "assign" and "section" in f:
            if "command" not in f or "assign" not in f:
                driver.problem("section", "needs --command (the section's command) and --assign (the die)", d)
                return None
            driver.used |= {"section", "command", "assign"}
            return driver.checked(state, d, "section", AssignSection(f["section"], f["command"], int(f["assign"])))
        if kind == "hazard-dispense":
            driver.used.add("hazard_at")  # no --hazard-at: no token, as no --command is no command
            return driver.checked(state, d, "hazard_at", DispenseHazard(f.get("hazard_at")))
        if kind == "shot-reroll":
            if "reroll_shot" not in f:
                return None
            driver.used.add("reroll_shot")
            return RerollShot(bool(f["reroll_shot"]))
        if kind == "shoot" and "target_command" in f:
            if "shoot" not in f:
                return None
            driver.used |= {"shoot", "no_shoot", "target_command"}
            return driver.checked(state, d, "shoot", ShootCommand(f["shoot"], f["target_command"]))
        return NOT_MINE

    def anytime_answer(self, state, d) -> Any:
        """Where a minor damage token goes (``--place-damage``, one per token, in order), where
        the Cow Catcher puts a wreck (``--cow-catcher``)."""
        f, key = self.flags, self.anytime[d.kind]
        if d.kind == "place-damage":
            queue = f.get("place_damage") or []
            done = self.placed
            if done >= len(queue):
                return None
            self.placed = done + 1
            if self.placed == len(queue):
                self.driver.used.add(key)
            section, _, command = str(queue[done]).partition(":")
            return self.driver.checked(state, d, key, PlaceDamage(section, command))
        if key not in f:
            return None
        self.driver.used.add(key)
        return self.driver.checked(state, d, key, CowCatcher(str(f[key]).upper()))

    def aim(self, target: str) -> Any:
        if "target_command" not in self.flags:
            return None
        self.driver.used.add("target_command")
        return ShootCommand(target, self.flags["target_command"])

    def refused(self, state, d, action) -> str | None:
        if not isinstance(action, Shoot):
            return None
        commands = [o.command for o in d.options if isinstance(o, ShootCommand) and o.target == action.target]
        if not commands:
            return None
        return f"{action.target} is a Big Rig section: name the command aimed at with --target-command ({', '.join(commands)})"

    def why(self, stage: str, key: str, state, last, t, car) -> str | None:
        if stage in ("airstrike-place", "airstrike-target"):
            if "section" in self.flags and last.round <= 1:
                return "there is no air attack in round 1: the die on the airstrike only moves the rig"
            return None
        if car is None or t is None or car.at is None:
            return None
        if stage == "road-bonus":
            own = rig_turn(t)
            if is_rig(state, car.id) and not (own.active and own.command == "traction-drive"):
                return ("the Big Rig takes the road die only when it moves with Traction Drive "
                        f"(--command traction-drive; this move's command: {own.command if own.active else 'none'})")
            return None
        if stage == "shoot":
            where = f" at {b.nm(car.at)}"
            targets = b.front_arc_targets(state, car.at, car.facing, exclude=car.id)
            spent = [x for x in targets if is_rig(state, x) and not targetable_commands(state, x)]
            if spent and len(spent) == len(targets):
                return (f"{', '.join(spent)}: every command a shot may aim at is damaged, so it is no target; "
                        f"nothing else is in {car.id}'s front arc{where}")
        return None
