"""GameStore: create, load, append to and list games (the whole persistence API; docs/store.md),
through eventsourcing's public API only."""

from __future__ import annotations

import os
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Self
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import DataError, IntegrityError, StoredEvent as Row
from eventsourcing.utils import Environment

from trvendetta import rulesets
from trvendetta.core.errors import TrvError
from trvendetta.core.names import check_name

from . import location
from .errors import (CHECK_HINT, ChainBroken, DamagedStore, GameExists, GameMovedOn, GameNotFound, StoreError,
                     StoreReadOnly, StoreUnsynced)
from .index import COLUMNS, HAS_LATEST, TABLE, GameIndex, GameInfo, SQLiteConnection, _info, copy_of
from .location import MEMORY
from .records import (COPY_INTERVAL, RETRACTION_KIND, SNAPSHOT_INTERVAL, STORE_KINDS, STORE_SCHEMA, GameHeader, Loaded,
                      RawRecord, Retraction, StoredEvent, chain, decode_bots, decode_payload, encode_bots,
                      encode_retraction, event_schema, game_uuid)
from .rows import (CHECK, HEAD_TOPIC, NAME_TOPIC, ROW_MAX, SAVE_TOPIC, SNAP_TOPIC, Folded, Head, Reader, Rec,
                   Save, Snap, SnapshotRead, _EPOCH, fold_live, micros, pack)
from .rows import kind_of as rows_kind_of

#: this layout: an SQLite file's ``PRAGMA user_version`` (docs/store.md, "Older stores")
LAYOUT = 3
#: the tables eventsourcing makes for ``_App`` on PostgreSQL (the application's, the commands'), and
#: the older layouts' (a schema with the first and not the second is of layout 2)
PG_EVENTS_TABLE, PG_COMMANDS_TABLE, PG_OLD_EVENTS_TABLE = "trvstore_events", "trvstore_commands", "trvgames_events"


class OldStore(StoreError):
    """A store written in an earlier layout: only ``trv store upgrade`` reads it."""

    def __init__(self, where: object):
        super().__init__(f"the store {where} is in an older layout; run `trv store upgrade` to copy its games "
                         "and tournaments into a store of the current one (it leaves this one as it is)")


def utc_now() -> datetime:
    """Now in UTC, a plain ``datetime`` even under freezegun (the library's transcoder refuses its class)."""
    now = datetime.now(timezone.utc)
    if type(now) is datetime:
        return now
    return datetime(now.year, now.month, now.day, now.hour, now.minute, now.second, now.microsecond,
                    tzinfo=timezone.utc)


class _App(Application):
    name = "TrvStore"

    def construct_env(self, name: str, env: Any = None) -> Environment:
        return Environment(name, dict(env or {}))  # from GameStore only, never from os.environ


def _select(recorder: Any, key: Any) -> Any:
    """``rows.Select`` on one of the library's recorders, a game's rows under ``key(game)``."""
    def select(game: str, gt: int | None, lte: int | None, desc: bool, limit: int | None) -> list[tuple]:
        return [(r.originator_version, r.topic, r.state)
                for r in recorder.select_events(key(game), gt=gt, lte=lte, desc=desc, limit=limit)]
    return select


def notifications(recorder: Any, topic: str) -> Iterator[Any]:
    """The application's rows of ``topic``, in the order they were written."""
    start = None
    while batch := recorder.select_notifications(start, 1000, topics=[topic], inclusive_of_start=start is None):
        yield from batch
        start = batch[-1].id


class Closing:
    """A store's lifecycle: ``close`` (its application, any in-memory games index, its writer) and ``with``."""

    app: Any
    _memory_index: SQLiteConnection | None

    def close(self) -> None:
        self.app.close()
        for own in (self._memory_index, getattr(self, "_writer", None)):
            if own is not None:
                own.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: ``_first_look``'s answer for a kept game whose store nothing but this process wrote since it was last found
#: to be the stored one (``PRAGMA data_version`` unchanged): its end is the kept tail, and nothing is read
_QUIET: tuple[GameInfo | None, int] = (None, -1)


class _Chain:
    """What this process verified of one game's rows (``GameStore.trust_own_reads``): ``hashes[n]`` the
    chain hash after record ``n`` (0: the genesis), through the records it read checked or wrote itself;
    ``records`` the records ``1..len(records)`` as a checked read returned them (decoded, stamped);
    ``indexed`` the count at which the games index was last checked against them."""

    __slots__ = ("hashes", "records", "indexed")

    def __init__(self, genesis: str):
        self.hashes: list[str] = [genesis]
        self.records: list[StoredEvent] = []
        self.indexed = -1


