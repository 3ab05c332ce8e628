"""The Final Five (seed 001, Motorcycles): every rule from a position with scripted dice."""

import pytest

from trvendetta.core.errors import PositionError, RuleViolation
from trvendetta.vendetta.actions import PlaceChopper, Shoot, SlamMove, SlamReroll
from trvendetta.vendetta.crews.finalfive.state import second_of

from .helpers import RS, AssignDie, NoCommand, NoShoot, RoadBonus, Step, UseCommand, at, b, car, ev, game, kinds, play

FF = {"name": "ann", "color": "red", "crew": "finalfive", "dice": [4, 2, 6, 1, 3, 5]}
CARS = {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}


def ff_game(vehicles, ann=None, bob=None, **changes):
    players = [dict(FF, **(ann or {})), dict(CARS, **(bob or {}))]
    return game(players=players, vehicles=vehicles, **changes)


def options(state):
    return [RS.describe_action(o) for o in RS.pending(state).options]


def steps(state, *path):
    out = []
    for d in path:
        state, evs = play(state, Step(d))
        out += evs
    return state, out


# ------------------------------------------------------------------ set-up
def test_the_final_five_are_five_small_motorcycles_with_six_dice():
    state, events = ff_game([], ann={"dice": None})
    bikes = [v for v in state.vehicles if v.owner == "ann"]
    assert [v.id for v in bikes] == [f"red-bike{i}" for i in range(1, 6)]
    assert {(v.kind, v.size) for v in bikes} == {("motorcycle", "S")}
    rolled = [e for e in kinds(events, ev.DiceRolled) if e.player == "ann"]
    assert len(rolled[0].dice) == 6


def test_a_game_has_at_most_one_final_five():
    with pytest.raises(PositionError, match="at most one"):
        game(players=[dict(FF), dict(CARS, crew="finalfive")])


def test_a_motorcycle_holds_only_one_minor_damage_token():
    with pytest.raises(PositionError, match="one damage token, 'minor'"):
        ff_game([{"id": "red-bike1", "at": "c3", "damage": ["dent"]}])
    state, _ = ff_game([{"id": "red-bike1", "at": "c3", "damage": ["minor"]}])
    bike = car(state, "red-bike1")
    assert bike.status == "inoperable" and bike.facing == "B"


def test_coasting_is_counted_to_four_in_a_position():
    with pytest.raises(PositionError, match="0 to 4"):
        ff_game([{"id": "red-bike1", "at": "c3", "moved": True, "momentum": 5}])


# ------------------------------------------------------------------ assign
def test_each_turn_two_dice_go_to_two_motorcycles_moved_one_after_the_other():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "red-bike2", "at": "e3"},
                        {"id": "blue-small", "at": "a8"}])
    state, _ = play(state, AssignDie("red-bike1", 2))
    assert RS.pending(state).kind == "command"
    # the first motorcycle cannot take the second die; no "no command" while unmoved bikes remain
    assert "assign 4 to red-bike1" not in options(state) and "no-command" not in options(state)
    state, events = play(state, AssignDie("red-bike2", 1))
    assert kinds(events, ev.SecondMotorcycleAssigned)[0].car == "red-bike2"
    assert state.turn.car == "red-bike1" and RS.pending(state).kind == "step"
    state, events = steps(state, "F", "F")
    state, events = play(state, RoadBonus(False))
    assert kinds(events, ev.SecondMotorcycleUp)[0].car == "red-bike2"
    assert car(state, "red-bike1").moved and at(state, "red-bike1") == "c5"
    state, events = steps(state, "F")
    state, events = play(state, RoadBonus(False))
    assert at(state, "red-bike2") == "e4" and car(state, "red-bike2").moved
    assert kinds(events, ev.TurnEnded) and b.player(state, "ann").dice == (4, 6, 3, 5)


