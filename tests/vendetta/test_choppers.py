"""Choppers: cars pass through; a car (any, own included) ending a turn on a
chopper's space is eliminated; choppers are never shot or slammed."""

from .helpers import RS, AssignDie, NoCommand, RoadBonus, Step, at, ev, game, kinds, play


def test_cars_pass_through_a_chopper():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}], choppers=[{"owner": "bob", "at": "c4"}])
    state, evs = play(state, AssignDie("red-medium", 2), NoCommand(), Step("F"), Step("F"), RoadBonus(False))
    assert at(state, "red-medium") == "c5" and not kinds(evs, ev.SlamStarted)


def test_ending_the_turn_on_any_chopper_eliminates_the_car_even_your_own():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}], choppers=[{"owner": "ann", "at": "c4"}])
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False))
    assert kinds(evs, ev.VehicleEliminated) == [ev.VehicleEliminated("red-medium", "ended the turn under ann's chopper")]
    assert at(state, "red-medium") is None


def test_a_car_pushed_onto_a_chopper_is_eliminated_at_the_end_of_the_turn():
    from trvendetta.vendetta.actions import SlamReroll
    state, _ = game(vehicles=[{"id": "red-large", "at": "c3"}, {"id": "blue-small", "at": "c4"}],
                    choppers=[{"owner": "bob", "at": "c5"}], script={"slam": ["BOTTOM"], "direction": ["F"]})
    from trvendetta.vendetta.actions import NoShoot
    state, evs = play(state, AssignDie("red-large", 1), NoCommand(), Step("F"), SlamReroll(False))
    assert at(state, "blue-small") == "c5"  # pushed under bob's chopper; the turn is not over yet
    state, more = play(state, NoShoot())
    evs += more
    assert at(state, "blue-small") is None
    assert "chopper" in kinds(evs, ev.VehicleEliminated)[0].cause
