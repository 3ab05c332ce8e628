"""The Big Rig (seed 001, The Big Rig): every rule from a position with scripted dice."""

import pytest

from trvendetta.core.errors import PositionError, RuleViolation
from trvendetta.vendetta.actions import (AssignSection, CowCatcher, DispenseHazard, PlaceChopper, PlaceDamage,
                                         RerollShot, SetSteering, Shoot, ShootCommand)
from trvendetta.vendetta.crews.bigrig.state import rig

from .helpers import RS, AssignDie, NoCommand, NoShoot, RoadBonus, Step, at, b, car, ev, game, kinds, play

RIG = {"name": "ann", "color": "red", "crew": "bigrig", "dice": [3, 2, 1, 3]}
CARS = {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}
TRAIN = [{"id": "red-rear", "at": "c1"}, {"id": "red-mid", "at": "c2"}, {"id": "red-front", "at": "c3"}]


def rig_game(vehicles=(), ann=None, bob=None, train=None, **changes):
    players = [dict(RIG, **(ann or {})), dict(CARS, **(bob or {}))]
    return game(players=players, vehicles=list(train if train is not None else TRAIN) + list(vehicles), **changes)


def options(state):
    return [RS.describe_action(o) for o in RS.pending(state).options]


def where(state):
    return tuple(at(state, f"red-{s}") for s in ("rear", "mid", "front"))


def steps(state, *path):
    out = []
    for d in path:
        state, evs = play(state, Step(d))
        out += evs
    return state, out


# ------------------------------------------------------------------ set-up
def test_the_big_rig_is_three_large_sections_in_one_lane_with_four_dice_of_one_to_three():
    state, events = game(players=[dict(RIG, dice=None), dict(CARS)])
    rig = [v for v in state.vehicles if v.owner == "ann"]
    assert [(v.id, v.kind, v.size) for v in rig] == [
        ("red-rear", "bigrig-rear", "L"), ("red-mid", "bigrig-mid", "L"), ("red-front", "bigrig-front", "L")]
    assert len({v.at for v in rig}) == 1 and all(v.start for v in rig)
    dice = [e for e in kinds(events, ev.DiceRolled) if e.player == "ann"][0].dice
    assert len(dice) == 4 and set(dice) <= {1, 2, 3}


def test_a_position_places_the_rig_as_a_train():
    with pytest.raises(PositionError, match="next to the section in front"):
        rig_game(train=[{"id": "red-rear", "at": "a1"}, {"id": "red-mid", "at": "c2"}, {"id": "red-front", "at": "c3"}])
    with pytest.raises(PositionError, match="all three sections"):
        rig_game(train=[{"id": "red-front", "at": "c3"}])
    with pytest.raises(PositionError, match="damaged commands"):
        rig_game(train=[dict(TRAIN[0]), dict(TRAIN[1]), dict(TRAIN[2], damage=["repair"])])
    with pytest.raises(PositionError, match="the Big Rig faces F"):
        rig_game(train=[dict(TRAIN[0]), dict(TRAIN[1]), dict(TRAIN[2], facing="FL")])
    with pytest.raises(PositionError, match="only the front section's momentum"):
        rig_game(train=[dict(TRAIN[0], momentum=1), dict(TRAIN[1]), dict(TRAIN[2])])
    with pytest.raises(PositionError, match="two players chose the bigrig crew"):
        game(players=[dict(RIG), dict(RIG, name="bob", color="blue")])


def test_a_rigs_damaged_commands_are_not_the_damage_piles_tokens():
    """A position's section damage names commands: it is not counted against the damage pile
    (whose tokens a car may still hold as many of as the pile has)."""
    state, _ = rig_game(train=[dict(TRAIN[0]), dict(TRAIN[1]), dict(TRAIN[2], damage=["cow-catcher"])])
    assert rig_sections_damage(state) == {"red-front": ("cow-catcher",)}
    assert state.damage_pile == RS.components.damage


def rig_sections_damage(state) -> dict:
    return {v.id: v.damage for v in state.vehicles if v.owner == "ann" and v.damage}


# ------------------------------------------------------------------ assign
def test_the_first_die_of_the_round_goes_on_hydraulic_steering():
    state, _ = rig_game()
    assert RS.pending(state).kind == "steering"
    state, _ = play(state, SetSteering(2))
    assert rig(b.player(state, "ann")).steering == 2 and b.player(state, "ann").dice == (3, 1, 3)
    assert RS.pending(state).kind == "assign"


