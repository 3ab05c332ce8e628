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
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from datetime import datetime
from typing import Any

import msgspec

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import Compressor, IntegrityError, JSONTranscoder
from eventsourcing.utils import Environment

from trvendetta import rulesets
from trvendetta.core.errors import TrvError
from trvendetta.core.names import check_name

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
from ..errors import ChainBroken, DamagedStore, GameExists, GameMovedOn, GameNotFound, StoreError, StoreReadOnly
from . import library
from .. import location
from .chunks import ROW_MIN
from .writing import Batch
from .compact_ids import CompactIdsRecorder
from .sqlite_saves import SQLiteSaves
from .packing import pack, unpack
from .parts import PART_TOPIC
from .reader import GameReader, Record, SnapshotRead, fold_live, follows
from .index import OLD_INDEX, TABLE, GameIndex, GameInfo, SQLiteConnection
from ..records import MEMORY, SNAPSHOT_INTERVAL, GameHeader, Loaded, RawRecord, StoredEvent, default_db_path  # noqa: F401

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


class GameStore:
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
            _prepare_sqlite(self.path, lock_timeout)
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
        #: an SQLite store's own connection for its saves (``sqlite_saves``); None elsewhere and read-only
        self._saves: SQLiteSaves | None = None
        #: the last integrity check: the connection it ran on, that connection's data_version then, what it found
        self._checked: tuple[Any, int, list[str]] | None = None
        first_use = _prepare_postgres(env) if self.schema is not None else None
        #: opened for reading only: its directory does not let SQLite make its -wal and -shm files
        self.read_only = False
        try:
            try:
                self.app = _App(env=env)
            except sqlite3.OperationalError as exc:
                uri = _read_only_uri(self.path, exc) if self.path is not None else None
                if uri is None:
                    raise
                self.app = _App(env={**env, "SQLITE_DBNAME": uri, "CREATE_TABLE": "n"})
                self.read_only = True
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

    # ----------------------------------------------------------- lifecycle
    def close(self) -> None:
        if self._saves is not None:
            self._saves.close()
        self.app.close()
        if self._memory_index is not None:
            self._memory_index.close()

    def __enter__(self) -> "GameStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def index(self) -> GameIndex:
        if self._index is None:
            index = GameIndex(self._index_db.transaction, self.schema)
            found = index.found()
            self._index = index  # (never made here: the upgrade lists games by ``names``)
        return self._index

    # -------------------------------------------------------------- writes
    def create_game(
        self,
        game: str,
        ruleset: str,
        events: Sequence[Any] = (),
        *,
        steps: Sequence[tuple[Any, Sequence[Any]]] = (),
        records: Sequence[Any] = (),
        parent: str = "",
        parent_at: int = 0,
        parent_head: str = "",
        bots: dict[str, str] | None = None,
        charter: str = "",
        domain: str = "",
        rules_version: str | None = None,
        created_at: datetime | None = None,
        state: Any = None,
        states: Sequence[Any] | None = None,
        store_schema: int = STORE_SCHEMA,
    ) -> Loaded:
        """Store a new game in one save: its ``Created`` envelope, its first
        engine events, then ``steps`` (``(action, events)`` pairs) and
        ``records`` (:class:`RawRecord`-like, for imports and forks).

        ``bots`` names the seats played by bots (``{player: bot kind}``); it
        is kept in the ``Created`` record, never in the engine position.
        ``charter`` (``records.Charter`` JSON) binds seats to public keys: the
        chain starts from it and ``steps`` may carry a third item, a signer
        (see ``Game.record``); ``domain`` is what a fork's signatures name.
        The name and the bots' seat names follow ``core.names`` (checked
        before anything is written), so every stored game exports.
        ``rules_version`` and ``created_at`` (a copy keeps its source's) default
        to this program's rules and now; ``store_schema`` to this store's (an
        import, fork or copy of a game stored at schema 1 keeps it: its chain
        starts without its bots)."""
        check_name(game, "game name")
        for seat in bots or {}:
            check_name(seat, "bot seat")
        rules = rulesets.get(ruleset)
        agg = Game._create(
            Game.Created,
            id=game_uuid(game),
            timestamp=created_at,
            name=game,
            ruleset=rules.name,
            rules_version=str(rules.rules_version) if rules_version is None else rules_version,
            store_schema=store_schema,
            parent=parent,
            parent_at=parent_at,
            parent_head=parent_head,
            bots=encode_bots(bots),
            charter=charter,
            domain=domain,
        )
        return self._commit(agg, rules, events, steps, records, lambda: GameExists(game), created=True, state=state,
                            states=states)

    def append(
        self,
        game: str,
        expected_version: int,
        events: Sequence[Any] = (),
        *,
        steps: Sequence[tuple[Any, Sequence[Any]]] = (),
        records: Sequence[Any] = (),
        state: Any = None,
        states: Sequence[Any] | None = None,
    ) -> Loaded:
        """Append to a game last seen at ``expected_version``, atomically.

        ``steps`` are ``(action, events)`` pairs: each action is recorded on
        its first event (every action must produce at least one event).
        ``events`` are appended without an action (set-up or automatic
        events), ``records`` as given bytes (imports, retractions).
        Raises GameMovedOn (and writes nothing) if the game has other events
        after ``expected_version`` by the time this commits.
        """
        agg = self._loaded.pop(game, None)
        if agg is None or agg.count != expected_version:
            agg = self._get(game, expected_version)
        if agg.count != expected_version:
            if agg.count > expected_version or self.version(game) > expected_version:
                raise GameMovedOn(self.version(game))
            raise StoreError(f"game {game!r} has only {agg.count} events, not {expected_version}")
        if not events and not steps and not records:
            self._keep(agg)
            return self._loaded_of(agg)
        rules = rulesets.get(agg.ruleset)
        # never append on top of a game whose tail was cut off: checked in the save's own transaction
        count = agg.count
        return self._commit(agg, rules, events, steps, records, lambda: self._moved_on(game, count), state=state,
                            before=(agg.count, agg.head), states=states)

    def _moved_on(self, game: str, count: int) -> StoreError:
        """Why an append to ``game`` after ``count`` events was refused: GameMovedOn when a fresh read
        finds more events; when it finds no more, the rows disagree with each other (a damaged table
        index names an event the reads do not find): DamagedStore, not a refusal retried for ever."""
        now = self._get(game, None).count
        if now > count:
            return GameMovedOn(now)
        return DamagedStore(game, count + 1, f"the store refuses event {count + 1} as already stored, yet a read "
                                             f"of the game ends at event {now}: its rows or their index are damaged")

    def _commit(self, agg: Game, rules: Any, events: Sequence[Any], steps: Sequence[tuple[Any, Sequence[Any]]],
                records: Sequence[Any], conflict: Any, created: bool = False, state: Any = None,
                before: tuple[int, str] | None = None, states: Sequence[Any] | None = None) -> Loaded:
        """Record events, actions with their events, and raw records; save them
        in one transaction; ``conflict()`` is raised when the database refuses.
        ``before`` (the count and head the game had) is checked against its
        games-index row in that transaction (``_index_problem``).

        Every record of one command carries the same wall-clock stamp.

        ``state``, when the caller has it (``ruleset.apply`` returned it), is
        the engine state after these events: the aggregate takes it instead of
        folding every event a second time (not with raw records, which may
        retract); ``states``, the state after each of ``steps``, lets a save
        of many steps snapshot the game on its way (``_Snapshots``)."""
        if self.read_only:
            raise StoreReadOnly(self.path)
        fold = state is None or bool(records) or agg.stale
        rows = [self.app.mapper.to_stored_event(e) for e in agg.collect_events()]  # the Created event
        total = len(events) + sum(len(step[1]) for step in steps) + len(records)
        stamp = utc_now()
        batch = Batch(agg, stamp, fold=fold, keep=bool(records), stored_id=self._stored_id(agg.id),
                      chunked=total >= ROW_MIN)
        snaps = _Snapshots(self, agg, total)
        if batch.lean:  # the state after the steps is given: recorded in one loop (``Batch.add_steps``)
            if events:
                batch.add_steps(rules, [(None, events)])
            done = batch.add_steps(rules, steps, 0, snaps.mark if states is not None else 0)
            if done < len(steps):  # stopped at the step boundary to snapshot on the way
                if snaps.wanted():
                    agg.engine = states[done - 1]  # type: ignore[index]
                    snaps.take()
                batch.add_steps(rules, steps, done)
        else:
            for event in events:
                batch.add(rules, event)
            for i, step in enumerate(steps):
                action, step_events = step[0], step[1]
                signer = step[2] if len(step) > 2 else None
                if not step_events:
                    raise StoreError(f"the action {rules.describe_action(action)!r} produced no event to record it on")
                batch.add(rules, step_events[0], action, signer)
                for event in step_events[1:]:
                    batch.add(rules, event)
                if not fold and states is not None and snaps.wanted():
                    agg.engine = states[i]
                    snaps.take()
                elif fold:
                    snaps.take_if_wanted()
        if not fold:
            agg.engine = state
        for rec in records:
            sig = getattr(rec, "sig", b"")
            if callable(sig):  # signed as recorded: it needs the record's number and previous hash
                sig = sig(agg.count + 1, agg.head, rec.action or rec.payload)
            batch.add_raw(rules.name, rec.schema, rec.kind, rec.payload, rec.action, sig,
                          getattr(rec, "recorded_at", None))
            snaps.take_if_wanted()
        batch.finish()
        self._fresh(agg, batch.records)
        snaps.take_last()
        try:
            self._save(agg, rows + batch.rows, snaps.rows, before, stamp.isoformat(timespec="microseconds"))
        except IntegrityError:
            raise conflict() from None
        except _IndexDisagrees as found:  # nothing was written
            count, head = before  # type: ignore[misc]
            raise (self._index_problem(agg.name, count, head, found.row) or conflict()) from None
        self._after_save(agg, created=created)
        return self._loaded_of(agg)

    def _stored_id(self, uid: Any) -> Any:
        """The game's id in the form its rows hold it (``CompactIdsRecorder``)."""
        recorder = self.app.recorder
        if not isinstance(recorder, CompactIdsRecorder):
            return uid
        return recorder.stored_id(uid, self._saves.first if self._saves is not None else None)

    def retract(self, game: str, expected_version: int, retraction: Retraction) -> Loaded:
        """Append a retraction record (``trv undo``); the retracted events stay stored."""
        payload = encode_retraction(retraction)
        return self.append(game, expected_version, records=[RawRecord(RETRACTION_KIND, 1, payload)])

    def touch(self, game: str) -> None:
        """Mark ``game`` as the most recently used one."""
        if self.read_only:
            raise StoreReadOnly(self.path)
        self.index.touch(game)

    # --------------------------------------------------------------- reads
    def load(self, game: str, at: int | None = None) -> Loaded:
        """The game after its last event, or after event ``at`` (1-based).

        Raises DamagedStore when a record cannot be read, or when the games
        index says the game holds events the store does not have."""
        agg = self._get(game, at)
        if at is None:
            self._check_index(agg)
            self._keep(agg)
        elif agg.count != at:
            raise StoreError(f"game {game!r} has {agg.count} events; --at must be 1 to {agg.count}")
        return self._loaded_of(agg)

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

    def retracted(self, game: str, at: int | None = None) -> set[int]:
        """Numbers of the events retracted (by ``trv undo``) in the game after event ``at``."""
        agg = self._get(game, at)
        return {n for first, last in agg.retracted for n in range(first, last + 1)}

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

    def ruleset_of(self, game: str) -> Any:
        return rulesets.get(self._created(game).ruleset)

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

    def list_games(self) -> list[GameInfo]:
        """Every game, most recently used first."""
        return self.index.all()

    def info(self, game: str) -> GameInfo:
        found = self.index.get(game)
        if found is None:
            raise self._not_found(game)
        return found

    def latest_game(self) -> str | None:
        """The most recently created or used game, if any."""
        return self.index.latest()

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

    def _check_index(self, agg: Game) -> None:
        """The games index must not name events the store does not hold
        (a tail cut off the events), nor another head for the same count."""
        try:
            row = self.index.get(agg.name)
        except Exception:  # noqa: BLE001  the index is derived; verify reports a damaged one
            return
        if row is None:
            return
        problem = self._index_problem(agg.name, agg.count, agg.head, (row.version, row.head))
        if problem is not None:
            raise problem

    def _index_problem(self, game: str, count: int, head: str, row: tuple[int, str] | None) -> DamagedStore | None:
        """DamagedStore when the index row ``(version, head)`` names events the
        store does not hold, or another head for the same count (None when it
        agrees, or when another command appended since)."""
        if row is None:
            return None
        version, said = row
        if version > count:
            if self.version(game) > count and self._get(game, None).count > count:
                return None  # not damage: another command appended since (an append's commit then refuses)
            return DamagedStore(game, count + 1, f"the games index says the game has {version} events, "
                                                 f"the store holds {count}: events {count + 1}-"
                                                 f"{version} are missing; `trv verify` names the damage")
        if version == count and said != head:
            return DamagedStore(game, count, f"the games index says its hash is {str(said)[:16]}..., "
                                             f"the store's is {head[:16]}...")
        return None

    def integrity(self) -> list[str]:
        """What the database's own integrity check finds wrong ([] when nothing;
        SQLite's ``PRAGMA integrity_check``, nothing to run elsewhere).

        The check reads the whole file (45 ms with 1,000 games stored, more than
        verifying one of them), so one store object runs it once for each state
        of the file: again only when ``PRAGMA data_version`` on the connection
        it ran on says another connection committed since (this store's own
        saves run on one of their own, ``sqlite_saves``; a save through this
        object forgets the check too).  A tournament report verifies a game a
        table in one process."""
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

    def snapshots(self, game: str, heads: Sequence[str] | None = None, decode: bool = True) -> list[SnapshotInfo]:
        """Every stored snapshot of ``game``, oldest first, each with its
        engine state and why it is not used (``reader.GameReader.snapshot_problem``);
        ``heads``: the hashes of the game's stored events, in order, when the caller has
        read them (``trv verify``: else one read for each snapshot's); ``decode`` False:
        the engine states left as JSON, for ``reader.decoded`` (``trv verify`` decodes
        only those that are not the fold's own bytes)."""
        with self._reading(game):
            return self.reader.snapshots(game, heads, decode)

    def _put_parts(self, parts: dict[str, bytes]) -> None:
        """Store the snapshot parts not stored yet (one row each, ``parts.py``)."""
        from uuid import UUID

        from eventsourcing.persistence import StoredEvent as LibraryRecord

        recorder = self.app.snapshots.recorder
        for addr, data in parts.items():
            if addr in self.reader.parts:
                continue
            if not recorder.select_events(UUID(addr), limit=1):
                try:
                    recorder.insert_events([LibraryRecord(originator_id=UUID(addr), originator_version=1,
                                                          topic=PART_TOPIC, state=pack(data))])
                except IntegrityError:
                    pass  # another process stored the same part first
            self.reader.parts[addr] = data

    def _fresh(self, agg: Game, pending: Sequence[Record] = ()) -> Game:
        """After a retraction the engine state is the fold of the live events
        only: refold them from the stored records and the ``pending`` ones (the
        save's, not stored yet) (``reader.fold_live``, the one fold of retractions)."""
        if not agg.stale:
            return agg
        stored = agg.count - len(pending)
        records = self._records(agg.name, 0, stored, self.header(agg.name).genesis) if stored > 0 else []
        folded = fold_live(rulesets.get(agg.ruleset), [*records, *pending], game=agg.name)
        agg.engine = folded[0] if folded else None
        agg.stale = False
        return agg

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

    def _loaded_of(self, agg: Game) -> Loaded:
        return Loaded(agg.name, rulesets.get(agg.ruleset), agg.engine, agg.count, agg.head,
                      decode_bots(getattr(agg, "bots", "")), getattr(agg, "charter", ""),
                      getattr(agg, "domain", ""))

    def _row(self, agg: Game) -> dict:
        summary = rulesets.get(agg.ruleset).summary(agg.engine)  # the contract's answer for `trv games`
        over = summary.status == "over"
        return {
            "id": agg.name,
            "ruleset": agg.ruleset,
            "players": list(summary.players),
            "round": summary.round,
            "status": "over" if over else "playing",
            "winner": summary.winner if over else None,
            "version": agg.count,
            "head": agg.head,
        }

    def _save(self, agg: Game, rows: list[Any], snapshots: list[Any], before: tuple[int, str] | None = None,
              stamp: str | None = None) -> None:
        """One save, one database transaction: the events (the library's rows,
        through its recorder's public ``insert_events``; on SQLite with the
        store's own connection, ``sqlite_saves``), the game's index row,
        after checking the row still says ``before`` (count and head), and the
        snapshots taken on the way.  ``stamp``: the row's ``last_used``, the
        records' own stamp (one clock read a command)."""
        row = self._row(agg)
        index = self.index  # make sure the table exists before the transaction
        if self._memory_index is not None:
            if before is not None:
                _check_row(before, index.get(agg.name))
            self.app.recorder.insert_events(rows)
            index.put(row, stamp=stamp)
            if snapshots:
                self.app.snapshots.recorder.insert_events(snapshots)
            return
        snapshot_recorder = self.app.snapshots.recorder

        def write(cursor: Any) -> None:
            if snapshots:
                library.insert_with(snapshot_recorder, cursor, snapshots)
            if before is not None:
                if index.advance(cursor, row, before, stamp=stamp):  # the row said ``before``: checked and written
                    return
                found = index.read(cursor, agg.name)
                _check_row(before, found)  # another command's row (or one ahead of the events): refused
                # no row, or one behind the events (an old index): written anew, only where it still says what
                # was read; else another command wrote it meanwhile
                if (index.claim(cursor, row, stamp=stamp) if found is None
                        else index.advance(cursor, row, found, stamp=stamp)):
                    return
                raise _IndexDisagrees(index.read(cursor, agg.name) or (0, ""))
            index.write(cursor, row, stamp=stamp)

        if self._saves is None:
            self.app.recorder.insert_events(rows, **{library.WRITE_KWARG: write})
            return
        recorder = self.app.recorder
        params = recorder.params(rows)  # before the transaction: it may read (``CompactIdsRecorder.stored_id``)
        with self._saves.transaction() as cursor:
            cursor.executemany(recorder.insert_events_statement, params)
            write(cursor)

    def _after_save(self, agg: Game, created: bool = False) -> None:
        """After the commit (the index row and snapshots are written with the
        events): keep the aggregate for the next append; the last integrity
        check no longer speaks for the file."""
        self._checked = None
        self._keep(agg)

    def _keep(self, agg: Game) -> None:
        loaded = self._loaded
        loaded.pop(agg.name, None)
        loaded[agg.name] = agg
        while len(loaded) > self.KEEP_LOADED:
            del loaded[next(iter(loaded))]


