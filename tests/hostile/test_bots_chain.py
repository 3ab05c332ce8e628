"""Bot seats are in the hash chain (issue 17): a game's genesis covers them
(store schema 2), so its id commits to who the bots are and a record whose
Bots tag was edited fails verify at event 1.  Games stored before (schema
1, the fixture store of main-262c54d) keep their bots outside the chain:
they still load, verify, export, import, fork and copy, and verify says
their bots are outside the chain."""

import json
import re
import shutil
from pathlib import Path

import pytest

from .helpers import stored_rows
from old_stores import upgraded  # tests/ is on sys.path (rootdir conftest)

OLD = Path(__file__).resolve().parent.parent / "fixtures" / "main-262c54d"
BOTS_LINE = "bots: the bot seats are outside the hash chain"


def _tag(text: str, tag: str, value: str | None) -> str:
    if value is None:
        return re.sub(rf'^\[{tag} ".*"\]\n', "", text, flags=re.M)
    return re.sub(rf'^\[{tag} ".*"\]$', lambda m: f'[{tag} "{value}"]', text, flags=re.M)


def test_the_game_id_commits_to_the_bot_seats(tmp_path):
    """The same set-up stored with other bot seats (or none) is another game."""
    from trvendetta import rulesets
    from trvendetta.store import GameStore, genesis

    rs = rulesets.get("vendetta")
    _, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 5))
    ids = {}
    with GameStore(tmp_path / "a.sqlite") as store:
        for n, bots in enumerate([None, {"bob": "greedy"}, {"bob": "random"}, {"ann": "greedy", "bob": "greedy"}]):
            ids[n] = store.create_game(f"g{n}", "vendetta", events, bots=bots).head
    assert len(set(ids.values())) == 4
    with GameStore(tmp_path / "b.sqlite") as store:  # the same game, the same id, from any store
        assert store.create_game("other-name", "vendetta", events, bots={"bob": "greedy"}).head == ids[1]
        assert store.header("other-name").genesis == genesis("", '{"bob":"greedy"}')


@pytest.fixture
def duel(trv):
    trv("new", "--name", "duel", "--seed", 5, "--player", "ann:red", "--bot", "greedy:blue:cars")
    return trv("export", "duel").stdout


@pytest.mark.parametrize("bots", [
    '{\\"greedy-blue\\":\\"random\\"}',  # another bot
    '{\\"ann\\":\\"greedy\\",\\"greedy-blue\\":\\"greedy\\"}',  # a human seat handed to a bot
    None,  # the tag removed: nobody plays blue any more
])
def test_an_edited_bots_tag_fails_verify_at_event_1(trv, tmp_path, duel, bots):
    path = tmp_path / "d.trv"
    path.write_text(_tag(duel, "Bots", bots), encoding="utf-8")
    err = trv("verify", path, code=1).stderr
    assert err.startswith("Error: event 1: ") and "Bots" in err, err
    other = tmp_path / "other.sqlite"
    assert "event 1: " in trv("import", path, db=other, code=1).stderr
    assert stored_rows(other) == 0


def test_a_bot_game_round_trips_and_says_nothing_of_its_bots(trv, tmp_path, duel):
    (tmp_path / "d.trv").write_text(duel, encoding="utf-8")
    assert BOTS_LINE not in trv("verify", tmp_path / "d.trv").stdout
    other = tmp_path / "other.sqlite"
    trv("import", tmp_path / "d.trv", db=other)
    assert trv("export", "duel", db=other).stdout == duel
    assert BOTS_LINE not in trv("verify", "duel", db=other).stdout


@pytest.fixture
def old_db(tmp_path):
    db = tmp_path / "old.sqlite"
    upgraded(OLD / "games.sqlite", db)
    return db


@pytest.mark.parametrize("game", ["v-bots", "c-bots"])
def test_an_old_bot_game_keeps_verifying_and_says_its_bots_are_outside_the_chain(trv, tmp_path, old_db, game):
    shown = json.loads(trv("--game", game, "show", "--json", db=old_db).stdout)
    out = trv("verify", game, db=old_db).stdout
    assert f"OK: {shown['version']} events, head {shown['head']}" in out and BOTS_LINE in out
    record = trv("export", game, db=old_db).stdout
    assert '[Bots "' in record and shown["head"] in record
    path = tmp_path / f"{game}.trv"
    path.write_text(record, encoding="utf-8")
    assert BOTS_LINE in trv("verify", path).stdout
    fresh = tmp_path / "fresh.sqlite"
    trv("import", path, db=fresh)  # imported as it was stored: its chain without its bots
    assert trv("export", game, db=fresh).stdout == record
    assert BOTS_LINE in trv("verify", game, db=fresh).stdout
    # an edited Bots tag on such a record changes no hash: verify says the bots are outside the chain,
    # and a seat or bot that does not exist is still refused by name
    path.write_text(_tag(record, "Bots", '{\\"zed\\":\\"greedy\\"}'), encoding="utf-8")
    assert "the header's Bots names 'zed'" in trv("verify", path, code=1).stderr


def test_a_fork_and_a_copy_of_an_old_bot_game_keep_its_chain(trv, tmp_path, old_db):
    from trvendetta.store import GameStore
    from trvendetta.app.stores import copy_game

    trv("fork", "v-bots", "--at", 14, "--name", "v-fork", db=old_db)
    assert "OK: " in trv("verify", "v-fork", db=old_db).stdout
    target = tmp_path / "copy.sqlite"
    with GameStore(old_db) as source, GameStore(target) as dest:
        copy_game(source, dest, "v-bots")
    out = trv("verify", "v-bots", db=target).stdout
    assert "OK: " in out and BOTS_LINE in out
