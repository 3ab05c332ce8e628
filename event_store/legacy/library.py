"""The store's one use of eventsourcing beyond its public API, kept here alone.

Everything else in ``trvendetta.store`` uses the library's public API:
``Application`` configured by its environment, its ``mapper``
(``to_stored_event``), ``Snapshot.take``, ``notification_log.select`` and the
recorders' ``insert_events(stored_events, **kwargs)`` and ``select_events``
(a save's rows are built by ``writing.Batch`` and handed to the events'
recorder's public ``insert_events``).

The private hook, and why it is worth it
-----------------------------------------
**One command, one transaction.**  A command's row of the game index
(``trv_games``) must be written in the same database transaction as its
events, so that a process killed in between leaves both or neither, and a
second durable commit (an fsync, the whole cost of a turn) is not paid.  The
library has no public "also run this in the insert's transaction" hook; its
recorders have a private method that does exactly that for its own tracking
records, ``_insert_events(cursor, stored_events, **kwargs)``, called inside
the transaction by ``insert_events`` (after the event inserts on SQLite,
before them on PostgreSQL; both roll back together).  :func:`run_in_insert`
wraps it on one recorder instance.  The snapshots a save takes are written
with the same cursor (:func:`insert_with`: the snapshot recorder's private
``_insert_events(cursor, rows)`` on SQLite, ``_insert_stored_events(cursor,
rows)`` on PostgreSQL), so a command that snapshots still commits once.

**Saves on their own connection (SQLite).**  A turn's save through the
recorder's ``insert_events`` took the library's connection pool (a reader-
writer lock, three context managers) and its connection, made with
``cached_statements=True``: a statement cache of one, so the transaction's
``BEGIN``, the events' insert and the index row's update were compiled again
on every save; about 75 us of a turn's 200 (synchronous off, issue 16).
``sqlite_saves.SQLiteSaves`` keeps one ``sqlite3`` connection of the store's
own for its saves, with the library's transaction (``SQLiteTransaction``:
the same ``BEGIN``, commit or rollback, and the library's exceptions) and the
library's own insert statement and rows (``CompactIdsRecorder.params``); the
snapshots and the index row are written with its cursor as above.  Reads
stay on the library's connections (WAL: each read sees every commit before
it).  PostgreSQL saves go through the recorder as before.

**A long save on PostgreSQL.**  The library sends a save's events in
psycopg's pipeline mode; psycopg may then wait for the server's answer with
part of a large insert still unsent, and both sides wait for ever (a game
of 100,000 events stored in one save).  :func:`drain_after_insert` wraps the
PostgreSQL recorder's private ``_insert_stored_events`` to flush the
connection until everything is sent.

**Reading rows without the mapper.**  A game is read as ``(version, topic,
state)`` rows and decoded with msgspec by ``store/reader.py`` (the one reader
of games: ``GameStore`` and ``trv show`` alike).  The recorder's public
``select_events`` makes a ``UUID`` and a ``StoredEvent`` per row on SQLite
(about 5 us of a record's 12); :func:`rows_of` selects the same columns from
the recorder's own table (its ``events_table_name``, through its datastore's
``transaction``) instead.  On PostgreSQL and in memory it uses
``select_events``.  :func:`sqlite_rows` does the same over a plain ``sqlite3``
connection (``trv show``, which never imports eventsourcing), with the
library's SQLite table names.

**Game ids as 16 bytes (SQLite).**  The library stores an aggregate's UUID as
32 hex characters, in the events' row and again in the primary key's index:
about 70 bytes of each event's 200.  :class:`CompactIdsRecorder`, which
``GameStore`` names by the library's public ``APPLICATION_RECORDER_TOPIC``
setting (``compact_ids.py``: it imports eventsourcing, which ``trv show``
never does), stores the id of an aggregate it creates as its 16
bytes (a BLOB) instead; an aggregate stored before keeps its hex id (its rows
are found by it, and new rows get it too), so nothing stored is rewritten.
It overrides the public ``insert_events`` (to give the library the id in
the form it is stored in), ``select_events`` and ``convert_originator_id``;
the library writes an id that is not a ``UUID`` as it is.  It also overrides the private ``_insert_events(cursor, stored_events)`` to
insert a save's rows with one ``executemany`` of the library's own
``insert_events_statement`` instead of one ``execute`` a row (a game stored
whole is hundreds of rows); it returns no notification ids, which the store
never reads.

``tests/store/test_library_hooks.py`` fails loudly if the installed library
is not the pinned version, if a private method is gone or has another signature,
if the rows the store builds are not the ones the library's mapper writes,
if the index row stops being written in the events' transaction, or if the
SQLite recorders' table layout is not the one read here.  The pin in
pyproject.toml (``eventsourcing==9.5.6``) points here.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple


#: the eventsourcing release this module was checked against (pyproject pins it)
PINNED = "9.5.6"
#: the keyword ``GameStore`` passes to the recorder's public ``insert_events(rows, **kwargs)``
#: (which hands its keywords to the private insert) to carry the writer of the index row
WRITE_KWARG = "trv_write"


def run_in_insert(recorder: Any) -> None:
    """Make ``recorder`` run ``save(..., trv_write=fn)``'s ``fn(cursor)`` inside
    the transaction that inserts the saved events."""
    insert = recorder._insert_events  # private: see the module docstring

    def insert_and_write(cursor: Any, stored_events: Any, **kwargs: Any) -> Any:
        write: Callable[[Any], None] | None = kwargs.pop(WRITE_KWARG, None)
        done = insert(cursor, stored_events, **kwargs)
        if write is not None:
            write(cursor)
        return done

    recorder._insert_events = insert_and_write


def insert_with(recorder: Any, cursor: Any, stored_events: Sequence[Any]) -> None:
    """Insert ``stored_events`` into ``recorder``'s table with ``cursor``, inside
    the transaction that cursor belongs to (the snapshots a save takes are
    written in its events' transaction: ``GameStore._save``).  The recorder's
    private insert of its rows: ``_insert_events(cursor, rows)`` on SQLite,
    ``_insert_stored_events(cursor, rows)`` on PostgreSQL (the aggregate
    recorders': no table lock, no notification)."""
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    if isinstance(recorder, SQLiteAggregateRecorder):
        recorder._insert_events(cursor, stored_events)
    else:
        recorder._insert_stored_events(cursor, stored_events)


def drain_after_insert(recorder: Any) -> None:
    """PostgreSQL: make ``recorder`` send the whole of its events' insert before
    it waits for the server's answer.

    The library inserts a save's events in psycopg's pipeline mode, then syncs
    the pipeline.  psycopg (3.3.9) sends a command with one ``flush`` of
    libpq's output buffer and then waits to read results, whether or not the
    flush sent everything: when a save is larger than the socket takes at once
    (a game of 100,000 events stored in one save, about 13 MB), the rest stays
    in the buffer, the server waits for it (``ClientRead``) and the client for
    the server's answer, for ever.  So after the library's private
    ``_insert_stored_events(cursor, stored_events, **kwargs)`` this flushes the
    connection (libpq's public ``PQflush``) until the buffer is empty, reading
    what the server sends meanwhile."""
    insert = recorder._insert_stored_events  # private: see the module docstring

    def insert_and_drain(cursor: Any, stored_events: Any, **kwargs: Any) -> Any:
        done = insert(cursor, stored_events, **kwargs)
        drain(cursor.connection.pgconn)
        return done

    recorder._insert_stored_events = insert_and_drain


def drain(pgconn: Any) -> None:
    """Flush a psycopg ``PGconn``'s output buffer until it is empty."""
    import select

    while pgconn.flush():  # 1 while data is left to send
        readable, _, _ = select.select([pgconn.socket], [pgconn.socket], [])
        if readable:
            pgconn.consume_input()


#: the library's SQLite tables for an application's events and snapshots (its defaults)
SQLITE_EVENTS, SQLITE_SNAPSHOTS = "stored_events", "stored_snapshots"

#: ``select(gid, gt=0, lte=None, desc=False, limit=None)`` -> ``[(version, topic, state), ...]``,
#: ``gid`` the aggregate id as 32 hex digits
Select = Callable[..., Sequence[Any]]


class Rows(NamedTuple):
    """How a store's rows are read: its events' and its snapshots' ``Select``."""

    events: Select
    snapshots: Select


def _sqlite_select(transaction: Callable[..., Any], table: str, compact: bool = False) -> Select:
    """``compact``: the table's ids may be 16 bytes (``CompactIdsRecorder``) or hex."""
    head = f"SELECT originator_version, topic, state FROM {table} WHERE originator_id = ? AND originator_version > ?"
    blobs: set[str] = set()  # ids found stored as bytes

    def stored(cursor: Any, gid: str) -> Any:
        if not compact:
            return gid
        if gid not in blobs:
            cursor.execute(f"SELECT 1 FROM {table} WHERE originator_id = ? LIMIT 1", [bytes.fromhex(gid)])
            if cursor.fetchone() is None:
                return gid  # stored before, as hex (or not at all yet)
            blobs.add(gid)
        return bytes.fromhex(gid)

    def select(gid: str, gt: int = 0, lte: int | None = None, desc: bool = False,
               limit: int | None = None) -> Sequence[Any]:
        sql, params = head, [gid, gt]
        if lte is not None:
            sql += " AND originator_version <= ?"
            params.append(lte)
        sql += " ORDER BY originator_version DESC" if desc else " ORDER BY originator_version"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with transaction(commit=False) as cursor:
            params[0] = stored(cursor, gid)
            cursor.execute(sql, params)
            return cursor.fetchall()  # sqlite3.Row: unpacks as (version, topic, state)

    return select


def _recorder_select(recorder: Any) -> Select:
    from uuid import UUID

    def select(gid: str, gt: int = 0, lte: int | None = None, desc: bool = False,
               limit: int | None = None) -> Sequence[Any]:
        found = recorder.select_events(UUID(gid), gt=gt, lte=lte, desc=desc, limit=limit)
        return [(s.originator_version, s.topic, s.state) for s in found]

    return select


def _select(recorder: Any) -> Select:
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    from .compact_ids import CompactIdsRecorder

    if isinstance(recorder, SQLiteAggregateRecorder):
        return _sqlite_select(recorder.datastore.transaction, recorder.events_table_name,
                              isinstance(recorder, CompactIdsRecorder))
    return _recorder_select(recorder)


def rows_of(app: Any) -> Rows:
    """The rows of an eventsourcing application's events and snapshots."""
    return Rows(_select(app.recorder), _select(app.snapshots.recorder))


def sqlite_rows(transaction: Callable[..., Any]) -> Rows:
    """The rows of a store's SQLite file read without eventsourcing
    (``transaction(commit=False)`` gives a cursor, as ``index.SQLiteConnection``'s)."""
    return Rows(_sqlite_select(transaction, SQLITE_EVENTS, True), _sqlite_select(transaction, SQLITE_SNAPSHOTS))
