"""Movement: through the front arc, terrain costs (mud 2; entering mud with 1
move left is allowed and ends the move), impassable, side and rear edges."""

import pytest

from trvendetta.core.errors import RuleViolation

from trvendetta.vendetta.actions import SlamReroll

from .helpers import RS, AssignDie, NoCommand, Step, at, car, ev, game, kinds, play


def test_only_the_front_arc():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand())
    assert RS.legal_actions(state) == [Step("FL"), Step("F"), Step("FR")]
    with pytest.raises(RuleViolation, match=r"B does not answer .*legal: FL, F, FR"):
        RS.apply(state, Step("B"))


def test_steps_follow_the_path():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}])
    state, evs = play(state, AssignDie("red-medium", 4), NoCommand(), Step("FL"), Step("F"), Step("FR"), Step("FR"))
    moved = [(e.frm, e.to) for e in kinds(evs, ev.VehicleMoved)]
    assert moved == [("c3", "b3"), ("b3", "b4"), ("b4", "c5"), ("c5", "d5")]


def test_mud_costs_two_moves():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}], terrain=[{"at": "c4", "kind": "mud"}])
    state, evs = play(state, AssignDie("red-medium", 4), NoCommand(), Step("F"))
    assert kinds(evs, ev.VehicleMoved)[0].cost == 2
    assert state.turn.moves_left == 2
    state, _ = play(state, Step("F"), Step("F"))
    assert at(state, "red-medium") == "c6" and state.turn.player == "bob"  # crossed mud: no road die


def test_entering_mud_with_one_move_left_is_allowed_and_ends_the_move():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}], terrain=[{"at": "c5", "kind": "mud"}])
    state, evs = play(state, AssignDie("red-medium", 2), NoCommand(), Step("F"), Step("F"))
    assert at(state, "red-medium") == "c5"
    assert kinds(evs, ev.MovementEnded) == [ev.MovementEnded("red-medium", "stuck in the mud")]
    assert state.turn.player == "bob"


def test_impassable_eliminates():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}], terrain=[{"at": "c4", "kind": "impassable"}])
    state, evs = play(state, AssignDie("red-medium", 4), NoCommand(), Step("F"))
    assert kinds(evs, ev.VehicleEliminated) == [ev.VehicleEliminated("red-medium", "drove into impassable terrain at c4")]
    assert at(state, "red-medium") is None and state.turn.player == "bob"


def test_leaving_by_the_side_edge_eliminates():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "a3"}])
    state, evs = play(state, AssignDie("red-medium", 2), NoCommand(), Step("FL"))
    assert [e.vehicle for e in kinds(evs, ev.VehicleEliminated)] == ["red-medium"]
    assert "left the road" in kinds(evs, ev.VehicleEliminated)[0].cause


def test_pushed_off_the_rear_edge_eliminates():
    # red-medium waits in the starting area in lane b; blue-small sits on c1
    state, _ = game(vehicles=[{"id": "blue-small", "at": "c1"}], script={"slam": ["BOTTOM"], "direction": ["B"]})
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("FR"), SlamReroll(False))
    assert kinds(evs, ev.VehicleEliminated) == [ev.VehicleEliminated("blue-small", "left the road at the rear")]
    assert at(state, "red-medium") == "c1"


def test_a_car_in_the_starting_area_enters_the_road():
    state, _ = game()
    state, evs = play(state, AssignDie("red-large", 2), NoCommand(), Step("F"), Step("F"))
    assert at(state, "red-large") == "c2"


def test_a_car_stepping_sideways_in_the_starting_area_stays_in_it():
    state, _ = game()
    state, _ = play(state, AssignDie("red-small", 2), NoCommand(), Step("FR"))  # a0 -> b0, still behind the road
    assert car(state, "red-small").start and car(state, "red-small").at == (1, -1)
    state, _ = play(state, Step("F"))
    assert at(state, "red-small") == "b1"
