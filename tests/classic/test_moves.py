"""Moving: F, FL, FR one step at a time; never through a running car; at most two per
space; the full count or not at all; crashing through wrecks."""

from .helpers import (AssignDie, EndTurn, Stay, Step, at, cars, ev, game, kind, move, options, play)


def g(*specs, yellow=(3, 1, 1, 2, 2, 2), red=(), wrecks=(), **kw):
    return game(round=2, wrecks=list(wrecks), cars=cars(*specs),
                script={"yellow": list(yellow), "red": list(red)}, **kw)


def test_a_move_is_one_event_per_step_and_ends_with_the_landing():
    state, events = g("red-6@c5", "blue-6@g20")
    assert events[-2:] == [ev.TurnStarted("ann", 2), ev.DiceRolled("ann", (3, 1, 1), 3)]
    assert options(state) == [AssignDie("red-6", 1), AssignDie("red-6", 3)]
    state, events = play(state, AssignDie("red-6", 3))
    assert events == [ev.DieAssigned("ann", "red-6", 3, False, 3)]
    assert options(state) == [Step("FL"), Step("F"), Step("FR")]
    state, events = play(state, Step("F"), Step("F"), Step("FR"))
    assert events == [
        ev.CarMoved("red-6", "c5", "c6", "F"),
        ev.CarMoved("red-6", "c6", "c7", "F"),
        ev.CarMoved("red-6", "c7", "d7", "FR"),
        ev.MoveFinished("red-6", "d7", True),
    ]
    assert at(state, "red-6") == "d7" and state.turn.dice == (1, 1)
    state, events = play(state, EndTurn())
    assert events == [ev.TurnEnded("ann"), ev.TurnStarted("bob", 2), ev.DiceRolled("bob", (2, 2, 2), 3)]


def test_a_car_never_passes_through_a_running_car_but_may_land_on_one():
    state, _ = g("red-6@c5", "blue-6@c6", "blue-5@g20")
    assert play(state, AssignDie("red-6", 3))[0] and options(play(state, AssignDie("red-6", 3))[0]) == [
        Step("FL"), Step("FR")]
    assert options(play(state, AssignDie("red-6", 1))[0]) == [Step("FL"), Step("F"), Step("FR")]
    # your own running car blocks as well
    state, _ = g("red-6@c5", "red-5@c6", "blue-5@g20")
    assert options(play(state, AssignDie("red-6", 3))[0]) == [Step("FL"), Step("FR")]


def test_at_most_two_cars_or_wrecks_share_a_space():
    state, _ = g("red-6@c5", "blue-6@c6", "blue-5@c6", "blue-4@g20")
    assert options(play(state, AssignDie("red-6", 1))[0]) == [Step("FL"), Step("FR")]
    state, _ = g("red-6@c5", "blue-6@c6:wrecked", "blue-5@g20", wrecks=["c6"])
    assert options(play(state, AssignDie("red-6", 1))[0]) == [Step("FL"), Step("FR")]


def test_a_car_that_cannot_move_the_full_count_is_blocked():
    state, _ = g("red-6@a5", "blue-6@a6", "blue-5@b5", "blue-4@g20", yellow=(2, 1, 1))
    state, events = play(state, AssignDie("red-6", 2))
    assert events == [ev.DieAssigned("ann", "red-6", 2, False, 2),
                      ev.CarBlocked("red-6", "cannot move the full count of 2")]
    assert at(state, "red-6") == "a5" and state.car("red-6").moved and not state.car("red-6").landed
    assert kind(state) == "attack"  # no move left; only the chopper can attack


def test_only_steps_from_which_the_full_count_can_be_completed_are_offered():
    # a6 is a dead end: a7 and b6 are full; b6 holds running cars, so F is out too
    state, _ = g("red-6@b5", "blue-5@a7:wrecked", "blue-6@b6", "blue-4@b6", wrecks=["a7"], yellow=(2, 1, 1))
    state, _ = play(state, AssignDie("red-6", 2))
    assert options(state) == [Step("FR")]


def test_choppers_never_block_cars():
    state, _ = g("red-6@c5", "blue-6@g20", choppers=[{"owner": "bob", "at": "c6"}])
    assert options(play(state, AssignDie("red-6", 3))[0]) == [Step("FL"), Step("F"), Step("FR")]


def test_blocked_by_a_wreck_the_car_may_stay_instead_of_crashing():
    state, _ = g("red-6@a5", "blue-6@b5", "blue-5@g20", wrecks=["a6"], yellow=(2, 1, 1))
    state, _ = play(state, AssignDie("red-6", 2))
    assert options(state) == [Step("F"), Stay()]
    state, events = play(state, Stay())
    assert events == [ev.CarBlocked("red-6", "stays rather than crash through a wreck")]
    assert at(state, "red-6") == "a5"


def test_no_stay_when_a_clean_path_exists():
    state, _ = g("red-6@c5", "blue-6@g20", wrecks=["c6"])
    state, _ = play(state, AssignDie("red-6", 3))
    assert options(state) == [Step("FL"), Step("F"), Step("FR")]


def test_crashing_through_a_wreck_with_4_to_6_passes_and_finishes_the_count():
    state, _ = g("red-6@a5", "red-5@g10", "blue-6@b5", "blue-5@g20", wrecks=["a6"], yellow=(2, 1, 1), red=(4,))
    state, events = move(state, "red-6", 2, "F,F")
    assert events == [
        ev.DieAssigned("ann", "red-6", 2, False, 2),
        ev.CarMoved("red-6", "a5", "a6", "F"),
        ev.CrashRolled("red-6", "a6", 4, True, 1),
        ev.CarMoved("red-6", "a6", "a7", "F"),
        ev.MoveFinished("red-6", "a7", True),
    ]
    assert state.script["red"] == ()


def test_crashing_with_1_to_3_wrecks_the_car_on_the_wreck():
    state, _ = g("red-6@a5", "red-5@g10", "blue-6@b5", "blue-5@g20", wrecks=["a6"], yellow=(2, 1, 1), red=(3,))
    state, events = move(state, "red-6", 2, "F")
    assert events[-3:] == [
        ev.CrashRolled("red-6", "a6", 3, False, 1),
        ev.CarWrecked("red-6", "a6", "failed to crash through a wreck"),
        ev.MoveFinished("red-6", "a6", False),
    ]
    assert state.car("red-6").status == "wrecked" and at(state, "red-6") == "a6"
    assert kind(state) == "assign" and {o.car for o in options(state)} == {"red-5"}


def test_landing_on_a_wreck_by_exact_count_needs_the_crash_roll_too():
    state, _ = g("red-6@c5", "blue-6@g20", wrecks=["c6"], yellow=(1, 1, 1), red=(6,))
    state, events = move(state, "red-6", 1, "F")
    assert events[-2:] == [ev.CrashRolled("red-6", "c6", 6, True, 1), ev.MoveFinished("red-6", "c6", True)]


def test_a_wrecked_car_is_a_wreck_to_crash_through():
    state, _ = g("red-6@c5", "blue-6@g20", "blue-5@c6:wrecked", yellow=(2, 1, 1), red=(5,))
    state, events = move(state, "red-6", 2, "F,F")
    assert ev.CrashRolled("red-6", "c6", 5, True, 1) in events and at(state, "red-6") == "c7"


def test_unused_dice_are_left_when_fewer_cars_run():
    state, _ = g("red-6@c5", "blue-6@g20", yellow=(3, 1, 1))
    state, _ = move(state, "red-6", 1, "F")
    assert kind(state) == "attack" and state.turn.dice == (3, 1)
