"""Positions: a position that breaks a rule is refused naming the field."""

import pytest

from trvendetta.core.errors import PositionError

from .helpers import BASE, RS, position


@pytest.mark.parametrize("changes, field, text", [
    ({"vehicles": [{"id": "red-small", "at": "c5"}, {"id": "blue-small", "at": "c5"}]}, "vehicles[1].at", "already occupied"),
    ({"players": [{"name": "ann", "color": "red", "dice": [7]}, {"name": "bob", "color": "blue"}]}, "players[0].dice", "7 is not 1-6"),
    ({"vehicles": [{"id": "red-small", "at": "z99"}]}, "vehicles[0].at", "off the road"),
    ({"vehicles": [{"id": "red-small", "at": "c"}]}, "vehicles[0].at", "not a space name"),
    ({"vehicles": [{"id": "purple-small"}]}, "vehicles[0].id", "unknown vehicle"),
    ({"road": ["choke", "barrens", "mudhole"]}, "road[1]", "other side of a tile"),
    ({"road": ["nowhere", "choke", "mudhole"]}, "road[0]", "unknown tile side"),
    ({"tokens": [{"at": "c3", "kind": "mine"}] * 1 + [{"at": f"c{i}", "kind": "mine"} for i in range(4, 7)]}, "tokens", "4 mine tokens"),
    ({"script": {"slam": ["SIDEWAYS"]}}, "script.slam", "not a face"),
    ({"active_player": "zed"}, "active_player", "not a player"),
    ({"players": [{"name": "ann", "color": "red"}]}, "players", "2 to 4"),
    ({"road_die": 6}, "road_die", "not a road die face"),
    ({"road": ["choke"]}, "road", "starting piece"),
    ({"road": ["the-parking-lot", "choke"]}, "road", "2 tile sides"),
])
def test_bad_positions_name_the_field(changes, field, text):
    with pytest.raises(PositionError) as err:
        position(**changes)
    assert err.value.field == field and text in str(err.value)


def test_unknown_fields_and_wrong_types_are_refused_with_the_path():
    data = dict(BASE, colour="red")
    with pytest.raises(PositionError, match="colour"):
        RS.position_from_dict(data)
    data = dict(BASE, seed="seven")
    with pytest.raises(PositionError, match=r"\$.seed"):
        RS.position_from_dict(data)


def test_a_position_round_trips_through_json():
    pos = position(vehicles=[{"id": "red-small", "at": "c5", "damage": ["dent"]}], script={"shot": ["L"]})
    again = RS.position_from_dict(__import__("msgspec").json.decode(RS.encode(pos)))
    assert again == pos


def test_the_state_comes_from_the_position():
    state, _ = RS.new_game(position(round=3, vehicles=[{"id": "red-small", "at": "c5", "damage": ["dent"], "moved": True}],
                                    wrecks=[{"at": "d9"}], choppers=[{"owner": "bob", "at": "e9"}],
                                    tokens=[{"at": "c8", "kind": "mud", "face_up": True}]))
    view = RS.view(state)
    small = next(v for v in view["vehicles"] if v["id"] == "red-small")
    assert small == {"id": "red-small", "owner": "ann", "kind": "small", "size": "S", "at": "c5", "facing": "F",
                     "status": "operational", "damage": 1, "moved": True, "momentum": 0}
    assert view["round"] == 3 and view["wrecks"] == ["d9"] and view["tokens"] == [{"at": "c8", "kind": "mud"}]
    assert view["choppers"] == [{"owner": "ann", "at": None}, {"owner": "bob", "at": "e9"}]


def test_turn_driver_refuses_flags_for_a_turn_past_assigning_and_unused_path_steps():
    from trvendetta.core.errors import RuleViolation
    from trvendetta.vendetta.actions import AssignDie, NoCommand

    state, _ = RS.new_game(position(vehicles=[{"id": "red-medium", "at": "c3"}]))
    state, _ = RS.apply(state, AssignDie("red-medium", 4))
    state, _ = RS.apply(state, NoCommand())
    driver = RS.turn_driver({"car": "large", "assign": 6})
    assert driver.next(state) is None
    assert [p.text() for p in driver.finish(state)] == [
        "--car large: the turn is past assigning a die (pending: step)",
        "--assign 6: the turn is past assigning a die (pending: step)"]
    driver = RS.turn_driver({"path": ["F"] * 6, "no_shoot": True})
    with pytest.raises(RuleViolation, match="--path has 6 steps but this move has at most 4"):
        driver.next(state)


def test_turn_driver_reports_path_steps_a_mine_made_unusable():
    state, _ = RS.new_game(position(vehicles=[{"id": "red-medium", "at": "c3"}], tokens=[{"at": "c4", "kind": "mine"}],
                                    script={"damage": ["dent"]}))
    driver = RS.turn_driver({"car": "medium", "assign": 4, "path": ["F"] * 4, "no_shoot": True})
    while (action := driver.next(state)) is not None:
        state, _ = RS.apply(state, action)
    assert state.turn.player == "bob"  # stopped by the mine: the turn is over
    assert [p.text() for p in driver.finish(state)] == [
        "--path F,F,F: 3 step(s) not driven: red-medium's movement ended at c4 (a slam, a hazard, damage or mud)"]


def test_a_car_can_start_in_a_chosen_lane_of_the_starting_area():
    state, _ = RS.new_game(position(vehicles=[{"id": "red-small", "at": "f0"}, {"id": "blue-large", "at": "f0"}]))
    small = next(v for v in state.vehicles if v.id == "red-small")
    assert small.start and small.at == (5, -1)
    assert RS.view(state)["vehicles"][0]["at"] == "start"
    with pytest.raises(PositionError, match="starting area is gone"):
        position(road=["choke", "mudhole", "snakeway"], first_piece=1, vehicles=[{"id": "red-small", "at": "c0"}])


def test_a_road_of_one_side_is_the_starting_piece_and_the_seed_draws_the_rest():
    state, events = RS.new_game(position(road=["the-road-to-perdition"]))
    assert [t.side for t in state.road][0] == "the-road-to-perdition" and len(state.road) == 3
    assert len({RS.encode(e) for e in RS.new_game(position(road=["the-road-to-perdition"]))[1]}) == len(events)
