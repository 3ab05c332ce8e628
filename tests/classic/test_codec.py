"""Every event, action and the state round-trip through the canonical JSON; every
event is described in one short sentence; every action has a printed name."""

import typing

import msgspec

from trvendetta.classic import actions as act
from trvendetta.classic import events as ev

from .helpers import RS, game, position

POS = position(script={"yellow": [1, 2, 3], "black": [2], "red": [4]})

EVENTS = [
    ev.GameStarted(POS, "1"),
    ev.TurnStarted("ann", 2),
    ev.DiceRolled("ann", (6, 6, 2), 3),
    ev.RoadDieRolled("ann", 2, 1),
    ev.CarRepaired("ann", "red-6"),
    ev.RepairDeclined("ann"),
    ev.DieAssigned("ann", "red-6", 2, True, 4),
    ev.CarBlocked("red-6", "cannot move the full count of 4"),
    ev.CarMoved("red-6", "c5", "d5", "FR"),
    ev.CrashRolled("red-6", "d8", 3, False, 1),
    ev.CarWrecked("red-6", "d8", "failed to crash through a wreck"),
    ev.MoveFinished("red-6", "d8", False),
    ev.CarDumped("blue-4", "b12"),
    ev.ChopperReturned("bob", "b10"),
    ev.BoardRemoved(0, "A", 1, 14),
    ev.BoardLinked(2, "A", 29, 42),
    ev.WrecksPlaced(2, ("d32", "d36", "f35", "f38")),
    ev.RamRolled("red-6", "blue-5", (4, 3), 10, 8, True, 2),
    ev.ShotFired("red-5", "blue-4", 4, True, 0),
    ev.ChopperAttacked("ann", "blue-6", "g20", 1, 2, False, 0),
    ev.TurnEnded("ann"),
    ev.PlayerOut("bob", "every car dumped"),
    ev.GameOver("ann", "ann owns the only running cars"),
]

ACTIONS = [act.Repair("red-6"), act.NoRepair(), act.AssignDie("red-6", 4), act.AssignDie("red-6", 4, True),
           act.Step("FL"), act.Stay(), act.Ram("red-6", "blue-5"), act.Shoot("red-6", "blue-5"),
           act.ChopperAttack("blue-4"), act.EndTurn()]


def test_every_event_type_is_covered_and_tags_are_unique():
    kinds = typing.get_args(ev.Event)
    assert {type(e) for e in EVENTS} == set(kinds)
    tags = [k.__struct_config__.tag for k in kinds]
    assert len(set(tags)) == len(tags)


def test_every_event_round_trips_and_has_one_short_sentence():
    for e in EVENTS:
        data = RS.encode(e)
        assert RS.decode_event(data) == e
        assert RS.encode(RS.decode_event(data)) == data
        text = RS.describe(e)
        assert text and "\n" not in text and len(text) < 160, text
        assert RS.event_kind(e) == type(e).__struct_config__.tag


def test_every_action_round_trips_and_has_a_printed_name():
    assert {type(a) for a in ACTIONS} == set(typing.get_args(act.Action))
    names = set()
    for a in ACTIONS:
        assert RS.decode_action(RS.encode(a)) == a
        names.add(RS.describe_action(a))
    assert len(names) == len(ACTIONS)


def test_unknown_fields_are_refused():
    import pytest

    with pytest.raises(msgspec.ValidationError):
        RS.decode_action(b'{"type": "step", "direction": "F", "extra": 1}')
    with pytest.raises(msgspec.ValidationError):
        RS.decode_event(b'{"type": "turn-ended", "player": "ann", "x": 1}')


def test_the_state_round_trips():
    state, events = game(script={"yellow": [1, 2, 3]})
    assert RS.decode_state(RS.encode(state)) == state
    assert [RS.decode_event(RS.encode(e)) for e in events] == events
