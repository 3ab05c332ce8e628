"""Party favors (rulebook "Party Favor Reference") and super-weapons
("Super-Weapons", "Clarifications"), from positions on the Haulasseum side."""

import pytest

from trvendetta.carnival import components as comp
from trvendetta.carnival import favors, weapons
from trvendetta.core import geometry
from trvendetta.core.errors import RuleViolation
from trvendetta.core.rng import Rng

COMPONENTS = comp.default()
SIDE = COMPONENTS.sides["haulasseum"]
sq = geometry.parse


def test_every_favor_kind_has_its_timing():
    assert set(favors.TIMING) == set(comp.PARTY_FAVORS)
    assert all(set(when) <= set(favors.PHASES) for when in favors.TIMING.values())


def test_draws_follow_what_is_left():
    assert favors.draw({"precision": 1}, Rng(1)) == "precision"
    assert {favors.draw(COMPONENTS.party_favors, Rng(s)) for s in range(40)} == set(comp.PARTY_FAVORS)
    assert weapons.draw({"thwumper": 1}, Rng(5)) == "thwumper"


@pytest.mark.parametrize(("favor", "phase", "legal"), [
    ("bootleg-turn", "before-moving", True), ("bootleg-turn", "after-moving", False),
    ("double-barrel", "start-of-turn", True), ("full-throttle", "after-moving", True),
    ("full-throttle", "before-moving", False), ("killer-pillar", "before-fx-roll", True),
    ("mega-repair", "start-of-turn", True), ("mega-repair", "before-moving", False),
    ("precision", "before-fx-roll", True), ("precision", "after-moving", False),
])
def test_each_favor_is_played_when_the_reference_says(favor, phase, legal):
    if legal:
        favors.check_play(favor, phase, own_turn=True)
    else:
        with pytest.raises(RuleViolation, match=f"{favor} cannot be played {phase.replace('-', ' ')}"):
            favors.check_play(favor, phase, own_turn=True)


def test_favors_only_on_your_turn_no_mufflers_no_mega_repair_when_out():
    with pytest.raises(RuleViolation, match="only be used during your turn"):
        favors.check_play("killer-pillar", "before-moving", own_turn=False)
    with pytest.raises(RuleViolation, match="is not played: it is worth 2 scrap"):
        favors.check_play("solid-gold-muffler", "start-of-turn", own_turn=True)
    with pytest.raises(RuleViolation, match="out of the game and may not play it"):
        favors.check_play("mega-repair", "start-of-turn", own_turn=True, out=True)


def test_the_killer_pillar_favor_lowers_one_and_raises_another():
    assert favors.killer_pillar(("A", "E"), "E", "C") == ("A", "C")
    with pytest.raises(RuleViolation, match="ANOTHER"):
        favors.killer_pillar(("A",), "B", "B")
    favors.check_full_throttle(["F", "FL", "F"])
    with pytest.raises(RuleViolation, match="exactly 3 spaces, not 2"):
        favors.check_full_throttle(["F", "F"])


def test_one_super_weapon_a_car():
    assert weapons.claims(has_weapon=False, token_here=True)
    assert not weapons.claims(has_weapon=True, token_here=True)
    assert weapons.shoots_normally("laser-kebab") and not weapons.shoots_normally("thwumper")


def test_laser_kebab_sees_past_the_first_car_and_onto_road_tiles():
    assert weapons.laser_kebab_targets(SIDE, sq("l12"), "F", {sq("l14"), sq("l16")}) == [sq("l14"), sq("l16")]
    # facing B from k10: straight back down to the road tile in slot 1 (k4 is on it), and j9 front right
    assert weapons.laser_kebab_targets(SIDE, sq("k10"), "B", {sq("k8"), sq("k4"), sq("j9")}) == [
        sq("k8"), sq("k4"), sq("j9")]


def test_cluster_missiles_and_the_big_friendly_gun():
    assert set(weapons.cluster_spaces(sq("l12"), {sq("l13"), sq("k12"), sq("k11")})) == {sq("l13"), sq("k12")}
    assert weapons.big_friendly_gun_tokens(2) == (1, 1) and weapons.big_friendly_gun_tokens(1) == (0, 1)


def test_the_thwumper_jumps_over_spaces_and_shakes_its_neighbours():
    landing, outcome, shaken = weapons.thwump(SIDE, sq("l12"), "B", 3, {sq("l12"), sq("k9"), sq("l8"), sq("l11")})
    assert (landing, outcome) == (sq("l9"), "arena") and set(shaken) == {sq("k9"), sq("l8")}  # l11 jumped over
    assert weapons.thwump(SIDE, sq("l12"), "B", 3, {sq("l9")})[1] == "slam"
    top = max(SIDE.arena, key=lambda s: s[1])
    assert weapons.thwump(SIDE, top, "F", 1, set())[1] == "eliminated"