def test_once_per_round_one_motorcycle_and_one_command_instead():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-small", "at": "a8"}])
    state, _ = play(state, AssignDie("red-bike1", 4))
    assert "nitro 2" in options(state)
    state, events = play(state, UseCommand("nitro", 2))
    assert second_of(state.turn).second is None and state.turn.moves_left == 6
    state, _ = steps(state, *"FFFFFF")
    state, _ = play(state, RoadBonus(False))
    state, _ = play(state, AssignDie("blue-small", 3), NoCommand(), Step("F"), Step("F"), Step("F"))
    state, _ = play(state, RoadBonus(False))
    assert state.turn.player == "ann"
    state, _ = play(state, AssignDie("red-bike2", 1))
    assert not any(o.startswith("nitro") or o.startswith("drift") for o in options(state))  # used this round


def test_repair_with_a_six_makes_an_inoperable_motorcycle_operable():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "red-bike2", "at": "e3", "damage": ["minor"]},
                        {"id": "blue-small", "at": "a8"}])
    state, _ = play(state, AssignDie("red-bike1", 1))
    state, events = play(state, UseCommand("repair", 6, "red-bike2"))
    bike = car(state, "red-bike2")
    assert bike.status == "operational" and bike.facing == "F" and bike.damage == ()
    assert "minor" not in state.damage_pile and sum(state.damage_pile.values()) == 20


def test_motorcycles_coast_up_to_four_times_a_round():
    moved = [{"id": f"red-bike{i}", "at": f"{'abcde'[i - 1]}3", "moved": True} for i in range(1, 6)]
    moved[0]["momentum"] = 3
    moved[1]["momentum"] = 4
    state, _ = ff_game(moved + [{"id": "blue-small", "at": "f8"}])
    opts = options(state)
    assert "assign 1 to red-bike1 momentum" in opts  # a fourth coast
    assert not any("red-bike2" in o for o in opts)  # four coasts already
    assert "pass" in opts
    state, _ = play(state, AssignDie("red-bike1", 1, True))
    assert "no-command" in options(state)  # only coasting is left for the second die: a permission
    assert not any("red-bike1" in o for o in options(state))


# ---------------------------------------------------------------- drifting
def test_a_motorcycle_drifts_through_road_vehicles_while_moving():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-small", "at": "c4"},
                        {"id": "blue-medium", "at": "c5"}], active_player="ann")
    state, _ = play(state, AssignDie("red-bike1", 3), UseCommand("nitro", 1))
    state, events = steps(state, "F", "F", "F", "F")
    assert [e.past for e in kinds(events, ev.MotorcycleDrifted)] == ["blue-small", "blue-medium"]
    assert not kinds(events, ev.SlamStarted) and at(state, "red-bike1") == "c7"


def test_a_motorcycle_ending_its_move_on_a_vehicle_slams_with_the_direction_die_only():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-large", "at": "c5"}],
                       script={"direction": ["FR"]})
    state, _ = play(state, AssignDie("red-bike1", 2), UseCommand("drift", 3))
    state, events = steps(state, "F", "F")
    assert kinds(events, ev.MotorcycleDrifted)
    assert RS.pending(state).kind == "road-bonus"  # the road die could still move it on
    state, events = play(state, RoadBonus(False))
    assert kinds(events, ev.SlamStarted)[0].top == "red-bike1"
    rolled = kinds(events, ev.SlamDirectionRolled)[0]
    assert rolled.direction == "FR" and rolled.moved == "red-bike1" and rolled.chooser is None
    assert not kinds(events, ev.SlamRolled)  # no slam die, no reroll for the Large car's owner
    assert at(state, "red-bike1") == "d5" and at(state, "blue-large") == "c5"


def test_the_road_die_moves_a_motorcycle_on_out_of_an_occupied_space():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-large", "at": "c5"}])
    state, _ = play(state, AssignDie("red-bike1", 2), UseCommand("drift", 3))
    state, _ = steps(state, "F", "F")
    state, events = play(state, RoadBonus(True))
    state, events = steps(state, "F", "F")
    assert not kinds(events, ev.SlamStarted) and at(state, "red-bike1") == "c7"