def test_repair_needs_a_three_and_a_section_takes_one_die_a_round():
    state, _ = rig_game(ann={"dice": [3, 2], "command_used": True, "turns": 1},
                        train=[dict(TRAIN[0], moved=True), dict(TRAIN[1]), dict(TRAIN[2])])
    opts = options(state)
    assert "assign 3 to mid repair" in opts and "assign 2 to mid repair" not in opts
    assert not any(" rear " in o for o in opts)  # the rear section already took its die this round


def test_a_damaged_command_only_moves_the_rig():
    train = [dict(TRAIN[0]), dict(TRAIN[1]), dict(TRAIN[2], damage=["cow-catcher"])]
    state, _ = rig_game([{"id": "blue-small", "at": "c5"}], train=train, script={"direction": ["FR"]})
    state, _ = play(state, SetSteering(1))
    state, events = play(state, AssignSection("front", "cow-catcher", 3))
    assert not kinds(events, ev.SectionAssigned)[0].active
    state, events = steps(state, "F", "F")
    assert kinds(events, ev.SlamStarted) and not kinds(events, ev.CowCatcherMet)


def test_the_rig_moves_like_a_train_straight_ahead_unless_steering():
    state, _ = rig_game()
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 3))
    assert options(state) == ["FL", "F", "FR"]
    state, _ = steps(state, "FR")
    assert where(state) == ("c2", "c3", "d3")
    assert options(state) == ["F"]  # the one lane change is spent
    state, _ = steps(state, "F", "F")
    assert where(state) == ("d3", "d4", "d5")


def test_several_lane_changes_in_one_turn():
    state, _ = rig_game()
    state, _ = play(state, SetSteering(3), AssignSection("rear", "targeting-computer", 3))
    state, _ = steps(state, "FR", "FR", "FL")
    assert rig(b.player(state, "ann")).steering == 0 and at(state, "red-front") == "d4"


def test_the_rulebook_movement_example_one_lane_change_through_an_impassable_space():
    """001 Big Rig Movement Example: to avoid slamming the green car, the steering
    die is flipped down by one for a lane change; the rig moves three spaces, the
    mid and rear sections following the front's path; it goes through an
    impassable space and, Dependable, takes one minor damage and the space
    becomes off-road."""
    state, _ = rig_game([{"id": "blue-medium", "at": "c5"}], terrain=[{"at": "d4", "kind": "impassable"}])
    state, _ = play(state, SetSteering(2), AssignSection("rear", "targeting-computer", 3))
    state, events = steps(state, "F", "FR")  # c4, then the impassable d4 (front right)
    assert rig(b.player(state, "ann")).steering == 1  # flipped down by one
    assert kinds(events, ev.OffRoadPlaced)[0].at == "d4"
    assert b.terrain(state, b.sq("d4")) == "offroad"
    assert car(state, "red-front").status == "operational"  # Dependable: not eliminated
    assert RS.pending(state).kind == "place-damage"  # the rig's player places the token
    state, _ = play(state, PlaceDamage("rear", "hazard-dispenser"))
    assert car(state, "red-rear").damage == ("hazard-dispenser",)
    state, events = steps(state, "F")  # moves remaining: it continues
    assert where(state) == ("c4", "d4", "d5") and not kinds(events, ev.SlamStarted)


def test_no_road_die_without_traction_drive_and_with_it_anywhere():
    state, _ = rig_game(terrain=[{"at": "c4", "kind": "offroad"}])
    state, _ = play(state, SetSteering(1), AssignSection("front", "missile-launcher", 2))
    state, events = steps(state, "F", "F")
    assert not any(o.startswith("road") for o in (options(state) if RS.pending(state) else []))
    assert kinds(events, ev.MoveFinished)
    state, _ = rig_game(terrain=[{"at": "c4", "kind": "offroad"}])
    state, _ = play(state, SetSteering(1), AssignSection("mid", "traction-drive", 2))
    state, _ = steps(state, "F", "F")
    assert RS.pending(state).kind == "road-bonus"  # regardless of the off-road space
    state, _ = play(state, RoadBonus(True))
    state, _ = steps(state, "F", "F")
    assert at(state, "red-front") == "c7"


