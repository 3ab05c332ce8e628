"""The games index, table ``trv_games``: one row per game for ``trv games``, derived from the events
(docs/store.md, "The games index"). Plain SQL on the store's own connections.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime, timezone
from typing import Any

import msgspec

from trvendetta.core.errors import TrvError

TABLE = "trv_games"
#: the columns of ``trv games``, in order, and their SQL types
COLUMNS = {"id": "TEXT PRIMARY KEY", "ruleset": "TEXT", "players": "TEXT", "round": "INTEGER", "status": "TEXT",
           "winner": "TEXT", "version": "INTEGER", "head": "TEXT", "created": "TEXT", "last_used": "TEXT"}
#: and a copy of the game after record ``state_at``, as a snapshot (``rows.Snap``), where ``trv show`` starts
#: (docs/store.md, "The games index"); a row without ``state_at`` (written before that column) holds its copy
#: after record ``version``
COPY = {"state": "BYTEA", "state_at": "INTEGER"}
_ALL = [*COLUMNS, *COPY]
CREATE = f"CREATE TABLE IF NOT EXISTS {TABLE} ({', '.join(f'{c} {t}' for c, t in {**COLUMNS, **COPY}.items())})"
#: a game's row, unless the table's names more events; its first creation time kept, and its copy when the
#: new row has none
_UPDATED = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c not in ("id", "created"))
UPSERT = (f"INSERT INTO {TABLE} ({', '.join(_ALL)}) VALUES ({', '.join('?' * len(_ALL))}) ON CONFLICT(id) "
          f"DO UPDATE SET {_UPDATED}, created = COALESCE({TABLE}.created, excluded.created), "
          f"state = COALESCE(excluded.state, {TABLE}.state), "
          f"state_at = COALESCE(excluded.state_at, {TABLE}.state_at, {TABLE}.version) "
          f"WHERE {TABLE}.version <= excluded.version")
_INFO = f"SELECT {', '.join(COLUMNS)} FROM {TABLE}"
LATEST = f"SELECT id FROM {TABLE} ORDER BY last_used DESC, created DESC LIMIT 1"
#: the SQL index that serves ``LATEST`` (and ``touch``) by one seek, not a scan of every game's row
LATEST_INDEX = f"{TABLE}_latest"
CREATE_LATEST = f"CREATE INDEX IF NOT EXISTS {LATEST_INDEX} ON {TABLE} (last_used, created)"
#: what ``columns`` reports when that index exists (beside the table's column names)
HAS_LATEST = "@" + LATEST_INDEX


def now() -> str:
    """Wall-clock time for the index only (never stored in a domain event)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


class GameInfo(msgspec.Struct, frozen=True):
    """One row of ``trv games`` (a msgspec struct: a dataclass cost ``trv show`` about 2 ms)."""

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
        return msgspec.to_builtins(self)  # players as a list


