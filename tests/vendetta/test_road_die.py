"""The road die bonus: only if the car starts and moves only on road;
optional; its own choice after the base moves; moved in full once taken."""

from .helpers import RS, AssignDie, NoCommand, RoadBonus, Step, at, ev, game, kinds, play


def test_offered_after_base_moves_on_road_and_moved_in_full():
    state, _ = game(road_die=3, vehicles=[{"id": "red-medium", "at": "c3"}])
    state, _ = play(state, AssignDie("red-medium", 2), NoCommand(), Step("F"))
    assert RS.pending(state).kind == "step"
    state, _ = play(state, Step("F"))
    assert RS.pending(state).kind == "road-bonus"
    state, evs = play(state, RoadBonus(True))
    assert kinds(evs, ev.RoadBonusChosen) == [ev.RoadBonusChosen("red-medium", True, 3)]
    for _ in range(3):
        assert RS.pending(state).kind == "step"
        state, _ = play(state, Step("F"))
    assert at(state, "red-medium") == "c8"
    assert RS.pending(state).player == "bob"


def test_declining_keeps_the_car_where_it_is():
    state, _ = game(road_die=3, vehicles=[{"id": "red-medium", "at": "c3"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False))
    assert at(state, "red-medium") == "c4" and state.turn.player == "bob"


def test_not_offered_after_leaving_the_road():
    state, _ = game(road_die=3, vehicles=[{"id": "red-medium", "at": "c3"}],
                    terrain=[{"at": "b3", "kind": "offroad"}])
    state, _ = play(state, AssignDie("red-medium", 2), NoCommand(), Step("FL"), Step("FR"))
    assert at(state, "red-medium") == "c4" and state.turn.player == "bob"


def test_not_offered_when_starting_off_road():
    state, _ = game(road_die=3, vehicles=[{"id": "red-medium", "at": "c3"}], terrain=[{"at": "c3", "kind": "offroad"}])
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand())
    assert kinds(evs, ev.MoveStarted)[0].road_ok is False
    state, _ = play(state, Step("F"))
    assert state.turn.player == "bob"


def test_the_starting_area_counts_as_road():
    state, _ = game(road_die=1)
    state, _ = play(state, AssignDie("red-small", 1), NoCommand(), Step("F"))
    assert RS.pending(state).kind == "road-bonus"
