"""States stored before each crew's state had a struct of its own still load.

``tests/fixtures/states-e966cae/`` was written by main at e966cae (``make_states.py``
there), when the Big Rig's round and turn state and the Final Five's second motorcycle
were flat fields of ``Player`` and ``Turn``: snapshots as the engine encoded them, and a
store whose snapshots and index rows hold them.  Decoding one upcasts those fields into
the crews' own structs, so it is the state the same events fold to now; the records and
events themselves never changed shape.
"""

import gzip
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta import replays, rulesets
from trvendetta.cli.main import cli
from trvendetta.store import GameStore

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "states-e966cae"
with gzip.open(HERE / "states.json.gz", "rt", encoding="utf-8") as _f:
    GAMES = {g["game"]: g for g in json.load(_f)}


def _old_shape(data: bytes) -> bool:
    """The flat fields of the old shape: a player's (every state has players), a turn's (when it has one)."""
    return b'"steering_set":' in data and (b'"turn":null' in data or b'"second_die":' in data)


def _folds(game: dict):
    """(number, state) after each event of ``game``, folded by the current code."""
    rs = rulesets.get(game["ruleset"])
    state = rs.initial_state()
    for number, data in enumerate(game["events"], 1):
        state = rs.evolve(state, rs.decode_event(data.encode()))
        yield number, state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_old_snapshot_decodes_into_the_state_its_events_fold_to(name):
    game = GAMES[name]
    rs = rulesets.get(game["ruleset"])
    checked = 0
    for number, state in _folds(game):
        old = game["states"].get(str(number))
        if old is None:
            continue
        assert _old_shape(old.encode())  # the fixture is of the old shape
        assert rs.decode_state(old.encode()) == state, number
        assert rs.decode_state(old) == state, number
        checked += 1
    assert checked == len(game["states"])
    assert rs.view(state) == game["view"]  # what `trv show --json` showed of it then


def test_the_old_snapshots_hold_crew_state_that_was_not_the_default():
    """The upcast is tested where it matters: states whose old fields say something."""
    states = [json.loads(s) for g in GAMES.values() for s in g["states"].values()]
    players = [p for s in states for p in s["players"]]
    turns = [s["turn"] for s in states if s["turn"] is not None]
    assert any(p["steering"] for p in players) and any(p["steering_set"] for p in players)
    assert any(p["sections_used"] for p in players) and any(p["unplaced"] for p in players)
    for field in ("second", "second_die", "section", "command", "active", "targeting", "after_done", "shot_target"):
        assert any(t[field] for t in turns), field


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "games.sqlite"
    shutil.copyfile(HERE / "games.sqlite", path)
    return path


def test_an_old_stores_snapshots_and_index_copies_load_as_the_events_fold(store):
    with GameStore(store) as s:
        for name, game in GAMES.items():
            folded = dict(_folds(game))
            snaps = s.snapshots(name)
            assert snaps and all(snap.problem is None for snap in snaps), [snap.problem for snap in snaps]
            for snap in snaps:
                assert snap.state == folded[snap.number], (name, snap.number)
            copy = s.index_state(name)
            assert copy is not None and copy.problem is None and copy.state == folded[copy.number]
            assert s.load(name).state == folded[len(game["events"])]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_old_store_verifies_and_shows_what_main_showed(store, name):
    with GameStore(store) as s:
        assert replays.verify_game(s, name).events == len(GAMES[name]["events"])
    env = {"TRV_GAME": None, "TRV_DB": None, "TRV_STORE": None, "NO_COLOR": "1"}
    result = CliRunner().invoke(cli, ["--db", str(store), "--game", name, "show", "--json"], env=env)
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    for key, value in GAMES[name]["view"].items():
        assert shown[key] == value, key


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_state_of_the_current_shape_is_never_taken_for_the_old_one(name):
    """The crews' structs have fields of the old flat fields' names (the Big Rig's ``steering``):
    only where a player's fields run on after ``turns`` is a state of the old shape."""
    from trvendetta.vendetta import stored

    game = GAMES[name]
    rs = rulesets.get(game["ruleset"])
    for number, state in _folds(game):
        data = rs.encode(state)
        assert not stored.old_shape(data) and rs.decode_state(data) == state, number
        if str(number) in game["states"]:
            assert stored.old_shape(game["states"][str(number)].encode())
