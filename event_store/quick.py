"""A read-only fast path for ``trv show`` and ``trv legal`` (docs/store.md, "Reading without eventsourcing")."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from trvendetta import rulesets

from . import location
from .errors import StoreError
from .index import TABLE, GameIndex, SQLiteConnection, copy_of
from .records import Loaded, STORE_KINDS, decode_payload, game_key
from .rows import Reader

_NEEDED, _LAYOUT = {TABLE, "stored_events", "stored_commands"}, 3  # the tables; ``store.LAYOUT``
#: what a damaged or unexpected file may raise while it is read (then GameStore answers)
_CANNOT = (sqlite3.Error, StoreError, LookupError, ValueError, TypeError)


class QuickReader:
    """Open with :meth:`open` (None when the file is not a ready store)."""

    def __init__(self, db: SQLiteConnection):
        self.db = db
        self.index = GameIndex(db.transaction)
        self.reader = Reader(_select(db, "stored_commands", str), _select(db, "stored_events", game_key))

    @classmethod
    def open(cls, path: str | os.PathLike, lock_timeout: float = 10.0) -> "QuickReader | None":
        where = location.parse(path)  # a file, with or without ``sqlite:``
        file = Path(where.target).expanduser()
        if where.kind != "sqlite" or not file.is_file():
            return None
        db = None
        try:
            # reads never write, nor leave a -wal or -shm of this process beside a file it cannot write
            db = SQLiteConnection(location.read_uri(file), uri=True, timeout=lock_timeout)
            names = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if _NEEDED <= names and db.conn.execute("PRAGMA user_version").fetchone()[0] == _LAYOUT:
                return cls(db)
        except (sqlite3.Error, StoreError):
            pass
        if db is not None:
            db.close()
        return None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "QuickReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def latest(self) -> str | None:
        return self.index.latest()

    def load(self, game: str) -> Loaded | None:
        """The game after its last event, or None (then ask GameStore)."""
        try:
            row = self.index.row(game)
            folded = self.reader.load(game, latest=copy_of(row))
            if folded is None:
                return None
        except _CANNOT:
            return None
        if row is None or row["version"] != folded.count or row["head"] != folded.head \
                or self.reader.select_snaps(game, folded.count, None, True, 1):
            return None  # the index or a snapshot names other events than stored: GameStore says what is damaged
        return folded.loaded()

    def last_action(self, game: str, version: int, limit: int = 500) -> tuple[str, list[Any]] | None:
        """The last action after event ``version`` (its canonical JSON) and its events, decoded; None when
        the last record is not an engine event or the action is not in the last ``limit`` records."""
        events: list[Any] = []
        try:
            for r in reversed(self.reader.tail(game, version, limit)):
                if r.kind in STORE_KINDS:
                    return None
                events.insert(0, decode_payload(rulesets.get(r.ruleset), r.kind, r.schema, r.payload))
                if r.action:
                    return r.action.decode(), events
        except _CANNOT:
            pass
        return None


def _select(db: SQLiteConnection, table: str, key: Any) -> Any:
    """``rows.Select`` on one of the library's SQLite tables, a game's rows under ``key(game)``."""
    def select(game: str, gt: int | None, lte: int | None, desc: bool, limit: int | None) -> list[tuple]:
        sql = (f"SELECT originator_version, topic, state FROM {table} WHERE originator_id = ?"
               f"{' AND originator_version > ?' * (gt is not None)}{' AND originator_version <= ?' * (lte is not None)}"
               f" ORDER BY originator_version{' DESC' * desc}{f' LIMIT {int(limit)}' if limit is not None else ''}")
        params = [key(game)] + [p for p in (gt, lte) if p is not None]
        return [tuple(r) for r in db.conn.execute(sql, params).fetchall()]
    return select