def test_massive_only_the_front_pays_for_mud():
    state, _ = rig_game(terrain=[{"at": "c4", "kind": "mud"}])
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 3))
    state, _ = steps(state, "F")  # the front enters mud: 2 moves
    assert state.turn.moves_left == 1
    state, _ = steps(state, "F")  # the mid section now enters the mud space: no cost
    assert where(state) == ("c3", "c4", "c5") and state.turn.phase != "move"


def test_sturdy_an_oil_slick_does_not_move_the_rig():
    state, _ = rig_game(tokens=[{"at": "c4", "kind": "oil-slick", "face_up": True}])
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 2))
    state, events = steps(state, "F")
    assert at(state, "red-front") == "c4" and not kinds(events, ev.DieRolled)
    assert b.token_at(state, b.sq("c4")) is None and b.terrain(state, b.sq("c4")) == "offroad"
    assert state.hazard_pile["oil-slick"] == 6  # the token goes back to the pile
    state, _ = play(state, PlaceDamage("mid", "airstrike"))
    state, _ = steps(state, "F")
    assert at(state, "red-front") == "c5"


def test_solid_a_chopper_does_not_eliminate_the_rig():
    state, _ = rig_game(choppers=[{"owner": "bob", "at": "c5"}])
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 2))
    state, events = steps(state, "F", "F")
    assert kinds(events, ev.ChopperReturned)[0].owner == "bob"
    assert all(c.at is None for c in state.choppers) and car(state, "red-front").status == "operational"
    assert RS.pending(state).kind == "place-damage"


def _solid_turn_end(state):
    """The rig ends its turn under bob's chopper; ann places Solid's token: the events in order."""
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 2))
    state, events = steps(state, "F", "F")
    state, more = play(state, PlaceDamage("mid", "airstrike"))
    return state, [type(e).__name__ for e in events + more]


def test_solid_the_rig_places_its_token_before_its_turn_ends():
    state, _ = rig_game(choppers=[{"owner": "bob", "at": "c5"}])
    assert state.rules_version == "2"
    state, names = _solid_turn_end(state)
    assert names.index("DamagePlaced") < names.index("TurnEnded") < names.index("TurnStarted")
    assert state.turn.player == "bob" and RS.pending(state).kind == "assign"


def test_solid_a_game_recorded_under_rules_version_1_keeps_its_order():
    _, events = rig_game(choppers=[{"owner": "bob", "at": "c5"}])
    old_first = ev.GameStarted(events[0].position, "1", events[0].components)
    old_events = RS.restart(old_first)
    assert old_events[0].rules_version == "1" and old_events[1:] == events[1:]
    state, names = _solid_turn_end(RS.fold(old_events))
    assert names.index("TurnEnded") < names.index("DamagePlaced") < names.index("TurnStarted")
    assert state.turn.player == "bob" and RS.pending(state).kind == "assign"


# ---------------------------------------------------------------- slamming
def test_a_car_slamming_the_rig_is_moved_by_the_direction_die_only():
    state, _ = rig_game([{"id": "blue-large", "at": "d1"}], active_player="bob", script={"direction": ["FR"]})
    state, events = play(state, AssignDie("blue-large", 3), NoCommand(), Step("FL"))
    slam = kinds(events, ev.SlamStarted)[0]
    assert (slam.top, slam.bottom) == ("blue-large", "red-mid")
    assert kinds(events, ev.SlamDirectionRolled)[0].moved == "blue-large" and not kinds(events, ev.SlamRolled)
    assert where(state) == ("c1", "c2", "c3") and at(state, "blue-large") == "d2"


def test_the_rig_slamming_a_car_moves_the_car_and_stops():
    state, _ = rig_game([{"id": "blue-small", "at": "c4"}], script={"direction": ["BL"]})
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 3))
    state, events = steps(state, "F")
    assert kinds(events, ev.SlamDirectionRolled)[0].moved == "blue-small"
    assert at(state, "red-front") == "c4" and at(state, "blue-small") == "b3"
    assert kinds(events, ev.MovementEnded)


def test_the_cow_catcher_moves_the_first_vehicle_met_and_the_rig_goes_on():
    state, _ = rig_game([{"id": "blue-small", "at": "c4"}, {"id": "blue-medium", "at": "c6"}],
                        script={"direction": ["B"]})
    state, _ = play(state, SetSteering(1), AssignSection("front", "cow-catcher", 3))
    state, _ = steps(state, "F")
    d = RS.pending(state)
    assert d.kind == "cow-catcher" and d.player == "bob"  # the player who controls it
    state, _ = play(state, CowCatcher("FR"))
    assert at(state, "blue-small") == "d4"
    state, events = steps(state, "F", "F")  # the second vehicle met: a slam as usual
    assert kinds(events, ev.SlamStarted)[0].bottom == "blue-medium"


