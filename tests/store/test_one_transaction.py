"""One command, one transaction (docs/store.md, "Writes"): a command's rows, its index row and any
snapshot commit together or not at all, an undo's retraction too, on both backends; a failed command
run again is done once."""

import sqlite3

import pytest

from test_store import new, play
from trvendetta.store import GameStore, Retraction
from trvendetta.store.index import GameIndex



@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, db):
    return db if request.param == "sqlite" else request.getfixturevalue("pg_url")


def _broken_index(monkeypatch):
    """The index row, written inside a command's transaction, fails: a fault between its writes."""
    put = GameIndex.put

    def broken(self, row, **kwargs):
        if kwargs.get("cursor") is not None:
            raise RuntimeError("disk on fire")
        return put(self, row, **kwargs)

    monkeypatch.setattr(GameIndex, "put", broken)
    return put


def _undo(store, game):
    """Take back the last stored event, as `trv undo --agreed` does for a one-event action."""
    loaded = store.load(game)
    return store.retract(game, loaded.version, Retraction(loaded.version, loaded.version, None, True))


def _state(where, game):
    with GameStore(where) as s:  # a fresh process's view
        info = s.info(game)
        return s.version(game), s.verify(game), (info.version, info.head), [n.number for n in s.snapshots(game)]


def test_an_undo_that_fails_between_its_writes_takes_nothing_back(toy, where, monkeypatch):
    with GameStore(where) as s:
        new(s, toy)
        play(s, toy, "g", 4)
    before = _state(where, "g")
    with GameStore(where) as s:
        put = _broken_index(monkeypatch)
        with pytest.raises(RuntimeError, match="disk on fire"):
            _undo(s, "g")
        monkeypatch.setattr(GameIndex, "put", put)
    assert _state(where, "g") == before  # no retraction stored, the index as it was
    with GameStore(where) as s:
        done = _undo(s, "g")  # run again: one retraction
        assert done.version == before[0] + 1 and s.retracted("g") == {before[0]}
    after = _state(where, "g")
    assert after[0] == after[2][0] == before[0] + 1 and after[1] == after[2][1]


def test_a_snapshot_and_its_command_commit_together(toy, where, monkeypatch):
    """A command that reaches the snapshot interval writes its snapshot in its own transaction: when the
    command fails, neither is stored; run again, both are."""
    with GameStore(where, snapshot_interval=4) as s:
        new(s, toy)
        play(s, toy, "g", 2)
        game = s.load("g")
        before = _state(where, "g")
        put = _broken_index(monkeypatch)
        state, events = toy.apply(game.state, toy.legal_actions(game.state)[0])
        with pytest.raises(RuntimeError, match="disk on fire"):
            s.append("g", game.version, steps=[(toy.legal_actions(game.state)[0], events)], state=state)
        assert _state(where, "g") == before
        monkeypatch.setattr(GameIndex, "put", put)
        s.append("g", game.version, steps=[(toy.legal_actions(game.state)[0], events)], state=state)
        assert s.snapshots("g")[-1].number == game.version + len(events) == 4


@pytest.mark.parametrize("frames", [1, 7])
def test_an_undo_on_a_full_disk_takes_nothing_back(tmp_path, frames):
    """`trv undo` whose write-ahead log may grow by so many pages (a disk that fills, perhaps between
    an undo's writes): it fails in one line, stores nothing, and undo run again takes back one
    action (the retraction and the index row are one transaction)."""
    import json
    import os
    import resource
    import signal
    import subprocess
    import sys
    from pathlib import Path

    run_trv = str(Path(__file__).resolve().parents[1] / "cli" / "run_trv.py")
    db = tmp_path / "g.sqlite"

    def trv(*args, limit=None):
        def grow_no_more():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        env = {**os.environ, "NO_COLOR": "1"}
        env.pop("TRV_GAME", None)
        return subprocess.run([sys.executable, run_trv, "--store", str(db), *args], capture_output=True, text=True,
                              env=env, preexec_fn=grow_no_more if limit else None)

    assert trv("new", "--ruleset", "toy", "--player", "ann:red", "--player", "bob:blue", "--seed", "4").returncode == 0
    for die in "23":
        assert trv("turn", "--assign", die).returncode == 0
    before = json.loads(trv("show", "--json").stdout)
    wal = db.with_name(db.name + "-wal").stat().st_size
    full = trv("undo", "--agreed", limit=wal + frames * (4096 + 24))  # the log may grow by so many pages
    if full.returncode == 0:  # room enough for the whole undo
        return
    assert full.returncode == 1 and full.stderr.startswith("Error: ") and full.stderr.count("\n") == 1, full.stderr
    after = json.loads(trv("show", "--json").stdout)
    assert (after["version"], after["head"]) == (before["version"], before["head"])
    assert trv("verify").returncode == 0
    assert trv("undo", "--agreed").returncode == 0
    records = json.loads(trv("log", "--all", "--json").stdout)
    assert [e["kind"] for e in records].count("trv-retraction") == 1 and len(records) == before["version"] + 1
    listed = json.loads(trv("games", "--json").stdout)[0]
    assert listed["version"] == before["version"] + 1
