"""A store in a directory that cannot be written (issue 17): the read
commands work (the file is opened read-only, ``immutable``, when that is
safe), writes say the store is read-only, and nothing changes.

Root ignores directory modes, so the directory is made immutable with
``chattr +i``, which holds for root too: SQLite really cannot make its
-wal and -shm files there.  Skipped where the file system has no such flag.
"""

import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from .helpers import Trv, play_random


@contextmanager
def unwritable(directory: Path):
    if shutil.which("chattr") is None:
        pytest.skip("no chattr here to make a directory unwritable for root")
    made = subprocess.run(["chattr", "+i", str(directory)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"chattr +i is not available here: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(directory)], check=True)


@pytest.fixture
def shelf(tmp_path):
    """A store with one game in progress, closed cleanly, alone in its directory."""
    folder = tmp_path / "shelf"
    folder.mkdir()
    db = folder / "trv.sqlite"
    play_random(db, "g", seed=3, actions=12)
    assert sorted(p.name for p in folder.iterdir()) == ["trv.sqlite"]  # no -wal or -shm left behind
    return db


READS = [["show"], ["show", "--json"], ["log"], ["legal"], ["verify", "g"], ["export", "g"], ["games"]]


def test_reads_work_in_a_directory_that_cannot_be_written(shelf):
    trv = Trv(shelf)
    before = {tuple(args): trv("--game", "g", *args).stdout for args in READS}
    data = shelf.read_bytes()
    assert sorted(p.name for p in shelf.parent.iterdir()) == ["trv.sqlite"]
    with unwritable(shelf.parent):
        with pytest.raises(sqlite3.OperationalError):  # what the plain open meets there
            sqlite3.connect(shelf).execute("SELECT 1 FROM trv_games")
        for args in READS:
            assert trv("--game", "g", *args).stdout == before[tuple(args)], args
    assert shelf.read_bytes() == data


@pytest.mark.parametrize("command", ["act", "new", "undo", "fork"])
def test_writes_say_the_store_is_read_only(shelf, command):
    from trvendetta.store import GameStore

    with GameStore(shelf) as store:  # (closed: it leaves no -wal or -shm behind)
        loaded = store.load("g")
        legal = loaded.ruleset.legal_actions(loaded.state)[0]
        action, version = loaded.ruleset.encode(legal).decode(), loaded.version
    trv = Trv(shelf)
    args = {"act": ["--game", "g", "act", action],
            "new": ["new", "--player", "ann:red", "--player", "bob:blue"],
            "undo": ["--game", "g", "undo", "--agreed"],
            "fork": ["fork", "g", "--at", version, "--name", "f"]}[command]
    data = shelf.read_bytes()
    with unwritable(shelf.parent):
        err = trv(*args, code=1).stderr
    assert f"the game store {shelf} is read-only here" in err, err
    assert shelf.read_bytes() == data
    assert sorted(p.name for p in shelf.parent.iterdir()) == ["trv.sqlite"]


def test_an_unfinished_write_ahead_log_is_not_read_stale(shelf):
    """Commits still in a -wal (no -shm to read it by) are refused, by name."""
    writer = sqlite3.connect(shelf, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("UPDATE trv_games SET last_used = 'x'")  # a commit that stays in the -wal
    wal = shelf.with_name("trv.sqlite-wal")
    copy = shelf.parent.parent / "copy"
    copy.mkdir()
    shutil.copy(shelf, copy / "trv.sqlite")
    shutil.copy(wal, copy / "trv.sqlite-wal")
    writer.close()
    trv = Trv(copy / "trv.sqlite")
    with unwritable(copy):
        err = trv("show", "--game", "g", code=1).stderr
    assert "write-ahead log trv.sqlite-wal holds changes not yet in the database file" in err, err