class GameStore(Closing):
    """An event store of games: an SQLite file, memory (``:memory:``), or a PostgreSQL database
    (``postgresql://USER@HOST:PORT/DB[?schema=NAME]``); see ``trvendetta.store.location``."""

    KEEP_LOADED = 4  # loaded games kept in memory for the next append
    #: the library's settings of this layout: a game's rows are under its name (PostgreSQL: its uuid)
    LAYOUT_ENV = {"ORIGINATOR_ID_TYPE": "text"}

    def __init__(self, path: str | os.PathLike | None = MEMORY, *, snapshot_interval: int = SNAPSHOT_INTERVAL,
                 lock_timeout: int = 10):
        self.location = where = location.parse(path)
        self.path: Path | None = None
        self.schema: str | None = None  # PostgreSQL only
        env = {"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor", **self.LAYOUT_ENV}
        if where.kind == "memory":
            env["PERSISTENCE_MODULE"] = "eventsourcing.popo"
        elif where.kind == "sqlite":
            self.path = Path(where.target).expanduser()
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                made = Path(exc.filename or self.path.parent)
                raise StoreError(f"cannot make the folder {made} for the game store {self.path}: {exc.strerror} "
                                 f"(you cannot write {made.parent}); give a store where you can write") from None
            env.update({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(self.path),
                        "SQLITE_LOCK_TIMEOUT": str(int(lock_timeout))})
        else:
            env.update({"PERSISTENCE_MODULE": "eventsourcing.postgres", **location.postgres_env(where.target),
                        "ORIGINATOR_ID_TYPE": "uuid",  # the tournaments' table needs uuids there
                        # one command, one connection: the library's pool of five is for servers
                        "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "2",
                        # a connection the database dropped (a restart) is replaced, not handed out
                        "POSTGRES_PRE_PING": "y",
                        "POSTGRES_LOCK_TIMEOUT": str(int(lock_timeout)),
                        "POSTGRES_CONNECT_TIMEOUT": str(int(lock_timeout))})
            self.schema = env["POSTGRES_SCHEMA"]
        self.snapshot_interval = snapshot_interval
        #: why this process cannot write the store (SQLite: the file or its folder), opened to read only
        self.read_only_why = location.cannot_write(self.path) if self.path is not None and self.path.exists() \
            else None
        self.read_only = self.read_only_why is not None  # (or the folder cannot hold -wal and -shm: _read_only_uri)
        if self.path is not None and self.read_only:  # read in place, leaving no file beside it
            env.update({"SQLITE_DBNAME": location.read_uri(self.path), "CREATE_TABLE": "n"})
        self._loaded: dict[str, Folded] = {}  # the last few games loaded or saved, most recent last
        #: the chains this process verified or wrote, by game (None: every read checks from the rows)
        self._chains: dict[str, _Chain] | None = None
        self._chains_kept = 0
        #: within ``one_look``: each game's last row (``Reader.end``) as first read, and as this process's own
        #: appends left it; and the games whose kept state was found to be the store's (or written) in it
        self._ends: dict[str, tuple[int, int, bytes] | None] | None = None
        self._looked: set[str] = set()
        self._chained: set[str] = set()  # (within ``one_look``: games whose stored last row ends the kept chain)
        #: a kept game's last row as this process read it checked or wrote it: (its last record, the row's
        #: version, its bytes) (``trust_own_reads``)
        self._tails: dict[str, tuple[int, int, bytes]] = {}
        #: SQLite: each kept game's ``PRAGMA data_version`` of the writer's connection, read before the look
        #: that found the kept game to be the stored one (``_first_look``); and that of the look under way
        self._quiet: dict[str, int] = {}
        self._looking_at: dict[str, int] = {}
        self._version_now: int | None = None  # (within ``one_look``: read once a request)
        self._index: GameIndex | None = None
        self._memory_index: SQLiteConnection | None = None
        self._writer: SQLiteConnection | None = None  # SQLite: a command's writes (GameStore._writing)
        #: commands this store committed (``defer_sync``: the caller's ``sync`` makes them durable)
        self.commits = 0
        self._deferred = False
        #: why this store takes no more writes: an fsync of ``sync`` failed (``StoreUnsynced``)
        self.unsynced: str | None = None
        self.lock_timeout = lock_timeout
        #: the last integrity check: the connection it ran on, its data_version then, what it found
        self._checked: tuple[Any, int, list[str]] | None = None
        first_use = self._prepare(env, lock_timeout)
        try:
            try:
                self.app = _App(env=env)
            except sqlite3.OperationalError as exc:
                uri = _read_only_uri(self.path, exc) if self.path is not None else None
                if uri is None:
                    raise
                self.app = _App(env={**env, "SQLITE_DBNAME": uri, "CREATE_TABLE": "n"})
                self.read_only, self.read_only_why = True, "its folder cannot hold SQLite's -wal and -shm files"
            self._open()
            if self.schema is not None:
                _check_without_a_round_trip(self.app.recorder, getattr(self, "commands", None))
            if where.kind == "memory":
                self._memory_index = SQLiteConnection(":memory:")
                self._index_db: Any = self._memory_index
            else:
                self._index_db = self.app.recorder.datastore
            if self.path is not None:
                self._check_layout()
            if first_use is not None:
                self.index  # noqa: B018  (made under the same lock as the events' tables)
        finally:
            if first_use is not None:
                first_use.close()

    def trust_own_reads(self, games: int = 256) -> None:
        """For a long-running process (``trv serve``): the records of up to ``games`` games that this
        process read whole, checked from their genesis (and then wrote itself), are kept and not checked again on
        each read; a read checks only the rows after them (from the kept hash, as any read checks rows),
        and the games index when those rows end elsewhere than the last check found.  Rows this process
        did not verify are checked as always (docs/store.md, "Every row is checked as it is read").  What
        is kept is used only while the store ends as this process left it: a load or append of a game it
        saved or loaded last starts from that state when the stored last row is byte for byte the one it
        read or wrote and the games index and snapshots agree (``_fresh``); kept records are served when the
        stored row holding the last one re-hashes from the kept chain (``_holds``); else the game is read as
        a plain store reads it.  On SQLite that look is skipped while no other connection committed to the
        file since it last found the kept game stored (``_data_version``).  A kept row before the last is not
        read again, so damage done to it later is found by ``verify`` and by every other process, not by this one."""
        self._chains, self._chains_kept = {}, games
        self.KEEP_LOADED = max(self.KEEP_LOADED, games)

    def defer_sync(self) -> bool:
        """For a server that answers a write only once :meth:`sync` returned after it (``trv serve``): on an
        SQLite file, a command's commit no longer waits for its own fsync (``PRAGMA synchronous=NORMAL`` on
        this store's writer: a commit still lands whole or not at all, and a process killed after it loses
        nothing; power lost before the next ``sync`` may take back the commits since the last), so one
        ``sync`` makes every command committed before it durable at once: a group commit, each command in a
        transaction of its own.  False (nothing changed) for any other store: PostgreSQL's commit is durable
        when it returns (a commit a crash could take back would let a process chain onto, show or answer
        what the database no longer holds: docs/store.md, "Writes")."""
        if self.location.kind != "sqlite" or self.read_only:
            return False
        self._deferred = True
        if self._writer is not None:
            self._writer.conn.execute("PRAGMA synchronous=NORMAL")
        return True

    def sync(self) -> None:
        """Make every command committed so far durable (``defer_sync``): an fsync of the write-ahead log,
        which holds every commit since the last checkpoint (a checkpoint fsyncs the log, then the database
        file, before the log is used again); of the database file when there is no log.  Thread-safe:
        called while this store's own thread commits more (those are durable at the next call).

        An fsync that fails stops this store's writes for good (``unsynced``; every later ``sync`` and
        every write raise ``StoreUnsynced``): after an I/O error the operating system may drop the pages
        it could not write and count them clean, so a later fsync that succeeds says nothing of the
        commits before it, and a commit chained onto them could be answered as durable and lost with
        them.  A process started afterwards reads the store as it is on disk (docs/store.md, "Writes").
        Nothing to do on PostgreSQL, whose commits are durable when they return."""
        if self.path is None:
            return
        if self.unsynced is not None:
            raise StoreUnsynced(self.path, self.unsynced)
        for target in (self.path.with_name(self.path.name + "-wal"), self.path):
            try:
                fd = os.open(target, os.O_RDONLY)
            except FileNotFoundError:
                continue
            try:
                os.fsync(fd)
            except OSError as exc:
                self.unsynced = f"an fsync of {target.name} failed ({exc.strerror or exc})"
                raise StoreUnsynced(self.path, self.unsynced) from exc
            finally:
                os.close(fd)
            return

    @contextmanager
    def one_look(self) -> Iterator[None]:
        """A store that trusts its own reads: within this, each game's end is read once (its last row), and
        then known from this process's own appends (a request of the server: it sees the store as it first
        looked, plus its own writes).  An append is still refused when another process appended first
        (``GameMovedOn``), after which the game's end is read again."""
        if self._chains is None or self._ends is not None:
            yield
            return
        self._ends, self._looked, self._chained = {}, set(), set()
        try:
            yield
        finally:
            self._ends, self._looked, self._chained = None, set(), set()
            self._version_now = None
            self._looking_at.clear()

    def _data_version(self) -> int | None:
        """SQLite (``trust_own_reads``): ``PRAGMA data_version`` of this store's writer connection, which
        changes whenever another connection (of any process) commits to the file and not for this store's
        own commits; once a request within ``one_look``.  None where there is none to read (memory,
        PostgreSQL, a store opened to read only)."""
        if self.path is None or self.read_only or self._chains is None:
            return None
        if self._ends is not None and self._version_now is not None:
            return self._version_now
        try:
            version = int(self._own_writer().conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None  # (the reads name what is wrong)
        if self._ends is not None:
            self._version_now = version
        return version

    def _end(self, game: str) -> tuple[int, int, bytes] | None:
        """The game's last row (``Reader.end``; None: no such game), once within ``one_look``."""
        ends = self._ends
        if ends is None:
            return self._read(self.reader.end, game)
        if game not in ends:
            ends[game] = self._read(self.reader.end, game)
        return ends[game]

    def _prepare(self, env: dict[str, str], lock_timeout: float) -> Any:
        """Before the library opens the store: refuse one of an older layout (see the functions)."""
        if self.path is not None:
            _prepare_sqlite(self.path, lock_timeout, self.read_only)
        return _prepare_postgres(env) if self.schema is not None else None

    def _open(self) -> None:
        #: the commands table, and the key of a game's rows in it
        self.commands = self.app.factory.aggregate_recorder("commands")
        self._key: Any = game_uuid if self.schema is not None else str
        #: every read of a game (load, events, header, snapshots) goes through it
        self.reader = Reader(_select(self.commands, self._key), _select(self.app.recorder, game_uuid))

    def _check_layout(self) -> None:
        """An SQLite file of another ``PRAGMA user_version`` (one opened read-only) is an older store."""
        with self._index_db.transaction(commit=False) as c:
            c.execute("PRAGMA user_version")
            if c.fetchone()[0] == LAYOUT:
                return
            self.app.close()
            raise OldStore(self.path)

    @property
    def index(self) -> GameIndex:
        if self._index is None:
            self._index = index = GameIndex(self._index_db.transaction, self.schema)
            columns = index.columns()
            if not {"state", "state_at"} <= columns and self.read_only:  # lost, or older: rebuilt in memory
                self._memory_index = SQLiteConnection(":memory:")
                self._index = index = GameIndex(self._memory_index.transaction, None)
                index.create(set())
                self.rebuild_index()
            elif not {"state", "state_at", HAS_LATEST} <= columns and not self.read_only:  # new, or an older index
                index.create(columns)
                if "state" not in columns:
                    self.rebuild_index()
        return self._index

    # -------------------------------------------------------------- writes
    def create_game(self, game: str, ruleset: str, events: Sequence[Any] = (), *,
                    steps: Sequence[tuple[Any, ...]] = (), records: Sequence[Any] = (), parent: str = "",
                    parent_at: int = 0, parent_head: str = "", bots: dict[str, str] | None = None,
                    charter: str = "", domain: str = "", rules_version: str | None = None,
                    created_at: datetime | None = None, state: Any = None,
                    store_schema: int = STORE_SCHEMA) -> Loaded:
        """Store a new game in one transaction: its header, ``events`` (set-up, no action), ``steps``
        (``(action, events)`` or ``(action, events, signer)``) and ``records`` (:class:`RawRecord`-like:
        imports, forks, copies).  ``bots``: ``{seat: bot kind}``; ``charter`` (``records.Charter`` JSON)
        binds seats to keys (the chain starts from it and the bots); ``domain``: what a fork's
        signatures name; ``rules_version``, ``created_at``, ``store_schema``: a copy's source's;
        ``state``: the engine state after it all, if the caller has it."""
        check_name(game, "game name")
        for seat in bots or {}:
            check_name(seat, "bot seat")
        rules = rulesets.get(ruleset)
        created = created_at or utc_now()
        header = Head(game, rules.name, str(rules.rules_version) if rules_version is None else rules_version,
                      store_schema, parent, parent_at, parent_head, encode_bots(bots), charter, domain, micros(created))
        g = Folded(header, None, 0, header.genesis, [])
        head_row = Row(originator_id=self._key(game), originator_version=0, topic=HEAD_TOPIC, state=pack(header))
        return self._commit(g, rules, events, steps, records, lambda: GameExists(game), state, [head_row])

    def append(self, game: str, expected_version: int, events: Sequence[Any] = (), *,
               steps: Sequence[tuple[Any, ...]] = (), records: Sequence[Any] = (), state: Any = None) -> Loaded:
        """Append to a game last seen at ``expected_version``, atomically: ``steps`` (``(action, events)``,
        the action recorded on its first event), ``events`` without an action, ``records`` given bytes
        (imports, retractions).  GameMovedOn (nothing written) if the game has moved on since."""
        g = self._loaded.pop(game, None)
        if g is not None and g.count == expected_version and self._chains is not None and not self._fresh(game, g):
            self._forget(game)  # not the game as this process left it: read as any append reads it
            g = None
        if g is None or g.count != expected_version:  # else loaded (and checked) or written by this store
            g = self._get(game, expected_version)
            if g.count == expected_version:
                self._check_index(g.header, g.count, g.head)  # never on top of a cut-off tail
        if g.count != expected_version:
            if self._ends is not None:
                self._ends.pop(game, None)
                self._looked.discard(game)
            now = self.version(game)
            if now > expected_version:
                raise GameMovedOn(now)
            raise StoreError(f"game {game!r} has only {g.count} events, not {expected_version}")
        if not events and not steps and not records:
            self._keep(g)
            return g.loaded()
        count = g.count
        try:
            return self._commit(g, rulesets.get(g.header.ruleset), events, steps, records,
                                lambda: self._moved_on(game, count), state)
        except BaseException:
            if self._ends is not None:
                self._ends.pop(game, None)  # read again: another process may have appended
                self._looked.discard(game)
            raise

    def _moved_on(self, game: str, count: int) -> StoreError:
        """Why an append after ``count`` events was refused: GameMovedOn when a fresh read finds more
        events, else the rows disagree with their table's index (DamagedStore)."""
        now = self._get(game, None).count
        if now > count:
            return GameMovedOn(now)
        return DamagedStore(game, count + 1, f"the store refuses event {count + 1} as already stored, yet a read "
                                             f"of the game ends at event {now}: its rows or their index are damaged")

    def _commit(self, g: Folded, rules: Any, events: Sequence[Any], steps: Sequence[tuple[Any, ...]],
                records: Sequence[Any], conflict: Any, state: Any = None, rows: list[Any] | None = None) -> Loaded:
        """Chain and store one command's records, then its snapshot and index row (docs/store.md, "Writes")."""
        if self.read_only:
            raise StoreReadOnly(self.path, self.read_only_why)
        stamp, before, head = utc_now(), g.count, g.head
        fold, schema, encode = state is None or bool(records), event_schema(rules), rules.encode
        out: list[tuple[Rec, datetime, str]] = []
        pending: list[StoredEvent] = []

        def add(kind: str, schema: int, payload: bytes, action: bytes, sig: bytes, at: datetime, event: Any) -> None:
            nonlocal head
            new = chain(head, payload, action, sig)
            out.append((Rec(schema, payload, action, sig), at, new))
            pending.append(StoredEvent(before + len(out), kind, rules.name, schema, payload, new, head, at, event,
                                       action, None, sig))
            head = new

        def add_event(event: Any, action: bytes = b"", sig: bytes = b"") -> None:
            payload = encode(event)  # first: what cannot be encoded raises its own error
            add(rules.event_kind(event), schema, payload, action, sig, stamp, event)

        for event in events:
            add_event(event)
        for action, step_events, *signer in steps:  # (action, events) or (action, events, signer)
            if not step_events:
                raise StoreError(f"the action {rules.describe_action(action)!r} produced no event to record it on")
            action_bytes = encode(action)
            sig = signer[0](before + len(out) + 1, head, action_bytes) if signer and signer[0] else b""
            add_event(step_events[0], action_bytes, sig or b"")
            for event in step_events[1:]:
                add_event(event)
        for rec in records:
            sig = getattr(rec, "sig", b"")
            if callable(sig):  # signed as recorded: it needs the record's number and previous hash
                sig = sig(before + len(out) + 1, head, rec.action or rec.payload)
            if rows_kind_of(rec.payload) != rec.kind:
                raise StoreError(f"a {rec.kind!r} record whose payload opens with another kind")
            add(rec.kind, rec.schema, rec.payload, rec.action, sig, getattr(rec, "recorded_at", None) or stamp, None)
        new, rows, key, i = rows is not None, list(rows or []), self._key(g.header.name), 0
        while i < len(out):  # a row for each run of one stamp, of at most ROW_MAX records
            at, j = out[i][1], i + 1
            while j < len(out) and j - i < ROW_MAX and out[j][1] == at:
                j += 1
            save = Save(micros(at), bytes.fromhex(out[j - 1][2])[:CHECK], [rec for rec, _, _ in out[i:j]])
            rows.append(Row(key, before + i + 1, SAVE_TOPIC, pack(save)))
            i = j
        after = None  # the game after the command, unless a retraction makes it a fresh read
        if not any(r.kind == RETRACTION_KIND for r in pending):
            if records:
                folded = fold_live(rules, pending, g.state, g.retracted, before, g.header.name)
                state = folded[0] if folded is not None else None
            elif fold:
                live = [r.event for r in pending if r.kind not in STORE_KINDS]
                state = rules.fold(live, g.state) if live else g.state
            after = Folded(g.header, state, before + len(out), head, g.retracted)
        name = Row(game_uuid(g.header.name), 0, NAME_TOPIC, g.header.name.encode()) if new else None
        index = self._row(after, copy=before == 0 or after.count // COPY_INTERVAL != before // COPY_INTERVAL) \
            if after is not None else None
        if after is None:  # a retraction: the game read as these rows will leave it, before anything is written
            self._loaded.pop(g.header.name, None)
            after = self._read(self._overlaid(rows).load, g.header.name)
            assert after is not None
            index = self._row(after, copy=True)
        self._write(rows, name, self._snapshot_row(after, rules, before), index, stamp, conflict,
                    self._guard(g.header.name, before, g.head) if before else None)
        self._checked = None
        self._keep(after)
        if self._chains is not None:
            last = [r for r in rows if r.topic == SAVE_TOPIC]
            tail = (after.count, last[-1].originator_version, bytes(last[-1].state)) if last else (0, 0, b"")
            self._tails[g.header.name] = tail
            if self._ends is not None:
                self._ends[g.header.name] = tail
                self._looked.add(g.header.name)
        chains = self._chains
        known = chains.get(g.header.name) if chains is not None else None
        if chains is not None and known is not None:
            if len(known.hashes) == before + 1 and known.hashes[-1] == g.head:  # written by this process
                known.hashes.extend(h for _, _, h in out)
                if index is not None:
                    known.indexed = before + len(out)
                if len(known.records) == before:  # the records as a read of these rows returns them
                    with suppress(Exception):  # (committed: one that does not decode is read back instead)
                        known.records.extend(_as_read(rules, pending, out))
            elif len(known.hashes) > before:
                del chains[g.header.name]  # not the chain this process knew: read it again
                self._chained.discard(g.header.name)
        return after.loaded()

    def _overlaid(self, rows: list[Row]) -> Reader:
        """A reader of the store as it will be once the command rows ``rows`` are written (a retraction's
        command folds the game anew from them, in the same transaction as the rows: docs/store.md, "Writes")."""
        pending = [(r.originator_version, r.topic, r.state, r.originator_id) for r in rows]
        select = self.reader.select

        def overlay(game: str, gt: int | None, lte: int | None, desc: bool, limit: int | None) -> list[tuple]:
            key = self._key(game)
            mine = [(v, t, s) for v, t, s, k in pending
                    if k == key and (gt is None or v > gt) and (lte is None or v <= lte)]
            versions = {r[0] for r in mine}  # (one stored since: the write says the game moved on)
            found = [r for r in select(game, gt, lte, desc, limit) if r[0] not in versions] + mine
            found.sort(key=lambda r: r[0], reverse=desc)
            return found if limit is None else found[:limit]
        return Reader(overlay, self.reader.select_snaps)

    def _guard(self, game: str, count: int, head: str) -> Callable[[Any], None] | None:
        """SQLite, a store that trusts its own reads: a check run under the command's write lock that the game
        still ends as this process read or wrote it after ``count`` records.  While ``PRAGMA data_version`` is
        the counter at which the game was last found stored, nothing else committed since; otherwise its last
        row is read again, and a game another connection appended to, cut or rolled back in the meantime
        (after the request's look, or a quiet request's first counter read) is refused (GameMovedOn, or
        DamagedStore where its rows are damaged), nothing written."""
        if self.schema is not None:
            return self._pg_guard(game, count, head)
        if self.path is None or self._chains is None:
            return None

        def guard(c: Any) -> None:
            c.execute("PRAGMA data_version")
            version = int(c.fetchone()[0])
            if self._quiet.get(game) == version:
                return
            end, tail = self._read(self.reader.end, game), self._tails.get(game)
            if end is not None and end[0] == count and (tail is None or end == tail):
                self._quiet[game] = version  # found as this process left it, under the write lock
                return
            self._forget(game)
            if self._ends is not None:
                self._ends.pop(game, None)
            now = self._get(game, None).count  # (DamagedStore where the rows are damaged)
            raise GameMovedOn(now)
        return guard

    def _pg_guard(self, game: str, count: int, head: str) -> Callable[[Any], None]:
        """PostgreSQL: the first statement of a command's transaction, sent with the others (no round trip of
        its own), which aborts it unless the game still ends at the row this process read or wrote holding
        record ``count`` (whose hash is ``head``): that row stored byte for byte, and none after it.  A commit
        taken back, a row deleted or rolled back behind this process, or another process's rows refuse the
        write (GameMovedOn, or DamagedStore where the rows are damaged), nothing written: a write never leaves
        a gap nor chains onto a row the database no longer holds.  The row is the one kept
        (``trust_own_reads``) or the read just made; else the game's last row is read first."""
        def ends(tail: tuple[int, int, bytes] | None) -> bool:
            if tail is None or tail[0] != count or not tail[1]:
                return False
            try:
                check = self.reader.save_of(tail[1], SAVE_TOPIC, tail[2]).check
            except Exception:  # noqa: BLE001  (a row that does not read: not the one the command chains onto)
                return False
            return bytes.fromhex(head)[:len(check)] == check

        tail = self._tails.get(game) if self._chains is not None else None
        if not ends(tail):
            last = self.reader.last_row
            tail = last[1:] if last is not None and last[0] == game else None
        if not ends(tail):
            tail = self._read(self.reader.end, game)
            if not ends(tail):
                raise self._refused(game)
        assert tail is not None
        version, state = tail[1], tail[2]
        table = self.commands

        def guard(c: Any) -> None:
            from psycopg.sql import SQL, Identifier

            c.execute(SQL("SELECT 1 / coalesce(count(*) = 1 AND bool_and(originator_version = %s AND state = %s), "
                          "false)::int FROM {}.{} WHERE originator_id = %s AND originator_version >= %s").format(
                Identifier(table.datastore.schema), Identifier(table.events_table_name)),
                (version, state, self._key(game), version))
        guard.refused = lambda: self._refused(game)  # type: ignore[attr-defined]
        return guard

    def _refused(self, game: str) -> StoreError:
        """A write refused because the game no longer ends as this process left it: the game read afresh,
        GameMovedOn naming where it ends now (DamagedStore, raised, where its rows are damaged)."""
        self._forget(game)
        if self._ends is not None:
            self._ends.pop(game, None)
            self._looked.discard(game)
        return GameMovedOn(self._get(game, None).count)

    def _write(self, commands: list[Row], name: Row | None, snapshot: Row | None, index: dict | None,
               stamp: datetime, conflict: Any, guard: Callable[[Any], None] | None = None) -> None:
        """Store a command: its rows, a new game's name row, a snapshot and the game's index row, in one
        transaction (docs/store.md, "Writes"); on PostgreSQL the application table's rows (name, snapshot)
        by its recorder's own statements, after its own table lock, in the same transaction."""
        used, table = stamp.isoformat(timespec="microseconds"), self.index  # (made, if need be, before)
        app = self.app.recorder
        try:
            if self.location.kind == "memory":
                if name is not None:
                    app.insert_events([name])
                if commands:
                    self.commands.insert_events(commands)
                if snapshot is not None:
                    app.insert_events([snapshot])
                if index is not None:
                    table.put(index, stamp=used)
                return
            with self._writing() as c:
                if guard is not None:
                    guard(c)
                if self.schema is None:
                    if name is not None:  # (listed already by an earlier try, when names were written alone)
                        with suppress(sqlite3.IntegrityError):
                            c.execute(app.insert_events_statement, _params(name))
                    if snapshot is not None:
                        c.execute(app.insert_events_statement, _params(snapshot))
                    if commands:
                        c.executemany(self.commands.insert_events_statement, map(_params, commands))
                else:
                    listed = name is not None and self._listed(name)  # a name row an older writer left alone
                    own = [r for r in (None if listed else name, snapshot) if r is not None]
                    if own:
                        for statement in app.lock_table_statements:  # its notification ids in commit order
                            c.execute(statement)
                        c.execute(app.insert_events_statement, (_pg_rows(app, own),))
                        c.fetchall()  # (RETURNING notification_id)
                    if commands:
                        c.execute(self.commands.insert_events_statement, (_pg_rows(self.commands, commands),))
                if index is not None:
                    table.put(index, stamp=used, cursor=c)
            self.commits += 1
        except (IntegrityError, sqlite3.IntegrityError):
            raise conflict() from None
        except DataError as exc:  # (PostgreSQL: the guard's division by zero, the transaction rolled back)
            refused = getattr(guard, "refused", None)
            if refused is None or type(exc.__cause__).__name__ != "DivisionByZero":
                raise
            raise refused() from None

    def _listed(self, name: Row) -> bool:
        """PostgreSQL: whether a game's name row is stored (left by a writer before one transaction a command)."""
        return bool(self.app.recorder.select_events(name.originator_id, lte=0, limit=1))

    def _writing(self) -> Any:
        """A write transaction: on SQLite, of the store's own connection to the file (``BEGIN IMMEDIATE``,
        waiting up to the lock timeout for another writer); else the library's (docs/store.md, "Writes").
        After a failed fsync (``sync``): ``StoreUnsynced``, nothing written."""
        if self.unsynced is not None:
            raise StoreUnsynced(self.path, self.unsynced)
        if self.schema is not None:
            return self._pg_writing()
        if self.path is None:
            return self._index_db.transaction(commit=True)
        return self._own_writer().transaction(commit=True)

    @contextmanager
    def _pg_writing(self) -> Iterator[Any]:
        """PostgreSQL: a command's transaction in pipeline mode, ``BEGIN``, its statements and ``COMMIT``
        sent together and their answers read once, at the end: one round trip where each took one, unless
        the command reads an answer on the way (a new game's name row, a snapshot).  A statement refused (a
        row already stored) raises there, the statements after it skipped, and the transaction is rolled
        back: nothing written.  Its commit is durable when it returns (``synchronous_commit`` as the
        database sets it, on by default)."""
        import psycopg

        with self._index_db.get_connection() as conn:
            try:
                with conn.pipeline():
                    c = conn.cursor()
                    c.execute("BEGIN")
                    yield c
                    c.execute("COMMIT")
            finally:
                if not conn.closed and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    with suppress(psycopg.Error):  # (a connection that failed: the pool replaces it)
                        conn.execute("ROLLBACK")

    def _own_writer(self) -> SQLiteConnection:
        """SQLite: the store's own connection to the file, which its writes and its counter go through."""
        if self._writer is None:
            assert self.path is not None
            self._quiet.clear()  # (stamps of another connection's counter mean nothing on this one)
            self._writer = SQLiteConnection(str(self.path), timeout=self.lock_timeout, begin="BEGIN IMMEDIATE")
            if self._deferred:
                self._writer.conn.execute("PRAGMA synchronous=NORMAL")
        return self._writer

    def _snapshot_row(self, g: Folded | None, rules: Any, before: int) -> Row | None:
        """The game's snapshot when this command reached a multiple of the interval."""
        interval = self.snapshot_interval
        if g is None or not interval or g.count // interval == before // interval or g.state is None:
            return None
        return Row(originator_id=game_uuid(g.header.name), originator_version=g.count, topic=SNAP_TOPIC,
                   state=_packed(g, rules))

    def retract(self, game: str, expected_version: int, retraction: Retraction) -> Loaded:
        """Append a retraction record (``trv undo``); the retracted events stay stored."""
        payload = encode_retraction(retraction)
        return self.append(game, expected_version, records=[RawRecord(RETRACTION_KIND, 1, payload)])

    def touch(self, game: str) -> None:
        """Mark ``game`` as the most recently used one."""
        if self.read_only:
            raise StoreReadOnly(self.path, self.read_only_why)
        if self.unsynced is not None:
            raise StoreUnsynced(self.path, self.unsynced)
        self.index.touch(game)

    # --------------------------------------------------------------- reads
    def load(self, game: str, at: int | None = None) -> Loaded:
        """The game after its last event, or after event ``at`` (DamagedStore: see docs/store.md)."""
        if at is None and self._chains is not None and (kept := self._kept(game)) is not None:
            self._keep(kept)
            return kept.loaded()
        g = self._get(game, at)
        if at is None:
            self._check_index(g.header, g.count, g.head)
            self._keep(g)
            if self._ends is not None and game in self._tails:
                self._looked.add(game)
        elif g.count != at:
            raise StoreError(f"game {game!r} has {g.count} events; --at must be 1 to {g.count}")
        return g.loaded()

    def _header(self, game: str) -> Head:
        header = self._read(self.reader.header, game)
        if header is None:
            raise self._not_found(game)
        return header

    def header(self, game: str) -> GameHeader:
        """The game's header: ruleset, rules version, parent, creation time, bots, charter, domain."""
        h = self._header(game)
        return GameHeader(h.name, h.ruleset, h.rules_version, h.store_schema, h.parent, h.parent_at, h.parent_head,
                          h.created_at, decode_bots(h.bots), h.charter, h.domain)

    def retracted(self, game: str, at: int | None = None) -> set[int]:
        """Numbers of the events retracted (by ``trv undo``) in the game after event ``at``."""
        return {n for first, last in self._get(game, at).retracted for n in range(first, last + 1)}

    def version(self, game: str) -> int:
        """The number of events stored for ``game`` (reads its last row only; once within ``one_look``)."""
        end = self._end(game) if self._ends is not None else None
        if end is not None:
            return end[0]
        last = self._read(self.reader.last, game)
        if last is None:
            raise self._not_found(game)
        return last

    def exists(self, game: str) -> bool:
        return self._read(self.reader.last, game) is not None

    def ruleset_of(self, game: str) -> Any:
        return rulesets.get(self._header(game).ruleset)

    def _kept(self, game: str) -> Folded | None:
        """The game as this process last saved or loaded it, when the store still ends with the last row as
        this process read or wrote it (its bytes, not only its check) and the games index and snapshots
        agree (``_fresh``), or folded on from there with the records another process appended since, each
        checked as any read checks them (``trust_own_reads``); None (and the kept game dropped): a plain load."""
        g = self._loaded.get(game)
        if g is None:
            return None
        end, seen = self._first_look(game)
        if end is None or end[0] < g.count:
            self._forget(game)
            return None
        if end[0] == g.count:
            if self._fresh(game, g, end, seen):
                return g
            self._forget(game)
            return None
        known = self._chains.get(game) if self._chains is not None else None
        if known is None or len(known.hashes) <= g.count or known.hashes[g.count] != g.head:
            return None
        records = self._known(game, None, g.count)
        if not records or records[0].previous != g.head:
            return None
        try:
            folded = fold_live(rulesets.get(g.header.ruleset), records, g.state, g.retracted, g.count, game)
        except DamagedStore:
            raise
        except Exception:  # noqa: BLE001  (the ordinary load names what is wrong)
            return None
        if folded is None:  # a retraction takes back an event the state holds: the ordinary load
            return None
        return Folded(g.header, folded[0], records[-1].number, records[-1].hash, folded[1])

    def _fresh(self, game: str, g: Folded, end: Any = False, seen: tuple[GameInfo | None, int] | None = None) -> bool:
        """Whether the kept ``g`` is still the stored game: its last row (``end``, as ``_first_look`` read
        it with ``seen``) is the one this process read checked or wrote after ``g.count`` records, byte for
        byte, and the games index and the snapshots say what they say to a plain load (``_check_index``:
        DamagedStore as there).  Once within ``one_look``."""
        if self._ends is not None and game in self._looked:
            return True
        if end is False:
            end, seen = self._first_look(game)
        tail = self._tails.get(game)
        if end is None or tail is None or tail[0] != g.count or end != tail:
            return False
        if seen is not _QUIET:
            self._check_index(g.header, g.count, g.head, seen)
            version = self._looking_at.pop(game, None)
            if version is not None:
                self._quiet[game] = version  # the store was as this process left it at this counter
        if self._ends is not None:
            self._looked.add(game)
        return True

    def _first_look(self, game: str) -> tuple[tuple[int, int, bytes] | None, tuple[GameInfo | None, int] | None]:
        """The game's end (``_end``), and with it, when this is the request's first look at the game and
        the store can, its games index row and the version of its latest application row (a snapshot past
        the end is damage), read in one statement: a server's kept load is one round trip."""
        if self._ends is not None and game in self._ends:
            return self._ends[game], None
        version = self._data_version()
        if version is not None and self._quiet.get(game) == version and (tail := self._tails.get(game)) is not None:
            if self._ends is not None:  # nothing but this store's own commits since the game was last found kept
                self._ends[game] = tail
            return tail, _QUIET
        self._looking_at.pop(game, None)
        looked = self._look(game)
        if looked is not None and version is not None:
            self._looking_at[game] = version  # read before the look: a commit during it changes it
        if looked is None:
            return self._end(game), None
        if self._ends is not None:
            self._ends[game] = looked[0]
        return looked[0], looked[1:]

    def _look(self, game: str) -> tuple[tuple[int, int, bytes] | None, GameInfo | None, int] | None:
        """The game's last row (``Reader.end``), its games index row (None: none) and its latest application
        row's version (0: none), in one statement; None where they are read apart (memory, or a table this
        statement cannot read: the reads apart name what is wrong)."""
        if self.location.kind == "memory":
            return None
        if self.schema is None:
            commands, app, games, mark = "stored_commands", "stored_events", TABLE, "?"
            key = game_uuid(game)  # (as the library's SQLite recorder writes a UUID: its hex; either spelling)
            keys: list[Any] = [key.hex, str(key), game, game]
        else:
            commands, app = f'"{self.schema}".{PG_COMMANDS_TABLE}', f'"{self.schema}".{PG_EVENTS_TABLE}'
            games, mark = f'"{self.schema}".{TABLE}', "%s"
            keys = [game_uuid(game), game_uuid(game), game_uuid(game), game]
        columns = ", ".join(f"g.{c} AS g_{c}" for c in COLUMNS)
        sql = (f"SELECT c.originator_version AS c_version, c.topic AS c_topic, c.state AS c_state, "
               f"(SELECT max(originator_version) FROM {app} WHERE originator_id IN ({mark}, {mark})) AS snap, "
               f"{columns} "
               f"FROM (SELECT 1 AS one) AS one LEFT JOIN (SELECT originator_version, topic, state FROM {commands} "
               f"WHERE originator_id = {mark} ORDER BY originator_version DESC LIMIT 1) AS c ON 1 = 1 "
               f"LEFT JOIN {games} AS g ON g.id = {mark}")
        try:
            if self.schema is None:
                with self._index_db.transaction(commit=False) as c:
                    c.execute(sql, keys)
                    r = c.fetchone()
            else:  # one statement on its own (autocommit, prepared): one round trip, as the library's selects
                with self._index_db.get_connection() as conn, conn.cursor() as c:
                    c.execute(sql, keys, prepare=True)
                    r = c.fetchone()
        except Exception as exc:  # noqa: BLE001  (a server that does not answer is said so by the reads apart)
            if type(exc).__module__.startswith("psycopg") and not isinstance(exc, _pg_sql_errors()):
                raise
            return None
        rows = [] if r["c_version"] is None else [(r["c_version"], r["c_topic"], bytes(r["c_state"]))]
        end = self._read(self.reader.end_of, game, rows)
        info = None if r["g_id"] is None else _info({c: r[f"g_{c}"] for c in COLUMNS})
        return end, info, r["snap"] or 0

    def _forget(self, game: str) -> None:
        """Drop what this process kept of ``game``: the next read of it is a plain one."""
        self._loaded.pop(game, None)
        self._tails.pop(game, None)
        self._quiet.pop(game, None)
        self._looked.discard(game)
        self._chained.discard(game)
        if self._chains is not None:
            self._chains.pop(game, None)

    def _holds(self, game: str, known: _Chain, number: int) -> bool:
        """Whether the stored row holding record ``number`` (of those kept) is still on the kept chain: read
        and its records re-hashed from the kept hash before it (a rolled-back or forked file is not).
        Within ``one_look``, once a game: the stored last row, when it ends the kept chain, answers for
        every kept record (the store as the request first looked at it)."""
        if self._ends is not None:
            if game in self._chained:
                return True
            end, top = self._end(game), len(known.hashes) - 1
            if end is not None and end[0] == top and (
                    top == 0 or self.reader.row_follows(game, end[1], end[2], known.hashes, top)):
                self._chained.add(game)
                return True
        rows = self._read(self.reader.select, game, None, number, True, 1)
        return bool(rows) and self.reader.row_follows(game, rows[0][0], bytes(rows[0][2]), known.hashes, number)

    def _known(self, game: str, upto: int | None, since: int) -> list[StoredEvent] | None:
        """``events`` from the chain this process verified (``trust_own_reads``), when the stored row holding
        its last wanted record is still on it (``_holds``), checking only the rows after it; None where the
        ordinary read answers (an odd range, a game not stored, a file that is no longer the kept chain)."""
        assert self._chains is not None
        if since < 0 or (upto is not None and upto < since):
            return None
        known = self._chains.get(game)
        if known is not None and upto is not None and upto <= len(known.records):
            if upto and not self._holds(game, known, upto):
                self._forget(game)
                return None
            self._chains[game] = self._chains.pop(game)  # the most recently used last
            return known.records[since:upto]  # rows this process checked: stored once, never changed
        top = len(known.records) if known is not None else 0
        if known is not None and upto is None and self._ends is not None and since <= top and \
                known.indexed == top and (end := self._end(game)) is not None and end[0] == top:
            if not self._holds(game, known, top):
                self._forget(game)
                return None
            return known.records[since:]  # it ends where this process's last look and check found it
        if known is None and since > 0:
            return None  # kept from a whole read only: a tail's read (the clock's look at every game) as always
        if known is not None and top and not self._holds(game, known, top):
            self._forget(game)  # rolled back or forked since: read as it is
            return None
        header = self._read(self.reader.header, game)
        if header is None:
            return None
        if known is None:
            known = _Chain(header.genesis)
        self.reader.last_row = None
        new = self._read(self.reader.stored, game, top, upto, known.hashes[top], True, header)
        for r in new:
            if r.number < len(known.hashes) and known.hashes[r.number] != r.hash:  # not what this process wrote
                self._forget(game)
                return None
        count = new[-1].number if new else top
        if since > count:
            return None  # (the ordinary read names the missing event)
        if (upto is None or count < upto) and known.indexed != count:  # the read reached the last stored row
            self._check_index(header, count, new[-1].hash if new else known.hashes[top])
            known.indexed = count
        self._note_tail(game, count)
        known.records.extend(new)
        del known.hashes[top + 1:]
        known.hashes.extend(r.hash for r in new)
        self._chains.pop(game, None)
        self._chains[game] = known
        while len(self._chains) > self._chains_kept:
            del self._chains[next(iter(self._chains))]
        return known.records[since:upto]

    def _note_tail(self, game: str, count: int) -> None:
        """Keep the last row the reader just read checked, when it ends the game after ``count`` records."""
        last = self.reader.last_row
        if self._chains is not None and last is not None and last[0] == game and last[1] == count:
            self._tails[game] = last[1:]

    def events(self, game: str, upto: int | None = None, since: int = 0, *, decode: bool = True,
               stamped: bool = True) -> Sequence[StoredEvent]:
        """Stored events ``since < number <= upto``, each checked against the chain (``decode=False``:
        ``event`` None; ``stamped=False``: ``recorded_at`` None, for a reader that has no use for it;
        a store that trusts its own reads may give both anyway)."""
        if self._chains is not None and (found := self._known(game, upto, since)) is not None:
            return found
        previous = self.events_head(game, since)
        records = self._read(self.reader.stored, game, since, upto, previous, decode, stamped=stamped)
        count = records[-1].number if records else since
        if upto is None or count < upto:  # the read reached the last stored row: the index must agree
            self._check_index(self._header(game), count, records[-1].hash if records else previous)
        return records

    def events_head(self, game: str, number: int) -> str:
        """The chain hash after event ``number`` (the genesis for 0), checked as a load up to it checks it."""
        if number == 0:
            return self._header(game).genesis
        known = self._chains.get(game) if self._chains is not None else None
        if known is not None and 0 < number < len(known.hashes):
            if self._holds(game, known, number):  # (its row still on the kept chain)
                return known.hashes[number]
            self._forget(game)
        found = self._read(self.reader.checked_hash, game, number)
        if found is None:
            self._header(game)  # GameNotFound first
            raise StoreError(f"game {game!r} has no event {number}")
        return found

    def verify(self, game: str) -> str:
        """The head, the whole chain recomputed (ChainBroken naming the first event that does not follow)."""
        head = self._header(game).genesis
        try:
            records = self._read(self.reader.stored, game, 0, None, head, decode=False, stamped=False)
        except DamagedStore as exc:
            if hasattr(exc, "hashes"):
                raise ChainBroken(game, exc.number or 0, *exc.hashes) from None
            raise
        return records[-1].hash if records else head

    def folds(self, game: str, numbers: Sequence[int]) -> tuple[Any, dict[int, bytes]]:
        """The game folded from its records, each checked from the genesis (no action re-executed, as
        `trv store check` reads it): its state after the last record, and its engine state encoded after
        each of ``numbers`` that it holds (what a snapshot or the index's copy after it must be)."""
        header = self._header(game)
        ruleset = rulesets.get(header.ruleset)
        records = self._read(self.reader.stored, game, 0, None, header.genesis, False, header, stamped=False)
        states: dict[int, bytes] = {}
        state: Any = None
        retracted: list[list[int]] = []
        at = 0
        for n in sorted({n for n in numbers if 0 < n <= len(records)}) + [len(records)]:
            folded = fold_live(ruleset, records[at:n], state, retracted, at, game) or \
                fold_live(ruleset, records[:n], None, [], 0, game)  # a retraction reaching back: from the start
            assert folded is not None
            state, retracted, at = folded[0], folded[1], n
            states[n] = ruleset.encode(state)
        return state, states

    def list_games(self, damaged: list[Exception] | None = None) -> list[GameInfo]:
        """Every game, most recently used first (``damaged``: each index row that does not read goes there,
        left out of the list; else the first raises)."""
        return self.index.all(damaged)

    def info(self, game: str) -> GameInfo:
        found = self.index.get(game)
        if found is None:
            raise self._not_found(game)
        return found

    def latest_game(self) -> str | None:
        """The most recently created or used game, if any."""
        return self.index.latest()

    def names(self, every: bool = False) -> list[str]:
        """Every game, in creation order (its name row, selected by topic, and its header; ``every``: a
        name row alone too, as ``trv store check`` names a game whose header row is lost)."""
        names = []
        for n in notifications(self.app.recorder, self.name_topic):
            try:
                name = self.name_of(n.state)
            except Exception:  # noqa: BLE001  a damaged row: verify names it
                continue
            if every or self.reader.select(name, None, 0, False, None):
                names.append(name)
        return names

    name_topic = NAME_TOPIC

    @staticmethod
    def name_of(state: bytes) -> str:
        return state.decode()

    def rebuild_index(self) -> int:
        """Recreate the index rows from the stored events; returns the number of games."""
        index = self._index or GameIndex(self._index_db.transaction, self.schema)
        self._index = index
        names = self.names()
        for name in names:
            try:
                index.put(self._row(self._get(name, None)))
            except TrvError:
                continue  # a damaged game: verify names it
        return len(names)

    def integrity(self) -> list[str]:
        """What SQLite's ``PRAGMA integrity_check`` finds wrong ([]: nothing, or not SQLite), once for
        each state of the file (``PRAGMA data_version``)."""
        if self.location.kind != "sqlite":
            return []
        try:
            with self._index_db.transaction(commit=False) as c:
                c.execute("PRAGMA data_version")
                connection, version = c.sqlite_cursor.connection, c.fetchone()[0]
                checked = self._checked
                if checked is not None and checked[0] is connection and checked[1] == version:
                    return list(checked[2])
                c.execute("PRAGMA integrity_check")
                found = [str(r[0]) for r in c.fetchall()]
        except sqlite3.DatabaseError as exc:
            return [str(exc)]
        problems = [] if found == ["ok"] else found
        self._checked = (connection, version, problems)
        return list(problems)

    def snapshots(self, game: str, heads: Sequence[str] | None = None, decode: bool = True) -> list[SnapshotRead]:
        """Every snapshot of ``game``, oldest first, with why it is not used (``heads``: the events' hashes)."""
        return self._read(self.reader.snapshots, game, heads, decode)

    def index_state(self, game: str, heads: Sequence[str] | None = None, decode: bool = True) -> SnapshotRead | None:
        """The games index's copy of the game (``trv show`` starts from it), read as
        :meth:`snapshots` reads one; None when its row has none."""
        copy = copy_of(self.index.row(game))
        if copy is None:
            return None
        return self._read(self.reader.snapshots, game, heads, decode, [(copy[0], SNAP_TOPIC, copy[1])])[0]

    # ------------------------------------------------------------- helpers
    def _read(self, read: Callable[..., Any], game: str, *args: Any, **kwargs: Any) -> Any:
        """``read(game, ...)``; anything a damaged row raises becomes one DamagedStore line."""
        try:
            return read(game, *args, **kwargs)
        except TrvError:
            raise
        except Exception as exc:  # noqa: BLE001  a damaged file can raise almost anything
            if type(exc).__module__.startswith("psycopg"):
                raise  # a server that does not answer is not damage (the CLI says so in one line)
            detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            if isinstance(exc, sqlite3.DatabaseError):
                raise DamagedStore(game, None, f"the database file is damaged ({detail})") from None
            raise DamagedStore(game, None, f"it cannot be read ({detail})") from None

    def _check_index(self, header: Head, count: int, head: str,
                     seen: tuple[GameInfo | None, int] | None = None) -> None:
        """The games index must not name events the store lacks, nor another head for the same count (a
        read that ended after record ``count`` with ``head``); a row that does not read is damage too
        (``seen``: the index row and the latest application row's version, as ``_look`` read them)."""
        name = header.name
        try:
            row = self.index.get(name) if seen is None else seen[0]
        except TrvError:
            raise
        except Exception:  # noqa: BLE001  no table to read (verify reports it)
            return
        if row is not None and row.version > count:
            # the index is read after the rows (a statement of its own): another process may have appended
            # between the two; the rows it wrote with that index row are then stored, on from ``head``
            later = self._appended(name, count, head, row.version)
            if later is None:
                raise DamagedStore(name, count + 1, f"events {count + 1}-{row.version} are missing: the store "
                                                    f"holds {count}, the games index says {row.version}")
            if later.hash != row.head:
                raise DamagedStore(name, row.version, f"the games index says its head is {str(row.head)[:16]}..., "
                                                      f"the events' is {later.hash[:16]}...")
            count, head = row.version, later.hash  # (what follows is checked against the game as it is now)
        if row is not None and row.version == count and row.head != head:
            raise DamagedStore(name, count, f"the games index says its head is {str(row.head)[:16]}..., "
                                            f"the events' is {head[:16]}...")
        if row is not None and row.version < count and self.events_head(name, row.version) != row.head:
            # an index row is written with its command's rows: one naming fewer events must be on the chain
            raise DamagedStore(name, row.version, f"the games index says it has {row.version} events (head "
                                                  f"{str(row.head)[:16]}...), the store holds {count}, and event "
                                                  f"{row.version}'s hash is not that head")
        after = self._read(self.reader.select_snaps, name, count, None, True, 1) if seen is None else \
            [(seen[1],)] if seen[1] > count else []
        if after and self._appended(name, count, head, after[0][0]) is None:
            # a snapshot is another account of the game: one past the last record is a cut-off tail (unless
            # another process appended it since the rows were read, as above)
            last = after[0][0]
            raise DamagedStore(name, count + 1, f"events {count + 1}-{last} are missing: the store holds {count}, "
                                                f"a snapshot is of event {last}")
        if row is None and count:  # one transaction writes a command's rows and its index row: a lost row is damage
            raise DamagedStore(name, count + 1, f"the games index has no row for it: the store holds {count} "
                                                f"events, and events after them may be missing")

    def _appended(self, game: str, count: int, head: str, upto: int) -> StoredEvent | None:
        """Record ``upto`` of ``game`` as stored now, when the store holds it on from a read that ended after
        record ``count`` with ``head``: the rows after it read again, each checked as any read checks them
        (not the end the request first looked at: ``one_look``); None when it does not (the game's last row
        read backwards, then its rows in order, as a damaged table index can hide them from one of the two)."""
        last = self._read(self.reader.last, game)
        if last is None or last < upto:
            return None
        before = self.reader.last_row  # (what ``_note_tail`` is to keep: the read that came before this one)
        try:
            later = self._read(self.reader.stored, game, count, upto, head, False, stamped=False)
        finally:
            self.reader.last_row = before
        return later[-1] if later and later[-1].number == upto else None

    def _get(self, game: str, at: int | None) -> Folded:
        if at is not None and at < 0:
            raise StoreError(f"event number {at} is negative")
        self.reader.last_row = None
        folded = self._read(self.reader.load, game, at)
        if folded is None:
            raise self._not_found(game)
        if at is None:
            self._note_tail(game, folded.count)
        return folded

    def _not_found(self, game: str) -> StoreError:
        """GameNotFound naming the known games; DamagedStore when the game's header row is lost while its
        rows, name row or index row are stored."""
        try:
            known = [g.id for g in self.index.all()]
        except Exception:  # noqa: BLE001  the index is a convenience; never mask the real error
            known = []
        try:
            lost = self.reader.header(game) is None
            rows = self.reader.select(game, None, None, True, 1) if lost else []
            listed = lost and game in known  # (a name row alone, left by a crash of an older writer, is no game)
        except Exception:  # noqa: BLE001  (the damage a read of it meets is its own error)
            rows, listed = [], False
        if rows or listed:
            what = "its events are stored" if rows else "the store lists it"
            return DamagedStore(game, None, f"its header row is missing ({what}){CHECK_HINT}")
        return GameNotFound(game, known)

    def _row(self, g: Folded, copy: bool = True) -> dict:
        summary = rulesets.get(g.header.ruleset).summary(g.state)  # the contract's answer for `trv games`
        over = summary.status == "over"
        return {"id": g.header.name, "ruleset": g.header.ruleset, "players": list(summary.players),
                "round": summary.round, "status": "over" if over else "playing",
                "winner": summary.winner if over else None, "version": g.count, "head": g.head,
                # ``copy``: every COPY_INTERVAL records; zlib's fastest level (2.6 KB for the bench game's 11.7 KB,
                # in 0.4 of level 9's time), where a snapshot, written once, takes its smallest
                **({"state": _packed(g, rulesets.get(g.header.ruleset), 1), "state_at": g.count}
                   if copy and g.state is not None and g.count else {})}

    def _keep(self, g: Folded) -> None:
        self._loaded.pop(g.header.name, None)
        self._loaded[g.header.name] = g
        while len(self._loaded) > self.KEEP_LOADED:
            oldest = next(iter(self._loaded))
            self._tails.pop(oldest, None)
            self._quiet.pop(oldest, None)
            del self._loaded[oldest]


#: seconds a pooled PostgreSQL connection is handed out on the local check alone (``_still_connected``)
PING_SECONDS = 2.0


def _as_read(rules: Any, pending: list[StoredEvent], out: list[tuple[Rec, datetime, str]]) -> list[StoredEvent]:
    """A command's records as ``Reader.stored`` reads them back from its rows: event and action decoded from
    their bytes, the row's stamp to the microsecond (``GameStore._commit``: a server's kept chain takes its
    own writes without reading them)."""
    found = []
    for r, (_, at, _) in zip(pending, out):
        kind = rows_kind_of(r.payload)
        event = decode_payload(rules, kind, r.schema, r.payload)
        action = rules.decode_action(r.action) if r.action and kind not in STORE_KINDS else None
        found.append(StoredEvent(r.number, kind, rules.name, r.schema, r.payload, r.hash, r.previous,
                                 _EPOCH + timedelta(microseconds=micros(at)), event, r.action, action, r.sig))
    return found


def _check_without_a_round_trip(*recorders: Any) -> None:
    """The pools of a PostgreSQL store check a connection before handing it out (a restart of the server
    must not leave dead ones in them) by :func:`_still_connected`, not by a round trip each time; one
    found dead replaces every connection the pool holds (``_drained_on_failure``)."""
    seen: set[int] = set()
    for recorder in recorders:
        pool = getattr(getattr(recorder, "datastore", None), "pool", None)
        if pool is not None and id(pool) not in seen and getattr(pool, "_check", None) is not None:
            seen.add(id(pool))
            pool._check = _drained_on_failure(pool)


def _drained_on_failure(pool: Any) -> Callable[[Any], None]:
    """A pool's check (:func:`_still_connected`) that, when a connection fails it, has the pool replace all
    the others it holds too (psycopg_pool's ``drain``): a restart or a terminated server process drops every
    connection at once, and psycopg_pool tries the next one only after a back-off (1, 2, 4 s...), so a
    request met each dead connection in turn (3 s for three; after drops every few seconds, the pool's
    whole timeout and a 503) while new connections were ready in milliseconds."""
    owner = weakref.ref(pool)

    def check(conn: Any) -> None:
        try:
            _still_connected(conn)
        except Exception:
            found = owner()
            if found is not None and hasattr(found, "drain"):  # (psycopg_pool 3.2 on)
                found.drain()
            raise

    return check


_pinged: dict[int, float] = {}


def _still_connected(conn: Any) -> None:
    """Whether a pooled connection still works, as a pool's check (raises when not): a round trip when
    the server sent the idle connection anything (a restart or a terminated backend sends an error and
    closes it: an idle connection of a store is sent nothing else), else at most every ``PING_SECONDS``
    a connection (one whose peer vanished without a word)."""
    import select

    import psycopg

    pg = conn.pgconn
    if conn.closed or pg.status != psycopg.pq.ConnStatus.OK:
        raise psycopg.OperationalError("the connection is closed")
    now = time.monotonic()
    waiting = select.poll()  # poll, not select: select refuses a descriptor past 1023 (a busy process)
    waiting.register(pg.socket, select.POLLIN)
    if waiting.poll(0) or now - _pinged.get(id(conn), -PING_SECONDS) >= PING_SECONDS:
        from psycopg_pool import ConnectionPool

        ConnectionPool.check_connection(conn)
        if len(_pinged) > 64:
            _pinged.clear()
        _pinged[id(conn)] = now


def _pg_sql_errors() -> tuple[type[Exception], ...]:
    """psycopg's errors of a statement (a table it cannot read), not of a server that does not answer."""
    import psycopg

    return (psycopg.errors.ProgrammingError, psycopg.errors.DataError)


def _params(row: Row) -> tuple[str, int, str, bytes]:
    """A row as the library's SQLite insert statements take it (its own recorders' conversion)."""
    key = row.originator_id
    return key.hex if isinstance(key, UUID) else key, row.originator_version, row.topic, row.state


def _pg_rows(recorder: Any, rows: list[Row]) -> list[Any]:
    """Rows as a PostgreSQL recorder's insert statement takes them (its composite type)."""
    return [recorder.construct_pg_stored_event(r.originator_id, r.originator_version, r.topic, r.state)
            for r in rows]


def _packed(g: Folded, rules: Any, level: int = 9) -> bytes:
    """The game as a snapshot's row holds it (``rows.Snap``; ``level``: zlib's)."""
    return pack(Snap(bytes.fromhex(g.head), str(rules.rules_version), rules.encode(g.state), g.retracted), level)


#: bytes 18-19 of an SQLite database file in WAL mode (its write and read format versions; bytes 60-63
#: hold its user_version)
_WAL_FORMAT = b"\x02\x02"


def _prepare_sqlite(path: Path, timeout: float, read_only: bool = False) -> None:
    """SQLite: refuse an older layout before the library opens it (adding tables), mark a new file as this
    layout's and put it in WAL mode, retried until ``timeout`` (the library's own switch is not); a file
    this process cannot write is only read (``location.read_uri``: no file made beside it)."""
    if read_only:
        try:
            con = sqlite3.connect(location.read_uri(path), uri=True, timeout=timeout)
            try:
                layout = con.execute("PRAGMA user_version").fetchone()[0]
                if layout != LAYOUT and con.execute("SELECT 1 FROM sqlite_master WHERE name = 'stored_events'"
                                                    ).fetchone():
                    raise OldStore(path)
            finally:
                con.close()
        except sqlite3.Error:
            pass  # the library's own open reports it
        return
    try:
        with open(path, "rb") as f:
            header = f.read(64)
        if header[18:20] == _WAL_FORMAT and int.from_bytes(header[60:64], "big") == LAYOUT:
            return
    except OSError:
        pass
    try:
        con = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    except sqlite3.Error:
        return  # the library's own open reports it
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                if con.execute("PRAGMA user_version").fetchone()[0] == LAYOUT:
                    return
                if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'stored_events'").fetchone():
                    raise OldStore(path)
                con.execute(f"PRAGMA user_version = {LAYOUT}")
                con.execute("PRAGMA journal_mode=WAL").fetchone()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    return  # the library's own open reports it (or opens it read-only)
                time.sleep(0.01)
    finally:
        con.close()


def _read_only_uri(path: Path, exc: sqlite3.OperationalError) -> str | None:
    """The ``immutable`` URI of a WAL store whose directory cannot be written (docs/store.md), else None."""
    if "unable to open database file" not in str(exc) or not path.is_file():
        return None
    with open(path, "rb") as f:
        if f.read(20)[18:20] != _WAL_FORMAT:
            return None
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise StoreError(f"cannot read the game store {path}: its directory cannot be written and its "
                         f"write-ahead log {wal.name} holds changes not yet in the database file; open it "
                         "where it can be written (or copy the directory there)")
    return f"{path.resolve().as_uri()}?mode=ro&immutable=1"


def _prepare_postgres(env: dict[str, str]) -> Any:
    """PostgreSQL: check the server answers, refuse an older layout, make the schema, and tell the library
    not to create existing tables (its ``CREATE OR REPLACE FUNCTION`` fails run by many processes at once).
    On first use, returns a connection holding an advisory lock: one process creates the tables.  A schema
    name the server reserves (its own ``pg_get_keywords()``) is refused before anything is made; the
    server's errors are one line (``location.pg_connect``)."""
    where, schema = f"{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}", \
        location.check_schema(env["POSTGRES_SCHEMA"])
    conn = location.pg_connect(env)
    try:
        tables = [f'"{schema}".{t}' for t in (PG_EVENTS_TABLE, PG_COMMANDS_TABLE, TABLE, PG_OLD_EVENTS_TABLE)]
        ready = "SELECT to_regclass(%s), to_regclass(%s), to_regclass(%s), to_regclass(%s)"
        if all(conn.execute(ready, tables).fetchone()[:3]):
            env["CREATE_TABLE"] = "n"
            conn.close()
            return None
        reserved = conn.execute("SELECT catcode FROM pg_get_keywords() WHERE word = %s AND catcode <> 'U'",
                                [schema]).fetchone()
        if reserved:
            raise StoreError(f"schema {schema!r} is a word this PostgreSQL server reserves; choose another name")
        conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [f"trvendetta:{schema}"])
        found = conn.execute(ready, tables).fetchone()  # what a process that made the tables left
        if found[3] or (found[0] and not found[1]):
            raise OldStore(f"{where} (schema {schema})")
        if schema != "public":
            conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        if all(found[:3]):
            env["CREATE_TABLE"] = "n"
        return conn
    except BaseException as exc:
        conn.close()
        if location.is_server_error(exc):
            raise StoreError(f"cannot open the PostgreSQL store {where}: {location.one_line(exc)}") from None
        raise
