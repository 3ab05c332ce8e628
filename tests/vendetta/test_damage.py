"""Damage tokens: drawn, kept in one of two slots, effect resolved; the second
makes the car inoperable (turned backward; no move, no fire; repairable);
taking damage ends the car's movement."""

from trvendetta.vendetta.actions import Shoot

from .helpers import RS, AssignDie, NoCommand, RoadBonus, Step, at, car, ev, game, kinds, play


def shoot_at(target_at, token, script=None, target="blue-medium", extra=(), target_damage=()):
    vehicles = [{"id": "red-medium", "at": "c3"}, {"id": target, "at": target_at, "damage": list(target_damage)}]
    state, _ = game(vehicles=vehicles + list(extra), script={"shot": ["SML"], "damage": [token], **(script or {})})
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False))
    return play(state, Shoot(target))


def test_dent_no_further_effect():
    state, evs = shoot_at("c5", "dent")
    assert at(state, "blue-medium") == "c5" and car(state, "blue-medium").damage == ("dent",)
    assert state.damage_pile["dent"] == 7


def test_skid_moves_one_space_the_printed_way():
    state, evs = shoot_at("c5", "skid-FR")
    assert [(e.how, e.to) for e in kinds(evs, ev.VehicleMoved)] == [("skid", "d5")]


def test_shrapnel_hits_the_first_vehicle_in_a_straight_line():
    state, evs = shoot_at("c5", "shrapnel", script={"direction": ["F"], "damage": ["shrapnel", "dent"]},
                          extra=[{"id": "blue-small", "at": "c8"}])
    assert [e.car for e in kinds(evs, ev.DamageDrawn)] == ["blue-medium", "blue-small"]


def test_shrapnel_into_nothing_does_nothing():
    state, evs = shoot_at("c5", "shrapnel", script={"direction": ["FL"]})
    assert len(kinds(evs, ev.DamageDrawn)) == 1


def test_dazed_rolls_stunt_and_a_direction_per_space():
    state, evs = shoot_at("c5", "dazed", script={"stunt": [2], "direction": ["F", "FR"]})
    assert [(e.how, e.to) for e in kinds(evs, ev.VehicleMoved)] == [("dazed", "c6"), ("dazed", "d6")]


def test_dazed_stops_when_a_space_ends_its_moves():
    state, evs = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-medium", "at": "c5"}],
                      terrain=[{"at": "c6", "kind": "impassable"}],
                      script={"shot": ["SML"], "damage": ["dazed"], "stunt": [3], "direction": ["F", "F", "F"]})
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False))
    state, evs = play(state, Shoot("blue-medium"))
    assert len(kinds(evs, ev.VehicleMoved)) == 1 and at(state, "blue-medium") is None


def test_blast_off_jumps_ignoring_everything_between():
    state, evs = shoot_at("c5", "blast-off", script={"direction": ["F"], "stunt": [3]},
                          extra=[{"id": "blue-small", "at": "c6"}])
    assert [(e.how, e.to) for e in kinds(evs, ev.VehicleMoved)] == [("blast-off", "c8")]
    assert at(state, "blue-small") == "c6"


def test_second_token_makes_the_car_inoperable_and_turned_backward():
    state, evs = shoot_at("c5", "dent", target_damage=["dent"])
    v = car(state, "blue-medium")
    assert v.status == "inoperable" and v.facing == "B" and len(v.damage) == 2
    assert kinds(evs, ev.CarDisabled) == [ev.CarDisabled("blue-medium")]


def test_effects_of_a_backward_car_turn_with_it():
    state, evs = shoot_at("c5", "skid-FR", target_damage=["dent"])
    # the car is turned backward first: its front-right is our back-left
    assert kinds(evs, ev.VehicleMoved)[0].to == "b4"


def test_a_full_car_takes_no_more_tokens():
    vehicles = [{"id": "red-medium", "at": "c3"}, {"id": "blue-medium", "at": "c5", "damage": ["dent", "dent"]}]
    state, _ = game(vehicles=vehicles, script={"shot": ["SML"]})
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), RoadBonus(False))
    state, evs = play(state, Shoot("blue-medium"))
    assert kinds(evs, ev.DamageIgnored) == [ev.DamageIgnored("blue-medium", "both damage slots are full")]


def test_taking_damage_ends_movement():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}], tokens=[{"at": "c4", "kind": "mine"}],
                    script={"damage": ["dent"]})
    state, evs = play(state, AssignDie("red-medium", 4), NoCommand(), Step("F"))
    assert kinds(evs, ev.MovementEnded) == [ev.MovementEnded("red-medium", "took damage from a mine")]
    assert state.turn.player == "bob" and at(state, "red-medium") == "c4"


def test_inoperable_cars_cannot_take_a_die():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3", "damage": ["dent", "dent"]}])
    assert "red-medium" not in {o.car for o in RS.legal_actions(state)}
