"""Momentum: only when no unmoved operational car is left; at most twice per
car a round; exactly 1 space; no road die; (house rule) no nitro."""

import re

import pytest

from trvendetta.core.errors import RuleViolation
from trvendetta.vendetta.actions import Pass

from .helpers import RS, AssignDie, NoCommand, Step, UseCommand, at, ev, game, kinds, play

LONE = [{"id": "red-small", "at": "eliminated"}, {"id": "red-large", "at": "eliminated"}]


def test_momentum_not_offered_while_an_unmoved_car_is_left():
    state, _ = game(vehicles=[{"id": "red-small", "at": "c3", "moved": True}, {"id": "red-medium", "at": "a3"}])
    options = RS.legal_actions(state)
    assert {o.car for o in options} == {"red-medium", "red-large"}
    assert not any(o.momentum for o in options)
    with pytest.raises(RuleViolation, match="momentum for red-small is not allowed now"):
        RS.apply(state, AssignDie("red-small", 4, True))


def test_momentum_moves_exactly_one_space_whatever_the_die():
    state, _ = game(vehicles=LONE + [{"id": "red-medium", "at": "c3", "moved": True}])
    options = RS.legal_actions(state)
    assert options[-1] == Pass() and all(o.momentum for o in options[:-1])  # momentum is optional
    state, evs = play(state, AssignDie("red-medium", 6, True))
    assert not any(isinstance(o, UseCommand) and o.command == "nitro" for o in RS.legal_actions(state))
    state, evs = play(state, NoCommand())
    assert kinds(evs, ev.MoveStarted) == [ev.MoveStarted("red-medium", 1, False)]
    state, evs = play(state, Step("F"))
    assert at(state, "red-medium") == "c4"
    assert RS.pending(state).player == "bob"  # no road die offer, turn over
    assert state.vehicles[1].momentum == 1 and 6 not in state.players[0].dice


def test_momentum_at_most_twice_per_car_then_pass():
    state, _ = game(vehicles=LONE + [{"id": "red-medium", "at": "c3", "moved": True, "momentum": 2}])
    assert RS.legal_actions(state) == [Pass()]
    state, evs = play(state, Pass())
    assert kinds(evs, ev.Passed) == [ev.Passed("ann", 1)]  # the lowest die is spent
    assert state.turn.player == "bob"


def test_assign_errors_name_the_problem():
    state, _ = game(vehicles=[{"id": "red-small", "at": "c3", "moved": True}])
    for action, text in ((AssignDie("red-huge", 4), "'red-huge' is not one of ann's cars"),
                         (AssignDie("red-medium", 5), "die 5 is not in ann's pool (4 2 6 1)"),
                         (AssignDie("red-small", 4), "red-small has already moved this round"),
                         (AssignDie("blue-small", 4), "'blue-small' is not one of ann's cars")):
        with pytest.raises(RuleViolation, match=re.escape(text)) as err:
            RS.apply(state, action)
        assert "legal: assign" in str(err.value)
