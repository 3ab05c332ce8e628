"""A game's components ride in its first event; its fold never reads a data file.

Vendetta is given its components (by default the shipped data files); a new
game records them in ``GameStarted.components`` and its state carries them,
so every rule reads the game's own data.  Games recorded before that fold
with the frozen version-1 data (``components_v1.v1()``).
"""

from pathlib import Path

import msgspec
import pytest

from trvendetta.core.errors import DataError, PositionError
from trvendetta.vendetta import Vendetta
from trvendetta.vendetta import components as comp
from trvendetta.vendetta.components_v1 import v1
from trvendetta.vendetta import events as ev
from trvendetta.vendetta.actions import AssignDie, NoCommand, Step

from .helpers import BASE

OLD_DATA = Path(__file__).resolve().parent.parent / "fixtures" / "vendetta-data-v1"  # the files at a83795a


def with_tokens(extra: str) -> comp.Components:
    """The shipped components with ``extra`` TOML appended to tokens.toml."""
    base = comp.default()
    text = (Path(comp.__file__).parent.parent / "data" / "vendetta" / "tokens.toml").read_text() + extra
    hazards, damage, crews, vehicles = comp.parse_tokens(text)
    return msgspec.structs.replace(base, hazards=hazards, damage=damage, crews=crews, vehicles=vehicles)


def test_v1_is_the_data_as_it_was_at_version_1():
    """The frozen copy equals the data files of main just before games recorded
    their components (kept under tests/fixtures), with the vehicle sizes that
    code hard-coded then."""
    frozen = v1()
    assert frozen.sides == comp.parse_tiles((OLD_DATA / "tiles.txt").read_text())
    assert frozen.dice == comp.parse_dice((OLD_DATA / "dice.toml").read_text())
    old_tokens = (OLD_DATA / "tokens.toml").read_text() + (
        '\n[vehicles.small]\nsize = "S"\n[vehicles.medium]\nsize = "M"\n[vehicles.large]\nsize = "L"\n'
        '[vehicles.motorcycle]\nsize = "S"\n')
    hazards, damage, crews, vehicles = comp.parse_tokens(old_tokens)
    assert (frozen.hazards, frozen.damage, frozen.crews, frozen.vehicles) == (hazards, damage, crews, vehicles)
    assert (frozen.lanes, frozen.rows) == (6, 8)


def test_a_new_game_records_its_components_in_the_first_event():
    rs = Vendetta(with_tokens(""))
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 3))
    assert isinstance(events[0], ev.GameStarted) and events[0].components == rs.components
    assert state.components == rs.components


def test_the_fold_reads_no_data_file(monkeypatch):
    """Set up, then fold and play with every way of reading the data files broken."""
    rs = Vendetta()
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 5))
    stored = [rs.decode_event(rs.encode(e)) for e in events]

    def refuse(*args, **kwargs):
        raise AssertionError("a data file was read")

    monkeypatch.setattr(comp, "load", refuse)
    monkeypatch.setattr(comp, "default", refuse)
    again = Vendetta().fold(stored)
    assert rs.encode(again) == rs.encode(state)
    after, _ = Vendetta().apply(again, Vendetta().legal_actions(again)[0])
    assert after.version > again.version


def test_editing_the_data_never_changes_an_old_game():
    """A game keeps the hazard mix it was set up with, whatever the ruleset is given later."""
    old = Vendetta()
    state, events = old.new_game(old.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 9))
    changed = Vendetta(msgspec.structs.replace(old.components, hazards={k: 1 for k in comp.HAZARD_KINDS}))
    refolded = changed.fold(changed.decode_event(old.encode(e)) for e in events)
    assert refolded.hazard_pile == state.hazard_pile != {k: 1 for k in comp.HAZARD_KINDS}
    assert changed.restart(events[0]) == events  # re-execution uses the recorded components


def test_a_game_recorded_before_components_folds_with_v1():
    """An old first event (no components key) is upcast to the version-1 data, and
    re-executing it gives back the same bytes (no components key)."""
    rs = Vendetta()
    _, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 4))
    old_first = msgspec.structs.replace(events[0], components=None)
    data = rs.encode(old_first)
    assert b"components" not in data
    decoded = rs.decode_event(data)
    assert decoded.components is None
    redone = rs.restart(decoded)
    assert rs.encode(redone[0]) == data
    assert rs.fold(redone).components == v1()


def test_an_old_snapshot_is_upcast_with_v1():
    rs = Vendetta()
    state, _ = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 4))
    raw = msgspec.json.decode(rs.encode(state))
    del raw["components"]
    assert rs.decode_state(msgspec.json.encode(raw)).components == v1()


def test_vehicle_kinds_are_data_a_three_section_rig_included():
    # (a kind of its own name: the shipped data has the Big Rig's kinds, bigrig and bigrig-SECTION)
    c = with_tokens('\n[vehicles.truck]\nsize = "L"\nsections = 3\n\n'
                    '[crews.rig]\nvehicles = ["truck", "small"]\ndice = 4\n')
    rs = Vendetta(c)
    state, _ = rs.new_game(rs.default_position([("ann", "red", "rig"), ("bob", "blue", "cars")], 1))
    rig = next(v for v in state.vehicles if v.id == "red-truck")
    assert (rig.kind, rig.size, rig.sections) == ("truck", "L", 3)
    assert all(v.sections == 1 for v in state.vehicles if v.id != "red-truck")


@pytest.mark.parametrize("extra, field", [
    ('\n[vehicles.trike]\nsize = "XL"\n', "vehicles.trike.size"),
    ('\n[vehicles.train]\nsize = "L"\nsections = 9\n', "vehicles.train.sections"),
    ('\n[crews.bikes]\nvehicles = ["bike"]\ndice = 4\n', "crews.bikes.vehicles"),
])
def test_bad_vehicle_data_names_the_field(extra, field):
    with pytest.raises(DataError, match=field.replace(".", r"\.")):
        with_tokens(extra)


def test_a_car_may_face_any_of_the_six_directions():
    """The arena's cars face any way: a step goes along the car's own front arc."""
    rs = Vendetta()
    data = {**BASE, "vehicles": [{"id": "red-medium", "at": "c5", "facing": "FR"}]}
    state, _ = rs.new_game(rs.position_from_dict(data))
    state, _ = rs.apply(state, AssignDie("red-medium", 2))
    state, _ = rs.apply(state, NoCommand())
    state, _ = rs.apply(state, Step("F"))
    from trvendetta.core import geometry

    car = next(v for v in state.vehicles if v.id == "red-medium")
    assert car.facing == "FR" and car.at == geometry.neighbour(geometry.parse("c5"), "F", "FR")
    with pytest.raises(PositionError, match="facing"):
        rs.position_from_dict({**BASE, "vehicles": [{"id": "red-medium", "at": "c5", "facing": "up"}]})