# ---------------------------------------------------------------- shooting
AHEAD = [{"id": "red-rear", "at": "c3"}, {"id": "red-mid", "at": "c4"}, {"id": "red-front", "at": "c5"}]


def test_a_shot_at_a_section_names_an_undamaged_command_that_is_not_repair():
    train = [dict(AHEAD[0]), dict(AHEAD[1]), dict(AHEAD[2], damage=["cow-catcher"])]
    state, _ = rig_game([{"id": "blue-large", "at": "b1"}], train=train, active_player="bob")
    state, _ = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"), Step("F"), Step("F"), RoadBonus(False))
    assert options(state) == ["shoot red-front missile-launcher", "no-shoot"]


def test_a_hit_places_the_token_on_the_named_command():
    state, _ = rig_game([{"id": "blue-large", "at": "b1"}], train=AHEAD, active_player="bob", script={"shot": ["L"]})
    state, _ = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"), Step("F"), Step("F"), RoadBonus(False))
    assert options(state) == ["shoot red-front missile-launcher", "shoot red-front cow-catcher", "no-shoot"]
    state, events = play(state, ShootCommand("red-front", "cow-catcher"))
    assert car(state, "red-front").damage == ("cow-catcher",)
    assert RS.pending(state).kind != "place-damage"


def test_the_rig_shoots_from_its_rear_arc_and_the_targeting_computer_rerolls():
    state, _ = rig_game([{"id": "blue-medium", "at": "b3"}], train=AHEAD, script={"shot": ["L", "SM"]})
    state, _ = play(state, SetSteering(2), AssignSection("rear", "targeting-computer", 1))
    state, _ = steps(state, "F")
    assert "shoot blue-medium" in options(state)
    state, events = play(state, Shoot("blue-medium"))
    assert RS.pending(state).kind == "shot-reroll"
    state, events = play(state, RerollShot(True))
    shots = kinds(events, ev.ShotFired)
    assert shots[0].hit and shots[0].target == "blue-medium" and kinds(events, ev.DamageDrawn)


def test_the_hazard_dispenser_drops_a_face_down_token_in_the_rear_arc():
    state, _ = rig_game()
    state, _ = play(state, SetSteering(2), AssignSection("rear", "hazard-dispenser", 1))
    state, _ = steps(state, "F")
    assert RS.pending(state).kind == "hazard-dispense" and "hazard c1" in options(state)
    state, _ = play(state, DispenseHazard("c1"))
    token = b.token_at(state, b.sq("c1"))
    assert token is not None and token.kind is None and not token.face_up


def test_the_missile_launcher_hits_vehicles_around_the_space_two_ahead():
    state, _ = rig_game([{"id": "blue-small", "at": "c6"}, {"id": "blue-large", "at": "d6"},
                         {"id": "blue-medium", "at": "c8"}], script={"shot": ["SML"]})
    state, _ = play(state, SetSteering(2), AssignSection("front", "missile-launcher", 1))
    state, events = steps(state, "F")
    assert kinds(events, ev.MissileLaunched)[0].at == "c6"
    hit = sorted(e.vehicle for e in kinds(events, ev.MinorDamageTaken))
    assert hit == ["blue-large", "blue-small"]  # c8 is two away from c6
    assert car(state, "blue-small").damage == ("minor",) and car(state, "blue-small").status == "operational"


def test_repair_removes_a_token_from_its_section_before_moving():
    train = [dict(TRAIN[0]), dict(TRAIN[1]), dict(TRAIN[2], damage=["cow-catcher", "missile-launcher"])]
    state, _ = rig_game(train=train)
    state, events = play(state, SetSteering(1), AssignSection("front", "repair", 3))
    assert kinds(events, ev.SectionRepaired)[0].command == "missile-launcher"
    assert car(state, "red-front").damage == ("cow-catcher",)


