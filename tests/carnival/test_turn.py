"""Party favors, Witness Me!, super-weapons and decrees in a turn, through the
registered ruleset, from positions with scripted dice and draws (rulebook
"Witness Me!", "Party Favor Reference", "Clarifications: Super-Weapons",
"Tina's Turn Decrees")."""

from trvendetta.carnival import events as cev
from trvendetta.carnival.actions import AutoCannon, FireWeapon, NoFavor, PlayFavor, Thwump, ThwumpRoll, WitnessMe
from trvendetta.vendetta import board as b
from trvendetta.vendetta import events as vev
from trvendetta.vendetta.actions import AssignDie, NoCommand, NoShoot, Shoot, Step, UseCommand

from .helpers import RS, at, facing, game, kinds, move, play


def options(state):
    return RS.pending(state).options


def scrap_events(events):
    return [(e.player, e.amount) for e in kinds(events, cev.ScrapGained)]


# ------------------------------------------------------------- Witness Me!
def test_witness_me_pays_1_for_each_shot_and_slam_and_is_played_once():
    state, _ = game(vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-medium", "at": "k12"},
                              {"id": "blue-small", "at": "k13"}],
                    script={"slam": ["BOTTOM"], "direction": ["FR"], "shot": ["L"]})
    assert WitnessMe() in options(state)
    state, events = play(state, WitnessMe())
    assert kinds(events, cev.WitnessMePlayed) == [cev.WitnessMePlayed("ann")] and WitnessMe() not in options(state)
    state, events = move(state, "red-medium", 1, ["F"], shoot="blue-small")  # slams blue-medium, then shoots
    assert scrap_events(events) == [("ann", 1), ("ann", 1)]  # the shot missed: no damage scrap
    assert state.witness_used == ("ann",)


# ---------------------------------------------------------------- favors
def test_mega_repair_removes_one_damage_from_each_of_your_cars_at_the_start():
    state, _ = game(favors={"ann": ["mega-repair"]},
                    vehicles=[{"id": "red-medium", "at": "k11", "facing": "FL", "damage": ["dent", "dent"]},
                              {"id": "red-small", "at": "m11", "damage": ["dent"]}])
    state, events = play(state, PlayFavor("mega-repair"))
    assert len(kinds(events, vev.CarRepaired)) == 2 and state.favors["ann"] == ()
    medium = b.vehicle(state, "red-medium")
    assert medium.status == "operational" and medium.facing == "FL" and medium.damage == ("dent",)
    assert b.vehicle(state, "red-small").damage == ()


