"""A ruleset kept outside the package, with a board kind and a crew of its own.

``dunes`` is Vendetta's rules on the dunes: a road whose impassable spaces
are deep sand (mud: two moves to enter, nothing to crash into), where a car
in sand cannot shoot and leaving the road is sinking into the dunes.  It
adds a crew, ``jeeps`` (three cars that play the cars' turn), whose jeeps
shrug off a hit while they stand in sand, and whose turn takes a ``trv turn``
flag of its own, ``--jeep SIZE`` (the jeep that takes the ``--assign`` die).

Importing this module is all it takes: it registers its crew (``crew.register``), its
crew's looks (``crew.register_looks``)
and its ruleset (``rulesets.register``); no file of the project names it.
The tests (``tests/plugins/test_dunes.py``, the conformance suite) play it
through the CLI, the bots, the simulator and the pictures like a built-in
ruleset.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from trvendetta import rulesets
from trvendetta.core.errors import RuleViolation
from trvendetta.core.turnflags import TurnFlag
from trvendetta.vendetta import Vendetta, crew
from trvendetta.vendetta import components as comp
from trvendetta.vendetta import board as b
from trvendetta.vendetta import events as ev
from trvendetta.vendetta.actions import AssignDie, describe_action
from trvendetta.vendetta.cars import Cars
from trvendetta.vendetta.model import State
from trvendetta.vendetta.road import Board, Road


class Dunes(Road):
    """The road, with sand where the tiles print impassable terrain."""

    def terrain(self, state, space) -> str:
        kind = super().terrain(state, space)
        return "mud" if kind == "impassable" else kind

    def printed_terrain(self, state, space) -> str:
        kind = super().printed_terrain(state, space)
        return "mud" if kind == "impassable" else kind

    def off_cause(self, state, space) -> str:
        return "sank into the dunes"

    def fatal_exit(self, state, space) -> str:
        return "sinks into the dunes (eliminated)"

    def may_shoot_from(self, state, space) -> bool:
        return space is None or self.terrain(state, space) != "mud"


DUNES = Dunes()


class DunesState(State):
    board: ClassVar[Board] = DUNES


class Jeeps(Cars):
    """Cars, except that a jeep in sand shrugs off a hit."""

    assign_prompt = "assign a die to a jeep"
    turn_flags = (TurnFlag("jeep", metavar="small|medium|large", choices=("small", "medium", "large"),
                           excludes=("car",), help="Jeeps: the jeep that takes the --assign die this turn."),)

    def flag_action(self, state, decision, flags):
        """``--jeep SIZE --assign N``: the die to that jeep (Vendetta's driver checks it)."""
        if decision.kind != "assign" or "jeep" not in flags:
            return None
        if "assign" not in flags:
            raise RuleViolation("trv turn --jeep", "--jeep needs --assign N (the die it takes); nothing was played",
                                [describe_action(o) for o in decision.options])
        jeep = f"{b.player(state, decision.player).color}-{flags['jeep']}"
        return AssignDie(jeep, int(flags["assign"]), "momentum" in flags), ("jeep", "assign", "momentum")

    def damage(self, ctx, v, cause: str) -> None:
        if ctx.state.board.terrain(ctx.state, v.at) == "mud":
            ctx.emit(ev.DamageIgnored(v.id, "the sand took the hit"))
            return
        super().damage(ctx, v, cause)


    def score_option(self, h, a):
        """The greedy bot's steps: a jeep likes sand (it takes no hit there), on top of the
        ruleset's step score (``h``: Vendetta's heuristics)."""
        if h.decision.kind != "step":
            return None
        from trvendetta.core import geometry

        state = h.state
        car = next(v for v in state.vehicles if v.id == state.turn.car)
        if state.board.terrain(state, geometry.neighbour(car.at, a.direction, car.facing)) != "mud":
            return None
        return h._step(a) + SAND_BONUS


#: what the jeeps' greedy bot adds to a step into sand
SAND_BONUS = 25.0
JEEPS = crew.register("jeeps", Jeeps())


class JeepLooks(crew.Looks):
    """How the jeeps are shown: wider than a car in the pictures, and each one's
    dashboard line says it is a four-by-four."""

    width = 0.66

    def vehicle_line(self, v, where: str) -> str:
        return super().vehicle_line(v, where) + "  4x4"


JEEP_LOOKS = crew.register_looks("jeeps", JeepLooks())


def components() -> comp.Components:
    """Vendetta's shipped components, with the jeeps' crew data added."""
    c = comp.default()
    jeeps = comp.Crew("jeeps", ("small", "medium", "large"), 4)
    return msgspec.structs.replace(c, crews={**c.crews, "jeeps": jeeps})


class DunesRuleset(Vendetta):
    name = "dunes"
    title = "Thunder Road: Vendetta on the dunes"
    state_type = DunesState

    def initial_state(self) -> DunesState:
        return DunesState()


RULESET = rulesets.register(DunesRuleset(components()))
