"""The arena drawn as text with facing arrows."""

from trvendetta.carnival import components as comp
from trvendetta.carnival.render import draw, label
from trvendetta.core import geometry

SIDE = comp.default().sides["haulasseum"]
sq = geometry.parse


def _cell(lines, space):
    lane, y = space
    line = next(l for l in lines if l[:3] == label(y))
    return line[4 + 2 * lane: 6 + 2 * lane]


def test_the_drawing_keeps_the_shape_of_the_data_file():
    lines = draw(SIDE)
    rows = 1 + max(s[1] for s in SIDE.slots[1].spaces) - min(s[1] for s in SIDE.slots[0].spaces)
    assert len(lines) == 2 + rows  # the lane letters above and below
    assert _cell(lines, sq("l12")) == "S " and _cell(lines, sq("k7")) == "= "
    assert _cell(lines, SIDE.pillars["A"]) == "a_"  # never a car's glyph and arrow (b↑: an inoperable blue car)


def test_vehicles_show_their_facing_and_raised_pillars_show_upper_case():
    lines = draw(SIDE, raised=("A",), vehicles={sq("l12"): ("r", "BL"), sq("k7"): ("b", "F")},
                 tokens={SIDE.weapons[0]: "W"})
    assert _cell(lines, sq("l12")) == "r↙" and _cell(lines, sq("k7")) == "b↑"
    assert _cell(lines, SIDE.pillars["A"]) == "A#" and _cell(lines, SIDE.weapons[0]) == "W "


def test_each_spaces_name_is_read_off_the_drawing_by_its_column_letter_and_line_number():
    for side in comp.default().sides.values():
        lines = draw(side)
        assert lines[0] == lines[-1] and lines[0].split()[:3] == ["a", "b", "c"]
        top = max(s[1] for s in [*side.arena, *(s for slot in side.slots for s in slot.spaces)])
        for i, line in enumerate(lines[1:-1]):
            for col in range(4, len(line), 2):
                if line[col] != " ":  # a space: the letter above its column, the number heading its line
                    assert geometry.name(((col - 4) // 2, top - i)) == f"{lines[0][col]}{int(line[:2])}"
