"""A store whose commits do not wait for their own fsync (``GameStore.defer_sync``: the club server's
group commit): each command still lands whole, and ``sync`` makes every one committed before it durable."""

import os

from test_store import new, play
from trvendetta.store import GameStore


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


def test_only_a_writable_sqlite_file_defers(toy, tmp_path):
    with GameStore(":memory:") as memory:
        assert not memory.defer_sync()
        new(memory, toy)
        assert memory.commits == 0


def test_postgresql_commits_stay_durable_when_they_return(toy, pg_url):
    with GameStore(pg_url) as store:
        assert not store.defer_sync()  # (its commit is durable when it returns: nothing is deferred)
