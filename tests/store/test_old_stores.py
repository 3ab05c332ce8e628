"""Stores written by earlier mains still load, show, fold and verify, and
take new commands; nothing stored is rewritten: one before the compact record
format (plain JSON), one from before the snapshots' shared parts and the hashes
cut out of packed records (records packed with mark 1, whole snapshots), and
one from before the time stamps were cut out too (records and snapshots packed
with mark 2), one from before a chunk was one row (set-ups
and forks in chunks of marks 4 and 5, a row a record), and one from before
every save was a lean chunk (mark 6 rows, a turn of one record packed alone
with mark 3).

The fixtures and what main said about them were made by ``fixtures/make_old_store.py``.
"""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta import replays, rulesets
from trvendetta.bots import get_bot
from trvendetta.cli.main import cli
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore
from trvendetta.store.quick import QuickReader

HERE = Path(__file__).resolve().parent / "fixtures"
#: fixture name -> what main said about each of its games
SAID = {name: json.loads((HERE / f"{name}.json").read_text())
        for name in ("main-2026-11-30", "main-2026-11-30-packed", "main-2026-12-01-mark2", "main-2026-12-01-chunks",
                     "main-2026-12-01-mark6")}
CASES = [(fixture, game) for fixture, games in SAID.items() for game in sorted(games)]


def records_digest(store, game):
    from hashlib import sha256

    h = sha256()
    for e in store.events(game, decode=False):
        h.update(repr((e.number, e.kind, e.ruleset, e.schema, e.payload, e.hash, e.previous, str(e.recorded_at),
                       e.action, e.sig)).encode())
    return h.hexdigest()


@pytest.fixture(params=sorted(SAID))
def fixture(request):
    return request.param


@pytest.fixture
def old(tmp_path, fixture):
    """A copy of the fixture (commands touch the index; the fixture stays as main wrote it)."""
    path = tmp_path / "old.sqlite"
    shutil.copyfile(HERE / f"{fixture}.sqlite", path)
    return path


def _rows(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT originator_id, originator_version, topic, state FROM stored_events "
                           "ORDER BY originator_id, originator_version").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("fixture, game", CASES)
def test_every_old_game_reads_as_main_read_it(old, fixture, game):
    said = SAID[fixture][game]
    with GameStore(old) as s:
        assert records_digest(s, game) == said["records_sha256"]
        loaded = s.load(game)
        assert (loaded.version, loaded.head) == (said["version"], said["head"])
        assert s.verify(game) == said["head"]
        assert sorted(s.retracted(game)) == said["retracted"]
        header = s.header(game)
        assert list(header[1:7]) + [str(header.created)] == said["header"]
        assert replays.verify_game(s, game).head == said["head"]
        assert s.info(game).head == said["head"]
    reader = QuickReader.open(old)
    with reader:
        quick = reader.load(game)
    assert quick is None or (quick.version, quick.head, quick.state) == (loaded.version, loaded.head, loaded.state)
    runner = CliRunner()
    env = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}
    shown = runner.invoke(cli, ["--db", str(old), "--game", game, "show", "--json"], env=env)
    assert shown.exit_code == 0 and json.loads(shown.stdout)["head"] == said["head"]
    verified = runner.invoke(cli, ["--db", str(old), "--game", game, "verify"], env=env)
    assert verified.exit_code == 0
    assert verified.stdout.splitlines()[0] == said["verify"].splitlines()[0]


def test_old_games_take_new_commands_without_rewriting_a_row(old, fixture):
    before = _rows(old)
    rs = rulesets.get("vendetta")
    with GameStore(old) as s:
        loaded = s.load("duel")
        bot, rng = get_bot("random"), Rng(5, 5)
        for _ in range(3):
            action = bot.choose(rs, loaded.state, rng)
            _, events = rs.apply(loaded.state, action)
            loaded = s.append("duel", loaded.version, steps=[(action, events)])
        assert s.verify("duel") == loaded.head
        assert replays.verify_game(s, "duel").head == loaded.head
        assert [e.number for e in s.events("duel", decode=False)] == list(range(1, loaded.version + 1))
    after = _rows(old)
    assert set(before) <= set(after)  # every old row is still there, byte for byte
    # one row a command: its records in one chunk when it has several (``store.chunks``, mark 6)
    assert len(after) == len(before) + 3 and loaded.version - SAID[fixture]["duel"]["version"] > 3


@pytest.mark.parametrize("fixture", sorted(set(SAID) - {"main-2026-12-01-mark6"}))  # written after it was dropped
def test_an_old_stores_games_index_loses_only_its_last_used_index(old, fixture):
    """The games index's ``last_used`` index (every turn moved its entry) is dropped
    when an old store is opened; its rows, and the order ``trv games`` lists them
    in, stay as they were."""
    from trvendetta.store.index import OLD_INDEX

    def names(path):
        con = sqlite3.connect(path)
        try:
            return {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        finally:
            con.close()

    assert OLD_INDEX in names(old)
    con = sqlite3.connect(old)
    rows = con.execute("SELECT * FROM trv_games ORDER BY last_used DESC, id").fetchall()
    con.close()
    with GameStore(old) as s:
        listed = [g.id for g in s.list_games()]
    assert OLD_INDEX not in names(old) and "trv_games" in names(old)
    assert listed == [r[0] for r in rows]
    con = sqlite3.connect(old)
    assert con.execute("SELECT * FROM trv_games ORDER BY last_used DESC, id").fetchall() == rows
    con.close()
