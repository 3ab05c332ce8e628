"""Game ids as 16 bytes in an SQLite store (see ``library.py``, "Game ids as 16 bytes").

Its own module because it imports eventsourcing, which ``trv show`` (through
``library.sqlite_rows``) never does.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder


class CompactIdsRecorder(SQLiteApplicationRecorder):
    """The events' recorder of an SQLite store: an aggregate's id as its 16
    bytes (a BLOB) instead of 32 hex characters, in the row and in the primary
    key's index; an aggregate stored before keeps its hex id."""

    #: the library's setting that names this class (``GameStore`` sets it on SQLite)
    TOPIC = f"{__name__}:CompactIdsRecorder"

    #: how many games' id forms are remembered
    REMEMBERED = 256

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._stored_as: dict[UUID, Any] = {}

    def stored_id(self, originator_id: Any, first: Any = None) -> Any:
        """The id as the aggregate's rows hold it: its hex (the UUID itself, which
        the library writes so) when its first rows were stored that way, else its bytes.
        ``first(sql, params)``: the first row a select finds, or None, on a connection
        outside any transaction (``SQLiteSaves.first``); else the library's pool is read."""
        if not isinstance(originator_id, UUID):
            return originator_id
        found = self._stored_as.get(originator_id)
        if found is None:
            sql = f"SELECT 1 FROM {self.events_table_name} WHERE originator_id = ? LIMIT 1"
            if first is not None:
                old = first(sql, [originator_id.hex]) is not None
            else:
                with self.datastore.transaction(commit=False) as c:
                    c.execute(sql, [originator_id.hex])
                    old = c.fetchone() is not None
            found = originator_id if old else originator_id.bytes
            if len(self._stored_as) >= self.REMEMBERED:
                self._stored_as.clear()  # a process storing thousands of games (trv sim --store) stays flat
            self._stored_as[originator_id] = found
        return found

    def convert_originator_id(self, originator_id: Any) -> Any:
        if isinstance(originator_id, bytes):
            return UUID(bytes=originator_id)
        return super().convert_originator_id(originator_id)

    def insert_events(self, stored_events: Any, **kwargs: Any) -> Any:
        # the form is looked up before the insert's transaction: a read first would make SQLite
        # upgrade that transaction to a write, which fails at once ("locked") when another
        # process wrote in between, where a write first waits for the lock
        # rows built by the store (``writing.Batch``) already hold the stored form; the library's own
        # (a game's ``Created`` event) hold a UUID
        stored = [StoredEvent(originator_id=self.stored_id(s.originator_id), originator_version=s.originator_version,
                              topic=s.topic, state=s.state) if isinstance(s.originator_id, UUID) else s
                  for s in stored_events]
        return super().insert_events(stored, **kwargs)

    def params(self, stored_events: Any) -> list[Any]:
        """``insert_events_statement``'s parameters for ``stored_events``, each id in
        its stored form (looked up now: call it before the save's transaction, as
        ``insert_events`` does); the store's own saves (``sqlite_saves``) insert them."""
        found = []
        for s in stored_events:
            oid = s.originator_id
            if isinstance(oid, UUID):
                oid = self.stored_id(oid)
                oid = oid.hex if isinstance(oid, UUID) else oid
            found.append((oid, s.originator_version, s.topic, s.state))
        return found

    def _insert_events(self, c: Any, stored_events: Any, **_: Any) -> Any:
        """The library's insert of a save's rows (private: ``library.py``), as one ``executemany``
        instead of one ``execute`` a row (a game stored whole is hundreds of rows: ``trv sim
        --store``); it returns no notification ids, which the store never reads."""
        c.executemany(self.insert_events_statement,
                      [(s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id,
                        s.originator_version, s.topic, s.state) for s in stored_events])
        return None

    def select_events(self, originator_id: Any, **kwargs: Any) -> Any:
        return super().select_events(self.stored_id(originator_id), **kwargs)
