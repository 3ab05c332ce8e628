"""Build Carnival games from positions with scripted dice and draws, and play actions."""

from __future__ import annotations

from trvendetta.rulesets import get
from trvendetta.vendetta import board as b
from trvendetta.vendetta.actions import AssignDie, NoCommand, NoShoot, RoadBonus, Shoot, Step

from ruleset_helpers import games  # tests/ is on sys.path (rootdir conftest)

RS = get("carnival")

BASE = {
    "ruleset": "carnival",
    "seed": 7,
    "side": "haulasseum",
    "tiles": ["the-parking-lot", "choke", "mudhole"],
    "favor_tokens": [],
    "weapon_tokens": [],
    "road_die": 1,
    "round": 2,
    "active_player": "ann",
    "first_player": "ann",
    "players": [
        {"name": "ann", "color": "red", "dice": [4, 2, 3, 1]},
        {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]},
    ],
}


position, game, play = games(RS, BASE)


def at(state, vid):
    v = b.vehicle(state, vid)
    if v.at is None:
        return None
    return "start" if v.start else b.nm(v.at)


def facing(state, vid):
    return b.vehicle(state, vid).facing


def kinds(events, cls):
    return [e for e in events if isinstance(e, cls)]


def move(state, car_id, die, path=(), road=None, shoot=None):
    """A whole simple turn: assign, no command, steps, road die, shot (or none)."""
    state, evs = play(state, AssignDie(car_id, die))
    if RS.pending(state) is not None and RS.pending(state).kind == "command":
        state, more = play(state, NoCommand())
        evs += more
    for d in path:
        state, more = play(state, Step(d))
        evs += more
    pending = RS.pending(state)
    if road is not None and pending is not None and pending.kind == "road-bonus":
        state, more = play(state, RoadBonus(road))
        evs += more
    pending = RS.pending(state)
    if pending is not None and pending.kind == "shoot" and pending.player == b.vehicle(state, car_id).owner:
        state, more = play(state, Shoot(shoot) if shoot else NoShoot())
        evs += more
    return state, evs


def game_under(version, **changes):
    """A game from the base position with ``changes`` set up under rules ``version`` (as a game
    recorded under it re-executes): (state, events)."""
    from trvendetta.carnival import components as comp
    from trvendetta.carnival import setup

    events = setup.start(position(**changes), comp.default(), None, version)
    return RS.fold(events), events
