"""The road bonus (black die) and switching boards."""

from trvendetta.classic.model import Board

from .helpers import AssignDie, Step, at, cars, ev, game, move, options, play


def g(*specs, yellow=(2, 1, 1), black=(), red=(), wrecks=(), **kw):
    return game(round=2, wrecks=list(wrecks), cars=cars(*specs),
                script={"yellow": list(yellow), "black": list(black), "red": list(red)}, **kw)


def test_the_black_die_is_rolled_with_the_yellow_when_a_car_is_on_the_road():
    state, events = g("red-6@d5", "red-5@c10", "blue-6@g20", black=(3,))
    assert events[-2:] == [ev.DiceRolled("ann", (2, 1, 1), 3), ev.RoadDieRolled("ann", 3, 1)]
    assert state.turn.road_die == 3
    assert options(state) == [
        AssignDie("red-6", 1), AssignDie("red-6", 1, True), AssignDie("red-6", 2), AssignDie("red-6", 2, True),
        AssignDie("red-5", 1), AssignDie("red-5", 2)]


def test_no_black_die_when_no_car_is_on_the_road():
    state, events = g("red-6@c5", "blue-6@g20")
    assert not any(isinstance(e, ev.RoadDieRolled) for e in events) and state.turn.road_die is None
    assert all(not o.road for o in options(state))


def test_the_road_bonus_adds_the_black_die_and_keeps_the_car_on_the_road():
    state, _ = g("red-6@d5", "blue-6@g20", black=(3,))
    state, events = play(state, AssignDie("red-6", 2, True))
    assert events == [ev.DieAssigned("ann", "red-6", 2, True, 5)]
    assert options(state) == [Step("F"), Step("FR")]  # c6 is desert
    state, events = play(state, Step("F"), Step("FR"), Step("F"), Step("FL"), Step("F"))
    assert [e.to for e in events if isinstance(e, ev.CarMoved)] == ["d6", "e7", "e8", "d8", "d9"]
    assert events[-1] == ev.MoveFinished("red-6", "d9", True)


def test_every_car_using_the_road_bonus_uses_the_same_black_die():
    state, _ = g("red-6@d5", "red-5@e10", "blue-6@g20", yellow=(2, 1, 6), black=(2,))
    state, _ = move(state, "red-6", 2, "F,F,F,F", road=True)
    state, events = play(state, AssignDie("red-5", 1, True))
    assert events == [ev.DieAssigned("ann", "red-5", 1, True, 3)]


def test_no_road_bonus_when_the_full_count_cannot_be_driven_on_the_road():
    # d6 and e6 hold running cars: no road path longer than one space
    state, _ = g("red-6@d5", "blue-6@d6", "blue-5@e6", black=(1,))
    assert [o for o in options(state) if o.road] == []
    assert AssignDie("red-6", 2) in options(state)


def test_a_car_off_the_road_cannot_use_the_bonus():
    state, _ = g("red-6@d5", "red-5@c10", "blue-6@g20", black=(3,))
    assert not [o for o in options(state) if o.car == "red-5" and o.road]


def switch_game(**kw):
    return g("red-6@d27", "red-5@g20", "blue-6@a3", "blue-5@c25", "blue-4@b10:wrecked",
             yellow=(3, 1, 1), black=(1,), wrecks=["c3", "c20"],
             choppers=[{"owner": "bob", "at": "b10", "next_board": 1}], **kw)


def test_reaching_past_the_lead_board_dumps_the_rear_board_and_relinks_it_in_front():
    state, _ = switch_game()
    state, _ = move(state, "red-6", 3, "")
    state, events = play(state, Step("F"))
    assert events == [
        ev.CarMoved("red-6", "d27", "d28", "F"),
    ]
    state, events = play(state, Step("F"))
    assert events == [
        ev.CarDumped("blue-6", "a3"),
        ev.CarDumped("blue-4", "b10"),
        ev.ChopperReturned("bob", "b10"),
        ev.BoardRemoved(0, "A", 1, 14),
        ev.BoardLinked(2, "A", 29, 42),
        ev.WrecksPlaced(2, ("d32", "d36", "f35", "f38")),
        ev.CarMoved("red-6", "d28", "d29", "F"),
    ]
    state, events = play(state, Step("F"))
    assert events == [ev.CarMoved("red-6", "d29", "d30", "F"), ev.MoveFinished("red-6", "d30", True)]
    assert state.boards == (Board(1, "B", 15, 28), Board(2, "A", 29, 42))
    assert [c.status for c in state.cars if c.owner == "bob"] == ["dumped", "running", "dumped"]
    assert at(state, "blue-6") is None
    # the rear board's black wreck went with it; the new lead board has its marks
    assert sorted(state.wrecks) == sorted(geometry_spaces("c20", "d32", "d36", "f35", "f38"))
    # a dumped chopper stays in play
    assert state.chopper("bob").at is None and state.chopper("bob").next_board == 1


def test_the_look_ahead_sees_the_wrecks_of_the_board_a_switch_will_link():
    # from d28, 4 spaces straight ahead end on d32, a marked wreck space of the next board
    state, _ = g("red-6@d28", "red-5@a20", "blue-6@g20", yellow=(4, 1, 1), black=(1,), red=(2,))
    state, events = move(state, "red-6", 4, "F,F,F,F")
    assert events[-3:] == [ev.CrashRolled("red-6", "d32", 2, False, 1),
                           ev.CarWrecked("red-6", "d32", "failed to crash through a wreck"),
                           ev.MoveFinished("red-6", "d32", False)]


def test_a_player_whose_cars_are_all_dumped_is_out_and_loses_turns():
    state, _ = game(round=2, wrecks=[], players=[{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"},
                                                 {"name": "cy", "color": "green"}],
                    cars=cars("red-6@d27", "blue-6@c25", "green-6@f3"), script={"yellow": [2, 1, 1, 5, 5, 5],
                                                                               "black": [1, 1]})
    state, events = move(state, "red-6", 2, "F,F")
    assert events[-2:] == [ev.MoveFinished("red-6", "d29", True), ev.PlayerOut("cy", "every car dumped")]
    assert state.player("cy").out
    state, events = play(state, options(state)[-1])  # end the turn
    assert events[0] == ev.TurnEnded("ann")
    assert [e for e in events if isinstance(e, ev.TurnStarted)] == [ev.TurnStarted("bob", 2)]


def geometry_spaces(*names):
    from trvendetta.core import geometry

    return [geometry.parse(n) for n in names]
