"""``trv turn`` flags, ``trv show --json`` and the text board."""

import pytest

from trvendetta.core.errors import NotationError

from .helpers import RS, AssignDie, ChopperAttack, EndTurn, NoRepair, Ram, Repair, Shoot, Stay, Step, cars, game


def drive(state, flags):
    driver = RS.turn_driver(flags)
    actions = []
    while (a := driver.next(state)) is not None:
        actions.append(a)
        state, _ = RS.apply(state, a)
    return state, actions


def test_move_flags_give_the_dice_and_steps_of_a_turn():
    state, _ = game(round=2, wrecks=[], cars=cars("red-6@c5", "red-5@d10", "blue-5@c8", "blue-6@g20"),
                    script={"yellow": [2, 1, 4], "black": [2], "red": [6, 1]})
    state, actions = drive(state, {"move": ["6:F,F", "5:F,F,FR,F,F,F"], "shoot": ["6:blue-5"]})
    assert actions == [AssignDie("red-6", 2), Step("F"), Step("F"), AssignDie("red-5", 4, True), Step("F"),
                       Step("F"), Step("FR"), Step("F"), Step("F"), Step("F"), Shoot("red-6", "blue-5"), EndTurn()]
    assert state.active == "bob"


def test_explicit_die_and_stay():
    state, _ = game(round=2, wrecks=["a6"], cars=cars("red-6@a5", "blue-6@b5", "blue-5@g20"),
                    script={"yellow": [2, 1, 1]})
    state, actions = drive(state, {"move": ["red-6:2:stay"]})
    assert actions == [AssignDie("red-6", 2), Stay(), EndTurn()]


def test_repair_flag_and_missing_answers():
    state, _ = game(round=2, wrecks=[], cars=cars("red-6@c5:wrecked", "red-5@a10", "blue-6@g20"),
                    script={"yellow": [6, 6, 2]})
    assert RS.turn_driver({}).next(state) is None  # the flags do not answer the repair
    assert RS.turn_driver({"repair": "none"}).next(state) == NoRepair()
    assert RS.turn_driver({"repair": "6"}).next(state) == Repair("red-6")


def test_ram_and_chopper_flags():
    state, _ = game(round=2, wrecks=[], cars=cars("red-6@c5", "blue-5@c7", "blue-6@g20"),
                    script={"yellow": [2, 1, 1], "red": [1, 6, 1]})
    state, actions = drive(state, {"move": ["6:F,F"], "ram": ["6:blue-5"], "chopper": "blue-6"})
    # nothing is left to attack with after the chopper: the turn ends by itself
    assert actions[-2:] == [Ram("red-6", "blue-5"), ChopperAttack("blue-6")] and state.active == "bob"


def test_bad_flags_raise_notation_errors():
    for bad in ({"move": ["6"]}, {"move": ["6:F,X"]}, {"move": ["6:x:F"]}, {"ram": [":blue-5"]}, {"car": "6"}):
        with pytest.raises(NotationError):
            RS.turn_driver(bad)


def test_view_document():
    state, _ = game(script={"yellow": [1, 2, 3]})
    v = RS.view(state)
    assert set(v) == {"round", "active_player", "pending", "finished", "winner", "road_die", "road", "players",
                      "vehicles", "choppers", "wrecks", "tokens", "board"}
    assert v["pending"]["kind"] == "assign" and "assign 1 to red-6" in v["pending"]["options"]
    assert v["road"] == [{"name": "A", "first": 1, "last": 14}, {"name": "B", "first": 15, "last": 28}]
    assert v["vehicles"][0] == {"id": "red-6", "owner": "ann", "kind": "car", "size": 6, "at": "a4", "facing": "F",
                                "status": "running", "damage": [], "moved": False, "momentum": 0}
    assert v["choppers"] == [{"owner": "ann", "at": None}, {"owner": "bob", "at": None}]
    assert v["tokens"] == [] and v["road_die"] is None and not v["finished"]
    import json

    json.dumps(v)


def test_render_shows_cars_wrecks_and_the_pending_decision():
    state, _ = game(script={"yellow": [1, 2, 3]})
    text = RS.render(state)
    assert "R6" in text and "B4" in text and "XX" in text and "assign 1 to red-6" in text
    assert "\x1b[" not in text and "\x1b[31m" in RS.render(state, color=True)


def test_the_shared_turn_options_drive_one_car():
    state, _ = game(round=2, wrecks=[], cars=cars("red-6@c5", "blue-5@c8", "blue-6@g20"),
                    script={"yellow": [2, 1, 1]})
    flags = {"car": "large", "assign": 2, "path": None, "road_die": False, "shoot": "blue-5", "no_shoot": False,
             "repair": None, "airstrike_target": None}
    state, actions = drive(state, flags)
    assert actions == [AssignDie("red-6", 2), Step("F"), Step("F"), Shoot("red-6", "blue-5"), EndTurn()]
