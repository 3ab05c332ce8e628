"""Set-up: the switch-and-link board, black wrecks, the line-up, choppers, the first roll."""

import pytest

from trvendetta.classic import components as comp
from trvendetta.classic.position import Position
from trvendetta.core.errors import PositionError

from .helpers import RS, AssignDie, Step, at, ev, game, kind, options, play, position


def test_default_setup_lines_up_cars_by_colour_and_rank_and_places_the_eight_wrecks():
    state, events = game(script={"yellow": [1, 2, 3]})
    assert isinstance(events[0], ev.GameStarted) and events[0].rules_version == "1"
    assert events[1:] == [
        ev.BoardLinked(0, "A", 1, 14),
        ev.BoardLinked(1, "B", 15, 28),
        ev.TurnStarted("ann", 1),
        ev.DiceRolled("ann", (1, 2, 3), 3),
    ]
    # lane 1 = a (red), lane 2 = b (blue); rank 6 on square 4, 5 on 8, 4 on 12
    assert {c.id: at(state, c.id) for c in state.cars} == {
        "red-6": "a4", "red-5": "a8", "red-4": "a12", "blue-6": "b4", "blue-5": "b8", "blue-4": "b12"}
    assert RS.view(state)["wrecks"] == ["d4", "f7", "d8", "f10", "c20", "e21", "d24", "c26"]
    assert [(ch.owner, ch.at, ch.next_board) for ch in state.choppers] == [("ann", None, 0), ("bob", None, 0)]
    assert state.round == 1 and state.active == "ann" and state.script["yellow"] == ()
    assert kind(state) == "assign"


def test_four_colours_have_their_own_start_lanes():
    pos = RS.default_position([("a", "red", "cars"), ("b", "blue", "cars"), ("c", "green", "cars"),
                               ("d", "yellow", "cars")], 3)
    state, _ = RS.new_game(pos)
    assert [at(state, f"{col}-6") for col in ("red", "blue", "green", "yellow")] == ["a4", "b4", "f4", "g4"]
    assert [at(state, f"green-{r}") for r in (6, 5, 4)] == ["f4", "f8", "f12"]


def test_the_first_roll_without_a_script_comes_from_the_seed():
    s1, e1 = game(seed=11)
    s2, e2 = game(seed=11)
    assert e1 == e2 and s1 == s2
    assert all(1 <= d <= 6 for d in e1[-1].dice) and e1[-1].scripted == 0


def test_first_turn_moves_all_three_cars_and_makes_no_attack():
    # blue-5 sits where red-6 lands: in a later turn that would be a ram
    state, _ = game(script={"yellow": [1, 1, 1, 2, 2, 2]},
                    cars=[{"id": "red-6", "at": "a4"}, {"id": "red-5", "at": "a8"}, {"id": "red-4", "at": "a12"},
                          {"id": "blue-5", "at": "a5"}, {"id": "blue-6", "at": "g20"}])
    state, _ = play(state, AssignDie("red-6", 1), Step("F"))
    assert at(state, "red-6") == "a5" and state.car("red-6").landed
    # every running car has to take a die
    assert {o.car for o in options(state)} == {"red-5", "red-4"}
    state, _ = play(state, AssignDie("red-5", 1), Step("F"))
    state, events = play(state, AssignDie("red-4", 1), Step("F"))
    assert events[-5:] == [
        ev.CarMoved("red-4", "a12", "a13", "F"),
        ev.MoveFinished("red-4", "a13", True),
        ev.TurnEnded("ann"),
        ev.TurnStarted("bob", 1),
        ev.DiceRolled("bob", (2, 2, 2), 3),
    ]
    assert [at(state, c) for c in ("red-6", "red-5", "red-4")] == ["a5", "a9", "a13"]


def test_position_errors_name_the_field():
    with pytest.raises(PositionError) as e:
        position(players=[{"name": "ann", "color": "purple"}, {"name": "bob", "color": "blue"}])
    assert e.value.field == "players[0].color"
    with pytest.raises(PositionError) as e:
        position(cars=[{"id": "red-6", "at": "c5"}, {"id": "blue-6", "at": "c5"}, {"id": "blue-5", "at": "c5"}])
    assert e.value.field == "cars"
    with pytest.raises(PositionError) as e:
        position(cars=[{"id": "red-6", "at": "h5"}, {"id": "blue-6", "at": "c5"}])
    assert e.value.field == "cars[0].at"
    with pytest.raises(PositionError) as e:
        position(cars=[{"id": "red-6", "at": "c5"}, {"id": "blue-6", "at": "c6", "status": "wrecked"}])
    assert e.value.field == "cars"  # only ann has running cars: the game would be over
    with pytest.raises(PositionError) as e:
        position(script={"black": [4]})
    assert e.value.field == "script.black"
    with pytest.raises(PositionError) as e:
        position(colour="red")
    assert e.value.field == "file"
    with pytest.raises(PositionError) as e:
        position(ruleset="vendetta")
    assert e.value.field == "ruleset"


def test_a_resolved_position_resolves_to_itself_and_round_trips_through_json():
    import msgspec

    pos = position(script={"yellow": [1, 2, 3]})
    again = RS.position_from_dict(msgspec.to_builtins(pos))
    assert again == pos
    assert msgspec.json.decode(msgspec.json.encode(pos), type=Position) == pos


def test_component_data_loads_and_matches_rules_facts():
    c = comp.default()
    assert (c.lanes, c.squares, c.road_lanes, c.order) == (7, 14, (3, 4), ("A", "B"))
    assert c.black == (1, 1, 1, 2, 2, 3) and c.yellow == c.red == (1, 2, 3, 4, 5, 6) and c.crash_pass == 4
    assert c.marks["A"] == ((3, 4), (3, 8), (5, 7), (5, 10))
    assert c.marks["B"] == ((2, 6), (2, 12), (3, 10), (4, 7))


def test_malformed_data_names_file_and_field(tmp_path):
    from importlib import resources

    from trvendetta.core.errors import DataError

    src = resources.files("trvendetta").joinpath("data", "classic")
    for name in ("board.toml", "dice.toml"):
        (tmp_path / name).write_text(src.joinpath(name).read_text())
    board = (tmp_path / "board.toml").read_text()
    (tmp_path / "board.toml").write_text(board.replace("[4, 8]", "[9, 8]"))
    with pytest.raises(DataError) as e:
        comp.load(tmp_path)
    assert e.value.file == "board.toml" and e.value.where == "boards.A.wrecks[1]"
    (tmp_path / "board.toml").write_text(board.replace("lanes = 7", "lanes = = 7"))
    with pytest.raises(DataError) as e:
        comp.load(tmp_path)
    assert e.value.file == "board.toml" and "line" in str(e.value)
    (tmp_path / "board.toml").write_text(board)
    dice = (tmp_path / "dice.toml").read_text()
    (tmp_path / "dice.toml").write_text(dice.replace("faces = [1, 1, 1, 2, 2, 3]", "faces = [1, 1, 0]"))
    with pytest.raises(DataError) as e:
        comp.load(tmp_path)
    assert e.value.where == "dice.black.faces"
