"""Games written by an older main still load, show, fold and verify.

``tests/fixtures/main-262c54d/`` was written by main at 262c54d (before
Vendetta's components rode in the first event): a store with five games
(bots to the end, an open game with undos, classic, a position with a
script) and each game's exported record, with what ``show --json``, ``log``
and ``games --json`` printed then.  Old events are upcast when read, never
rewritten, so every output must stay byte for byte what it was (but for
the log sentences corrected since, ``tests/corrected.py``).
"""

import json
import shutil
from pathlib import Path

import pytest
from corrected import as_said_now  # tests/ is on sys.path (rootdir conftest)
from old_stores import upgraded  # tests/ is on sys.path (rootdir conftest)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "main-262c54d"
GAMES = ("v-bots", "v-open", "c-bots", "c-open", "v-pos")


@pytest.fixture
def old_db(tmp_path):
    db = tmp_path / "games.sqlite"
    upgraded(FIXTURES / "games.sqlite", db)
    return db


def same_as_then(shown: dict, then: dict) -> None:
    """Everything ``show --json`` printed then, it prints the same now (later
    versions may add keys, such as the picture's ``board``)."""
    assert {k: shown.get(k) for k in then} == then


@pytest.mark.parametrize("game", GAMES)
def test_old_store_shows_logs_and_verifies(trv, old_db, game):
    shown = json.loads(trv(old_db, "--game", game, "show", "--json").stdout)
    same_as_then(shown, json.loads((FIXTURES / f"{game}.show.json").read_text()))
    then = as_said_now((FIXTURES / f"{game}.log.txt").read_text())
    assert trv(old_db, "--game", game, "log").stdout == then  # (the sentences corrected since said anew)
    assert f"OK: {shown['version']} events, head {shown['head']}" in trv(old_db, "--game", game, "verify").stdout


def test_old_store_lists_its_games(trv, old_db):
    listed = json.loads(trv(old_db, "games", "--json").stdout)
    then = json.loads((FIXTURES / "games.json").read_text())
    keep = ("id", "ruleset", "players", "round", "status", "winner", "version", "head")
    assert [{k: g[k] for k in keep} for g in listed] == [{k: g[k] for k in keep} for g in then]


@pytest.mark.parametrize("game", GAMES)
def test_old_records_import_fold_and_verify(trv, tmp_path, game):
    db = tmp_path / "fresh.sqlite"
    trv(db, "import", FIXTURES / f"{game}.trv")
    shown = json.loads(trv(db, "--game", game, "show", "--json").stdout)
    expected = json.loads((FIXTURES / f"{game}.show.json").read_text())
    same_as_then(shown, expected)
    assert f"OK: {expected['version']} events, head {expected['head']}" in trv(db, "--game", game, "verify").stdout


def test_an_old_open_game_goes_on(trv, old_db):
    """A game begun before the change takes new actions (and they verify)."""
    legal = json.loads(trv(old_db, "--game", "v-open", "legal", "--json").stdout)
    trv(old_db, "--game", "v-open", "act", json.dumps(legal[0]))
    assert "OK" in trv(old_db, "--game", "v-open", "verify").stdout


def test_an_old_game_imported_or_forked_keeps_its_rules_version(trv, tmp_path, old_db):
    """A record of Vendetta rules version 1 stays version 1 in the store that imports it and in
    its forks: its header is its first event's, so it exports and verifies as it was."""
    db = tmp_path / "fresh.sqlite"
    trv(db, "import", FIXTURES / "v-open.trv")
    assert '[RulesVersion "1"]' in trv(db, "export", "v-open").stdout
    trv(old_db, "fork", "v-open", "--at", 15, "--name", "v-what-if")
    forked = trv(old_db, "export", "v-what-if").stdout
    assert '[RulesVersion "1"]' in forked and "OK: " in trv(old_db, "--game", "v-what-if", "verify").stdout
    trv(db, "new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3", "--name", "now")
    assert '[RulesVersion "2"]' in trv(db, "export", "now").stdout
