"""The foundation board's road tiles (rulebook "Setup" 1-3)."""

from trvendetta.carnival import components as comp
from trvendetta.carnival import foundation
from trvendetta.core import geometry
from trvendetta.core.rng import Rng

COMPONENTS = comp.default()
SIDE, VENDETTA = COMPONENTS.sides["slaytona"], COMPONENTS.vendetta
TILES = ("choke", "the-parking-lot", "mudhole")


def test_three_sides_of_three_different_tiles():
    for seed in range(10):
        tiles = foundation.choose_tiles(VENDETTA, Rng(seed))
        assert len({VENDETTA.sides[t].tile for t in tiles}) == 3
    assert foundation.choose_tiles(VENDETTA, Rng(3)) == foundation.choose_tiles(VENDETTA, Rng(3))


def test_terrain_reads_each_tile_in_its_own_frame():
    slot2 = SIDE.slots[1]  # runs BR: its lane a / row 1 corner is its rear_left
    choke = VENDETTA.sides["choke"].terrain
    assert foundation.terrain(SIDE, VENDETTA, TILES, SIDE.slots[0].spaces[2 * 6 + 0]) == choke[2][0]
    lot = VENDETTA.sides["the-parking-lot"].terrain
    for lane, row in ((0, 0), (3, 4), (5, 5)):
        assert foundation.terrain(SIDE, VENDETTA, TILES, slot2.spaces[row * 6 + lane]) == lot[row][lane]
    assert foundation.terrain(SIDE, VENDETTA, TILES, geometry.parse("l12")) == "road"
    assert foundation.terrain(SIDE, VENDETTA, TILES, geometry.parse("a1")) is None


def test_favors_go_on_arena_marks_and_uncovered_hazard_spaces_whatever_the_player_count():
    spaces = foundation.favor_spaces(SIDE, VENDETTA, TILES)
    lot = VENDETTA.sides["the-parking-lot"]
    lot_spaces = {SIDE.slots[1].spaces[row * 6 + lane] for lane, row, _ in lot.hazards if row < 6}
    assert {need for lane, row, need in lot.hazards if row < 6} >= {2, 3}  # marks for 3 and 4 players count too
    assert lot_spaces <= set(spaces) and set(SIDE.favors) <= set(spaces)
    covered = [(lane, row) for lane, row, _ in VENDETTA.sides["choke"].hazards if row >= 6]
    assert covered and len(spaces) == len(SIDE.favors) + sum(
        sum(1 for _, row, _ in VENDETTA.sides[t].hazards if row < 6) for t in TILES)