def test_stuck_in_mud_on_a_vehicle_is_the_end_of_the_move_and_slams():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-large", "at": "c4"}],
                       terrain=[{"at": "c4", "kind": "mud"}], script={"direction": ["B"]})
    state, _ = play(state, AssignDie("red-bike1", 1), UseCommand("drift", 3))
    state, events = steps(state, "F")
    assert kinds(events, ev.SlamStarted) and at(state, "red-bike1") == "c3"


def test_a_motorcycle_does_not_drift_through_a_wreck():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}], wrecks=[{"at": "c4"}], script={"direction": ["FL"]})
    state, _ = play(state, AssignDie("red-bike1", 1), UseCommand("drift", 3))
    state, events = steps(state, "F")
    assert not kinds(events, ev.MotorcycleDrifted)
    assert kinds(events, ev.SlamDirectionRolled)[0].moved == "red-bike1"
    assert at(state, "red-bike1") == "b4"


def test_cars_do_not_drift_through_motorcycles_and_the_motorcycle_is_moved():
    state, _ = ff_game([{"id": "red-bike1", "at": "c4"}, {"id": "blue-large", "at": "c3"}],
                       active_player="bob", script={"direction": ["BL"]})
    state, events = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"))
    slam = kinds(events, ev.SlamStarted)[0]
    assert (slam.top, slam.bottom) == ("blue-large", "red-bike1")
    assert kinds(events, ev.SlamDirectionRolled)[0].moved == "red-bike1"
    assert at(state, "red-bike1") == "b3" and at(state, "blue-large") == "c4"
    assert not any(isinstance(o, SlamReroll) for o in RS.pending(state).options)


def test_a_slam_between_two_of_your_motorcycles_lets_you_choose_which_moves():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "red-bike2", "at": "c4"}],
                       script={"direction": ["FR"]})
    state, _ = play(state, AssignDie("red-bike1", 1), UseCommand("drift", 3))
    state, events = steps(state, "F")
    state, _ = play(state, RoadBonus(False))
    d = RS.pending(state)
    assert d.kind == "slam-choose" and d.player == "ann"
    assert set(d.options) == {SlamMove("red-bike1"), SlamMove("red-bike2")}
    state, events = play(state, SlamMove("red-bike2"))
    assert at(state, "red-bike2") == "d4" and at(state, "red-bike1") == "c4"


# ------------------------------------------------------------------ damage
def test_a_hit_motorcycle_takes_minor_damage_and_turns_backward():
    state, _ = ff_game([{"id": "red-bike1", "at": "c5"}, {"id": "blue-small", "at": "c1"}],
                       active_player="bob", script={"shot": ["SM", "SML"]})
    state, _ = play(state, AssignDie("blue-small", 3), NoCommand(), Step("F"), Step("F"), Step("F"))
    state, _ = play(state, RoadBonus(False))
    state, events = play(state, Shoot("red-bike1"))
    assert kinds(events, ev.MinorDamageTaken)[0].vehicle == "red-bike1"
    assert not kinds(events, ev.DamageDrawn)  # motorcycles draw no damage token
    bike = car(state, "red-bike1")
    assert bike.status == "inoperable" and bike.facing == "B" and bike.damage == ("minor",)
    assert state.damage_pile == RS.fold(RS.new_game(RS.position_from_dict(
        {"players": [dict(FF), dict(CARS)], "seed": 1}))[1]).damage_pile


def test_a_motorcycle_already_damaged_takes_no_second_token():
    state, _ = ff_game([{"id": "red-bike1", "at": "c5", "damage": ["minor"]}, {"id": "blue-small", "at": "c1"}],
                       active_player="bob", script={"shot": ["SM"]})
    state, _ = play(state, AssignDie("blue-small", 3), NoCommand(), Step("F"), Step("F"), Step("F"), RoadBonus(False))
    state, events = play(state, Shoot("red-bike1"))
    assert kinds(events, ev.DamageIgnored) and car(state, "red-bike1").damage == ("minor",)


