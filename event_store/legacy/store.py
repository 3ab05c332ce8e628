"""GameStore: create, load, append to and list games (the whole persistence API).

Everything above this module (the CLI, replays, audit tools, bots) goes
through these few methods::

    store = GameStore("games.sqlite")
    state, events = ruleset.new_game(position)
    store.create_game("g1", ruleset.name, events)
    game = store.load("g1")                      # Loaded(game, ruleset, state, version, head)
    state, new = ruleset.apply(game.state, action)
    store.append("g1", game.version, new)         # one transaction; GameMovedOn if stale
    for record in store.events("g1"): ...         # StoredEvent(number, kind, ..., hash, event)

Versions count engine events (the aggregate's own version is one more,
because of its ``Created`` event).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from datetime import datetime
from typing import Any

import msgspec

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import Compressor, JSONTranscoder
from eventsourcing.utils import Environment

from trvendetta.core.errors import TrvError

from .aggregate import (
    utc_now,
    GENESIS,
    RETRACTION_KIND,
    STORE_SCHEMA,
    Game,
    PartedSnapshot,
    Retraction,
    chain,
    decode_bots,
    encode_bots,
    encode_retraction,
    game_uuid,
)
from ..errors import ChainBroken, DamagedStore, GameMovedOn, GameNotFound, StoreError
from . import library
from .. import location
from .compact_ids import CompactIdsRecorder
from .packing import pack, unpack
from .reader import GameReader, Record, SnapshotRead, follows
from ..index import GameIndex, SQLiteConnection
from ..location import MEMORY
from ..records import SNAPSHOT_INTERVAL, GameHeader, Loaded, StoredEvent
from ..store import Closing, OldStore, _prepare_postgres as prepare_current

class Packer(Compressor):
    """The library's compressor setting (``COMPRESSOR_TOPIC``): records and
    snapshots deflated against a preset dictionary (``packing``); records
    stored plain before it existed are read as they are."""

    def compress(self, data: bytes) -> bytes:
        return pack(data)

    def decompress(self, data: bytes) -> bytes:
        return unpack(data)


class _NotPlain(Exception):
    """A value ``FlatJSON`` leaves to the library's encoder."""


