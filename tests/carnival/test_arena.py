"""Driving in the arena, from positions on the shipped Haulasseum side
(rulebook "Entering the Arena", "Keep Cool Till We Get There", "Driving in
the Arena", "Leaving the Arena", "Direction Die", "Killer Pillars")."""

import pytest

from msgspec.structs import replace

from trvendetta.carnival import arena
from trvendetta.carnival import components as comp
from trvendetta.carnival.board import ARENA
from trvendetta.core import geometry
from trvendetta.core.errors import RuleViolation

from .helpers import game

SIDE = comp.default().sides["haulasseum"]
sq = geometry.parse
STATE = game()[0]  # a game on the same side (the base position of tests/carnival/helpers.py)


def test_spaces_are_arena_road_or_off_the_board():
    assert arena.where(SIDE, sq("l12")) == "arena"
    assert arena.where(SIDE, sq("k7")) == "road" and arena.slot_of(SIDE, sq("k7")).number == 1
    assert arena.where(SIDE, sq("a1")) == "off"


def test_straight_forward_from_the_road_keeps_facing_and_a_turn_into_the_arena_turns_the_car():
    # j7 is the front row of the road tile in slot 1 (forward F); i8, j8 and k8 are entrances
    steps = arena.active_steps(SIDE, sq("j7"), "F")
    assert steps["F"] == (sq("j8"), "F", "arena")
    assert steps["FL"] == (sq("i8"), "FL", "arena")  # "This includes moving from a road tile into the arena"
    assert steps["FR"] == (sq("k8"), "FR", "arena")


def test_on_a_road_tile_a_car_keeps_its_facing():
    steps = arena.active_steps(SIDE, sq("k6"), "F")
    assert {r: (geometry.name(s), f, o) for r, (s, f, o) in steps.items()} == {
        "FL": ("j6", "F", "road"), "F": ("k7", "F", "road"), "FR": ("l6", "F", "road")}


def test_the_movement_example_three_moves_front_left_middle_right():
    """Sam's 3 (rulebook "Arena Movement Examples"), from the road's front
    row: each path ends facing the way it last turned, rear to the space left."""
    start = sq("k7")
    assert arena.drive(SIDE, start, "F", ["F", "FL", "F"])[:2] == (sq("i9"), "FL")
    assert arena.drive(SIDE, start, "F", ["F", "F", "F"])[:2] == (sq("k10"), "F")
    assert arena.drive(SIDE, start, "F", ["FR", "F", "FR"])[:2] == (sq("m9"), "FR")  # FR stays on the road, then in
    space, facing, outcome, steps = arena.drive(SIDE, start, "F", ["FR"])
    assert (geometry.name(space), facing, outcome, steps) == ("l7", "F", "road", 1)


def test_facing_turns_inside_the_arena_only_when_not_straight():
    space, facing, _, _ = arena.drive(SIDE, sq("l12"), "F", ["FR", "FR"])
    assert facing == "BR"  # turned twice: F -> FR -> BR
    assert space == geometry.neighbour(geometry.neighbour(sq("l12"), "FR"), "BR")


def test_no_deliberate_return_to_a_road_tile():
    # k8 is an entrance of slot 1; facing BR its F and FR lead back onto the road
    steps = arena.active_steps(SIDE, sq("k8"), "BR")
    assert list(steps) == ["FL"]
    with pytest.raises(RuleViolation, match="may not deliberately drive from the arena back onto a road tile") as err:
        arena.check_active_step(SIDE, sq("k8"), "BR", "F")
    assert err.value.legal == ["FL to l8"]


def _forced(space, facing, direction, raised=()):
    """A car forced one space in absolute ``direction`` on the arena board (a
    slam, a damage effect): (space, facing, outcome), as the board answers."""
    state = replace(STATE, raised=tuple(raised))
    to = geometry.neighbour(space, direction)
    terrain = ARENA.terrain(state, to)
    pillar = terrain == "impassable" and to in SIDE.pillars.values()  # a tile's own impassable space is still road
    outcome = ("eliminated" if terrain in ("offboard", "start") or pillar
               else "arena" if terrain == "arena" else "road")
    return to, ARENA.forced_facing(state, facing, to), outcome


def test_a_forced_move_keeps_facing_and_onto_a_road_tile_turns_toward_the_arena():
    assert _forced(sq("l12"), "FR", "B") == (sq("l11"), "FR", "arena")
    to, facing, outcome = _forced(sq("k8"), "BR", "B")
    assert (geometry.name(to), facing, outcome) == ("k7", "F", "road")
    slot2 = SIDE.slots[1]
    entrance = slot2.entrances[0]
    back = next(d for d in geometry.DIRECTIONS if geometry.neighbour(entrance, d) in slot2.spaces)
    assert _forced(entrance, "F", back)[1:] == ("BR", "road")  # slot 2 runs BR into the arena


def test_off_an_edge_with_no_road_tile_eliminates():
    top = max(SIDE.arena, key=lambda s: s[1])
    assert _forced(top, "B", "F")[2] == "eliminated"
    assert arena.active_steps(SIDE, top, "F")["F"][2] == "eliminated"  # offered, but fatal


def test_a_raised_killer_pillar_eliminates_and_a_lowered_one_is_road():
    pillar = SIDE.pillars["I"]  # m13, front right of the centre l12
    assert arena.active_steps(SIDE, sq("l12"), "F")["FR"] == (pillar, "FR", "arena")
    assert arena.active_steps(SIDE, sq("l12"), "F", raised=("I",))["FR"][2] == "eliminated"
    assert _forced(sq("l12"), "F", "FR", raised=("I", "A"))[2] == "eliminated"


def test_the_direction_die_is_oriented_by_facing():
    assert ARENA.direction_die("F", "FL") == "FL"
    assert ARENA.direction_die("BR", "FL") == "FR"
    assert ARENA.direction_die("B", "F") == "B"


def test_the_slammed_car_turns_to_match_the_top_car():
    assert arena.slammed_facing("BL") == "BL"


def test_no_shooting_from_road_tiles():
    assert not arena.may_shoot_from(SIDE, sq("k7"))
    assert arena.may_shoot_from(SIDE, sq("k8"))


def test_round_one_first_moves_onto_tiles_not_yet_used():
    assert arena.entry_slots(SIDE, ()) == (1, 2, 3)
    assert arena.entry_slots(SIDE, (2,)) == (1, 3)
    assert arena.entry_slots(SIDE, (2, 3)) == (1,)
    assert arena.entry_slots(SIDE, (2, 3, 1), final_five=True) == (1, 2, 3)  # the last two: any two different
    assert arena.entry_slots(SIDE, (2, 3, 1, 3), final_five=True) == (1, 2)
