"""Carnival component data: the arena sides and cards load, validate, and
errors name the file and the line or field (rulebook "Setup"; our design)."""

import shutil
from importlib import resources

import msgspec
import pytest

from trvendetta.carnival import components as comp
from trvendetta.core import geometry
from trvendetta.core.errors import DataError

SHIPPED = comp.default()


@pytest.mark.parametrize("side", comp.SIDES)
def test_each_side_has_the_rulebook_parts(side):
    arena = SHIPPED.sides[side]
    assert sorted(arena.pillars) == list("ABCDEFGHI")
    assert len(arena.weapons) == 6 and arena.spotlights and arena.favors
    specials = [*arena.pillars.values(), *arena.weapons, *arena.spotlights, *arena.favors]
    assert len(set(specials)) == len(specials) and set(specials) <= set(arena.arena)
    assert [s.number for s in arena.slots] == [1, 2, 3]
    # three road tiles facing three different ways into the arena, none overlapping it or each other
    assert len({s.forward for s in arena.slots}) == 3
    road = [sp for s in arena.slots for sp in s.spaces]
    assert len(road) == len(set(road)) == 3 * 36 and not set(road) & set(arena.arena)
    for slot in arena.slots:
        for entrance in slot.entrances:
            assert entrance in arena.arena
            assert any(entrance in geometry.arc(s, slot.forward) for s in slot.spaces)


def test_a_slot_lays_a_road_tile_lane_by_lane_and_row_by_row():
    slot = SHIPPED.sides["haulasseum"].slots[0]
    assert slot.forward == "F" and geometry.name(slot.rear_left) == "i2"
    assert [geometry.name(s) for s in slot.spaces[:6]] == ["i2", "j2", "k2", "l2", "m2", "n2"]
    assert geometry.name(slot.spaces[6]) == "i3"  # row 2, lane a
    assert slot.local(geometry.parse("k4")) == (2, 2)
    turned = comp.slot_spaces((5, 5), "BR")
    assert turned[1] == geometry.neighbour((5, 5), "FR", "BR")  # lane b: one step to the tile's front right
    assert turned[6] == geometry.neighbour((5, 5), "F", "BR")  # row 2: one step forward, turned


def test_slaytona_is_the_brutal_side_pillars_on_entrances():
    for side, expected in (("haulasseum", 0), ("slaytona", 3)):
        arena = SHIPPED.sides[side]
        entrances = {e for s in arena.slots for e in s.entrances}
        assert len(set(arena.pillars.values()) & entrances) == expected


def test_cards_and_mixes():
    assert len(SHIPPED.tina) == 9 and SHIPPED.game.tina_deck == 5
    assert {c.decree for c in SHIPPED.tina} == set(comp.DECREES)
    assert sum(SHIPPED.super_weapons.values()) == 12 and set(SHIPPED.super_weapons) == set(comp.SUPER_WEAPONS)
    assert SHIPPED.party_favors == {k: 5 for k in comp.PARTY_FAVORS}
    assert SHIPPED.game.players == (2, 4)


def test_components_encode_and_decode_without_loss():
    data = msgspec.json.encode(SHIPPED)
    assert msgspec.json.decode(data, type=comp.CarnivalComponents) == SHIPPED


@pytest.fixture
def data(tmp_path):
    src = resources.files("trvendetta").joinpath("data", "carnival")
    for name in ("arena.txt", "cards.toml"):
        shutil.copy(str(src.joinpath(name)), tmp_path / name)
    return tmp_path


def _edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, count))


def test_unknown_symbol_names_file_and_line(data):
    _edit(data / "arena.txt", "S   A", "S   X")
    with pytest.raises(DataError, match=r"arena.txt: line \d+: unknown symbol 'X'"):
        comp.load(data)
    _edit(data / "arena.txt", "S   X", "S   A")
    with pytest.raises(DataError, match=r"killer pillar A once, found 0"):
        _edit(data / "arena.txt", "S   A", "S   .")
        comp.load(data)


def test_a_symbol_between_spaces_is_refused(data):
    _edit(data / "arena.txt", "S   A", "S  A ")
    with pytest.raises(DataError, match=r"arena.txt: line \d+: symbol 'A' in column \d+ is not on a space"):
        comp.load(data)


def test_five_super_weapon_spaces_are_refused(data):
    _edit(data / "arena.txt", "W   .   .   .", ".   .   .   .")
    with pytest.raises(DataError, match="has 5 super-weapon spaces, expected 6"):
        comp.load(data)


def test_a_slot_that_disagrees_with_the_map_names_the_spaces(data):
    _edit(data / "arena.txt", "slot 1 | forward F | rear-left i2", "slot 1 | forward F | rear-left i3")
    with pytest.raises(DataError, match=r"line \d+: slot 1 covers 36 spaces but the map draws 36 with '1'; differing at"):
        comp.load(data)


def test_a_missing_side_is_named(data):
    text = (data / "arena.txt").read_text()
    (data / "arena.txt").write_text(text[: text.index("= slaytona")])
    with pytest.raises(DataError, match=r"arena.txt: sides: missing side\(s\) slaytona"):
        comp.load(data)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('decree = "danger-ahead"', 'decree = "no-brakes"', r"tina\[1\].decree: 'no-brakes'; one of"),
    ('pillars = ["H"]', 'pillars = ["J"]', r"tina\[3\].pillars: must list killer pillars among A-I"),
    ("tina_deck = 5", "tina_deck = 10", r"game.tina_deck: Tina's deck of 10 must be drawn from the 9 cards"),
    ("thwumper = 1", "thumper = 1", r"super_weapons.thumper: unknown kind"),
    ("players = [2, 4]", "players = [1, 4]", r"game.players: must be \[fewest, most\] within 2-5"),
])
def test_card_errors_name_the_field(data, old, new, message):
    _edit(data / "cards.toml", old, new)
    with pytest.raises(DataError, match=rf"cards.toml: {message}"):
        comp.load(data)
