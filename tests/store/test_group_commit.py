"""A store whose commits do not wait for their own fsync (``GameStore.defer_sync``: the club server's
group commit): each command still lands whole, and ``sync`` makes every one committed before it durable."""

import errno
import os

import pytest
from test_store import new, play
from trvendetta.store import GameStore, StoreUnsynced


def _synchronous(store: GameStore) -> int:
    assert store._writer is not None
    return store._writer.conn.execute("PRAGMA synchronous").fetchone()[0]


def test_a_deferring_store_commits_without_its_fsync_and_syncs_its_log(toy, db, monkeypatch):
    with GameStore(db) as plain:
        new(plain, toy)
        assert _synchronous(plain) == 2  # FULL: every other store's commit waits for its fsync
    with GameStore(db) as store:
        assert store.defer_sync()
        before = store.commits
        play(store, toy, "g", 3)
        assert store.commits == before + 3  # one a command
        assert _synchronous(store) == 1  # NORMAL: the commit waits for no fsync...
        synced: list[str] = []
        real = os.fsync

        def fsync(fd: int) -> None:
            synced.append(os.readlink(f"/proc/self/fd/{fd}"))
            real(fd)
        monkeypatch.setattr(os, "fsync", fsync)
        store.sync()  # ... the caller's sync does, for all of them at once: the log holding them
        assert synced == [str(db.resolve()) + "-wal"]
    with GameStore(db) as other:
        assert other.version("g") == 4


def test_a_failed_fsync_stops_the_stores_writes_and_a_new_process_reads_the_file(toy, db, monkeypatch):
    """After an EIO the kernel may have dropped the pages it could not write and counted them clean: a
    later fsync that succeeds says nothing of them.  So the store takes no more writes (nothing is chained
    onto commits that may be lost) and never fsyncs again; reads go on; a new process reads the file."""
    with GameStore(db) as store:
        assert store.defer_sync()
        new(store, toy)
        play(store, toy, "g", 2)
        calls: list[int] = []
        real = os.fsync

        def fsync(fd: int) -> None:
            calls.append(fd)
            if len(calls) == 1:
                raise OSError(errno.EIO, "Input/output error")
            real(fd)
        monkeypatch.setattr(os, "fsync", fsync)
        with pytest.raises(StoreUnsynced, match="an fsync of games.sqlite-wal failed .Input/output error."):
            store.sync()
        with pytest.raises(StoreUnsynced, match="takes no more writes"):
            store.sync()  # the disk works again: no fsync is taken for an answer
        assert len(calls) == 1
        commits, version = store.commits, store.version("g")
        with pytest.raises(StoreUnsynced):
            play(store, toy, "g", 1, seed=2)
        with pytest.raises(StoreUnsynced):
            new(store, toy, name="h")
        with pytest.raises(StoreUnsynced):
            store.touch("g")
        assert (store.commits, store.version("g"), store.load("g").version) == (commits, version, version)
        assert not store.exists("h")
    with GameStore(db) as again:  # restarted: the file as it is on disk, and writes again
        assert again.defer_sync() and again.version("g") == version
        play(again, toy, "g", 1, seed=2)
        again.sync()
        assert again.version("g") > version


def test_only_a_writable_sqlite_file_defers(toy, tmp_path):
    with GameStore(":memory:") as memory:
        assert not memory.defer_sync()
        new(memory, toy)
        assert memory.commits == 0


def test_postgresql_commits_stay_durable_when_they_return(toy, pg_url):
    with GameStore(pg_url) as store:
        assert not store.defer_sync()  # (its commit is durable when it returns: nothing is deferred)
