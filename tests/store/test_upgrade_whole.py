"""`trv store upgrade` never loses a record (docs/store.md, "Older stores"): a game of an older store whose
accounts disagree (its rows through the table's index and without it, the games index's count and head,
its snapshots), or whose rows cannot be read, is named in one line each and nothing is written (exit 1);
the new store appears only when complete, and a run that stopped (a fault injected between two games,
or the process killed there) leaves only its temporary file, which the next run removes, starting clean.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostile.helpers import sql  # tests/ is on sys.path (rootdir conftest)
from trvendetta.cli.main import cli
from trvendetta.store import GameStore

HERE = Path(__file__).resolve().parent / "fixtures"
OLD = "main-98de825"  # the older layout: a row a record, its index a separate B-tree
LAYOUT2 = "main-55e2233-layout2"
ENV = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}


def said(fixture):
    return json.loads((HERE / f"{fixture}.json").read_text())


def old_copy(tmp_path, fixture=OLD):
    path = tmp_path / "old.sqlite"
    shutil.copyfile(HERE / f"{fixture}.sqlite", path)
    return path


def upgrade(old, *args):
    return CliRunner().invoke(cli, ["--db", str(old), "store", "upgrade", *args], env=ENV)


def refused(result, old):
    """The run named its problems in lines, wrote nothing and left the old store as it was."""
    assert result.exit_code == 1, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("Error: the old store cannot be upgraded whole") and "nothing was written" in lines[-1]
    assert sorted(p.name for p in old.parent.iterdir()) == ["old.sqlite"]  # no target, no temporary file
    return lines[:-1]



def game_id(old, fixture, game):
    """The id the game's rows are stored under, as stored."""
    from trvendetta.store.records import game_key

    key = game_key(game)
    con = sqlite3.connect(old)
    try:
        for (oid,) in con.execute("SELECT DISTINCT originator_id FROM stored_events"):
            if (oid.hex() if isinstance(oid, bytes) else oid) == key:
                return oid
    finally:
        con.close()
    raise AssertionError(game)


@pytest.mark.parametrize("fixture, header", [(OLD, 1), (LAYOUT2, 0)])
def test_a_cut_off_tail_is_named_never_brought_over_shorter(tmp_path, fixture, header):
    """The rows after event 230 of the 276 of 'long' are gone (a cut-off tail): the records left still
    chain, so only the games index, which says 276, tells. Old main brought 229 or 230 events over,
    "verified", exit 0."""
    old = old_copy(tmp_path, fixture)
    sql(old, "DELETE FROM stored_events WHERE originator_id = ? AND originator_version > 230",
        game_id(old, fixture, "long"))
    lines = refused(upgrade(old), old)
    assert len(lines) == 1 and lines[0].startswith("game 'long': the games index says 276 events")
    assert lines[0].endswith("records were lost")


#: bit flips in the B-tree of the events table's index (page 20, 21, 33, 45, 61 of the fixture), each of
#: which made old main bring a game over shorter (long with 165, 47, 247, 264 of its 276; what-if with 7
#: of 58; duel with 4 of 64), "verified", exit 0
FLIPS = [83245, 79997, 131231, 248569, 12220, 182450, 219632]


@pytest.mark.parametrize("position", FLIPS)
def test_a_damaged_table_index_that_hides_rows_is_named(tmp_path, position):
    old = old_copy(tmp_path)
    data = bytearray(old.read_bytes())
    data[position] ^= 0x10
    old.write_bytes(bytes(data))
    lines = refused(upgrade(old), old)
    assert any(line.startswith("the old store's file fails SQLite's integrity check: ") for line in lines)
    (hidden,) = [line for line in lines if line.startswith("game ")]
    assert "hidden: a damaged index" in hidden


