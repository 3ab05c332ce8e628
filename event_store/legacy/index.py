"""The game index: a small read model (one row per game) for ``trv games``.

It lives in the same SQLite file as the events (table ``trv_games``).  A
command's row is written **in the same SQLite transaction as its events**
(the store hooks the recorder's insert), so one command is one durable
transaction and the index can never lag behind the events.  It is still
derived, never authoritative: when the table is missing it is rebuilt from
the events (``GameStore.rebuild_index``).  Plain ``sqlite3`` SQL: importing
``sqlite_utils`` (and numpy with it) cost more than the rest of a ``trv show``.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timezone
from typing import Any

import msgspec

TABLE = "trv_games"
COLUMNS = ("id", "ruleset", "players", "round", "status", "winner", "version", "head", "created", "last_used")
CREATE = [
    f"CREATE TABLE IF NOT EXISTS [{TABLE}] ([id] TEXT PRIMARY KEY, [ruleset] TEXT, [players] TEXT, "
    "[round] INTEGER, [status] TEXT, [winner] TEXT, [version] INTEGER, [head] TEXT, [created] TEXT, "
    "[last_used] TEXT)",
]
#: the index on ``last_used`` older stores' table has (dropped: ``GameIndex.drop_old``): every command's row
#: update moved its entry (one more page written a turn, 4 KiB of SQLite's log), and neither listing used it
#: for what it asks (``ORDER BY last_used DESC, created DESC`` scans the table either way, ``all`` reads every row)
OLD_INDEX = f"idx_{TABLE}_last_used"
UPSERT = (
    f"INSERT INTO {TABLE} (id, ruleset, players, round, status, winner, version, head, created, last_used) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET ruleset = excluded.ruleset, "
    "players = excluded.players, round = excluded.round, status = excluded.status, winner = excluded.winner, "
    "version = excluded.version, head = excluded.head, last_used = excluded.last_used, "
    f"created = COALESCE({TABLE}.created, excluded.created)"
)
LATEST = f"SELECT id FROM {TABLE} ORDER BY last_used DESC, created DESC LIMIT 1"
#: a command's row written only where it still says what the command found (its count and head): the check
#: and the write in one statement (``GameIndex.advance``; on SQLite the cursor's ``rowcount`` says whether it
#: wrote, on PostgreSQL ``RETURNING 1``, read at once in the library's pipeline)
ADVANCE = (
    f"UPDATE {TABLE} SET ruleset = ?, players = ?, round = ?, status = ?, winner = ?, version = ?, head = ?, "
    "last_used = ? WHERE id = ? AND version = ? AND head = ?"
)
#: a command's row written where the game has none, and only where no other command wrote one meanwhile
#: (``GameIndex.claim``)
CLAIM = (
    f"INSERT INTO {TABLE} (id, ruleset, players, round, status, winner, version, head, created, last_used) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING RETURNING 1"
)

#: ``transaction(commit=...)``: a context manager giving a DB-API cursor
Transaction = Callable[..., AbstractContextManager[Any]]


def _columns(row: dict, stamp: str) -> list[Any]:
    """A new row's values in ``COLUMNS`` order (``stamp`` its creation and last use)."""
    values = dict(row, last_used=stamp, created=stamp, players=",".join(row.get("players") or ()))
    return [values[k] for k in COLUMNS]