def test_airstrike_from_the_mid_section():
    state, _ = rig_game([{"id": "blue-large", "at": "e6"}], round=2, script={"shot": ["L"]})
    state, _ = play(state, SetSteering(1), AssignSection("mid", "airstrike", 2))
    assert RS.pending(state).kind == "airstrike-place"
    state, events = play(state, PlaceChopper("e5"), Shoot("blue-large"))
    assert kinds(events, ev.DamageDrawn)


# ------------------------------------------------------------- elimination
def test_six_minor_damage_tokens_eliminate_the_rig_and_add_the_finish_line():
    train = [dict(AHEAD[0], damage=["hazard-dispenser", "targeting-computer"]),
             dict(AHEAD[1], damage=["traction-drive", "airstrike"]), dict(AHEAD[2], damage=["cow-catcher"])]
    cy = {"name": "cy", "color": "green", "dice": [1, 2, 3, 4]}
    state, _ = game(players=[dict(RIG), dict(CARS), cy], vehicles=train + [{"id": "blue-large", "at": "b1"},
                    {"id": "green-small", "at": "a8"}], active_player="bob", script={"shot": ["L"]})
    state, _ = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"), Step("F"), Step("F"), RoadBonus(False))
    assert state.final_piece is None
    state, events = play(state, ShootCommand("red-front", "missile-launcher"))
    assert kinds(events, ev.PlayerOut)[0].player == "ann"
    assert {e.vehicle for e in kinds(events, ev.VehicleEliminated)} == {"red-rear", "red-mid", "red-front"}
    assert state.final_piece == state.road[-1].index  # the lead piece is now the final piece


def test_dumped_only_with_every_section_on_the_rear_piece():
    cars = [{"id": "blue-large", "at": "c24"}]
    state, _ = rig_game(cars, train=[{"id": "red-rear", "at": "c7"}, {"id": "red-mid", "at": "c8"},
                                     {"id": "red-front", "at": "c9"}], active_player="bob")
    state, events = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"))
    assert kinds(events, ev.TileRemoved)
    assert car(state, "red-front").status == "operational" and at(state, "red-rear") == "c7"  # trailing
    state, _ = rig_game(cars, train=[{"id": "red-rear", "at": "c6"}, {"id": "red-mid", "at": "c7"},
                                     {"id": "red-front", "at": "c8"}], active_player="bob")
    state, events = play(state, AssignDie("blue-large", 3), NoCommand(), Step("F"))
    assert {e.vehicle for e in kinds(events, ev.VehicleEliminated)} >= {"red-rear", "red-mid", "red-front"}


def test_an_illegal_lane_change_is_refused():
    state, _ = rig_game()
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 3), Step("FL"))
    with pytest.raises(RuleViolation):
        play(state, Step("FR"))


def test_a_mine_gives_the_rig_a_minor_damage_and_does_not_stop_it():
    state, _ = rig_game(tokens=[{"at": "c4", "kind": "mine", "face_up": True}])
    state, _ = play(state, SetSteering(1), AssignSection("rear", "targeting-computer", 2))
    state, events = steps(state, "F")
    assert kinds(events, ev.TokenReturned)[0].kind == "mine" and kinds(events, ev.BigRigDamaged)
    assert not kinds(events, ev.MovementEnded) and b.terrain(state, b.sq("c4")) == "road"
    state, _ = play(state, PlaceDamage("front", "cow-catcher"))
    state, _ = steps(state, "F")
    assert at(state, "red-front") == "c5"


def test_an_air_attack_in_round_one_only_moves_the_rig():
    state, _ = rig_game()
    state, events = play(state, SetSteering(1), AssignSection("mid", "airstrike", 2))
    assert not kinds(events, ev.SectionAssigned)[0].active and RS.pending(state).kind == "step"


def test_the_greedy_bot_asks_the_crew_for_the_big_rigs_own_decisions():
    """The Big Rig's heuristics are the crew's (``BigRig.score_option``): Vendetta's own know
    no steering, and with the rig's crew asked the bot takes a 2 on Hydraulic Steering."""
    from trvendetta.vendetta import bot, crew

    state, _ = rig_game()
    decision = RS.pending(state)
    h = bot.Heuristics(state, decision)
    assert not hasattr(h, "_steering") and h.crew is crew.named("bigrig")
    scores = RS.score_options(state, decision)
    assert decision.options[scores.index(max(scores))] == SetSteering(2)
    h.crew = crew.named("cars")  # a crew with no steering of its own: no heuristic, a random choice
    assert h.scores() is None