def test_no_bit_flip_in_the_index_brings_a_game_over_shorter(tmp_path):
    """Over flips spread through every page of the events table's index: either every game comes over
    whole (same events and head as main read) with exit 0, or the run names a problem and writes
    nothing; never a traceback."""
    expected = said(OLD)
    con = sqlite3.connect(HERE / f"{OLD}.sqlite")
    pages = [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_stored_events_1'")]
    con.close()
    source = (HERE / f"{OLD}.sqlite").read_bytes()
    outcomes = set()
    for page in pages:
        for offset in (8, 1500, 2900, 4000):
            folder = tmp_path / f"{page}-{offset}"
            folder.mkdir()
            old = folder / "old.sqlite"
            data = bytearray(source)
            data[(page - 1) * 4096 + offset] ^= 0x04
            old.write_bytes(bytes(data))
            result = upgrade(old)
            assert result.exit_code in (0, 1) and (result.exception is None or
                                                   isinstance(result.exception, SystemExit)), result.exception
            if result.exit_code == 1:
                assert not (folder / "old.v3.sqlite").exists() and result.stderr.strip().startswith(("game ", "the "))
            else:
                with GameStore(folder / "old.v3.sqlite") as s:
                    assert {g.id: (g.version, g.head) for g in s.list_games()} == \
                        {g: (v["version"], v["head"]) for g, v in expected.items()}
            outcomes.add(result.exit_code)
    assert outcomes == {0, 1}  # both happen: the flips are not all harmless, nor all caught by luck


def test_damaged_rows_give_a_line_each_never_a_traceback(tmp_path):
    """A header row under a badly formed id, another under 16 bytes that are no game's, and a header
    row whose state does not decode (the library's mapper fails on it): old main stopped with a
    traceback on each."""
    old = old_copy(tmp_path)
    duel, bots, classic = (game_id(old, OLD, g) for g in ("duel", "bots", "classic"))
    sql(old, "UPDATE stored_events SET originator_id = 'not-a-uuid' WHERE originator_id = ? "
        "AND originator_version = 1", duel)
    sql(old, "UPDATE stored_events SET originator_id = ? WHERE originator_id = ? AND originator_version = 1",
        b"0123456789abcdef", bots)
    sql(old, "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 1",
        b"\x01not the record", classic)
    lines = refused(upgrade(old), old)
    assert len(lines) == 5, lines
    assert lines[0] == "the header row under id 'not-a-uuid' names game 'duel', whose id is " \
                       "d06ee5029acb58bfa50789d41862a168: a damaged row"
    assert lines[1].startswith("the header row under id 30313233343536373839616263646566 names game 'bots'")
    assert lines[2].startswith("the header row of the game stored under id 15676056b01055b8ae6a5047973a307d "
                               "cannot be read (the stored record does not decode")
    assert lines[3:] == [f"rows {rows} under id {key} belong to no game or tournament of the store (a damaged "
                         "header row, or a damaged id)" for rows, key in (("2-65 (64)", "d06ee5029acb58bfa50789d41862a168"),
                                                                        ("2-34 (33)", "c519624bceba5786a372db82d8502990"))]


def test_a_game_left_out_as_asked_lets_the_others_over(tmp_path):
    old = old_copy(tmp_path)
    sql(old, "DELETE FROM stored_events WHERE originator_id = ? AND originator_version > 230",
        game_id(old, OLD, "long"))
    result = upgrade(old, "--leave-out", "long")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].endswith("left out as asked: long")
    with GameStore(tmp_path / "old.v3.sqlite") as s:
        assert sorted(g.id for g in s.list_games()) == sorted(set(said(OLD)) - {"long"})
    result = upgrade(old, "--to", str(tmp_path / "other.sqlite"), "--leave-out", "nosuch")
    assert result.exit_code == 1 and "--leave-out 'nosuch': no such game in the old store" in result.stderr


def _heads(db):
    with GameStore(db) as s:
        return {g.id: (g.version, g.head) for g in s.list_games()}


def test_a_fault_between_two_games_leaves_no_target_and_the_next_run_starts_clean(tmp_path, monkeypatch):
    """A fault injected after the second game is written: the target does not exist (old main left one
    with two games, and every retry said "the target store already holds games"); the next run removes
    the temporary file and upgrades every game."""
    import trvendetta.app.upgrade as upgrade_module

    old = old_copy(tmp_path)
    written = []

    def fault(game):
        written.append(game)
        if len(written) == 2:
            raise OSError(28, "No space left on device (injected)")

    monkeypatch.setattr(upgrade_module, "_written", fault)
    result = upgrade(old)
    assert result.exit_code == 1, result.exception
    assert result.stderr == f"Error: the upgrade stopped ([Errno 28] No space left on device (injected)); " \
                            f"{tmp_path / 'old.v3.sqlite'} was not written: run it again (it starts clean)\n"
    target, temp = tmp_path / "old.v3.sqlite", tmp_path / "old.v3.sqlite.upgrading"
    assert not target.exists() and temp.exists()
    monkeypatch.undo()
    result = upgrade(old)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("starting clean: removing old.v3.sqlite.upgrading")
    assert _heads(target) == {g: (v["version"], v["head"]) for g, v in said(OLD).items()}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite", "old.v3.sqlite"]


