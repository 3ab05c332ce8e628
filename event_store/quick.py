"""A read-only fast path for looking at a game (``trv show``, ``trv legal``).

It reads the same SQLite file as :class:`~trvendetta.store.store.GameStore`, with
the standard library's ``sqlite3`` and msgspec only: the latest snapshot of
the game (the engine state as the ruleset's canonical JSON) and the events
after it, folded with the ruleset.  It never imports eventsourcing, whose
import alone cost about a third of a ``trv show``.

It knows only the common case and returns ``None`` for anything else, so the
caller falls back to ``GameStore`` (which then gives the proper answer or the
proper error): no database or no index yet, an unknown game, a snapshot
under other rules or still waiting for a refold, a retraction after the
snapshot, a payload of another schema, anything that does not decode.
"""

from __future__ import annotations

import binascii
import os
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import msgspec

from trvendetta import rulesets

from .index import LATEST, TABLE, GameIndex, SQLiteConnection
from .packing import unpack
from .parts import PART_TOPIC, PartMissing, checked, join, same_state
from .records import GENESIS, RETRACTION_KIND, Loaded, decode_bots, event_schema, game_key

#: an engine event or retraction record: the first topic, and the short one used since 30 Nov 2026
EVENT_TOPICS = frozenset({"trvendetta:game:engine-event", "trv:e"})
CREATED_TOPIC = "trvendetta:game:created"
#: a whole snapshot (before 30 Nov 2026), and one whose shared parts are stored apart (parts.py)
SNAPSHOT_TOPICS = frozenset({"trvendetta:game:snapshot", "trv:s"})
_NEEDED = {TABLE, "stored_events", "stored_snapshots"}


class _Envelope(msgspec.Struct):
    """The fields of a stored record this reader needs (eventsourcing's JSON)."""

    kind: str = ""
    schema: int = 1
    ruleset: str = ""
    payload: str = ""
    hash: str = ""
    name: str = ""
    bots: str = ""
    action: str = ""
    charter: str = ""
    domain: str = ""


class _SnapshotState(msgspec.Struct):
    name: str
    ruleset: str
    count: int
    head: str
    engine: str = ""
    engine_rules: Any = None
    engine_crc: int | None = None
    parts: dict[str, str] = {}
    bots: str = ""
    stale: bool = False
    charter: str = ""
    domain: str = ""


class _Snapshot(msgspec.Struct):
    state: _SnapshotState


_envelope = msgspec.json.Decoder(_Envelope)
_snapshot = msgspec.json.Decoder(_Snapshot)


