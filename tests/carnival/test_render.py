"""The arena drawn as text with facing arrows."""

from trvendetta.carnival import components as comp
from trvendetta.carnival.render import draw
from trvendetta.core import geometry

SIDE = comp.default().sides["haulasseum"]
sq = geometry.parse


def _cell(lines, space):
    lane, y = space
    line = next(l for l in lines if int(l[:2]) == y)
    return line[4 + 2 * lane: 6 + 2 * lane]


def test_the_drawing_keeps_the_shape_of_the_data_file():
    lines = draw(SIDE)
    assert len(lines) == 1 + max(s[1] for s in SIDE.slots[1].spaces) - min(s[1] for s in SIDE.slots[0].spaces)
    assert _cell(lines, sq("l12")) == "S " and _cell(lines, sq("k7")) == "= "
    assert _cell(lines, SIDE.pillars["A"]) == "a "


def test_vehicles_show_their_facing_and_raised_pillars_show_upper_case():
    lines = draw(SIDE, raised=("A",), vehicles={sq("l12"): ("r", "BL"), sq("k7"): ("b", "F")},
                 tokens={SIDE.weapons[0]: "W"})
    assert _cell(lines, sq("l12")) == "r↙" and _cell(lines, sq("k7")) == "b↑"
    assert _cell(lines, SIDE.pillars["A"]) == "A " and _cell(lines, SIDE.weapons[0]) == "W "