KILL = """
import os, sys
import trvendetta.app.upgrade as u
from trvendetta.cli.main import cli
count = []
def die(game):
    count.append(game)
    if len(count) == 3:
        os._exit(9)
u._written = die
cli(["--db", sys.argv[1], "store", "upgrade"])
"""


def test_a_process_killed_between_two_games_leaves_no_target(tmp_path):
    old = old_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("TRV_STORE", "TRV_DB", "TRV_GAME")}
    killed = subprocess.run([sys.executable, "-c", KILL, str(old)], env=env, capture_output=True, text=True)
    assert killed.returncode == 9, killed.stderr
    assert not (tmp_path / "old.v3.sqlite").exists() and (tmp_path / "old.v3.sqlite.upgrading").exists()
    result = upgrade(old)
    assert result.exit_code == 0, result.output
    assert "starting clean" in result.stderr
    assert _heads(tmp_path / "old.v3.sqlite") == {g: (v["version"], v["head"]) for g, v in said(OLD).items()}


def test_a_second_upgrade_while_one_writes_is_refused_at_once(tmp_path):
    """While one run holds the temporary file, another refuses at once (it does not write into it)."""
    import fcntl

    old = old_copy(tmp_path)
    temp = tmp_path / "old.v3.sqlite.upgrading"
    with open(temp, "wb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        result = upgrade(old)
    assert result.exit_code == 1
    assert "another `trv store upgrade` is writing" in result.stderr
    assert not (tmp_path / "old.v3.sqlite").exists()


def test_a_partial_target_an_earlier_trv_left_is_named_as_such(tmp_path):
    """Old main, stopped after two games, left them under the target's own name: the upgrade says what
    it is and how to go on, and leaves it as it is."""
    old = old_copy(tmp_path)
    target = tmp_path / "old.v3.sqlite"
    result = upgrade(old, "--leave-out", "long", "--leave-out", "classic", "--leave-out", "what-if")
    assert result.exit_code == 0, result.output  # (two games under the target's name, as old main left them)
    before = target.read_bytes()
    result = upgrade(old)
    assert result.exit_code == 1
    assert result.stderr == f"Error: the target store {target} already exists and holds 2 of the old store's 5 " \
                            "games, at the same heads (an upgrade with --leave-out, or one an earlier trv stopped " \
                            "half-way); remove it (or name a new one with --to) and upgrade again\n"
    assert target.read_bytes() == before


def test_a_run_killed_between_its_link_and_its_unlink_is_done(tmp_path):
    """The new store got its name, and the temporary name still points at the same file: the next run
    says the upgrade is done and removes the second name."""
    old = old_copy(tmp_path)
    assert upgrade(old).exit_code == 0
    target, temp = tmp_path / "old.v3.sqlite", tmp_path / "old.v3.sqlite.upgrading"
    os.link(target, temp)
    result = upgrade(old)
    assert result.exit_code == 0 and "already upgraded long" in result.stdout, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite", "old.v3.sqlite"]


def test_damage_no_game_shows_is_said_and_the_games_come_over(tmp_path):
    """A bit flipped in the games index's own index (idx_trv_games_last_used, page 7): SQLite's
    integrity check fails, every game's accounts agree. The upgrade says so and brings every game over
    whole, into a file without the damage."""
    old = old_copy(tmp_path)
    data = bytearray(old.read_bytes())
    data[28498] ^= 0x08
    old.write_bytes(bytes(data))
    result = upgrade(old)
    assert result.exit_code == 0, result.output
    assert result.stderr == "warning: the old store's file fails SQLite's integrity check: row 5 missing from index " \
                            "idx_trv_games_last_used; every game's accounts agree, so the upgrade goes on (its new " \
                            "file is without it)\n"
    assert _heads(tmp_path / "old.v3.sqlite") == {g: (v["version"], v["head"]) for g, v in said(OLD).items()}
    with GameStore(tmp_path / "old.v3.sqlite") as s:
        assert s.integrity() == []


def _victim(tmp_path):
    """Another store of the user's, elsewhere: what a planted temporary name points at."""
    home = tmp_path / "home"
    home.mkdir()
    victim = home / "precious.sqlite"
    made = CliRunner().invoke(cli, ["--db", str(victim), "new", "--player", "ann:red:cars", "--player",
                                    "bob:blue:cars", "--seed", "3", "--name", "mine"], env=ENV)
    assert made.exit_code == 0, made.output
    return victim


@pytest.mark.parametrize("planted", ["symlink", "hardlink", "other-db"])
def test_a_planted_temporary_file_is_refused_and_left_as_it_is(tmp_path, planted):
    """A9: someone who can write the old store's folder plants old.v3.sqlite.upgrading as a symbolic
    link (or a hard link) to another store, or puts another program's file there. Old main followed the
    link, truncated the other store, wrote the upgrade into it and published the link: the game 'mine'
    was lost. The upgrade refuses, names the file, and the other store is byte for byte as it was."""
    club = tmp_path / "club"
    club.mkdir()
    old = old_copy(club)
    victim = _victim(tmp_path)
    temp = club / "old.v3.sqlite.upgrading"
    if planted == "symlink":
        temp.symlink_to(victim)
    elif planted == "hardlink":
        os.link(victim, temp)
    else:
        victim = club / "notes.db"
        sqlite3.connect(victim).execute("CREATE TABLE notes(x)").connection.commit()
        shutil.copyfile(victim, temp)
        victim = temp
    before = victim.read_bytes()
    result = upgrade(old)
    assert result.exit_code == 1, result.output
    why = {"symlink": "is a symbolic link", "hardlink": "is a file with another name too (a hard link)",
           "other-db": "is not a file an upgrade of trv left (it carries no mark of one)"}[planted]
    assert result.stderr.startswith(f"Error: {temp} exists and {why}"), result.stderr
    assert "remove it yourself, or name another target with --to" in result.stderr
    assert victim.read_bytes() == before
    assert not (club / "old.v3.sqlite").exists()
    assert temp.is_symlink() == (planted == "symlink")


@pytest.mark.parametrize("other", ["notes", "empty", "text"])
def test_a_target_that_is_not_a_store_is_left_byte_for_byte(tmp_path, other):
    """A13: --to names another program's SQLite database (or an empty file, or a text file). Old main
    opened it as a store, which added the store's tables to it, and then called it an upgrade stopped
    half-way, to be removed. The upgrade reads it only, says what it is, and leaves it as it was."""
    old = old_copy(tmp_path)
    target = tmp_path / "notes.sqlite"
    if other == "notes":
        con = sqlite3.connect(target)
        con.execute("CREATE TABLE notes(t text)")
        con.execute("INSERT INTO notes VALUES ('keep me')")
        con.commit()
        con.close()
    else:
        target.write_text("" if other == "empty" else "my shopping list\n" * 100)
    before = target.read_bytes()
    result = upgrade(old, "--to", str(target))
    assert result.exit_code == 1, result.output
    why = {"notes": "an SQLite database without a store's tables", "empty": "an empty file",
           "text": "it cannot be read as an SQLite database: file is not a database"}[other]
    assert result.stderr == f"Error: the target {target} already exists and is not a game store ({why}): it was " \
                            "left as it is; name a new one with --to\n"
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite", "old.sqlite"]


def test_a_full_temporary_disk_is_named_not_the_old_store(tmp_path, monkeypatch):
    """A2: the disk of TMPDIR, where the upgrade copies the old file, is full (SQLite's own limit on the
    copy's pages, a full disk as SQLite reports it). Old main said the old store "cannot be read whole";
    the old store is sound: the run names the temporary folder and what it needs."""
    import tempfile

    import trvendetta.app.upgrade as upgrade_module

    old = old_copy(tmp_path)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    real = sqlite3.connect

    def small_disk(where, *args, **kwargs):
        con = real(where, *args, **kwargs)
        if str(where).startswith(str(scratch)):
            con.execute("PRAGMA max_page_count = 3")
        return con

    monkeypatch.setattr(upgrade_module.sqlite3, "connect", small_disk)
    result = upgrade(old)
    assert result.exit_code == 1, result.output
    assert result.stderr == f"Error: cannot write the temporary copy of the old store in {scratch} (database or disk " \
                            f"is full): it needs room for {old.stat().st_size} bytes; free some there, or set TMPDIR " \
                            "to a folder with room, and run the upgrade again (nothing was written)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite", "scratch"]
    assert list(scratch.iterdir()) == []


