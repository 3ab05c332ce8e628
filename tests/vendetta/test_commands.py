"""Commands, once per round with a second die: Air Attack (any die, not in
round 1), Nitro (1-3), Drift (3-5), Repair (6)."""

import pytest

from trvendetta.core.errors import RuleViolation
from trvendetta.vendetta.actions import NoShoot, PlaceChopper, Shoot

from .helpers import RS, AssignDie, NoCommand, RoadBonus, Step, UseCommand, at, car, ev, game, kinds, play


def commands(state):
    return {(o.command, o.die) for o in RS.legal_actions(state) if isinstance(o, UseCommand)}


def test_die_ranges_and_no_air_attack_in_round_one():
    state, _ = game(players=[{"name": "ann", "color": "red", "dice": [1, 3, 5, 6, 2][:4]},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}])
    state, _ = play(state, AssignDie("red-small", 5))
    assert commands(state) == {("nitro", 1), ("nitro", 3), ("drift", 3)}
    state2, _ = game(round=2, players=[{"name": "ann", "color": "red", "dice": [1, 3, 5, 6]},
                                       {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}],
                     vehicles=[{"id": "red-large", "at": "c3", "damage": ["dent"]}])
    state2, _ = play(state2, AssignDie("red-small", 1))
    assert commands(state2) == {("nitro", 3), ("drift", 3), ("drift", 5), ("repair", 6),
                                ("airstrike", 3), ("airstrike", 5), ("airstrike", 6)}


def test_command_once_per_round():
    state, _ = game(players=[{"name": "ann", "color": "red", "dice": [1, 3, 5, 6], "command_used": True},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}])
    state, _ = play(state, AssignDie("red-small", 5))
    assert RS.pending(state).kind == "step"  # no command decision at all


def test_nitro_adds_the_die_and_the_total_must_be_moved():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}])
    state, evs = play(state, AssignDie("red-medium", 4), UseCommand("nitro", 2))
    assert kinds(evs, ev.MoveStarted) == [ev.MoveStarted("red-medium", 6, True)]
    for _ in range(6):
        state, _ = play(state, Step("F"))
    assert at(state, "red-medium") == "c9"
    assert state.players[0].command_used and sorted(state.players[0].dice) == [1, 6]


def test_drift_passes_the_first_vehicle_without_slamming():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c4"},
                              {"id": "blue-small", "at": "c6"}],
                    players=[{"name": "ann", "color": "red", "dice": [4, 3, 1, 1]},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}],
                    script={"slam": ["BOTTOM"], "direction": ["FR"]})
    state, evs = play(state, AssignDie("red-medium", 4), UseCommand("drift", 3), Step("F"))
    assert kinds(evs, ev.DriftUsed) == [ev.DriftUsed("red-medium", "blue-large")]
    assert not kinds(evs, ev.SlamStarted)
    state, evs = play(state, Step("F"), Step("F"))  # c5, then c6: the second vehicle is slammed
    assert kinds(evs, ev.SlamStarted) == [ev.SlamStarted("red-medium", "blue-small", "c6")]


def test_repair_removes_a_token_and_makes_the_car_operational():
    state, _ = game(vehicles=[{"id": "red-large", "at": "c3", "damage": ["dent", "skid-FL"]}])
    assert car(state, "red-large").status == "inoperable" and car(state, "red-large").facing == "B"
    state, evs = play(state, AssignDie("red-small", 4), UseCommand("repair", 6, "red-large"))
    assert kinds(evs, ev.CarRepaired) == [ev.CarRepaired("red-large", "skid-FL")]
    v = car(state, "red-large")
    assert v.status == "operational" and v.facing == "F" and v.damage == ("dent",)
    assert state.damage_pile["skid-FL"] == 1  # back in the pile


def test_repair_needs_a_six_and_a_damaged_car():
    state, _ = game(vehicles=[{"id": "red-large", "at": "c3", "damage": ["dent"]}])
    state, _ = play(state, AssignDie("red-small", 4))
    with pytest.raises(RuleViolation, match="repair 6 red-medium"):
        RS.apply(state, UseCommand("repair", 6, "red-medium"))
    with pytest.raises(RuleViolation, match="repair 2 red-large"):
        RS.apply(state, UseCommand("repair", 2, "red-large"))


