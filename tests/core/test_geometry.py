import pytest

from trvendetta.core import geometry as g
from trvendetta.core.errors import NotationError


def test_space_names_round_trip_over_three_tiles():
    for lane in range(6):
        for n in range(0, 25):
            space = g.at_number(lane, n)
            assert g.is_space(*space)
            assert g.parse(g.name(space)) == space if n > 0 else True
            assert g.number(space) == n


def test_c5_is_lane_2_fifth_space():
    assert g.parse("c5") == (2, 8)
    assert g.name((3, 9)) == "d5"  # odd lanes sit half a space forward


@pytest.mark.parametrize("bad", ["", "c", "5c", "cc5", "c-1", "é4", "c12345"])
def test_bad_names_are_refused_with_the_input(bad):
    with pytest.raises(NotationError, match="not a space name"):
        g.parse(bad)


def test_six_neighbours_facing_forward():
    c5 = g.parse("c5")
    assert g.name(g.neighbour(c5, "F")) == "c6"
    assert g.name(g.neighbour(c5, "B")) == "c4"
    assert g.name(g.neighbour(c5, "FL")) == "b5"
    assert g.name(g.neighbour(c5, "FR")) == "d5"
    assert g.name(g.neighbour(c5, "BL")) == "b4"
    assert g.name(g.neighbour(c5, "BR")) == "d4"


def test_directions_turn_with_facing():
    assert g.turn("B", "F") == "B"
    assert g.turn("B", "FL") == "BR"
    assert g.turn("FR", "F") == "FR"
    for d in g.DIRECTIONS:
        assert g.turn(d, "B") == g.opposite(d)
    # a car facing backward: its front arc is our rear arc
    assert sorted(g.arc((2, 8), "B")) == sorted(g.arc((2, 8), "F", g.REAR_ARC))


def test_straight_line_walks_one_direction():
    line = g.straight_line((2, 8), "F")
    assert [g.name(next(line)) for _ in range(3)] == ["c6", "c7", "c8"]