def test_the_copies_killed_runs_left_in_tmpdir_are_removed(tmp_path, monkeypatch):
    """A killed run leaves its full copy of the old store in TMPDIR/trv-upgrade-*: the next run removes
    such folders of this user's that carry an upgrade's lock file no run holds, and no other."""
    import fcntl
    import tempfile

    old = old_copy(tmp_path)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    folders = {name: scratch / f"trv-upgrade-{name}" for name in ("killed", "running", "unmarked")}
    for name, folder in folders.items():
        folder.mkdir()
        shutil.copyfile(old, folder / "old.sqlite")
        if name != "unmarked":
            (folder / "trv-upgrade.lock").touch()
    (scratch / "trv-upgrade-link").symlink_to(folders["killed"])
    with open(folders["running"] / "trv-upgrade.lock") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        result = upgrade(old)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in scratch.iterdir()) == ["trv-upgrade-link", "trv-upgrade-running",
                                                         "trv-upgrade-unmarked"]


def test_when_each_game_was_last_played_comes_over(tmp_path):
    """A7: the user last played 'duel'. Old main gave every game the upgrade's time, so the bare
    `trv show` (the latest game) showed the last game upgraded. The games index's times come over."""
    old = old_copy(tmp_path)
    sql(old, "UPDATE trv_games SET last_used = '2026-11-30T19:00:00+00:00' WHERE id = 'duel'")
    with sqlite3.connect(old) as con:
        before = {g: (c, u) for g, c, u in con.execute("SELECT id, created, last_used FROM trv_games")}
    assert upgrade(old).exit_code == 0
    target = tmp_path / "old.v3.sqlite"
    shown = CliRunner().invoke(cli, ["--db", str(target), "show", "--json"], env=ENV)
    assert shown.exit_code == 0 and json.loads(shown.stdout)["game"] == "duel", shown.output
    with sqlite3.connect(target) as con:
        after = {g: (c, u) for g, c, u in con.execute("SELECT id, created, last_used FROM trv_games")}
    before["duel"] = (before["duel"][0], "2026-11-30T19:00:00.000000+00:00")
    assert after == before


