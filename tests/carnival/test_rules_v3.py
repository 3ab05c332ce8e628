"""Rules version 3: Killer Pillar (and Precision) also in the middle of
Shrapnel, before its line is searched, and of the Thwumper's jump, before it
lands (rulebook "Party Favor Reference": Killer Pillar "Play at any time on
your turn ... in the middle of resolving another effect, such as a slam or
damage effect"); from positions with scripted dice, damage and draws.  A game
recorded under version 2 does not pause there.  The Thwumper's cases are set up under
version 3, whose jump names its direction before the stunt die is rolled (version 4 rolls
first: ``test_rules_v4.py``).

The haulasseum pillars used here: A j10, F k13, C l11 (``SIDE.pillars``)."""

from trvendetta.carnival import components as comp
from trvendetta.carnival import events as cev
from trvendetta.carnival import setup
from trvendetta.carnival.actions import NoFavor, PlayFavor, Thwump
from trvendetta.core import geometry
from trvendetta.vendetta import events as vev
from trvendetta.vendetta.actions import AssignDie, NoCommand, Shoot, Step

from .helpers import RS, at, game, game_under, kinds, play, position

SIDE = comp.default().sides["haulasseum"]
assert [geometry.name(SIDE.pillars[p]) for p in "AFC"] == ["j10", "k13", "l11"]

#: red-medium (k8, to k9) shoots blue-small at j9: its shrapnel flies F, at blue-large on pillar A
#: (j10), then blue-medium (j11) behind it
SHRAPNEL = dict(script={"shot": ["SML"], "damage": ["shrapnel", "dent"], "direction": ["F"]},
                vehicles=[{"id": "red-medium", "at": "k8"}, {"id": "blue-small", "at": "j9"},
                          {"id": "blue-large", "at": "j10"}, {"id": "blue-medium", "at": "j11"}])
#: red-medium (k10, to k11) has the Thwumper: a jump of 2 F lands on k13, pillar F's space
THWUMP = dict(weapons={"red-medium": "thwumper"}, script={"stunt": [2]},
              vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "l12"}])


def pending(state):
    return RS.pending(state)


def shrapnel(state):
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    return play(state, Shoot("blue-small"))


def test_killer_pillar_before_shrapnel_searches_its_line():
    state, _ = game(favors={"ann": ["killer-pillar"]}, **SHRAPNEL)
    state, events = shrapnel(state)
    assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "shrapnel", "blue-small", None, "", "F")]
    assert [(e.car, e.token) for e in kinds(events, vev.DamageDrawn)] == [("blue-small", "shrapnel")]  # it waits
    d = pending(state)
    assert d.player == "ann" and d.kind == "favor" and PlayFavor("killer-pillar", ("", "A")) in d.options
    state, events = play(state, PlayFavor("killer-pillar", ("", "A")))
    assert at(state, "blue-large") is None  # crushed: the shrapnel flies on to the car behind it
    assert [e.car for e in kinds(events, vev.DamageDrawn)] == ["blue-medium"]
    assert state.scrap["ann"] == 2 + 3 + 2


def test_declining_lets_the_shrapnel_hit_the_first_car():
    state, _ = game(favors={"ann": ["killer-pillar"]}, **SHRAPNEL)
    state, _ = shrapnel(state)
    state, events = play(state, NoFavor())
    assert [e.car for e in kinds(events, vev.DamageDrawn)] == ["blue-large"] and state.scrap["ann"] == 2 + 2


def test_a_game_recorded_under_rules_version_2_does_not_pause_for_shrapnel_nor_the_thwumper():
    for case in (SHRAPNEL, THWUMP):
        pos = position(favors={"ann": ["killer-pillar"]}, **case)
        events = setup.start(pos, comp.default(), None, "2")
        state = RS.fold(events)
        if case is SHRAPNEL:
            state, events = shrapnel(state)
        else:
            state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
            state, events = play(state, Thwump("F"))
        assert state.rules_version == "2" and not kinds(events, cev.EffectPaused)
        assert pending(state).player == "bob"


def test_killer_pillar_lowers_the_pillar_the_thwumper_is_about_to_land_on():
    state, _ = game_under("3", favors={"ann": ["killer-pillar"]}, raised=["F"], **THWUMP)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    state, events = play(state, Thwump("F"))
    assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "thwump", "red-medium", "k13", "thwump", "F")]
    assert at(state, "red-medium") == "k11"  # in the air
    state, events = play(state, PlayFavor("killer-pillar", ("F", "A")))
    assert state.raised == ("A",) and at(state, "red-medium") == "k13"  # landed on the road side
    assert [e.vehicle for e in kinds(events, vev.MinorDamageTaken)] == ["blue-small"]  # its neighbour shaken
    assert pending(state).player == "bob"


