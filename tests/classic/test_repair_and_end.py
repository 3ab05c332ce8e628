"""Repair on double sixes; out of the game; winning."""

import pytest

from trvendetta.core.errors import RuleViolation

from .helpers import (RS, AssignDie, EndTurn, NoRepair, Ram, Repair, at, cars, ev, game, kind, move, options,
                      play)

THREE = [{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}, {"name": "cy", "color": "green"}]


def g(*specs, yellow=(6, 6, 2), red=(), players=None, wrecks=(), **kw):
    extra = {"players": players} if players else {}
    return game(round=2, wrecks=list(wrecks), cars=cars(*specs), script={"yellow": list(yellow), "red": list(red)},
                **extra, **kw)


def test_double_sixes_repair_a_wreck_on_the_board_then_every_running_car_moves():
    # red-4 is dumped (not listed): it cannot be repaired
    state, _ = g("red-6@c5:wrecked", "red-5@a10", "blue-6@g20")
    assert kind(state) == "repair"
    assert options(state) == [Repair("red-6"), NoRepair()]
    state, events = play(state, Repair("red-6"))
    assert events == [ev.CarRepaired("ann", "red-6")]
    assert state.car("red-6").status == "running"
    assert {o.car for o in options(state)} == {"red-6", "red-5"}
    state, _ = move(state, "red-6", 6, "F,F,F,F,F,F")
    state, _ = move(state, "red-5", 2, "F,F")
    assert (at(state, "red-6"), at(state, "red-5")) == ("c11", "a12")


def test_repair_may_be_declined():
    state, _ = g("red-6@c5:wrecked", "red-5@a10", "blue-6@g20")
    state, events = play(state, NoRepair())
    assert events == [ev.RepairDeclined("ann")] and kind(state) == "assign"
    assert state.car("red-6").status == "wrecked"


def test_no_repair_without_double_sixes_or_without_a_wreck():
    state, _ = g("red-6@c5:wrecked", "red-5@a10", "blue-6@g20", yellow=(6, 5, 2))
    assert kind(state) == "assign"
    state, _ = g("red-6@c5", "blue-6@g20", yellow=(6, 6, 6))
    assert kind(state) == "assign"


def test_a_player_with_only_wrecks_still_rolls_and_repairs_on_double_sixes():
    state, _ = g("red-6@c5:wrecked", "blue-6@c10", "green-6@f20", players=THREE, yellow=(6, 2, 6))
    assert kind(state) == "repair" and state.active == "ann"
    state, _ = play(state, Repair("red-6"))
    assert options(state) == [AssignDie("red-6", 2), AssignDie("red-6", 6)]


def test_wrecking_the_last_opposing_running_car_wins():
    state, _ = g("red-6@c5", "blue-5@c7", "blue-6@g20:wrecked", yellow=(2, 1, 1), red=(6, 1))
    state, _ = move(state, "red-6", 2, "F,F")
    state, events = play(state, Ram("red-6", "blue-5"))
    assert events[-2:] == [ev.CarWrecked("blue-5", "c7", "rammed by red-6"),
                           ev.GameOver("ann", "ann owns the only running cars")]
    assert RS.is_over(state) and RS.winner(state) == "ann" and RS.pending(state) is None
    assert RS.legal_actions(state) == []
    with pytest.raises(RuleViolation):
        RS.apply(state, EndTurn())


def test_crashing_your_last_running_car_hands_the_game_to_the_only_other_runner():
    state, _ = g("red-6@c5", "blue-6@g20", wrecks=["c6"], yellow=(1, 1, 1), red=(2,))
    state, events = move(state, "red-6", 1, "F")
    assert events[-1] == ev.GameOver("bob", "bob owns the only running cars")


def test_dumping_the_last_opposing_cars_puts_the_player_out_and_wins():
    state, _ = g("red-6@d28", "blue-6@a3", "blue-5@b12:wrecked", yellow=(1, 1, 1))
    state, events = move(state, "red-6", 1, "F")
    assert events[-2:] == [ev.PlayerOut("bob", "every car dumped"), ev.GameOver("ann", "ann owns the only running cars")]


def test_a_game_with_no_running_car_goes_on_until_someone_repairs():
    state, events = g("red-6@c5:wrecked", "blue-6@c10:wrecked", "green-6@f20:wrecked", players=THREE,
                      yellow=(1, 2, 3, 1, 2, 3, 6, 6, 1))
    turns = [e for e in events if isinstance(e, (ev.TurnStarted, ev.TurnEnded))]
    assert turns == [ev.TurnStarted("ann", 2), ev.TurnEnded("ann"), ev.TurnStarted("bob", 2), ev.TurnEnded("bob"),
                     ev.TurnStarted("cy", 2)]
    assert kind(state) == "repair" and state.active == "cy"
    state, events = play(state, Repair("green-6"))
    assert ev.GameOver("cy", "cy owns the only running cars") in events
