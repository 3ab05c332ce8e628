"""A read-only fast path for looking at a game (``trv show``, ``trv legal``).

It reads the same SQLite file as :class:`~trvendetta.store.store.GameStore`
through the same reader (``rows.Reader``: the latest sound snapshot, the
records after it, every one checked against the chain, the live fold), over a plain ``sqlite3`` connection
opened read-only: it never imports eventsourcing, whose import alone cost
about a third of a ``trv show``, and never writes.

It returns ``None`` when it cannot answer, so the caller falls back to
``GameStore`` (which then gives the proper answer or the proper error): no
database or no index yet, an unknown game, anything that does not read or
decode, or a games index that names events the store lacks.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from trvendetta import rulesets

from .errors import StoreError
from .index import LATEST, TABLE, GameIndex, SQLiteConnection
from .records import Loaded, STORE_KINDS, decode_bots, decode_payload, game_key
from .rows import Reader

#: the library's SQLite tables and the games index
_NEEDED = {TABLE, "stored_events", "stored_commands"}
#: this layout's ``PRAGMA user_version`` (``store.LAYOUT``)
_LAYOUT = 3
#: what a damaged or unexpected file may raise while it is read (then GameStore answers)
_CANNOT = (sqlite3.Error, StoreError, LookupError, ValueError, TypeError)


class QuickReader:
    """Open with :meth:`open` (``None`` when the file is not a ready store)."""

    def __init__(self, db: SQLiteConnection):
        self.db = db
        self.index = GameIndex(db.transaction)
        self.reader = Reader(_select(db, "stored_commands", str), _select(db, "stored_events", game_key))

    @classmethod
    def open(cls, path: str | os.PathLike, lock_timeout: float = 10.0) -> "QuickReader | None":
        file = Path(path).expanduser()
        if str(path) == ":memory:" or not file.is_file():
            return None
        try:
            db = SQLiteConnection(file.resolve().as_uri() + "?mode=ro", uri=True, timeout=lock_timeout)  # reads never write
        except sqlite3.Error:
            return None
        try:
            names = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            layout = db.conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error:
            db.close()
            return None
        if not _NEEDED <= names or layout != _LAYOUT:
            db.close()
            return None
        return cls(db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "QuickReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def latest(self) -> str | None:
        row = self.db.conn.execute(LATEST).fetchone()
        return row[0] if row else None

    def load(self, game: str) -> Loaded | None:
        """The game after its last event, or None (then ask GameStore)."""
        try:
            folded = self.reader.load(game)
            if folded is None:
                return None
            row = self.index.get(game)
        except _CANNOT:
            return None
        if row is not None and (row.version > folded.count or (row.version == folded.count
                                                               and row.head != folded.head)):
            return None  # the index names events the store lacks: GameStore says what is damaged
        h = folded.header
        return Loaded(h.name, rulesets.get(h.ruleset), folded.state, folded.count, folded.head, decode_bots(h.bots),
                      h.charter, h.domain)

    def last_action(self, game: str, version: int, limit: int = 500) -> tuple[str, list[Any]] | None:
        """The last action of the game after event ``version`` (its canonical
        JSON) and the events it produced, decoded; None when the last record
        is not an engine event (a retraction) or the action is not in the
        last ``limit`` records (then the caller does without)."""
        try:
            return self._tail(game, version, limit)
        except _CANNOT:
            return None

    def _tail(self, game: str, version: int, limit: int) -> tuple[str, list[Any]] | None:
        records = self.reader.tail(game, version, limit)
        events: list[Any] = []
        for r in reversed(records):
            if r.kind in STORE_KINDS:
                return None
            events.append(decode_payload(rulesets.get(r.ruleset), r.kind, r.schema, r.payload))
            if r.action:
                events.reverse()
                return r.action.decode(), events
        return None


def _select(db: SQLiteConnection, table: str, key: Any) -> Any:
    """``rows.Select`` on one of the library's SQLite tables, a game's rows under ``key(game)``."""
    def select(game: str, gt: int | None, lte: int | None, desc: bool, limit: int | None) -> list[tuple]:
        sql = f"SELECT originator_version, topic, state FROM {table} WHERE originator_id = ?"
        params: list[Any] = [key(game)]
        if gt is not None:
            sql += " AND originator_version > ?"
            params.append(gt)
        if lte is not None:
            sql += " AND originator_version <= ?"
            params.append(lte)
        sql += " ORDER BY originator_version" + (" DESC" if desc else "")
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [tuple(r) for r in db.conn.execute(sql, params).fetchall()]
    return select
