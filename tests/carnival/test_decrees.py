"""Tina's decrees (rulebook "Tina's Turn Decrees"), each against no decree."""

from trvendetta.carnival import components as comp
from trvendetta.carnival import decrees as d


def test_the_module_knows_every_decree_of_the_data():
    assert {d.COMMIT, d.DANGER, d.MAYHEM, d.WILD, d.CLOSE, d.WHATEVER} == set(comp.DECREES)


def test_a_decree_holds_until_the_end_of_next_round():
    assert d.in_force(2, 3) and d.in_force(2, 2) and not d.in_force(2, 4) and not d.in_force(None, 1)


def test_commit_to_the_crash_forbids_slam_rerolls():
    assert not d.slam_reroll_allowed(d.COMMIT) and d.slam_reroll_allowed(None) and d.slam_reroll_allowed(d.DANGER)


def test_danger_ahead_sets_the_direction_die_straight_forward():
    assert d.direction(d.DANGER, None) == "F" and not d.needs_direction_roll(d.DANGER)
    assert d.direction(None, "BL") == "BL" and d.needs_direction_roll(d.WILD)


def test_whatever_it_takes_lets_any_value_be_assigned():
    assert not d.may_assign(None, range(1, 4), 6)
    assert d.may_assign(d.WHATEVER, range(1, 4), 6) and d.may_assign(None, range(1, 4), 2)


def test_mayhem_gives_a_second_shot():
    assert d.shots_after_moving(d.MAYHEM) == 2 and d.shots_after_moving(d.CLOSE) == 1


def test_lets_get_wild_moves_the_slammed_car_by_the_stunt_die():
    assert d.slam_distance(d.WILD, 4) == 4 and d.slam_distance(None, 4) == 1
    assert d.slam_dice(d.WILD) == ("slam", "direction", "stunt") and d.slam_dice(None) == ("slam", "direction")


def test_lets_keep_it_close_steals_one_from_a_richer_target():
    assert d.steal_on_hit(d.CLOSE, 3, 5) == 1
    assert d.steal_on_hit(d.CLOSE, 5, 5) == 0 and d.steal_on_hit(None, 3, 5) == 0