def test_declining_lands_the_thwumper_as_it_jumped():
    state, _ = game_under("3", favors={"ann": ["killer-pillar"]}, raised=["F"], **THWUMP)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"), Thwump("F"))
    state, events = play(state, NoFavor())
    assert at(state, "red-medium") is None  # onto the raised pillar
    assert kinds(events, vev.VehicleEliminated)[0].cause == "drove into impassable terrain at k13"


def test_what_lies_on_the_landing_is_looked_at_when_the_thwumper_lands():
    # blue-small waits on pillar C (l11), where the Thwumper is about to slam it: raised, the pillar crushes
    # blue-small, and the Thwumper then lands on the raised pillar (no slam, no neighbour shaken)
    state, _ = game_under("3", favors={"ann": ["killer-pillar"]}, weapons={"red-medium": "thwumper"}, script={"stunt": [1]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "l11"},
                              {"id": "blue-large", "at": "l12"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"), Thwump("FR"))
    assert (state.pause.effect, geometry.name(state.pause.to)) == ("thwump", "l11")
    state, events = play(state, PlayFavor("killer-pillar", ("", "C")))
    assert at(state, "blue-small") is None and at(state, "red-medium") is None
    assert not kinds(events, vev.SlamStarted) and not kinds(events, vev.MinorDamageTaken)
    assert state.scrap["ann"] == 3  # blue-small's elimination; her own car earns nothing


# ------------------------------------- Double Barrel with a super-weapon (rules v3)
def test_double_barrel_shoots_the_super_weapon_before_moving():
    # Laser Kebab from k11: blue-small (k12) is first in the line, blue-large (k14) behind it
    state, _ = game(favors={"ann": ["double-barrel"]}, weapons={"red-medium": "laser-kebab"},
                    script={"shot": ["L"], "damage": ["dent"]},
                    vehicles=[{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k12"},
                              {"id": "blue-large", "at": "k14"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    d = pending(state)
    assert PlayFavor("double-barrel", target="blue-large", shot="weapon") in d.options
    assert PlayFavor("double-barrel", target="blue-small") in d.options  # a normal shot stays possible
    assert PlayFavor("double-barrel", target="blue-large") not in d.options  # past the first car: the weapon's
    state, events = play(state, PlayFavor("double-barrel", target="blue-large", shot="weapon"))
    assert [(e.target, e.hit) for e in kinds(events, vev.ShotFired)] == [("blue-large", True)]
    assert at(state, "red-medium") == "k11" and state.scrap["ann"] == 2 and pending(state).kind == "command"
    assert RS.describe(kinds(events, cev.FavorPlayed)[0]) == \
        "ann plays double-barrel: a super-weapon shot at blue-large before moving"


def test_double_barrel_jumps_the_thwumper_before_moving_and_the_car_moves_on():
    state, _ = game_under("3", favors={"ann": ["double-barrel"]}, weapons={"red-medium": "thwumper"}, script={"stunt": [1]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "l12"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    d = pending(state)
    assert PlayFavor("double-barrel", target="F", shot="thwump") in d.options
    assert not any(o.favor == "double-barrel" and o.shot is None for o in d.options if isinstance(o, PlayFavor))
    state, events = play(state, PlayFavor("double-barrel", target="F", shot="thwump"))
    assert at(state, "red-medium") == "k11" and not kinds(events, cev.ShotTaken)  # no shot of the shoot step
    state, _ = play(state, NoCommand(), Step("F"))
    d = pending(state)  # after moving: the shoot step's own jump is still there ("as normal")
    assert at(state, "red-medium") == "k12" and d.kind == "shoot" and Thwump("F") in d.options


def test_double_barrel_with_the_energizer_before_moving_keeps_the_command():
    state, _ = game(favors={"ann": ["double-barrel"]}, weapons={"red-medium": "energizer"},
                    script={"shot": ["SML"], "damage": ["dent"], "movement": [2]},
                    vehicles=[{"id": "red-medium", "at": "k10"}, {"id": "blue-small", "at": "k11"}])
    state, _ = play(state, AssignDie("red-medium", 1))
    assert pending(state).kind == "command"
    state, events = play(state, PlayFavor("double-barrel", target="blue-small", shot="weapon"))
    assert kinds(events, cev.Energized) == [cev.Energized("red-medium", 2, 1)]
    assert pending(state).kind == "command" and state.turn.die == 2  # the rerolled die: its turn with it to come


def test_a_version_2_game_offers_double_barrel_a_normal_shot_only():
    for weapon, vehicles in (("laser-kebab", [{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k12"}]),
                             ("thwumper", [{"id": "red-medium", "at": "k11"}, {"id": "blue-small", "at": "k12"}])):
        pos = position(favors={"ann": ["double-barrel"]}, weapons={"red-medium": weapon}, vehicles=vehicles)
        state = RS.fold(setup.start(pos, comp.default(), None, "2"))
        state, _ = play(state, AssignDie("red-medium", 1))
        barrel = [o for o in pending(state).options if isinstance(o, PlayFavor)]
        assert barrel == ([PlayFavor("double-barrel", target="blue-small")] if weapon == "laser-kebab" else [])
