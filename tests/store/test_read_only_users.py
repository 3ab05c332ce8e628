"""An ordinary user reads a store they cannot write (docs/store.md, "Reading without eventsourcing"):
in a folder they cannot write, or a file they cannot write in a folder they can, every reading
command works, a write says in one line why it cannot, and no -wal or -shm file of theirs is left
beside another user's store.  Run as an unprivileged user (``setpriv``) when the tests run as root,
as in CI; skipped with the reason otherwise."""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

NOBODY = 65534
TRV = [sys.executable, "-m", "trvendetta.cli.main"]
READS = [["games"], ["show"], ["log"], ["legal"], ["verify", "g1"], ["export", "g1"]]


def _as_nobody_problem():
    if os.geteuid() != 0:
        return "runs as root only: it needs to run the CLI as another user (setpriv)"
    if shutil.which("setpriv") is None:
        return "setpriv is not installed"
    probe = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                            sys.executable, "-c", "import trvendetta.store"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"user {NOBODY} cannot run this Python: {probe.stderr.strip()[:200]}"
    return None


pytestmark = pytest.mark.skipif(_as_nobody_problem() is not None, reason=str(_as_nobody_problem()))


def as_nobody(db, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("TRV_STORE", "TRV_DB", "TRV_GAME")}
    env.update({"NO_COLOR": "1", "HOME": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"})
    return subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *TRV, "--db",
                           str(db), *args], capture_output=True, text=True, env=env, cwd="/")


@pytest.fixture
def place():
    """A folder another user can reach (pytest's own are root's alone), removed after."""
    top = Path(tempfile.mkdtemp(prefix="trv-ro-"))
    top.chmod(0o755)
    yield top
    for p in [top, *top.rglob("*")]:
        if p.is_dir():
            p.chmod(0o755)
    shutil.rmtree(top)


def made(place, folder_mode, file_mode):
    from click.testing import CliRunner

    from trvendetta.cli.main import cli

    folder = place / "store"
    folder.mkdir()
    db = folder / "g.sqlite"
    result = CliRunner().invoke(cli, ["--db", str(db), "new", "--player", "ann:red:cars", "--player",
                                      "bob:blue:cars", "--seed", "3", "--name", "g1"],
                                env={"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None})
    assert result.exit_code == 0, result.output
    db.chmod(file_mode)
    folder.chmod(folder_mode)
    return db


@pytest.mark.parametrize("folder_mode, file_mode, why", [
    (0o555, 0o644, "you cannot write the file"),
    (0o777, 0o644, "you cannot write the file"),
    (0o555, 0o666, "you cannot write its folder, where SQLite keeps its -wal and -shm files"),
])
def test_an_ordinary_user_reads_a_store_they_cannot_write(place, folder_mode, file_mode, why):
    db = made(place, folder_mode, file_mode)
    before = db.read_bytes()
    for args in READS:
        result = as_nobody(db, *args)
        assert result.returncode == 0, (args, result.stderr)
    shown = as_nobody(db, "show", "--json")
    assert '"head"' in shown.stdout
    wrote = as_nobody(db, "decide", "assign 1 to blue-small")
    assert wrote.returncode == 1
    assert wrote.stderr.strip().splitlines() == [
        f"Error: the game store {db} is read-only here: {why}, so it was opened for reading (show, log, legal, "
        "verify, export work); to play, ask its owner, or copy it where you can write"]
    assert sorted(p.name for p in db.parent.iterdir()) == ["g.sqlite"]  # no -wal or -shm of another user
    assert db.read_bytes() == before and stat.S_IMODE(db.stat().st_mode) == file_mode


def test_an_ordinary_user_upgrades_an_old_store_they_cannot_write(place):
    """The old store in a folder of another user's: it is read (from a copy made by SQLite's backup API)
    and left as it was, with nothing beside it; a target beside it cannot be written, and says so."""
    import json

    fixture = Path(__file__).resolve().parent / "fixtures" / "main-c748638-mark6"
    folder, mine = place / "old", place / "mine"
    folder.mkdir()
    mine.mkdir()
    mine.chmod(0o777)
    old = folder / "club.sqlite"
    shutil.copyfile(f"{fixture}.sqlite", old)
    old.chmod(0o644)
    folder.chmod(0o555)
    beside = as_nobody(old, "store", "upgrade")
    assert beside.returncode == 1
    assert beside.stderr.strip().splitlines() == [
        f"Error: cannot write the new store {folder / 'club.v3.sqlite'} (Permission denied: "
        f"{folder / 'club.v3.sqlite.upgrading'}); name one where you can write with --to"]
    result = as_nobody(old, "store", "upgrade", "--to", str(mine / "club.sqlite"))
    assert result.returncode == 0, result.stderr
    said = json.loads(Path(f"{fixture}.json").read_text())
    assert all(f"upgraded {game}: {s['version']} events, head {s['head'][:16]} (verified)" in result.stdout
               for game, s in said.items())
    assert sorted(p.name for p in folder.iterdir()) == ["club.sqlite"]
    assert old.read_bytes() == Path(f"{fixture}.sqlite").read_bytes()


def test_an_ordinary_user_reads_what_the_owner_wrote_while_the_owner_has_it_open(place):
    """The owner's connection is open and its last write is still in the -wal (not yet in the file): the
    reader reads through the owner's -wal and -shm (``mode=ro``), and sees it."""
    import sqlite3

    db = made(place, 0o755, 0o644)
    owner = sqlite3.connect(db, isolation_level=None)
    try:
        owner.execute("PRAGMA wal_autocheckpoint = 0")
        owner.execute("UPDATE trv_games SET last_used = '2030-01-01T00:00:00+00:00'")
        assert (db.parent / "g.sqlite-wal").stat().st_size > 0
        listed = as_nobody(db, "games")
        assert listed.returncode == 0 and "2030-01-01" in listed.stdout, listed.stderr
        assert as_nobody(db, "verify", "g1").returncode == 0
    finally:
        owner.close()
    assert sorted(p.name for p in db.parent.iterdir()) == ["g.sqlite"]


def test_an_ordinary_user_reads_a_store_that_lost_its_games_index(place):
    """R3: the games index's table is gone (trv_games dropped). The owner's store rebuilds it on open;
    a reader who cannot write got "no such table: trv_games" from every read. The index is rebuilt in
    memory from the rows, and the file is left as it was."""
    import sqlite3

    db = made(place, 0o555, 0o644)
    con = sqlite3.connect(db)
    con.execute("DROP TABLE trv_games")
    con.commit()
    con.close()
    before = db.read_bytes()
    for args in READS:
        result = as_nobody(db, *args)
        assert result.returncode == 0, (args, result.stderr)
    assert "g1" in as_nobody(db, "games").stdout
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["g.sqlite"]


def test_a_store_in_a_folder_that_cannot_be_made_is_one_line(place):
    """`trv store copy --to` a path under a folder the user cannot write: old main raised PermissionError
    from mkdir as a traceback. One line names the folder that cannot be made and where."""
    db = made(place, 0o555, 0o644)
    locked = place / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    result = as_nobody(db, "store", "copy", "--to", str(locked / "sub" / "x.sqlite"))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"Error: cannot make the folder {locked / 'sub'} for the game store {locked / 'sub' / 'x.sqlite'}: "
        f"Permission denied (you cannot write {locked}); give a store where you can write"]
    assert list(locked.iterdir()) == []