def now() -> str:
    """Wall-clock time for the index only (never stored in a domain event)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class GameInfo(msgspec.Struct, frozen=True):
    """One row of ``trv games`` (a msgspec struct: defining a dataclass, and
    importing ``dataclasses``, cost ``trv show`` about 2 ms)."""

    id: str
    ruleset: str
    players: tuple[str, ...]
    round: int | None
    status: str  # playing | over
    winner: str | None
    version: int
    head: str
    created: str
    last_used: str

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "round": self.round,
            "status": self.status,
            "winner": self.winner,
            "version": self.version,
            "head": self.head,
            "created": self.created,
            "last_used": self.last_used,
        }


class GameIndex:
    """The ``trv_games`` table, through ``transaction(commit=bool)`` cursors
    (the event store's own connection pool, so writes can share its transactions).

    ``schema`` names the PostgreSQL schema the table lives in (the events'
    own); without it the SQL is SQLite's."""

    def __init__(self, transaction: Transaction, schema: str | None = None):
        self.transaction = transaction
        self.schema = schema
        if schema is None:
            self.table, self.upsert, self.latest_sql, self.advance_sql = TABLE, UPSERT, LATEST, ADVANCE
            self.claim_sql = CLAIM
        else:
            self.table = f'"{schema}".{TABLE}'
            self.upsert = _postgres(UPSERT.replace(f"INSERT INTO {TABLE} ", f"INSERT INTO {self.table} AS {TABLE} "))
            self.latest_sql = LATEST.replace(f"FROM {TABLE}", f"FROM {self.table}")
            self.advance_sql = _postgres(ADVANCE.replace(f"UPDATE {TABLE} ", f"UPDATE {self.table} ")) + " RETURNING 1"
            self.claim_sql = _postgres(CLAIM.replace(f"INSERT INTO {TABLE} ", f"INSERT INTO {self.table} "))

    def exists(self) -> bool:
        return TABLE in self.found()

    def found(self) -> set[str]:
        """Which of the table and its old index (``OLD_INDEX``) the database holds."""
        with self.transaction(commit=False) as c:
            if self.schema is None:
                c.execute("SELECT name FROM sqlite_master WHERE name IN (?, ?)", [TABLE, OLD_INDEX])
            else:
                c.execute("SELECT relname AS name FROM pg_class JOIN pg_namespace n ON n.oid = relnamespace "
                          "WHERE nspname = %s AND relname IN (%s, %s)", [self.schema, TABLE, OLD_INDEX])
            return {row["name"] for row in c.fetchall()}

    def drop_old(self) -> None:
        """Drop the table's old index (``OLD_INDEX``), once a store (a derived
        table's index: nothing stored is lost).  On PostgreSQL under the
        schema's advisory lock (not the one ``store._prepare_postgres`` holds
        while it creates the tables), so that processes opening the store at
        once drop it one after the other (the later ones find it gone)."""
        with self.transaction(commit=True) as c:
            if self.schema is None:
                c.execute(f"DROP INDEX IF EXISTS [{OLD_INDEX}]")
            else:
                c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"trvendetta:{self.schema}:index"])
                c.execute(f'DROP INDEX IF EXISTS "{self.schema}".{OLD_INDEX}')

    def create(self) -> None:
        with self.transaction(commit=True) as c:
            for statement in CREATE:
                if self.schema is not None:
                    statement = statement.replace(f"[{TABLE}]", self.table).replace("[", '"').replace("]", '"')
                c.execute(statement)

    def write(self, cursor: Any, row: dict, *, stamp: str | None = None) -> None:
        """Upsert one game's row with ``cursor`` (inside the caller's transaction)."""
        cursor.execute(self.upsert, _columns(row, stamp or now()))

    def advance(self, cursor: Any, row: dict, before: tuple[int, str], *, stamp: str | None = None) -> bool:
        """Write one game's row with ``cursor`` (inside the caller's transaction)
        only where it still says ``before`` (the count and head the command
        found): True when written.  One statement where a read and an upsert
        took two (a turn's append, issue 16); False sends the caller to
        :meth:`read` to find out why (no row, or another command's)."""
        values = [row["ruleset"], ",".join(row.get("players") or ()), row["round"], row["status"], row["winner"],
                  row["version"], row["head"], stamp or now(), row["id"], before[0], before[1]]
        cursor.execute(self.advance_sql, values)
        if self.schema is None:
            return cursor.rowcount == 1  # RETURNING cost SQLite about a third of the statement
        return cursor.fetchone() is not None

    def claim(self, cursor: Any, row: dict, *, stamp: str | None = None) -> bool:
        """Write one game's row with ``cursor`` (inside the caller's transaction) where the game has none: True
        when written; False when another command wrote one meanwhile (on PostgreSQL the insert waits for that
        command's transaction, then finds its row).  A command's rows are stored under its last record's
        version (``chunks``), so two appends after the same event need not collide in the events table: the
        index row, checked and written in the save's transaction, is what refuses the second."""
        cursor.execute(self.claim_sql, _columns(row, stamp or now()))
        return cursor.fetchone() is not None

    def read(self, cursor: Any, game: str) -> tuple[int, str] | None:
        """``(version, head)`` of one game's row with ``cursor`` (inside the caller's transaction)."""
        cursor.execute(self._sql(f"SELECT version, head FROM {self.table} WHERE id = ?"), [game])
        found = cursor.fetchone()
        return None if found is None else (found["version"], found["head"])

    def put(self, row: dict, *, created: bool = False, stamp: str | None = None) -> None:
        with self.transaction(commit=True) as c:
            self.write(c, row, stamp=stamp)

    def touch(self, game: str) -> None:
        """Make ``game`` the most recently used one (no row changes when it
        already is).  One statement, a write from its start: a transaction
        that read first and then wrote would fail at once ("database is
        locked") when another process committed in between (SQLite cannot
        upgrade a stale read snapshot), whatever the busy timeout."""
        with self.transaction(commit=True) as c:
            c.execute(self._sql(f"UPDATE {self.table} SET last_used = ? WHERE id = ? "
                                f"AND id <> COALESCE(({self.latest_sql}), '')"), [now(), game])

    def _sql(self, sql: str) -> str:
        return sql if self.schema is None else _postgres(sql)

    def _rows(self, sql: str, params: list) -> Iterator[dict]:
        with self.transaction(commit=False) as c:
            c.execute(self._sql(sql.replace(f"FROM {TABLE}", f"FROM {self.table}")), params)
            return iter([{k: r[k] for k in r.keys()} for r in c.fetchall()])  # sqlite3.Row

    def get(self, game: str) -> GameInfo | None:
        rows = list(self._rows(f"SELECT * FROM {TABLE} WHERE id = ?", [game]))
        return _info(rows[0]) if rows else None

    def all(self) -> list[GameInfo]:
        return [_info(r) for r in self._rows(f"SELECT * FROM {TABLE} ORDER BY last_used DESC, id", [])]

    def latest(self) -> str | None:
        rows = list(self._rows(LATEST, []))
        return rows[0]["id"] if rows else None


