"""Killer Pillar (and Precision) in the middle of a slam or a damage effect
(rulebook "Party Favor Reference": Killer Pillar "Play at any time on your
turn ... You can play this token in the middle of resolving another effect,
such as a slam or damage effect"), and the super-weapons' follow-ups that a
pause must not lose; from positions with scripted dice, damage and draws.

The haulasseum pillars used here: A j10, E i12 (``SIDE.pillars``)."""

from trvendetta.carnival import components as comp
from trvendetta.carnival import events as cev
from trvendetta.carnival import setup
from trvendetta.carnival.actions import FireWeapon, NoFavor, PlayFavor
from trvendetta.core import geometry
from trvendetta.vendetta import events as vev
from trvendetta.vendetta.actions import AssignDie, NoCommand, Shoot, SlamReroll, Step

from .helpers import RS, at, game, kinds, play, position

SIDE = comp.default().sides["haulasseum"]
assert geometry.name(SIDE.pillars["A"]) == "j10" and geometry.name(SIDE.pillars["E"]) == "i12"

#: red-medium slams blue-medium from behind; the slam pushes blue-medium FL, onto pillar A's space
SLAM = dict(script={"slam": ["BOTTOM"], "direction": ["FL"]},
            vehicles=[{"id": "red-medium", "at": "k9"}, {"id": "blue-medium", "at": "k10"}])
#: red-medium shoots blue-small, whose damage token skids it FL, onto pillar E's space
SKID = dict(script={"shot": ["SML"], "damage": ["skid-FL"]},
            vehicles=[{"id": "red-medium", "at": "j9"}, {"id": "blue-small", "at": "j11"}])


def pending(state):
    return RS.pending(state)


def slam_into_k10(favors, **more):
    state, _ = game(favors={"ann": favors}, **SLAM, **more)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand())
    if favors:  # any favor held: the before-moving decision (it shows nothing of their kinds)
        state, _ = play(state, NoFavor())
    return play(state, Step("F"))


def test_killer_pillar_mid_slam_raises_the_pillar_the_pushed_car_lands_on():
    state, events = slam_into_k10(["killer-pillar"])
    assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "slam")]
    assert kinds(events, vev.SlamResolved) == [] and at(state, "blue-medium") == "k10"  # the push waits
    d = pending(state)
    assert d.player == "ann" and d.kind == "favor" and NoFavor() in d.options
    assert PlayFavor("killer-pillar", ("", "A")) in d.options
    state, events = play(state, PlayFavor("killer-pillar", ("", "A")))
    assert state.raised == ("A",) and at(state, "blue-medium") is None
    assert [e.amount for e in kinds(events, cev.ScrapGained)] == [3]  # an opposing elimination on ann's turn
    assert kinds(events, vev.VehicleEliminated)[0].cause == "drove into impassable terrain at j10"
    assert state.pause is None and state.favors["ann"] == ()


def test_declining_lets_the_slam_go_on_as_rolled():
    state, _ = slam_into_k10(["killer-pillar"])
    state, events = play(state, NoFavor())
    assert at(state, "blue-medium") == "j10" and state.raised == () and state.favors["ann"] == ("killer-pillar",)
    assert kinds(events, cev.FavorsPassed) == [cev.FavorsPassed("ann", "mid-effect")]


