"""Component data files: loaded, validated, and errors name file and line/field."""

import shutil
from importlib import resources

import pytest

from trvendetta.core.errors import DataError
from trvendetta.vendetta import components as comp


def test_shipped_data_loads():
    c = comp.default()
    assert len(c.sides) == 10
    assert set(c.start_sides()) == {"the-parking-lot", "the-road-to-perdition"}
    assert sum(c.hazards.values()) == 26 and sum(c.damage.values()) == 20
    assert c.dice["shot"].faces == ("SM", "M", "L", "L", "L", "SML")
    assert c.crews["cars"].vehicles == ("small", "medium", "large")
    for side in c.sides.values():
        assert len(side.terrain) == 8 and all(len(r) == 6 for r in side.terrain)


def test_hazard_marks_on_the_starting_piece_carry_player_counts():
    lot = comp.default().sides["the-parking-lot"]
    assert {need for _, _, need in lot.hazards} == {2, 3, 4}
    assert all(need == 0 for _, _, need in comp.default().sides["choke"].hazards)


@pytest.fixture
def data(tmp_path):
    src = resources.files("trvendetta").joinpath("data", "vendetta")
    for name in ("tiles.txt", "dice.toml", "tokens.toml"):
        shutil.copy(str(src.joinpath(name)), tmp_path / name)
    return tmp_path


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_unknown_tile_symbol_names_file_and_line(data):
    _edit(data / "tiles.txt", "8  : : . . : :", "8  : : . X : :")
    with pytest.raises(DataError, match=r"tiles.txt: line \d+: unknown symbol 'X'"):
        comp.load(data)


def test_short_row_is_refused(data):
    _edit(data / "tiles.txt", "8  : : . . : :", "8  : : . . :")
    with pytest.raises(DataError, match="row has 5 lanes, expected 6"):
        comp.load(data)


def test_bad_die_face_names_the_field(data):
    _edit(data / "dice.toml", '"TOP", "TOP"', '"TOP", "SIDE"')
    with pytest.raises(DataError, match=r"dice.toml: dice.slam.faces: face 'SIDE'"):
        comp.load(data)


def test_unknown_token_names_the_field(data):
    _edit(data / "tokens.toml", "mine = 3", "mine = 3\nbanana = 2")
    with pytest.raises(DataError, match=r"tokens.toml: hazard.banana: unknown token"):
        comp.load(data)


def test_bad_toml_names_the_file(data):
    _edit(data / "tokens.toml", "mine = 3", "mine = = 3")
    with pytest.raises(DataError, match="tokens.toml: toml"):
        comp.load(data)


def test_the_final_five_crew_is_data(data):
    crew = comp.load(data).crews["finalfive"]
    assert (crew.kind, crew.size, crew.dice, crew.die, crew.slots, crew.coast) == ("motorcycle", "small", 6, "motorcycle", 1, 4)
    assert crew.vehicles == ("bike1", "bike2", "bike3", "bike4", "bike5")
    _edit(data / "tokens.toml", 'kind = "motorcycle"', 'kind = "hovercraft"')
    with pytest.raises(DataError, match=r"tokens.toml: crews.finalfive.kind: 'hovercraft'"):
        comp.load(data)


def test_a_crew_die_must_exist(data):
    _edit(data / "tokens.toml", 'die = "motorcycle"', 'die = "tricycle"')
    with pytest.raises(DataError, match=r"crews.finalfive.die: 'tricycle' is not a die"):
        comp.load(data)