class _Snapshots:
    """The snapshots one save takes, written in its transaction.

    A save that reaches a multiple of the interval snapshots the game at its
    end (at its current version: loading starts from any snapshot version
    alike).  A save of many events (a game stored in one go: ``trv sim
    --store``, an import, a copy) also snapshots it at the first step boundary
    at or after the last multiple it reaches, when that is before its end and
    the state there is known (folded, or given by ``states``): a load starts
    from the latest snapshot only when the one before folds to it
    (docs/store.md, "What a load trusts"), so with one snapshot such a game
    was replayed whole on every load.  Snapshots are a cache: one that cannot
    be taken is left out with a warning, never failing the command."""

    def __init__(self, store: "GameStore", agg: Game, total: int):
        self.store, self.agg = store, agg
        interval = store.snapshot_interval
        end = agg.version + total
        #: the last multiple of the interval this save reaches (0: none)
        self.mark = end // interval * interval if interval and end // interval * interval > agg.version else 0
        self.end = end
        self.rows: list[Any] = []
        self._taken = False

    def wanted(self) -> bool:
        """Is this a step boundary to snapshot on the way?"""
        return bool(self.mark) and not self._taken and self.mark <= self.agg.version < self.end

    def take_if_wanted(self) -> None:
        if self.wanted() and not self.agg.stale:
            self.take()

    def take(self) -> None:
        self._taken = True
        self._take()

    def take_last(self) -> None:
        if self.mark:
            self._take()

    def _take(self) -> None:
        store, agg = self.store, self.agg
        try:
            snap, parts = PartedSnapshot.take_parted(agg)
            store._put_parts(parts)
            self.rows.append(store.app.mapper.to_stored_event(snap))
        except Exception as exc:  # noqa: BLE001
            warnings.warn(f"snapshot not taken: {exc!r}", RuntimeWarning, stacklevel=3)


