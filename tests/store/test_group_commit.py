"""A store whose commits do not wait for their own fsync (``GameStore.defer_sync``: the club server's
group commit): each command still lands whole, and ``sync`` makes every one committed before it durable."""

import errno
import os

import pytest
from test_store import new, play
from trvendetta.store import GameStore, StoreError, StoreUnsynced


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


def test_memory_does_not_defer(toy, tmp_path):
    with GameStore(":memory:") as memory:
        assert not memory.defer_sync()
        new(memory, toy)
        assert memory.commits == 0


def _pg_setting(store: GameStore) -> str:
    """The ``synchronous_commit`` a command's write transaction commits with."""
    with store._writing() as c:
        c.execute("SHOW synchronous_commit")
        return c.fetchone()["synchronous_commit"]


def _lsn(base: str, what: str) -> str:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        return conn.execute(f"SELECT pg_current_wal_{what}_lsn()::text").fetchone()[0]


def _past(base: str, lsn: str) -> bool:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        return conn.execute("SELECT pg_current_wal_flush_lsn() >= %s::pg_lsn", (lsn,)).fetchone()[0]


def test_a_deferring_postgresql_store_commits_without_the_flush_and_sync_flushes_them(toy, pg_url):
    """The server's group commit on PostgreSQL: a command's transaction commits with ``synchronous_commit``
    off (it lands whole or not at all, without waiting for the log's flush), and ``sync`` returns once the
    log is flushed past every commit made before it."""
    base = pg_url.split("?")[0]
    with GameStore(pg_url) as plain:
        new(plain, toy)
        assert _pg_setting(plain) == "on"  # every other store's commit is durable when it returns
    with GameStore(pg_url) as store:
        assert store.defer_sync()
        assert _pg_setting(store) == "off"
        before = store.commits
        play(store, toy, "g", 3)
        assert store.commits == before + 3  # one a command
        written = _lsn(base, "insert")  # (the log's end: past every commit record of those commands)
        store.sync()
        assert _past(base, written)
        assert store.unsynced is None
    with GameStore(pg_url) as other:
        assert other.version("g") == 4


def test_a_failed_postgresql_sync_is_an_error_and_the_next_one_covers_it(toy, pg_url, monkeypatch):
    """PostgreSQL that does not answer the flush: ``sync`` raises (the server answers each request it
    covered with a 503), but stops no write: the database never counts a failed write done (no fsyncgate,
    unlike a file's fsync), so the next sync that succeeds covers every commit before it."""
    import psycopg

    base = pg_url.split("?")[0]
    with GameStore(pg_url) as store:
        assert store.defer_sync()
        new(store, toy)
        play(store, toy, "g", 2)
        datastore = store._index_db
        real = datastore.get_connection

        def refused():
            raise psycopg.OperationalError("connection refused")
        monkeypatch.setattr(datastore, "get_connection", refused)
        with pytest.raises(StoreError, match=r"cannot make the store's last commits durable: PostgreSQL did not "
                                             r"flush its log \(connection refused\)"):
            store.sync()
        monkeypatch.setattr(datastore, "get_connection", real)
        assert store.unsynced is None
        play(store, toy, "g", 1, seed=2)  # writes go on
        written = _lsn(base, "insert")
        store.sync()
        assert _past(base, written)
        assert store.version("g") == 4


def test_a_postgresql_store_whose_flush_fails_at_the_start_does_not_defer(toy, pg_url, monkeypatch):
    """A database where the flush cannot run (a user refused the function it calls): the store keeps its
    commits durable when they return rather than answer every write with a failed sync."""
    import trvendetta.store.store as store_module

    monkeypatch.setattr(store_module, "PG_FLUSH", "BEGIN; SELECT no_such_function_of_trvendetta(); COMMIT")
    with GameStore(pg_url) as store:
        assert not store.defer_sync()
        assert _pg_setting(store) == "on"
        new(store, toy)
        play(store, toy, "g", 2)
        store.sync()  # (nothing deferred: nothing to flush)
        assert store.version("g") == 3
