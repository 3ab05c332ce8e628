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

    def transaction(self) -> "_Save":
        """A write transaction: ``with saves.transaction() as cursor: ...``, the
        cursor a plain ``sqlite3.Cursor`` (its ``rowcount`` tells an update's
        rows: ``GameIndex.advance``)."""
        if self.connection is None:
            raw = sqlite3.connect(self.database, uri=True, timeout=self.timeout, isolation_level=None,
                                  check_same_thread=False)
            raw.row_factory = sqlite3.Row  # as the library's: the index reads columns by name
            self.connection = SQLiteConnection(raw, max_age=None)
        return _Save(SQLiteTransaction(self.connection, commit=True))

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class _Save:
    """The library's transaction, giving its cursor's ``sqlite3`` cursor."""

    def __init__(self, transaction: SQLiteTransaction):
        self.transaction = transaction

    def __enter__(self) -> sqlite3.Cursor:
        return self.transaction.__enter__().sqlite_cursor

    def __exit__(self, *exc: Any) -> None:
        self.transaction.__exit__(*exc)