class _IndexDisagrees(Exception):
    """Raised inside a save's transaction (so nothing is written): the game's
    index row names more events, or another head, than the game had when it
    was loaded (a cut-off tail, or another command's append: ``_commit``
    tells which after the rollback)."""

    def __init__(self, row: tuple[int, str]):
        self.row = row


def _check_row(before: tuple[int, str], found: Any) -> None:
    """Inside the save: the index row (a ``GameInfo`` or ``(version, head)``)
    must not be ahead of the count and head the game had."""
    if found is None:
        return
    row = (found.version, found.head) if hasattr(found, "head") else (found[0], found[1])
    if row[0] > before[0] or (row[0] == before[0] and row[1] != before[1]):
        raise _IndexDisagrees(row)


#: the events' table eventsourcing makes for ``_App`` on PostgreSQL (its application name, lower case)
PG_EVENTS_TABLE = f"{_App.name.lower()}_events"


#: bytes 18-19 of an SQLite database file in WAL mode (its write and read format versions)
_WAL_FORMAT = b"\x02\x02"


def _prepare_sqlite(path: Path, timeout: float) -> None:
    """SQLite: put a new database file in WAL mode before the library opens it.

    The library switches a file that is not in WAL mode when it connects;
    the switch needs the file to itself, and when several processes make a
    new store at once it fails at once with "database is locked" instead of
    waiting like a lock (1 in about 600 of 16 processes racing, issue 17).
    Here it is retried until ``timeout``.  A file whose header says WAL (every
    store after its first use) is not opened here; any other failure is left
    for the library's own open to report."""
    try:
        with open(path, "rb") as f:
            if f.read(20)[18:20] == _WAL_FORMAT:
                return
    except OSError:
        pass
    deadline = time.monotonic() + timeout
    try:
        con = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        while True:
            try:
                con.execute("PRAGMA journal_mode=WAL").fetchone()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    return
                time.sleep(0.01)
    finally:
        con.close()


