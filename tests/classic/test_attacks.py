"""Attacks: ramming, shooting and choppers; each car attacks at most once a turn."""

from .helpers import (AssignDie, ChopperAttack, EndTurn, Ram, Shoot, at, cars, ev, game, kind, move, options,
                      play)


def pass_turn(state):
    """Play the active player's turn with the first option of each decision and no attack."""
    player = state.active
    while state.active == player:
        opts = options(state)
        state, _ = play(state, EndTurn() if EndTurn() in opts else opts[0])
    return state


def g(*specs, yellow=(2, 1, 1, 1, 1, 1), red=(), players=None, **kw):
    extra = {"players": players} if players else {}
    return game(round=2, wrecks=[], cars=cars(*specs), script={"yellow": list(yellow), "red": list(red)},
                **extra, **kw)


def test_landing_on_an_opponents_car_by_exact_count_is_a_ramming_position():
    state, _ = g("red-6@c5", "blue-5@c7", "blue-6@g20", red=(4, 3))
    state, _ = move(state, "red-6", 2, "F,F")
    assert kind(state) == "attack"
    assert options(state) == [Ram("red-6", "blue-5"), ChopperAttack("blue-6"), ChopperAttack("blue-5"), EndTurn()]
    state, events = play(state, Ram("red-6", "blue-5"))
    assert events == [ev.RamRolled("red-6", "blue-5", (4, 3), 10, 8, True, 2),
                      ev.CarWrecked("blue-5", "c7", "rammed by red-6")]
    assert state.car("blue-5").status == "wrecked" and at(state, "blue-5") == at(state, "red-6") == "c7"


def test_a_tie_goes_to_the_defender_and_both_cars_keep_running():
    state, _ = g("red-6@c5", "blue-5@c7", "blue-6@g20", red=(3, 4))
    state, _ = move(state, "red-6", 2, "F,F")
    state, events = play(state, Ram("red-6", "blue-5"))
    assert events == [ev.RamRolled("red-6", "blue-5", (3, 4), 9, 9, False, 2)]
    assert state.car("blue-5").status == "running" and state.car("red-6").status == "running"


def test_landing_one_space_behind_an_opponent_is_a_shooting_position():
    state, _ = g("red-6@c5", "blue-5@c8", "blue-6@g20", red=(5,))
    state, _ = move(state, "red-6", 2, "F,F")
    assert Shoot("red-6", "blue-5") in options(state)
    state, events = play(state, Shoot("red-6", "blue-5"))
    assert events == [ev.ShotFired("red-6", "blue-5", 5, True, 1), ev.CarWrecked("blue-5", "c8", "shot by red-6")]


def test_a_shot_below_the_rank_misses():
    state, _ = g("red-6@c5", "blue-5@c8", "blue-6@g20", red=(4,))
    state, _ = move(state, "red-6", 2, "F,F")
    state, events = play(state, Shoot("red-6", "blue-5"))
    assert events == [ev.ShotFired("red-6", "blue-5", 4, False, 1)]


def test_two_running_cars_ahead_the_shooter_names_its_target():
    state, _ = g("red-6@c5", "blue-5@c8", "blue-4@c8", "blue-6@g20")
    state, _ = move(state, "red-6", 2, "F,F")
    assert [o for o in options(state) if isinstance(o, Shoot)] == [Shoot("red-6", "blue-5"), Shoot("red-6", "blue-4")]


def test_a_car_that_did_not_land_this_turn_is_in_no_attack_position():
    # red-5 already sits behind blue-5 but is blocked this turn (b7, c8 and d7 are full)
    state, _ = g("red-6@a5", "red-5@c7", "blue-5@c8", "blue-4@c8", "blue-6@b7", "green-6@b7", "green-5@d7",
                 "green-4@d7", yellow=(2, 1, 1), players=[{"name": "ann", "color": "red"},
                                                        {"name": "bob", "color": "blue"},
                                                        {"name": "cy", "color": "green"}])
    state, _ = move(state, "red-6", 2, "F,F")
    state, events = play(state, AssignDie("red-5", 1))
    assert events[-1] == ev.CarBlocked("red-5", "cannot move the full count of 1")
    assert [o for o in options(state) if isinstance(o, (Ram, Shoot))] == []