def _plain(value: Any) -> Any:
    """``value`` as the library's ``json`` encoder sees it (its ``datetime``
    as the library's ``{"_type_": "datetime_iso", ...}``), when it holds only
    JSON's own types and datetimes; else ``_NotPlain``."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is datetime:
        return {"_type_": "datetime_iso", "_data_": value.isoformat()}
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out[key] = _plain(item)
        return out
    if kind is list or kind is tuple:
        return [_plain(item) for item in value]
    raise _NotPlain


class FlatJSON(JSONTranscoder):
    """The library's JSON transcoder (its ``TRANSCODER_TOPIC`` setting), with a
    faster path for what a game stores: a record or a snapshot holding only
    JSON's own types (strings, integers, booleans, None, lists, dicts) and
    ``datetime`` stamps is written by msgspec, byte for byte what the
    library's ``json`` encoder writes (``tests/store/test_library_hooks.py``
    compares them, and every code point of a string); anything else goes to
    the library.  Snapshots take that path too (two a stored simulated
    game)."""

    _encode = msgspec.json.Encoder().encode

    def encode(self, obj: Any) -> bytes:
        if type(obj) is dict:
            try:
                return self._encode(_plain(obj))
            except (_NotPlain, msgspec.EncodeError, OverflowError, TypeError):
                pass
        return super().encode(obj)


class _App(Application):
    name = "TrvGames"

    def construct_env(self, name: str, env: Any = None) -> Environment:
        # Configuration comes only from GameStore, never from os.environ.
        return Environment(name, dict(env or {}))


#: ``GameStore.snapshots``' answer (kept under its first name)
SnapshotInfo = SnapshotRead

#: the topics of ``Packer`` and ``FlatJSON`` (the library resolves them)
PACKER = f"{__name__}:Packer"
FLAT_JSON = f"{__name__}:FlatJSON"


class GameStore(Closing):
    """An event store of games: an SQLite file, memory (``:memory:``), or a
    PostgreSQL database (``postgresql://USER@HOST:PORT/DB[?schema=NAME]``);
    see ``trvendetta.store.location``."""

    #: how many loaded games a store keeps in memory for the next append
    KEEP_LOADED = 4

    def __init__(
        self,
        path: str | os.PathLike | None = MEMORY,
        *,
        snapshot_interval: int = SNAPSHOT_INTERVAL,
        lock_timeout: int = 10,
    ):
        where = location.parse(path)
        self.location = where
        self.path: Path | None = None
        self.schema: str | None = None  # PostgreSQL only
        if where.kind == "memory":
            env = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
        elif where.kind == "sqlite":
            self.path = Path(where.target).expanduser()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            env = {
                "COMPRESSOR_TOPIC": PACKER,
                "TRANSCODER_TOPIC": FLAT_JSON,
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "APPLICATION_RECORDER_TOPIC": CompactIdsRecorder.TOPIC,  # ids as 16 bytes
                "SQLITE_DBNAME": str(self.path),
                "SQLITE_LOCK_TIMEOUT": str(int(lock_timeout)),
            }
        else:
            env = {
                "COMPRESSOR_TOPIC": PACKER,
                "TRANSCODER_TOPIC": FLAT_JSON,
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                **location.postgres_env(where.target),
                # one command, one connection: the library's pool of five is for servers
                "POSTGRES_POOL_SIZE": "1",
                "POSTGRES_MAX_OVERFLOW": "2",
                "POSTGRES_LOCK_TIMEOUT": str(int(lock_timeout)),
                "POSTGRES_CONNECT_TIMEOUT": str(int(lock_timeout)),
            }
            self.schema = env["POSTGRES_SCHEMA"]
        env["IS_SNAPSHOTTING_ENABLED"] = "y"
        self.snapshot_interval = snapshot_interval
        #: the last few aggregates loaded or saved, most recent last (the next append starts from them)
        self._loaded: dict[str, Game] = {}
        self._index: GameIndex | None = None
        self._memory_index: SQLiteConnection | None = None
        #: the last integrity check: the connection it ran on, that connection's data_version then, what it found
        self._checked: tuple[Any, int, list[str]] | None = None
        first_use = _prepare_postgres(env) if self.schema is not None else None
        #: opened for reading only: its directory does not let SQLite make its -wal and -shm files
        self.read_only = False
        try:
            self.app = _App(env=env)  # (the upgrade reads an SQLite store from a copy of its own)
            #: every read of a game (load, events, header, snapshots) goes through it
            self.reader = GameReader(library.rows_of(self.app))
            if where.kind == "memory":
                self._memory_index = SQLiteConnection(":memory:")
                self._index_db: Any = self._memory_index
            else:
                self._index_db = self.app.recorder.datastore
            if first_use is not None:
                self.index  # noqa: B018  (made under the same lock as the events' tables)
        finally:
            if first_use is not None:
                first_use.close()

    @property
    def index(self) -> GameIndex:
        if self._index is None:
            self._index = GameIndex(self._index_db.transaction, self.schema)  # (never made here)
        return self._index

    # --------------------------------------------------------------- reads

    def _created(self, game: str) -> Any:
        with self._reading(game):
            created = self.reader.created(game)
        if created is None:
            raise self._not_found(game)
        return created

    def header(self, game: str) -> GameHeader:
        """The game's ``Created`` record: ruleset, rules version, parent, creation time."""
        c = self._created(game)
        return GameHeader(c.name, c.ruleset, c.rules_version, c.store_schema, c.parent, c.parent_at, c.parent_head,
                          c.created, decode_bots(c.bots), c.charter, c.domain)

    def version(self, game: str) -> int:
        """The number of engine events stored for ``game`` (reads the last one only)."""
        with self._reading(game):
            last = self.reader.last(game)
        if last is None:
            raise self._not_found(game)
        return last

    def exists(self, game: str) -> bool:
        with self._reading(game):
            return self.reader.last(game) is not None

    def _records(self, game: str, since: int = 0, upto: int | None = None,
                 previous: str | None = None) -> list[Record]:
        with self._reading(game):
            return self.reader.records(game, since, upto, previous)

    def events(self, game: str, upto: int | None = None, since: int = 0, *, decode: bool = True,
               stamped: bool = True, lazy: bool = False) -> Sequence[StoredEvent]:
        """Stored engine events ``since < number <= upto``, decoded, numbered from 1 (a list).

        ``decode=False`` leaves ``event`` None (the walker decodes, or, when
        re-executing, takes the recomputed event whose bytes are the record's);
        ``stamped=False`` may leave ``recorded_at`` None (a lean chunk's records:
        their wall-clock stamp, unhashed metadata, is then only checked to read;
        ``trv verify``); ``lazy`` (with ``decode=False``): a ``runs.Records``,
        whose lean records are made only where asked, and which a re-executing
        walker takes as raw fields (``trv verify``)."""
        previous = self.events_head(game, since)
        with self._reading(game):
            found = self.reader.stored(game, since, upto, previous, decode, stamped, lazy)
        if not lazy:  # (a lazy read is verify's, whose walk checks every link)
            follows(game, found, previous)
        return found

    def events_head(self, game: str, number: int) -> str:
        """The chain hash after event ``number`` (the game's genesis for 0), checked against the chain as a
        load up to it checks it."""
        if number == 0:
            return self.header(game).genesis
        with self._reading(game):
            found = self.reader.checked_hash(game, number)
        if found is None:
            self._created(game)  # GameNotFound first
            raise StoreError(f"game {game!r} has no event {number}")
        return found

    def verify(self, game: str) -> str:
        """Recompute the whole hash chain from the stored bytes; returns the head.

        Raises ChainBroken naming the first event whose hash does not follow.
        """
        head = self.header(game).genesis
        for r in self._records(game):
            expected = chain(head, r.payload.encode(), r.action.encode(), r.sig.encode())
            if r.hash != expected:
                raise ChainBroken(game, r.number, expected, r.hash)
            head = r.hash
        return head

    def names(self) -> list[str]:
        """Every game, in creation order (the ``Created`` records of the notification log)."""
        log = self.app.notification_log
        names: list[str] = []
        start = 1
        while True:
            batch = log.select(start, log.section_size)
            if not batch:
                break
            names += [self.app.mapper.to_domain_event(n).name for n in batch if n.topic == Game.Created.TOPIC]
            start = batch[-1].id + 1
        return names

    # ------------------------------------------------------------ helpers
    # ------------------------------------------------------------- damage
    @contextmanager
    def _reading(self, game: str) -> Iterator[None]:
        """Turn anything a damaged record raises while reading ``game`` into
        one DamagedStore line naming the game and, when it can be found, the
        first event that cannot be read."""
        try:
            yield
        except (TrvError, AggregateNotFoundError):
            raise
        except Exception as exc:  # noqa: BLE001  a damaged file can raise almost anything
            if type(exc).__module__.startswith("psycopg"):
                raise  # a server that does not answer is not damage (the CLI says so in one line)
            raise self._damage(game, exc) from None

    def _damage(self, game: str, exc: BaseException) -> DamagedStore:
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        if isinstance(exc, sqlite3.DatabaseError):
            return DamagedStore(game, None, f"the database file is damaged ({detail})")
        try:
            number = self._first_unreadable(game)
        except Exception:  # noqa: BLE001  the scan itself cannot read the file
            number = None
        return DamagedStore(game, number, f"it cannot be read ({detail})")

    def _first_unreadable(self, game: str) -> int | None:
        """The number of the first record of ``game`` that does not read or
        decode (0 for its ``Created`` record), or None."""
        return self.reader.first_unreadable(game)

    def _get(self, game: str, at: int | None) -> Game:
        if at is not None and at < 0:
            raise StoreError(f"event number {at} is negative")
        with self._reading(game):
            folded = self.reader.load(game, at)
        if folded is None:
            raise self._not_found(game)
        return Game.restore(folded)

    def _not_found(self, game: str) -> GameNotFound:
        try:
            known = [g.id for g in self.index.all()]
        except Exception:  # the index is a convenience; never mask the real error
            known = []
        return GameNotFound(game, known)


def _prepare_postgres(env: dict[str, str]) -> Any:
    """PostgreSQL: the current store's preparation (the server's answer checked, the schema made, a first
    use locked: ``store._prepare_postgres``); a schema it refuses as an older store's holds this
    layout's tables already, so the library is told not to create them again."""
    try:
        return prepare_current(env)
    except OldStore:
        env["CREATE_TABLE"] = "n"
        return None
