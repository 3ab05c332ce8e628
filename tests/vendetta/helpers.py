"""Build Vendetta games from positions with scripted dice, and play actions."""

from __future__ import annotations

from trvendetta.rulesets import get
from trvendetta.vendetta import board as b
from trvendetta.vendetta import events as ev
from trvendetta.vendetta.actions import AssignDie, NoCommand, NoShoot, RoadBonus, Step, UseCommand

from ruleset_helpers import games  # tests/ is on sys.path (rootdir conftest)

RS = get("vendetta")

BASE = {
    "ruleset": "vendetta",
    "seed": 7,
    "road": ["the-parking-lot", "choke", "mudhole"],
    "road_die": 2,
    "fill": "road",
    "tokens": [],
    "active_player": "ann",
    "players": [
        {"name": "ann", "color": "red", "dice": [4, 2, 6, 1]},
        {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]},
    ],
}


position, game, play = games(RS, BASE)


def car(state, vid):
    return b.vehicle(state, vid)


def at(state, vid):
    v = b.vehicle(state, vid)
    if v.at is None:
        return None
    return "start" if v.start else b.nm(v.at)


def kinds(events, cls):
    return [e for e in events if isinstance(e, cls)]


def move(state, car_id, die, path=(), command=None, road=None, shoot=None):
    """Play a whole simple turn: assign, command (or none), steps, road die, shot."""
    state, evs = play(state, AssignDie(car_id, die))
    state, more = play(state, command or NoCommand())
    evs += more
    for d in path:
        state, more = play(state, Step(d))
        evs += more
    if road is not None and RS.pending(state) and RS.pending(state).kind == "road-bonus":
        state, more = play(state, RoadBonus(road))
        evs += more
    d = RS.pending(state)
    if d is not None and d.kind == "shoot" and d.player == b.vehicle(state, car_id).owner:
        from trvendetta.vendetta.actions import Shoot
        state, more = play(state, Shoot(shoot) if shoot else NoShoot())
        evs += more
    return state, evs


__all__ = ["RS", "BASE", "position", "game", "play", "car", "at", "kinds", "move", "ev", "b",
           "AssignDie", "NoCommand", "NoShoot", "RoadBonus", "Step", "UseCommand"]
