"""Slams: the mover on top; slam die + direction die; one reroll of both for
the larger vehicle's owner; pushes chain; the mover loses its remaining moves."""

import pytest

from trvendetta.core.errors import RuleViolation
from trvendetta.vendetta.actions import SlamReroll

from .helpers import RS, AssignDie, NoCommand, Step, at, ev, game, kinds, play


def slam_game(script, vehicles=None):
    vehicles = vehicles or [{"id": "red-large", "at": "c3"}, {"id": "blue-small", "at": "c4"}]
    state, _ = game(vehicles=vehicles, script=script)
    return play(state, AssignDie("red-large", 4), NoCommand(), Step("F"))


def test_the_larger_vehicles_owner_may_reroll_both_dice_once():
    state, evs = slam_game({"slam": ["TOP", "BOTTOM"], "direction": ["B", "FR"]})
    assert kinds(evs, ev.SlamStarted) == [ev.SlamStarted("red-large", "blue-small", "c4")]
    assert kinds(evs, ev.SlamRolled) == [ev.SlamRolled("TOP", "B", "ann", True, True)]
    d = RS.pending(state)
    assert (d.player, d.kind) == ("ann", "slam-reroll")
    state, evs = play(state, SlamReroll(True))
    assert kinds(evs, ev.SlamRolled) == [ev.SlamRolled("BOTTOM", "FR", None, True, True)]  # no second reroll
    assert at(state, "blue-small") == "d4" and at(state, "red-large") == "c4"
    assert RS.pending(state).kind == "shoot"  # the mover lost its 3 remaining moves; blue-small is in its arc


def test_accepting_applies_the_first_roll():
    state, _ = slam_game({"slam": ["TOP"], "direction": ["B"]})
    state, evs = play(state, SlamReroll(False))
    assert kinds(evs, ev.SlamResolved) == [ev.SlamResolved("red-large")]
    assert at(state, "red-large") == "c3" and at(state, "blue-small") == "c4"


def test_only_the_chooser_answers():
    state, _ = game(vehicles=[{"id": "red-small", "at": "c3"}, {"id": "blue-large", "at": "c4"}],
                    script={"slam": ["TOP"], "direction": ["B"]})
    state, _ = play(state, AssignDie("red-small", 4), NoCommand(), Step("F"))
    assert RS.pending(state).player == "bob"  # bob owns the larger vehicle


def test_equal_sizes_no_reroll():
    state, evs = game(vehicles=[{"id": "red-small", "at": "c3"}, {"id": "blue-small", "at": "c4"}],
                      script={"slam": ["BOTTOM"], "direction": ["F"]})
    state, evs = play(state, AssignDie("red-small", 4), NoCommand(), Step("F"))
    assert kinds(evs, ev.SlamRolled)[0].chooser is None
    assert at(state, "blue-small") == "c5" and at(state, "red-small") == "c4"


def test_pushes_chain_into_further_slams():
    state, evs = game(vehicles=[{"id": "red-small", "at": "c3"}, {"id": "blue-small", "at": "c4"},
                                {"id": "blue-medium", "at": "c5"}],
                      script={"slam": ["BOTTOM", "BOTTOM"], "direction": ["F", "FR"]})
    state, evs = play(state, AssignDie("red-small", 4), NoCommand(), Step("F"))
    # blue-small pushed F into blue-medium: a second slam, blue-small on top; bob owns the larger
    assert [(e.top, e.bottom) for e in kinds(evs, ev.SlamStarted)] == [("red-small", "blue-small"), ("blue-small", "blue-medium")]
    assert RS.pending(state).player == "bob"
    state, evs = play(state, SlamReroll(False))
    assert at(state, "blue-medium") == "d5" and at(state, "blue-small") == "c5" and at(state, "red-small") == "c4"
    assert (RS.pending(state).player, RS.pending(state).kind) == ("ann", "shoot")


def test_reroll_is_refused_from_the_wrong_player_decision():
    state, _ = slam_game({"slam": ["TOP"], "direction": ["B"]})
    with pytest.raises(RuleViolation, match="legal: reroll, accept"):
        RS.apply(state, Step("F"))


def test_pushed_into_impassable_is_eliminated():
    state, _ = game(vehicles=[{"id": "red-large", "at": "c3"}, {"id": "blue-small", "at": "c4"}],
                    terrain=[{"at": "c5", "kind": "impassable"}], script={"slam": ["BOTTOM"], "direction": ["F"]})
    state, evs = play(state, AssignDie("red-large", 4), NoCommand(), Step("F"), SlamReroll(False))
    assert at(state, "blue-small") is None
    assert kinds(evs, ev.VehicleEliminated)[0].vehicle == "blue-small"


def test_a_pending_slam_resolves_before_the_game_can_end():
    # bob's last operational car is pushed off the road only once ann answers the reroll
    state, _ = game(vehicles=[{"id": "red-large", "at": "a3"}, {"id": "blue-small", "at": "a4"},
                              {"id": "blue-medium", "at": "eliminated"}, {"id": "blue-large", "at": "eliminated"}],
                    script={"slam": ["BOTTOM"], "direction": ["FL"]})
    state, evs = play(state, AssignDie("red-large", 4), NoCommand(), Step("F"))
    assert not RS.is_over(state) and RS.pending(state).kind == "slam-reroll"
    state, evs = play(state, SlamReroll(False))
    assert kinds(evs, ev.VehicleEliminated)[0].vehicle == "blue-small"
    assert RS.winner(state) == "ann" and state.slam is None