def test_the_pause_comes_after_a_slam_reroll_is_answered():
    # the larger car's owner (bob's large car slammed by ann's medium) may reroll first: then ann's pause
    state, _ = game(favors={"ann": ["killer-pillar"]}, script={"slam": ["BOTTOM", "BOTTOM"], "direction": ["FL", "F"]},
                    vehicles=[{"id": "red-medium", "at": "k9"}, {"id": "blue-large", "at": "k10"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    assert pending(state).kind == "slam-reroll" and pending(state).player == "bob"
    state, events = play(state, SlamReroll(True))
    assert kinds(events, cev.EffectPaused) and pending(state).player == "ann" and pending(state).kind == "favor"
    state, _ = play(state, NoFavor())
    assert at(state, "blue-large") == "k11"  # the rerolled direction F


def test_killer_pillar_mid_damage_effect_before_the_skid():
    state, _ = game(favors={"ann": ["killer-pillar"]}, **SKID)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    state, events = play(state, Shoot("blue-small"))
    assert kinds(events, vev.DamageDrawn)[0].token == "skid-FL"
    assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "skid", "blue-small", "i12", "skid", "FL")]
    assert at(state, "blue-small") == "j11"
    state, events = play(state, PlayFavor("killer-pillar", ("", "E")))
    assert at(state, "blue-small") is None and state.raised == ("E",)
    assert state.scrap["ann"] == 2 + 3  # the damage, then the elimination: the rulebook's stacking


def test_precision_mid_slam_sets_a_die_the_chain_rolls_later():
    # the push drives blue-medium into blue-small: a second slam, whose slam die Precision sets to TOP
    state, _ = game(favors={"ann": ["precision"]}, script={"slam": ["BOTTOM", "BOTTOM"], "direction": ["F", "F"]},
                    vehicles=[{"id": "red-medium", "at": "k9"}, {"id": "blue-medium", "at": "k10"},
                              {"id": "blue-small", "at": "k11"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    assert PlayFavor("precision", die="slam", face="TOP") in pending(state).options
    assert not any(o.favor == "killer-pillar" for o in pending(state).options if isinstance(o, PlayFavor))
    state, events = play(state, PlayFavor("precision", die="slam", face="TOP"))
    rolls = kinds(events, vev.SlamRolled)
    assert [(r.slam, r.scripted_slam) for r in rolls] == [("TOP", False)]  # set, not rolled: the script waits
    assert kinds(events, cev.PrecisionUsed) == [cev.PrecisionUsed("slam")] and state.script["slam"] == ("BOTTOM",)


def test_no_pause_without_favors_nor_for_another_players_favors():
    state, events = slam_into_k10([])
    assert not kinds(events, cev.EffectPaused) and at(state, "blue-medium") == "j10"
    state, _ = game(favors={"bob": ["killer-pillar"]}, **SLAM)  # bob's favor: it is ann's turn
    state, events = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert not kinds(events, cev.EffectPaused) and at(state, "blue-medium") == "j10"


def test_holding_any_favor_pauses_the_same_way_so_the_pause_shows_no_kind():
    for held, playable in ((["solid-gold-muffler"], False), (["mega-repair"], False), (["killer-pillar"], True)):
        state, events = slam_into_k10(held)
        assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "slam")], held
        assert (pending(state).options != (NoFavor(),)) == playable, held


def test_a_game_recorded_under_rules_version_1_does_not_pause():
    pos = position(favors={"ann": ["killer-pillar"]}, **SLAM)
    events = setup.start(pos, comp.default(), None, "1")
    assert events[0].rules_version == "1"
    state = RS.fold(events)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand())
    assert pending(state).kind == "favor"  # version 1: killer pillar playable before moving
    state, events = play(state, NoFavor(), Step("F"))
    assert not kinds(events, cev.EffectPaused) and at(state, "blue-medium") == "j10"
    first = setup.start(pos, comp.default(), None, "1")[0]
    assert RS.restart(first)[0] == first  # re-execution sets it up again under its own version


# ------------------------------------------------- super-weapons after a pause
def test_the_amplifier_resolves_the_effect_again_after_a_pause_in_the_first():
    state, _ = game(favors={"ann": ["solid-gold-muffler"]}, weapons={"red-medium": "amplifier"},
                    script={"shot": ["SML"], "damage": ["skid-FR"]},
                    vehicles=[{"id": "red-medium", "at": "j9"}, {"id": "blue-small", "at": "j11"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    state, events = play(state, FireWeapon("blue-small"))
    assert kinds(events, cev.AfterHit) == [cev.AfterHit("amplifier", "red-medium", "blue-small", 0)]
    assert kinds(events, cev.EffectPaused)[0].effect == "skid" and state.after_hit is not None
    state, events = play(state, NoFavor())  # the first skid, then the amplifier's second: paused again
    moved = [(e.frm, e.to) for e in kinds(events, vev.VehicleMoved) if e.vehicle == "blue-small"]
    assert moved == [("j11", "k12")] and kinds(events, cev.AfterHitResolved) and state.after_hit is None
    assert kinds(events, cev.EffectPaused)[-1].to == "l12"
    state, events = play(state, NoFavor())
    assert at(state, "blue-small") == "l12"


def test_the_greedy_bot_raises_the_pillar_a_paused_push_lands_on():
    state, _ = slam_into_k10(["killer-pillar"])
    d = pending(state)
    scores = RS.score_options(state, d)
    assert d.options[scores.index(max(scores))] == PlayFavor("killer-pillar", ("", "A"))
    state, _ = game(favors={"ann": ["killer-pillar"]}, **SKID)
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"), Shoot("blue-small"))
    d = pending(state)
    scores = RS.score_options(state, d)
    assert d.options[scores.index(max(scores))] == PlayFavor("killer-pillar", ("", "E"))


def test_killer_pillar_between_a_dazed_cars_moves():
    state, _ = game(favors={"ann": ["killer-pillar"]}, vehicles=SKID["vehicles"],
                    script={"shot": ["SML"], "damage": ["dazed"], "stunt": [2], "direction": ["F", "BL"]})
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), NoFavor(), Step("F"))
    state, events = play(state, Shoot("blue-small"))
    assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "dazed", "blue-small", "j12", "dazed", "F", 1)]
    state, events = play(state, NoFavor())  # the first move, then the second roll: paused again
    assert at(state, "blue-small") == "j12"
    assert kinds(events, cev.EffectPaused) == [cev.EffectPaused("ann", "dazed", "blue-small", "i12", "dazed", "BL", 0)]
    state, events = play(state, PlayFavor("killer-pillar", ("", "E")))
    assert at(state, "blue-small") is None and state.scrap["ann"] == 2 + 3


def test_precision_before_the_active_players_slam_reroll():
    # ann's large car slams bob's medium: ann may reroll, and Precision may set what the reroll shows
    state, _ = game(favors={"ann": ["precision"]}, script={"slam": ["TOP"], "direction": ["B"]},
                    vehicles=[{"id": "red-large", "at": "k9"}, {"id": "blue-medium", "at": "k10"}])
    state, _ = play(state, AssignDie("red-large", 1), NoCommand(), NoFavor(), Step("F"))
    d = pending(state)
    assert d.kind == "slam-reroll" and d.player == "ann" and PlayFavor("precision", die="slam", face="BOTTOM") in d.options
    state, _ = play(state, PlayFavor("precision", die="slam", face="BOTTOM"))
    assert pending(state).kind == "slam-reroll"  # still ann's to answer
    state, events = play(state, SlamReroll(True))
    assert [r.slam for r in kinds(events, vev.SlamRolled)] == ["BOTTOM"] and at(state, "blue-medium") != "k10"
    # bob, answering a reroll on ann's turn, is offered no favor
    state, _ = game(favors={"bob": ["precision"]}, script={"slam": ["TOP"], "direction": ["B"]},
                    vehicles=[{"id": "red-medium", "at": "k9"}, {"id": "blue-large", "at": "k10"}])
    state, _ = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert pending(state).player == "bob" and pending(state).options == (SlamReroll(True), SlamReroll(False))