def test_each_car_attacks_at_most_once_a_turn():
    state, _ = g("red-6@c5", "blue-5@c7", "blue-4@c8", "blue-6@g20", red=(1, 6))
    state, _ = move(state, "red-6", 2, "F,F")
    assert Ram("red-6", "blue-5") in options(state) and Shoot("red-6", "blue-4") in options(state)
    state, _ = play(state, Ram("red-6", "blue-5"))
    assert [o for o in options(state) if isinstance(o, (Ram, Shoot))] == []
    assert state.car("red-6").attacked


def test_the_chopper_attacks_any_running_opponent_and_stays_where_it_attacked():
    state, _ = g("red-6@c5", "blue-5@c10", "blue-6@g20", red=(5,))
    state, _ = move(state, "red-6", 2, "F,F")
    state, events = play(state, ChopperAttack("blue-5"))
    assert events[:2] == [ev.ChopperAttacked("ann", "blue-5", "c10", 0, 5, True, 1),
                      ev.CarWrecked("blue-5", "c10", "attacked by ann's chopper")]
    ch = state.chopper("ann")
    assert (ch.at, ch.next_board) == ((2, 18), 1)
    # once a turn: no second chopper attack, although blue-6 is on the lead board, so the turn ends
    assert events[2] == ev.TurnEnded("ann") and state.active == "bob"


def test_skipping_the_rear_board_the_chopper_cannot_go_back_to_it():
    state, _ = g("red-6@c5", "blue-5@c10", "blue-6@g20", yellow=(2, 1, 1, 1, 1, 1, 1, 1, 1), red=(1,))
    state, _ = move(state, "red-6", 2, "F,F")
    state, _ = play(state, ChopperAttack("blue-6"))  # the lead board: misses
    assert state.chopper("ann").next_board == 2
    state = pass_turn(state)
    # ann's next turn: neither board can be attacked again by the chopper
    state, _ = move(state, "red-6", 1, "F")
    assert not [o for o in options(state) or [] if isinstance(o, ChopperAttack)]


def test_chopper_on_the_rear_board_then_on_the_lead_board():
    state, _ = g("red-6@c5", "blue-5@c10", "blue-6@g20", yellow=(2, 1, 1, 1, 1, 1, 1, 1, 1), red=(1,))
    state, _ = move(state, "red-6", 2, "F,F")
    state, _ = play(state, ChopperAttack("blue-5"))  # the rear board: misses
    assert state.chopper("ann").next_board == 1
    state = pass_turn(state)
    state, _ = move(state, "red-6", 1, "F")
    assert [o for o in options(state) if isinstance(o, ChopperAttack)] == [ChopperAttack("blue-6")]


def test_a_chopper_cannot_attack_when_all_its_owners_cars_are_wrecks():
    three = [{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}, {"name": "cy", "color": "green"}]
    state, events = g("red-6@c5:wrecked", "blue-6@c10", "green-6@f20", players=three)
    assert events[3:7] == [ev.TurnStarted("ann", 2), ev.DiceRolled("ann", (2, 1, 1), 3), ev.TurnEnded("ann"),
                           ev.TurnStarted("bob", 2)]
    assert state.active == "bob"


def test_no_attacks_in_the_first_round():
    state, _ = game(round=1, wrecks=[], cars=cars("red-6@c5", "blue-5@c7", "blue-6@g20"),
                    script={"yellow": [2, 1, 1]})
    state, events = move(state, "red-6", 2, "F,F")
    assert ev.TurnEnded("ann") in events and state.active == "bob"
