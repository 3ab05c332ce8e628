"""A crew kept outside the package that plays in base Vendetta games beside the cars.

The ``outriders`` crew is two cars (small, large) and a motorcycle with a sidecar
(``sidecar``, a Medium vehicle).  When the sidecar takes the turn's die, its
passenger may throw a flare instead of a command (at most :data:`FLARES` a
game): an action (``ThrowFlare``, ``trv turn --flare``), an event
(``FlareThrown``) and state of its own (``Flares``, the flares its player has
thrown: a struct in ``Player.crew_state``, which snapshots keep and ``trv show``
shows).  Otherwise it plays the cars' turn.

Importing this package is all it takes: it registers its crew data
(``components.register_crew``), its action and event types, their describe
functions, its fold handler and its state type (``parts``), its rules
(``crew.register``) and its looks (``crew.register_looks``); no file of the
project names it.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from trvendetta.core.bases import BaseAction
from trvendetta.core.errors import RuleViolation
from trvendetta.core.events import BaseEvent
from trvendetta.core.turnflags import TurnFlag
from trvendetta.vendetta import components as comp
from trvendetta.vendetta import crew, parts
from trvendetta.vendetta import board as b
from trvendetta.vendetta.actions import NoCommand
from trvendetta.vendetta.cars import Cars
from trvendetta.vendetta.model import CrewPlayer

NAME = "outriders"
#: flares one crew throws in a game, at most
FLARES = 2

CREW = comp.register_crew(comp.Crew(NAME, ("small", "sidecar", "large"), 4),
                          (comp.VehicleKind("sidecar", "M"),), rulesets=("vendetta",))


# ------------------------------------------------------------------ the action and the event
class ThrowFlare(BaseAction, tag="throw-flare", frozen=True):
    """The sidecar's passenger throws a flare (instead of a command)."""


class FlareThrown(BaseEvent, tag="flare-thrown", frozen=True):
    player: str
    car: str


parts.action(ThrowFlare, describe=lambda a: "flare")
parts.event(FlareThrown, describe=lambda e: f"{e.car}'s passenger throws a flare")


@parts.state
class Flares(msgspec.Struct, CrewPlayer, frozen=True, tag=NAME, tag_field="crew"):
    """What the crew keeps of its own on its player: the flares thrown this game."""

    thrown: int = 0


def flares(p: Any) -> Flares:
    """Player ``p``'s flares (none thrown while it keeps no state)."""
    return p.crew_state if isinstance(p.crew_state, Flares) else Flares()


def thrown(state: Any, player: str) -> int:
    """The flares ``player``'s crew has thrown this game (its own state)."""
    return flares(b.player(state, player)).thrown


@parts.fold(FlareThrown)
def _thrown(state: Any, e: FlareThrown) -> Any:
    players = tuple(replace(p, crew_state=Flares(flares(p).thrown + 1)) if p.name == e.player else p
                    for p in state.players)
    return replace(state, players=players, turn=replace(state.turn, phase="command-done"))


# ------------------------------------------------------------------ the rules
class Sidecar(Cars):
    """The cars' turn, and a flare for the sidecar in place of a command."""

    assign_prompt = "assign a die to a car or the sidecar"
    turn_flags = (TurnFlag("flare", kind="flag", excludes=("command",),
                           help="Sidecar: the passenger throws a flare instead of a command."),)

    def command_options(self, state: Any, name: str) -> list:
        options = super().command_options(state, name)
        t = state.turn
        if t is not None and t.car == f"{b.player(state, name).color}-sidecar" and thrown(state, name) < FLARES:
            options = (options or [NoCommand()]) + [ThrowFlare()]
        return options

    def resolve(self, ctx: Any, decision: Any, action: Any) -> bool:
        if not isinstance(action, ThrowFlare):
            return False
        t = ctx.state.turn
        ctx.emit(FlareThrown(t.player, t.car))
        return True

    def flag_action(self, state: Any, decision: Any, flags: dict) -> tuple[Any, tuple[str, ...]] | None:
        if not flags.get("flare") or decision.kind != "command":
            return None
        if ThrowFlare() not in decision.options:
            raise RuleViolation("trv turn --flare", "only the sidecar throws a flare, at most "
                                f"{FLARES} a game; nothing was played", [])
        return ThrowFlare(), ("flare",)

    def score_option(self, h: Any, option: Any) -> float | None:
        return 0.5 if isinstance(option, ThrowFlare) else None


SIDECAR = crew.register(NAME, Sidecar())


class SidecarLooks(crew.Looks):
    """The sidecar is drawn with a ``C``; the cars as cars; the flares thrown on the dashboard."""

    def sign(self, v: Any) -> str:
        return "C" if v.kind == "sidecar" else v.size

    def player(self, p: Any) -> dict:
        return {"flares_thrown": flares(p).thrown}

    def dashboard(self, p: Any) -> str:
        return super().dashboard(p) + f"  flares thrown: {flares(p).thrown} of {FLARES}"


LOOKS = crew.register_looks(NAME, SidecarLooks())