def test_air_attack_places_the_chopper_on_an_empty_space_and_fires():
    state, _ = game(round=2, vehicles=[{"id": "red-medium", "at": "a3"}, {"id": "blue-small", "at": "c9"},
                                       {"id": "blue-large", "at": "e9"}],
                    script={"shot": ["SM"]})
    state, _ = play(state, AssignDie("red-medium", 1), UseCommand("airstrike", 2))
    places = [o.at for o in RS.legal_actions(state)]
    assert "c8" in places and "c9" not in places and "e9" not in places
    state, evs = play(state, PlaceChopper("c8"))
    assert state.choppers[0].at == (2, 14)
    assert RS.legal_actions(state) == [Shoot("blue-small"), NoShoot()]  # front arc of c8: b8, c9, d8
    state, evs = play(state, Shoot("blue-small"))
    assert kinds(evs, ev.ShotFired) == [ev.ShotFired("ann's chopper", "blue-small", "SM", True, True)]
    assert len(car(state, "blue-small").damage) == 1
    assert RS.pending(state).kind == "step"  # then the car moves


def test_road_die_still_offered_after_nitro():
    state, _ = game(road_die=1, vehicles=[{"id": "red-medium", "at": "c3"}])
    state, _ = play(state, AssignDie("red-medium", 4), UseCommand("nitro", 1), *[Step("F")] * 5)
    assert RS.pending(state).kind == "road-bonus"
    state, _ = play(state, RoadBonus(True), Step("F"))
    assert at(state, "red-medium") == "c9"


def test_drift_does_not_pass_a_wreck():
    """Drift passes "the first land vehicle encountered"; a wreck is wreckage,
    not a land vehicle, so the car slams the wreck and the drift is not used."""
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c6"}],
                    wrecks=[{"at": "c4"}],
                    players=[{"name": "ann", "color": "red", "dice": [4, 3, 1, 1]},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}],
                    script={"slam": ["BOTTOM"], "direction": ["FR"]})
    state, evs = play(state, AssignDie("red-medium", 4), UseCommand("drift", 3), Step("F"))
    assert not kinds(evs, ev.DriftUsed)
    assert kinds(evs, ev.SlamStarted) == [ev.SlamStarted("red-medium", "wreck-1", "c4")]


def test_the_road_die_moves_count_after_the_vehicle_a_drift_passes():
    """Drift with the road die: the last base move lands on a vehicle and the
    road die's moves carry the car past it (the road die is then the only option)."""
    state, _ = game(road_die=2, vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c6"}],
                    players=[{"name": "ann", "color": "red", "dice": [3, 4, 1, 1]},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}])
    state, evs = play(state, AssignDie("red-medium", 3), UseCommand("drift", 4), Step("F"), Step("F"), Step("F"))
    assert kinds(evs, ev.DriftUsed) == [ev.DriftUsed("red-medium", "blue-large")] and not kinds(evs, ev.SlamStarted)
    assert RS.legal_actions(state) == [RoadBonus(True)]
    state, evs = play(state, RoadBonus(True), Step("F"), Step("F"))
    assert at(state, "red-medium") == "c8" and not kinds(evs, ev.SlamStarted)


def test_a_drift_with_no_move_and_no_road_die_left_slams():
    state, _ = game(road_die=2, vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c6"}],
                    terrain=[{"at": "c5", "kind": "offroad"}],
                    players=[{"name": "ann", "color": "red", "dice": [3, 4, 1, 1]},
                             {"name": "bob", "color": "blue", "dice": [1, 1, 1, 1]}],
                    script={"slam": ["BOTTOM"], "direction": ["FR"]})
    state, evs = play(state, AssignDie("red-medium", 3), UseCommand("drift", 4), Step("F"), Step("F"), Step("F"))
    assert not kinds(evs, ev.DriftUsed)  # off-road at c5: no road die, so no move after the vehicle
    assert kinds(evs, ev.SlamStarted) == [ev.SlamStarted("red-medium", "blue-large", "c6")]
