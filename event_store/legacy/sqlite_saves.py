"""An SQLite store's saves, on a connection of its own (see ``library.py``,
"Saves on their own connection").

Its own module because it imports eventsourcing, which ``trv show`` (through
``library.sqlite_rows``) never does.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from eventsourcing.sqlite import SQLiteConnection, SQLiteTransaction


class SQLiteSaves:
    """One ``sqlite3`` connection to a store's file, for its saves only: each
    save is one transaction on it (``transaction()``), the library's own
    (``SQLiteTransaction``: ``BEGIN`` at the start, commit or rollback at the
    end, and ``sqlite3`` errors raised as the library's, ``IntegrityError``
    for a row already stored), without its connection pool."""

    def __init__(self, database: str, timeout: float):
        self.database, self.timeout = database, timeout
        #: opened by the first save (a command that only reads never pays for it)
        self.connection: SQLiteConnection | None = None
        self._raw: sqlite3.Connection | None = None  # its sqlite3 connection

    def transaction(self) -> "_Save":
        """A write transaction: ``with saves.transaction() as cursor: ...``, the
        cursor a plain ``sqlite3.Cursor`` (its ``rowcount`` tells an update's
        rows: ``GameIndex.advance``)."""
        self._open()
        return _Save(SQLiteTransaction(self.connection, commit=True))  # type: ignore[arg-type]

    def first(self, sql: str, params: Any) -> Any:
        """The first row ``sql`` selects, or None: one statement of its own, outside any transaction (never
        inside a save's: a read before its first write would make SQLite upgrade the transaction, which fails
        at once when another process wrote in between).  The library's connection pool took about 150 us for
        the same select (its transaction's ``BEGIN`` and rollback, the statement compiled again each time)."""
        return self._open().execute(sql, params).fetchone()

    def _open(self) -> sqlite3.Connection:
        if self.connection is None:
            raw = sqlite3.connect(self.database, uri=True, timeout=self.timeout, isolation_level=None,
                                  check_same_thread=False)
            raw.row_factory = sqlite3.Row  # as the library's: the index reads columns by name
            self.connection = SQLiteConnection(raw, max_age=None)
            self._raw = raw
        return self._raw

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = self._raw = None


class _Save:
    """The library's transaction, giving its cursor's ``sqlite3`` cursor."""

    def __init__(self, transaction: SQLiteTransaction):
        self.transaction = transaction

    def __enter__(self) -> sqlite3.Cursor:
        return self.transaction.__enter__().sqlite_cursor

    def __exit__(self, *exc: Any) -> None:
        self.transaction.__exit__(*exc)