class QuickReader:
    """Open with :meth:`open` (``None`` when the file is not a ready store)."""

    def __init__(self, db: SQLiteConnection):
        self.db = db
        self.index = GameIndex(db.transaction)

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
        except sqlite3.Error:
            db.close()
            return None
        if not _NEEDED <= names:
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
            return self._load(game)
        except (sqlite3.Error, zlib.error, msgspec.DecodeError, msgspec.ValidationError, KeyError, ValueError, TypeError,
                PartMissing):
            return None

    def last_action(self, game: str, version: int, limit: int = 500) -> tuple[str, list[Any]] | None:
        """The last action of the game after event ``version`` (its canonical
        JSON) and the events it produced, decoded; None when the last record
        is not an engine event (a retraction) or the action is not in the
        last ``limit`` records (then the caller does without)."""
        try:
            loaded = self._tail(game, version, limit)
        except (sqlite3.Error, zlib.error, msgspec.DecodeError, msgspec.ValidationError, KeyError, ValueError, TypeError):
            return None
        return loaded

    def _tail(self, game: str, version: int, limit: int) -> tuple[str, list[Any]] | None:
        gid = game_key(game)
        ruleset = None
        events: list[Any] = []
        for topic, data in self.db.conn.execute(
            "SELECT topic, state FROM stored_events WHERE originator_id = ? AND originator_version <= ? "
            "ORDER BY originator_version DESC LIMIT ?", [gid, version + 1, limit]
        ):
            e = _envelope.decode(unpack(data))
            if topic not in EVENT_TOPICS or e.kind.startswith("trv-"):
                return None
            ruleset = ruleset or rulesets.get(e.ruleset)
            if e.schema != event_schema(ruleset):
                return None  # an older payload schema: only the store upcasts
            events.append(ruleset.decode_event(e.payload.encode()))
            if e.action:
                events.reverse()
                return e.action, events
        return None

    def _load(self, game: str) -> Loaded | None:
        gid = game_key(game)
        conn = self.db.conn
        snaps = conn.execute(
            "SELECT originator_version, topic, state FROM stored_snapshots WHERE originator_id = ? "
            "ORDER BY originator_version DESC LIMIT 2", [gid]
        ).fetchall()
        witness = None
        if len(snaps) == 2:  # start from the one before the latest; the latest must be its fold (see witnessed)
            (seen, latest), (after, s) = [(v, self._snapshot(gid, v, topic, data)) for v, topic, data in snaps]
            if s is None or latest is None or latest.name != s.name:
                return None  # GameStore ignores them too, and replays the events
            ruleset = rulesets.get(s.ruleset)
            state = ruleset.decode_state(s.engine.encode())
            witness = (seen, latest)
            name, count, head, bots = s.name, s.count, s.head, s.bots
            charter, domain = s.charter, s.domain
        else:
            created = conn.execute(
                "SELECT topic, state FROM stored_events WHERE originator_id = ? AND originator_version = 1", [gid]
            ).fetchone()
            if created is None or created[0] != CREATED_TOPIC:
                return None
            c = _envelope.decode(unpack(created[1]))
            ruleset = rulesets.get(c.ruleset)
            state, name, count, head, bots, after = None, c.name, 0, GENESIS, c.bots, 1
            charter, domain = c.charter, c.domain
        schema = event_schema(ruleset)
        events = []
        last = after
        for version, topic, data in conn.execute(
            "SELECT originator_version, topic, state FROM stored_events WHERE originator_id = ? "
            "AND originator_version > ? ORDER BY originator_version", [gid, after]
        ):
            e = _envelope.decode(unpack(data))
            if topic not in EVENT_TOPICS or e.kind.startswith("trv-") or e.schema != schema or version != last + 1:
                return None
            events.append(ruleset.decode_event(e.payload.encode()))
            head, last = e.hash, version
            if witness is not None and version == witness[0]:
                claim = witness[1]
                try:  # folding events onto an edited state may fail anywhere in the engine
                    state = ruleset.fold(events, state)
                except Exception:  # noqa: BLE001
                    return None
                count, events, witness = count + len(events), [], None
                if (count, head) != (claim.count, claim.head) or not same_state(ruleset, state, claim.engine.encode()):
                    return None  # a snapshot that is not the fold of the events: GameStore replays them
        if witness is not None:
            return None  # the events stop before the latest snapshot: GameStore says what is missing
        count += len(events)
        row = self.index.get(name)
        if row is not None and (row.version > count or (row.version == count and row.head != head)):
            return None  # the index names events the store lacks: GameStore says what is damaged
        if events or state is None:
            state = ruleset.fold(events, state)
        return Loaded(name, ruleset, state, count, head, decode_bots(bots), charter, domain)

    def _snapshot(self, gid: str, version: int, topic: str, data: bytes) -> _SnapshotState | None:
        """A stored snapshot with its parts spliced back (``parts.py``), or None
        when it is not a plain one this reader takes, or fails the cheap checks."""
        if topic not in SNAPSHOT_TOPICS:
            return None
        s = _snapshot.decode(unpack(data)).state
        ruleset = rulesets.get(s.ruleset)
        if s.stale or not s.engine or str(s.engine_rules) != str(ruleset.rules_version) \
                or not self._snapshot_holds(gid, version, s):
            return None
        if s.parts:
            found = {}
            for name, addr in s.parts.items():
                row = self.db.conn.execute("SELECT topic, state FROM stored_snapshots WHERE originator_id = ? "
                                           "AND originator_version = 1", [addr]).fetchone()
                found[name] = checked(addr, unpack(row[1]) if row is not None and row[0] == PART_TOPIC else None)
            s = msgspec.structs.replace(s, engine=join(s.engine.encode(), found).decode(), parts={})
        return s

    def _snapshot_holds(self, gid: str, version: int, s: _SnapshotState) -> bool:
        """The cheap checks ``store.snapshot_problem`` makes: the snapshot's
        count is its version, its checksum its engine's, its head the hash of
        the stored event at its version."""
        if s.count != version - 1:
            return False
        if s.engine_crc is not None and s.engine_crc != binascii.crc32(s.engine.encode()):
            return False
        row = self.db.conn.execute("SELECT topic, state FROM stored_events WHERE originator_id = ? "
                                   "AND originator_version = ?", [gid, version]).fetchone()
        return row is not None and row[0] in EVENT_TOPICS and _envelope.decode(unpack(row[1])).hash == s.head
