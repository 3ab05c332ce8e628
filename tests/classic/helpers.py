"""Build classic (1986) games from positions with scripted dice, and play actions."""

from __future__ import annotations

from trvendetta.classic import events as ev
from trvendetta.classic.actions import (AssignDie, ChopperAttack, EndTurn, NoRepair, Ram, Repair, Shoot, Stay,
                                        Step)
from trvendetta.core import geometry
from trvendetta.rulesets import get

from ruleset_helpers import games  # tests/ is on sys.path (rootdir conftest)

RS = get("classic")

BASE = {
    "ruleset": "classic",
    "seed": 7,
    "players": [{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}],
}


position, game, play = games(RS, BASE)


def move(state, car, die, path, road=False):
    """Assign ``die`` to ``car`` and take the steps of ``path`` (a string like 'F,F,FR')."""
    steps = [Step(d) for d in path.split(",")] if path else []
    return play(state, AssignDie(car, die, road), *steps)


def at(state, car_id):
    c = state.car(car_id)
    return None if c.at is None else geometry.name(c.at)


def options(state):
    d = RS.pending(state)
    return None if d is None else list(d.options)


def kind(state):
    d = RS.pending(state)
    return None if d is None else d.kind


def cars(*specs):
    """``cars("red-6@c5", "blue-5@c7:wrecked")`` -> the position's car list."""
    out = []
    for spec in specs:
        cid, _, rest = spec.partition("@")
        where, _, status = rest.partition(":")
        out.append({"id": cid, "at": where, "status": status or "running"})
    return out


__all__ = ["RS", "BASE", "position", "game", "play", "move", "at", "options", "kind", "cars", "ev", "geometry",
           "AssignDie", "ChopperAttack", "EndTurn", "NoRepair", "Ram", "Repair", "Shoot", "Stay", "Step"]