def test_a_final_five_with_every_motorcycle_inoperable_is_out():
    bikes = [{"id": f"red-bike{i}", "at": "eliminated"} for i in range(2, 6)]
    state, _ = ff_game(bikes + [{"id": "red-bike1", "at": "c5"}, {"id": "blue-small", "at": "c1"},
                                {"id": "blue-medium", "at": "e3"}], active_player="bob", script={"shot": ["SM"]})
    state, _ = play(state, AssignDie("blue-small", 3), NoCommand(), Step("F"), Step("F"), Step("F"), RoadBonus(False))
    state, events = play(state, Shoot("red-bike1"))
    assert kinds(events, ev.PlayerOut)[0].player == "ann"
    assert state.winner == "bob"


def test_the_turn_ends_after_both_motorcycles_so_the_chopper_judges_both():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "red-bike2", "at": "e3"},
                        {"id": "blue-small", "at": "a8"}], choppers=[{"owner": "bob", "at": "c4"}])
    state, _ = play(state, AssignDie("red-bike1", 1), AssignDie("red-bike2", 2), Step("F"), RoadBonus(False))
    assert car(state, "red-bike1").status == "operational"  # its turn is not over yet
    state, events = play(state, Step("F"), Step("F"), RoadBonus(False))
    assert [e.vehicle for e in kinds(events, ev.VehicleEliminated)] == ["red-bike1"]


def test_an_action_for_the_second_motorcycle_is_explained_when_illegal():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-small", "at": "a8"}])
    state, _ = play(state, AssignDie("red-bike1", 2))
    with pytest.raises(RuleViolation):
        play(state, AssignDie("red-bike1", 4))
    with pytest.raises(RuleViolation):
        play(state, PlaceChopper("c5"))


def test_a_motorcycles_own_drifting_leaves_a_drift_command_unused():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-large", "at": "c4"}])
    state, _ = play(state, AssignDie("red-bike1", 2), UseCommand("drift", 3))
    state, events = steps(state, "F")
    assert kinds(events, ev.MotorcycleDrifted) and not kinds(events, ev.DriftUsed) and state.turn.drift


def test_a_hazard_on_a_space_a_motorcycle_drifts_through_is_not_triggered():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "blue-large", "at": "c4"}],
                       tokens=[{"at": "c4", "kind": "mine", "face_up": True}])
    state, _ = play(state, AssignDie("red-bike1", 2), UseCommand("drift", 3))
    state, events = steps(state, "F", "F")
    assert not kinds(events, ev.MinorDamageTaken) and at(state, "red-bike1") == "c5"


def test_a_motorcycle_pushed_in_a_slam_does_not_drift():
    state, _ = ff_game([{"id": "red-bike1", "at": "c4"}, {"id": "blue-small", "at": "c5"},
                        {"id": "blue-large", "at": "c3"}], active_player="bob", script={"direction": ["F", "F"]})
    state, events = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"))
    slams = kinds(events, ev.SlamStarted)
    assert [(s.top, s.bottom) for s in slams] == [("blue-large", "red-bike1"), ("red-bike1", "blue-small")]
    assert at(state, "red-bike1") == "c6"


def test_a_second_motorcycle_disabled_before_its_move_does_not_move():
    state, _ = ff_game([{"id": "red-bike1", "at": "c3"}, {"id": "red-bike2", "at": "c5"},
                        {"id": "blue-small", "at": "a8"}], script={"shot": ["SM"]})
    state, _ = play(state, AssignDie("red-bike1", 1), AssignDie("red-bike2", 3), Step("F"), RoadBonus(False))
    state, events = play(state, Shoot("red-bike2"))  # own vehicles may be targeted
    assert car(state, "red-bike2").status == "inoperable"
    assert not [e for e in kinds(events, ev.VehicleMoved) if e.vehicle == "red-bike2"]
    assert kinds(events, ev.TurnEnded) and at(state, "red-bike2") == "c5"