def _read_only_uri(path: Path, exc: sqlite3.OperationalError) -> str | None:
    """The URI that reads a store whose directory SQLite cannot write (a
    read-only mount or directory: the -wal and -shm files of a WAL database
    cannot be made), or None when the failure is something else.

    It opens the file ``immutable``: SQLite then takes no lock and keeps no
    -shm, trusting that nobody changes the file while it reads.  That is
    safe here, and only here: the file is in WAL mode, so a writer needs its
    -wal and -shm files, which nobody can make in this directory; and there
    is no -wal (or an empty one), so everything committed is in the file
    itself.  A non-empty -wal holds commits the file does not have yet (and
    no -shm to read it by): refused, naming it, rather than read stale."""
    if "unable to open database file" not in str(exc) or not path.is_file():
        return None
    try:
        with open(path, "rb") as f:
            if f.read(20)[18:20] != _WAL_FORMAT:
                return None
    except OSError:
        return None
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise StoreError(f"cannot read the game store {path}: its directory cannot be written and its "
                         f"write-ahead log {wal.name} holds changes not yet in the database file; open it "
                         "where it can be written (or copy the directory there)")
    return f"{path.resolve().as_uri()}?mode=ro&immutable=1"


def _prepare_postgres(env: dict[str, str]) -> Any:
    """PostgreSQL: check the server answers (one clear line when it does not),
    make the store's schema if it is not there (the library expects it), and
    tell the library not to create its tables again when they exist: its
    ``CREATE OR REPLACE FUNCTION`` run by many processes at once fails
    ("tuple concurrently updated").  On first use, returns a connection
    holding an advisory lock, so that one process creates the tables while
    the others wait; close it when they exist."""
    try:
        import psycopg
    except ImportError:
        raise StoreError("a PostgreSQL store needs psycopg: pip install 'trvendetta[postgres]'") from None
    where = f"{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
    schema = env["POSTGRES_SCHEMA"]
    try:
        conn = psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                               user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"],
                               connect_timeout=int(env["POSTGRES_CONNECT_TIMEOUT"]), autocommit=True)
        try:
            ready = "SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL"
            tables = [f'"{schema}".{PG_EVENTS_TABLE}', f'"{schema}".{TABLE}']
            if conn.execute(ready, tables).fetchone()[0]:
                env["CREATE_TABLE"] = "n"
                conn.close()
                return None
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", [f"trvendetta:{schema}"])
            if schema != "public":
                conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
            if conn.execute(ready, tables).fetchone()[0]:
                env["CREATE_TABLE"] = "n"
            return conn
        except BaseException:
            conn.close()
            raise
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise StoreError(f"cannot open the PostgreSQL store {where}: {reason}") from None