def test_killer_pillar_raises_a_pillar_under_an_opposing_car_for_3_scrap():
    state, _ = game(favors={"ann": ["killer-pillar"]}, raised=["A"],
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-large", "at": "l11"}])
    state, events = play(state, PlayFavor("killer-pillar", ("A", "C")))  # C is l11
    assert state.raised == ("C",) and b.vehicle(state, "blue-large").status == "eliminated"
    assert scrap_events(events) == [("ann", 3)]


def test_full_throttle_moves_3_more_spaces_after_moving():
    state, _ = game(favors={"ann": ["full-throttle"]}, vehicles=[{"id": "red-medium", "at": "k9"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand())
    assert options(state) == (NoFavor(),)  # a favor is held: the before-moving decision shows nothing of its kind
    state, _ = play(state, NoFavor(), Step("F"))
    assert PlayFavor("full-throttle") in options(state)
    state, _ = play(state, PlayFavor("full-throttle"), Step("F"), Step("F"), Step("F"))
    assert at(state, "red-medium") == "k13" and state.favors["ann"] == ()


def test_precision_sets_an_fx_die_instead_of_rolling():
    state, _ = game(favors={"ann": ["precision"]}, script={"shot": ["L"]},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k13"}])
    state, _ = play(state, PlayFavor("precision", die="shot", face="SML"))
    state, events = move(state, "red-medium", 1, ["F"], shoot="blue-small")
    shot = kinds(events, vev.ShotFired)[0]
    assert shot.face == "SML" and shot.hit and not shot.scripted
    assert kinds(events, cev.PrecisionUsed) == [cev.PrecisionUsed("shot")] and state.script["shot"] == ("L",)


def test_double_barrel_shoots_before_moving_and_again_after():
    state, _ = game(favors={"ann": ["double-barrel"]}, script={"shot": ["SML", "SML"], "damage": ["dent", "dent"]},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k12"},
                              {"id": "blue-large", "at": "l12"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    assert PlayFavor("double-barrel", target="blue-small") in options(state)
    state, events = play(state, PlayFavor("double-barrel", target="blue-small"))
    assert kinds(events, vev.ShotFired)[0].target == "blue-small" and at(state, "red-medium") == "k11"
    state, events = play(state, NoCommand(), Step("FR"), Shoot("blue-large"))
    assert kinds(events, vev.ShotFired)[0].target == "blue-large"


def test_bootleg_turn_steps_any_way_and_through_cars_without_slamming():
    state, _ = game(favors={"ann": ["bootleg-turn"]},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-large", "at": "k10"}])
    state, _ = play(state, PlayFavor("bootleg-turn"), AssignDie("red-medium", 2), NoCommand())
    assert Step("B") in options(state)
    state, events = play(state, Step("B"), Step("F"))  # through blue-large's k10, then turned round: F is k9
    assert kinds(events, cev.PassedThrough) == [cev.PassedThrough("red-medium", "blue-large")]
    assert kinds(events, vev.SlamStarted) == [] and at(state, "red-medium") == "k9" and facing(state, "red-medium") == "B"


def test_a_favor_is_refused_on_another_players_turn_and_at_the_wrong_time():
    state, _ = game(favors={"bob": ["mega-repair"], "ann": ["full-throttle"]},
                    vehicles=[{"id": "blue-medium", "at": "k11", "damage": ["dent"]}])
    assert PlayFavor("mega-repair") not in options(state)  # ann's turn
    assert PlayFavor("full-throttle") not in options(state)  # "Play after moving"


# ---------------------------------------------------------- super-weapons
def test_laser_kebab_shoots_past_the_first_car_in_a_line():
    state, _ = game(weapons={"red-medium": "laser-kebab"}, script={"shot": ["L"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"},
                              {"id": "blue-large", "at": "k14"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert FireWeapon("blue-large") in options(state) and Shoot("blue-large") not in options(state)
    state, events = play(state, FireWeapon("blue-large"))
    assert kinds(events, vev.ShotFired)[0].hit and scrap_events(events) == [("ann", 2)]


def test_cluster_missiles_give_adjacent_cars_a_face_down_token_first():
    state, _ = game(weapons={"red-medium": "cluster-missiles"}, script={"shot": ["SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"},
                              {"id": "blue-large", "at": "k13"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    assert b.vehicle(state, "blue-large").damage == ("minor",) and b.vehicle(state, "blue-small").damage == ("dent",)
    assert scrap_events(events) == [("ann", 2), ("ann", 2)]


def test_cluster_missiles_also_give_the_shooting_car_a_face_down_token_and_no_scrap():
    """docs/rules-decisions.md "Cluster Missiles and its own car": the card read as written."""
    state, _ = game(weapons={"red-medium": "cluster-missiles"}, script={"shot": ["SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    assert b.vehicle(state, "red-medium").damage == ("minor",)  # adjacent to its own target: a face-down token
    assert b.vehicle(state, "blue-small").damage == ("dent",)
    assert scrap_events(events) == [("ann", 2)]  # the target's damage only: none for ann's own car


def test_the_big_friendly_gun_gives_a_face_down_token_then_a_normal_one():
    state, _ = game(weapons={"red-medium": "big-friendly-gun"}, script={"shot": ["SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    small = b.vehicle(state, "blue-small")
    assert small.damage == ("minor", "dent") and small.status == "inoperable" and scrap_events(events) == [("ann", 2)] * 2


def test_the_amplifier_resolves_the_damage_effect_twice():
    state, _ = game(weapons={"red-medium": "amplifier"}, script={"shot": ["SM"], "damage": ["skid-FL"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k13"}])
    state, _ = play(state, AssignDie("red-medium", 2), NoCommand(), Step("F"), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    skids = [e for e in kinds(events, vev.VehicleMoved) if e.how == "skid"]
    assert len(skids) == 2 and at(state, "blue-small") == "i14"  # k13, skid FL to j13, again to i14


def test_the_thwumper_jumps_instead_of_shooting_and_shakes_its_neighbours():
    state, _ = game(weapons={"red-medium": "thwumper"}, script={"stunt": [2]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"},
                              {"id": "blue-large", "at": "k15"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("FL"))
    assert Shoot("blue-small") not in options(state) and ThwumpRoll() in options(state)
    state, events = play(state, ThwumpRoll())  # rules v4: the stunt die first, then the way (test_rules_v4)
    assert RS.pending(state).kind == "thwump" and Thwump("F") in options(state)
    state, more = play(state, Thwump("F"))
    events += more
    assert at(state, "red-medium") == "j12" and kinds(events, vev.DieRolled)[0].face == "2"
    assert b.vehicle(state, "blue-small").damage == ("minor",) and scrap_events(events) == [("ann", 2)]


def test_the_auto_cannon_shoots_once_while_moving_and_the_car_moves_on():
    state, _ = game(weapons={"red-medium": "auto-cannon"}, script={"shot": ["SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k11"}])
    state, _ = play(state, AssignDie("red-medium", 2), NoCommand())
    state, events = play(state, AutoCannon("blue-small"))
    assert kinds(events, vev.ShotFired)[0].hit and RS.pending(state).kind == "step"
    state, _ = play(state, Step("FR"))
    assert AutoCannon("blue-small") not in options(state)  # once a turn


def test_the_auto_cannon_after_moving_leaves_the_normal_shot():
    # "Once, during this car's move step (including before or after it moves) ... That car may also shoot
    # again during its shoot step"
    state, _ = game(weapons={"red-medium": "auto-cannon"}, script={"shot": ["SM", "SML"], "damage": ["dent", "dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert AutoCannon("blue-small") in options(state) and Shoot("blue-small") in options(state)
    state, events = play(state, AutoCannon("blue-small"))
    assert kinds(events, vev.ShotFired)[0].hit and RS.pending(state).kind == "shoot"
    assert options(state) == (Shoot("blue-small"), NoFavor())  # the car's own shot; the cannon fired once
    state, events = play(state, Shoot("blue-small"))
    assert kinds(events, vev.ShotFired)[0].face == "SML" and scrap_events(events) == [("ann", 2)]
    assert RS.pending(state).player == "bob" and len(b.vehicle(state, "blue-small").damage) == 2


def test_double_barrel_offers_the_thwumpers_car_no_normal_shot():
    state, _ = game(favors={"ann": ["double-barrel"]}, weapons={"red-medium": "thwumper"},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    barrel = [o for o in options(state) if isinstance(o, PlayFavor)]
    assert barrel and all(o.shot == "thwump" for o in barrel)  # "You cannot shoot with this car" (rules v3: a jump)
    state, _ = game(favors={"ann": ["double-barrel"]},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    assert PlayFavor("double-barrel", target="blue-small") in options(state)  # without it: offered


def test_the_energizer_moves_and_shoots_again_after_a_hit():
    state, _ = game(weapons={"red-medium": "energizer"}, script={"shot": ["SM", "L"], "damage": ["dent"], "movement": [2]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    assert kinds(events, cev.Energized) == [cev.Energized("red-medium", 2, 1)]
    assert RS.pending(state).kind == "step" and state.turn.moves_left == 2
    state, _ = play(state, Step("FL"), Step("F"))  # nothing to shoot at from there: the turn ends
    assert RS.pending(state).player == "bob" and b.vehicle(state, "red-medium").moved


# ---------------------------------------------------------------- decrees
def test_whatever_it_takes_lets_nitro_take_a_6():
    state, _ = game(decree="whatever-it-takes", decree_round=1,
                    players=[{"name": "ann", "color": "red", "dice": [1, 6]},
                             {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}],
                    vehicles=[{"id": "red-medium", "at": "k9"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    assert UseCommand("nitro", 6) in options(state)
    state, events = play(state, UseCommand("nitro", 6))
    assert kinds(events, vev.MoveStarted)[0].moves == 7


def test_lets_keep_it_close_steals_1_from_a_richer_player_then_pays_2():
    state, _ = game(decree="lets-keep-it-close", decree_round=1, scrap={"ann": 1, "bob": 5},
                    script={"shot": ["SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    state, events = move(state, "red-medium", 1, ["F"], shoot="blue-small")
    assert scrap_events(events) == [("bob", -1), ("ann", 1), ("ann", 2)] and state.scrap == {"ann": 4, "bob": 4}


def test_in_the_mood_for_mayhem_shoots_a_second_time():
    state, _ = game(decree="in-the-mood-for-mayhem", decree_round=1, script={"shot": ["L", "SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), Shoot("blue-small"))
    d = RS.pending(state)
    assert d.player == "ann" and Shoot("blue-small") in d.options and NoFavor() in d.options
    state, events = play(state, Shoot("blue-small"))
    assert kinds(events, vev.ShotFired)[0].hit and RS.pending(state).player == "bob"


def test_in_the_mood_for_mayhem_the_second_shot_may_be_the_super_weapons_or_the_thwumpers():
    state, _ = game(decree="in-the-mood-for-mayhem", decree_round=1, weapons={"red-medium": "laser-kebab"},
                    script={"shot": ["L", "SM"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k12"},
                              {"id": "blue-large", "at": "k15"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), FireWeapon("blue-small"))
    d = RS.pending(state)
    assert d.kind == "shoot" and FireWeapon("blue-large") in d.options and Shoot("blue-small") in d.options
    state, events = play(state, FireWeapon("blue-small"))
    assert kinds(events, vev.ShotFired)[0].hit and RS.pending(state).player == "bob"
    state, _ = game(decree="in-the-mood-for-mayhem", decree_round=1, weapons={"red-medium": "thwumper"},
                    script={"stunt": [1, 1]}, vehicles=[{"id": "red-medium", "at": "k10"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"), ThwumpRoll(), Thwump("F"))
    d = RS.pending(state)  # "Whenever you could shoot with it, you may use the Thwumper instead"
    assert d.kind == "shoot" and ThwumpRoll() in d.options and not any(isinstance(o, Shoot) for o in d.options)
    state, _ = play(state, ThwumpRoll(), Thwump("B"))
    assert at(state, "red-medium") == "k11" and RS.pending(state).player == "bob"


def test_lets_get_wild_moves_the_slammed_car_the_stunt_dies_spaces():
    state, _ = game(decree="lets-get-wild", decree_round=1, script={"slam": ["BOTTOM"], "direction": ["F"], "stunt": [3]},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-medium", "at": "k12"}])
    state, events = move(state, "red-medium", 1, ["F"])
    assert kinds(events, cev.WildRoll) == [cev.WildRoll("3", True)] and at(state, "blue-medium") == "k15"


# ---------------------------------------------------------------- choppers
def test_a_chopper_in_the_arena_faces_the_way_its_player_chooses():
    """"When you place a chopper in an arena space, you choose which adjacent space it faces"."""
    from trvendetta.carnival.actions import FlyChopper

    state, _ = game(vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "m13"}],
                    script={"shot": ["SM"], "damage": ["dent"]})
    state, _ = play(state, AssignDie("red-medium", 4), UseCommand("airstrike", 2))
    assert FlyChopper("l13", "B") in options(state) and FlyChopper("l13", "BR") in options(state)
    assert all(isinstance(o, FlyChopper) for o in options(state))
    state, events = play(state, FlyChopper("l13", "BR"))  # m13 lies BR of l13 (facing F, it would not be in the arc)
    assert kinds(events, cev.ChopperFaced) == [cev.ChopperFaced("ann", "BR")]
    assert Shoot("blue-small") in options(state)
    state, events = play(state, Shoot("blue-small"))
    assert kinds(events, vev.ShotFired)[0].shooter == "ann's chopper" and scrap_events(events) == [("ann", 2)]