def _postgres(sql: str) -> str:
    """The same statement with psycopg's placeholders."""
    return sql.replace("?", "%s")


def _info(row: dict) -> GameInfo:
    return GameInfo(
        id=row["id"],
        ruleset=row["ruleset"],
        players=tuple(p for p in (row["players"] or "").split(",") if p),
        round=row["round"],
        status=row["status"],
        winner=row["winner"],
        version=row["version"],
        head=row["head"],
        created=row["created"],
        last_used=row["last_used"],
    )


class SQLiteConnection:
    """A plain sqlite3 connection with eventsourcing's ``transaction(commit=)``
    shape (the in-memory store's index, and ``trvendetta.store.quick``)."""

    def __init__(self, database: str, *, uri: bool = False, timeout: float = 10.0) -> None:
        self.conn = sqlite3.connect(database, uri=uri, timeout=timeout, isolation_level=None,
                                    check_same_thread=False)
        self.conn.row_factory = sqlite3.Row

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[sqlite3.Cursor]:
        cursor = self.conn.cursor()
        cursor.execute("BEGIN")
        try:
            yield cursor
        except BaseException:
            self.conn.rollback()
            raise
        if commit:
            self.conn.commit()
        else:
            self.conn.rollback()

    def close(self) -> None:
        self.conn.close()