def test_a_tail_cut_in_the_middle_of_an_action_is_named(tmp_path):
    """A8: the rows of 'long' after record 150 are gone, in the middle of an action, with its snapshots
    after it and the games index that would have told (bad luck: an index lost). The records left chain,
    so old main upgraded it "(verified)", exit 0, and `trv verify` failed afterwards. Each game's actions
    are re-executed: it is named, and nothing is written."""
    old = old_copy(tmp_path)
    key = game_id(old, OLD, "long")
    sql(old, "DELETE FROM stored_events WHERE originator_id = ? AND originator_version > 151", key)
    sql(old, "DELETE FROM stored_snapshots WHERE originator_id = ? AND originator_version > 151", key)
    sql(old, "DROP TABLE trv_games")
    lines = refused(upgrade(old), old)
    assert lines == ["game 'long': its actions do not re-execute to its records (event 151 differs from the "
                     "rules' result): was its tail cut?"]
    assert upgrade(old, "--leave-out", "long").exit_code == 0


def test_an_edited_index_row_is_not_called_lost_records(tmp_path):
    """A6b: the games-index row of 'duel' says 58 events and another game's head, its 64 records chain
    whole. Old main said "records were lost"; nothing was lost: the row was edited."""
    old = old_copy(tmp_path)
    sql(old, "UPDATE trv_games SET head = (SELECT head FROM trv_games WHERE id = 'what-if'), version = 58 "
             "WHERE id = 'duel'")
    lines = refused(upgrade(old), old)
    assert len(lines) == 1 and lines[0].startswith("game 'duel': the games index says 58 events")
    assert lines[0].endswith(": its games-index row was edited or damaged (the records chain whole from the genesis)")


def test_an_upgrade_done_and_played_on_is_said_to_be_done(tmp_path):
    """A11: the user upgraded, played a turn in the new store, and ran the upgrade again (unsure it
    finished). Old main said the target "holds other games than the old store's"; it holds the same
    games, one played on: the upgrade was done."""
    old = old_copy(tmp_path)
    target = tmp_path / "old.v3.sqlite"
    assert upgrade(old).exit_code == 0
    played = CliRunner().invoke(cli, ["--db", str(target), "turn", "--game", "duel", "--car", "small", "--assign",
                                      "1"], env=ENV)
    assert played.exit_code == 0, played.output
    before = target.read_bytes()
    result = upgrade(old)
    assert result.exit_code == 1
    assert result.stderr == f"Error: the target store {target} already exists and holds every game of the old store, " \
                            f"1 of them played on since (duel): the upgrade was done; play on in {target}\n"
    assert target.read_bytes() == before