class GameIndex:
    """The ``trv_games`` table through the store's own ``transaction(commit=bool)`` cursors; ``schema``: the
    PostgreSQL schema it lives in (the events' own), else the SQL is SQLite's."""

    def __init__(self, transaction: Callable[..., AbstractContextManager[Any]], schema: str | None = None):
        self.transaction = transaction
        self.schema = schema
        if schema is None:
            self.table, self.upsert, self.latest_sql = TABLE, UPSERT, LATEST
        else:
            self.table = f'"{schema}".{TABLE}'
            self.upsert = self._sql(UPSERT.replace(f"INSERT INTO {TABLE} ", f"INSERT INTO {self.table} AS {TABLE} "))
            self.latest_sql = LATEST.replace(f"FROM {TABLE}", f"FROM {self.table}")

    def columns(self) -> set[str]:
        """The table's columns (none: there is no table), and ``HAS_LATEST`` when the index
        serving "the latest game" exists (one query either way)."""
        with self.transaction(commit=False) as c:
            if self.schema is None:
                c.execute(f"SELECT name FROM pragma_table_info('{TABLE}') UNION ALL SELECT '@' || name "
                          f"FROM sqlite_master WHERE type = 'index' AND name = '{LATEST_INDEX}'")
            else:
                c.execute("SELECT column_name AS name FROM information_schema.columns WHERE table_schema = %s "
                          "AND table_name = %s UNION ALL SELECT '@' || indexname FROM pg_indexes "
                          "WHERE schemaname = %s AND indexname = %s", [self.schema, TABLE, self.schema, LATEST_INDEX])
            return {r["name"] for r in c.fetchall()}

    def create(self, columns: set[str]) -> None:
        """Make the table, or add what a table made before them lacks: the copy's columns, the
        index serving "the latest game"."""
        if not columns:
            with self.transaction(commit=True) as c:
                c.execute(CREATE.replace(f"EXISTS {TABLE} ", f"EXISTS {self.table} "))
        if HAS_LATEST not in columns:
            with self.transaction(commit=True) as c:
                c.execute(CREATE_LATEST.replace(f" ON {TABLE} ", f" ON {self.table} "))
        for column in (c for c in COPY if columns and c not in columns):
            try:
                with self.transaction(commit=True) as c:
                    c.execute(f"ALTER TABLE {self.table} ADD COLUMN {'IF NOT EXISTS ' * bool(self.schema)}"
                              f"{column} {COPY[column]}")
            except sqlite3.OperationalError as exc:
                if "duplicate column" not in str(exc):
                    raise  # else another process added it first

    def put(self, row: dict, *, stamp: str | None = None, cursor: Any = None) -> None:
        """Write one game's row, unless it already names more events (another command's, written since);
        in the transaction of ``cursor`` when given (a command's own), else in one of its own."""
        stamp = stamp or now()  # a new row's creation, and its last use
        values = dict(row, last_used=stamp, created=stamp, players=",".join(row.get("players") or ()))
        with self.transaction(commit=True) if cursor is None else nullcontext(cursor) as c:
            c.execute(self.upsert, [values.get(k) for k in _ALL])

    def touch(self, game: str) -> None:
        """Make ``game`` the most recently used one (no row changes when it already is), in one statement:
        a transaction that read first, then wrote, would fail at once ("database is locked") when another
        process committed in between (SQLite cannot upgrade a stale read snapshot)."""
        with self.transaction(commit=True) as c:
            c.execute(self._sql(f"UPDATE {self.table} SET last_used = ? WHERE id = ? "
                                f"AND id <> COALESCE(({self.latest_sql}), '')"), [now(), game])

    def set_times(self, game: str, created: str, last_used: str) -> None:
        """Give ``game``'s row the times another store's index had for it (a copy, an upgrade: when it was
        made and last used there, so that "the latest game" stays the same)."""
        with self.transaction(commit=True) as c:
            c.execute(self._sql(f"UPDATE {self.table} SET created = ?, last_used = ? WHERE id = ?"),
                      [created, last_used, game])

    def _sql(self, sql: str) -> str:
        """``sql`` with psycopg's placeholders on PostgreSQL."""
        return sql if self.schema is None else sql.replace("?", "%s")

    def _rows(self, sql: str, params: list) -> list[dict]:
        with self.transaction(commit=False) as c:
            c.execute(self._sql(sql.replace(f"FROM {TABLE}", f"FROM {self.table}")), params)
            return [{k: r[k] for k in r.keys()} for r in c.fetchall()]  # sqlite3.Row

    def row(self, game: str) -> dict | None:
        """A game's row as stored (no ``state`` in a table made before that column, till a store opens it)."""
        rows = self._rows(f"SELECT * FROM {TABLE} WHERE id = ?", [game])
        return rows[0] if rows else None

    def get(self, game: str) -> GameInfo | None:
        rows = self._rows(f"{_INFO} WHERE id = ?", [game])
        return _info(rows[0]) if rows else None

    def all(self, damaged: list[Exception] | None = None) -> list[GameInfo]:
        """Every row; ``damaged``: a row that does not read is put there (and left out), else it raises."""
        out = []
        for r in self._rows(f"{_INFO} ORDER BY last_used DESC, id", []):
            try:
                out.append(_info(r))
            except TrvError as exc:
                if damaged is None:
                    raise
                damaged.append(exc)
        return out

    def latest(self) -> str | None:
        rows = self._rows(LATEST, [])
        return rows[0]["id"] if rows else None


def copy_of(row: dict | None) -> tuple[int, bytes] | None:
    """A row's copy of its game: (the number of the record it is after, the packed snapshot), or None
    (DamagedStore: a row whose values are not of their columns' types)."""
    if not row:
        return None
    _info(row)
    at, state = row.get("state_at"), row.get("state")
    if at is not None and (type(at) is not int or at < 0) or state is not None and not isinstance(state, bytes):
        raise _damaged(row, f"state_at is {at!r}, state a {type(state).__name__}")
    if not state:
        return None
    return (row["version"] if at is None else at), state


#: the values a row's columns must hold (``round`` and ``winner`` may be NULL; ``players``: names joined by ",")
_TYPES: dict[str, Any] = {"id": str, "ruleset": str, "players": str, "round": (int, type(None)), "status": str,
                          "winner": (str, type(None)), "version": int, "head": str, "created": str, "last_used": str}


def _info(row: dict) -> GameInfo:
    """The row as ``trv games`` lists it; DamagedStore, one line naming the game and the column, when a
    value is not of its column's type (an index edited or damaged outside trv: docs/store.md)."""
    for column, kind in _TYPES.items():
        value = row[column]
        if not isinstance(value, kind) or isinstance(value, bool) or (column == "version" and value < 0) \
                or (column == "status" and value not in ("playing", "over")):
            raise _damaged(row, f"{column} is {'NULL' if value is None else repr(value)[:40]}")
    for column in ("created", "last_used"):  # the store's own times, ISO 8601
        try:
            datetime.fromisoformat(row[column])
        except ValueError:
            raise _damaged(row, f"{column} is {row[column][:40]!r}, not a time") from None
    players = tuple(p for p in row["players"].split(",") if p)
    return GameInfo(**{k: row[k] for k in COLUMNS if k != "players"}, players=players)


def _damaged(row: dict, what: str) -> Exception:
    from .errors import CHECK_HINT, DamagedStore

    game = row.get("id")
    return DamagedStore(game if isinstance(game, str) else repr(game), None,
                        f"its row in the games index is damaged ({what}){CHECK_HINT}")


class SQLiteConnection:
    """A plain sqlite3 connection with eventsourcing's ``transaction(commit=)`` shape (the in-memory store's
    index, ``trvendetta.store.quick``, and an SQLite store's writes: ``GameStore._write``)."""

    def __init__(self, database: str, *, uri: bool = False, timeout: float = 10.0, begin: str = "BEGIN") -> None:
        self.conn = sqlite3.connect(database, uri=uri, timeout=timeout, isolation_level=None,
                                    check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.begin = begin

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[sqlite3.Cursor]:
        cursor = self.conn.cursor()
        cursor.execute(self.begin)
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
