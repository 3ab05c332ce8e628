"""The store's rows (docs/store.md), and reading them back checked against the hash chain.

A game is rows of eventsourcing's stored-event tables, under the game's id:

- version 0, topic ``trv:game``: its header (:class:`Head`);
- version *n*, topic ``trv:save``: one command's records from record *n* on (:class:`Save`; a
  command of more than ``ROW_MAX`` records takes a row every ``ROW_MAX``, all in one transaction);
- in the snapshots table, version *n*, topic ``trv:snap``: the game after record *n* (:class:`Snap`).

Each row's state is MessagePack (msgspec), zlib-compressed.  This module imports neither
eventsourcing nor hashlib (``trv show``'s quick path, ``quick.py``): rows come from a ``select``
function, ``(key, gt, lte, desc, limit) -> [(version, topic, state)]``.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one

import sys
import zlib
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

import msgspec

from trvendetta import rulesets

from .errors import DamagedStore
from .named import Named
from .records import (RETRACTION_KIND, STORE_KINDS, StoredEvent, chain, decode_payload, decode_retraction,
                      game_genesis, game_key)

HEAD_TOPIC, SAVE_TOPIC, SNAP_TOPIC = "trv:game", "trv:save", "trv:snap"
#: records a row at most (a longer command takes several rows, one transaction)
ROW_MAX = 256
Select = Callable[[str, "int | None", "int | None", bool, "int | None"], Sequence[tuple[int, str, bytes]]]
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: what damaged bytes may raise when decoded
BAD = (msgspec.DecodeError, msgspec.ValidationError, zlib.error, ValueError, TypeError, KeyError, IndexError,
       RecursionError, OverflowError)


class Head(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A game's header: what its ``trv:game`` row holds (``created``: microseconds since 1970, UTC)."""

    name: str
    ruleset: str
    rules_version: str
    store_schema: int
    parent: str
    parent_at: int
    parent_head: str
    bots: str
    charter: str
    domain: str
    created: int

    @property
    def genesis(self) -> str:
        return game_genesis(self.charter, self.bots, self.store_schema)


class Rec(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One record: its payload schema and canonical bytes; its kind is its payload's opening,
    ``{"type":"KIND"`` (:func:`kind_of`)."""

    schema: int
    payload: bytes
    action: bytes
    sig: bytes


class Save(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """One command's records from number ``first``, stamped ``stamp`` (microseconds, UTC), and the
    chain hash after its last record (``head``, 32 bytes: each record's is recomputed as it is read)."""

    first: int
    stamp: int
    head: bytes
    records: list[Rec]


_OPENING = b'{"type":"'


def kind_of(payload: bytes) -> str:
    """The kind a payload opens with (ValueError when it names none)."""
    if payload[:9] != _OPENING:
        raise ValueError("a payload that does not open with its kind")
    return payload[9:payload.index(b'"', 9)].decode()


class Snap(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """The game after ``count`` records: their last hash, the engine state's JSON (``rules``: the rules
    version that made it), and the retracted ranges."""

    count: int
    head: bytes
    rules: str
    engine: bytes
    retracted: list[list[int]]


_encode = msgspec.msgpack.Encoder().encode
_head = msgspec.msgpack.Decoder(Head)
_save = msgspec.msgpack.Decoder(Save)
_snap = msgspec.msgpack.Decoder(Snap)


def pack(value: Any) -> bytes:
    return zlib.compress(_encode(value))


def micros(stamp: datetime) -> int:
    delta = stamp - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def stamp_of(us: int) -> datetime:
    from datetime import timedelta

    return _EPOCH + timedelta(microseconds=us)


def row_key(game: str) -> str:
    """The game's id as the SQLite tables hold it (``uuid.hex``)."""
    return game_key(game)


class Header(Named):
    """A game's header as read (``created`` a datetime)."""

    name: str
    ruleset: str
    rules_version: str
    store_schema: int
    parent: str
    parent_at: int
    parent_head: str
    bots: str
    charter: str
    domain: str
    created: datetime

    @property
    def genesis(self) -> str:
        return game_genesis(self.charter, self.bots, self.store_schema)


class Folded(Named):
    """A game read and folded: the engine state of its live events after ``count`` records."""

    header: Header
    state: Any
    count: int
    head: str
    retracted: list[list[int]]


class SnapshotRead(Named):
    """One stored snapshot: after record ``number`` with ``head``; ``state`` its engine state (None when
    read with ``decode=False``: its JSON is in ``engine``), ``problem`` why it is not used (None when it is)."""

    number: int
    head: str
    state: Any
    problem: str | None
    engine: bytes = b""
    ruleset: str = ""


def decoded(snap: SnapshotRead) -> SnapshotRead:
    """A snapshot read with ``decode=False``, its engine state decoded (or the problem that it cannot be)."""
    if snap.state is not None or not snap.engine or snap.problem:
        return snap
    try:
        return snap._replace(state=rulesets.get(snap.ruleset).decode_state(snap.engine))
    except Exception as exc:  # noqa: BLE001  a damaged snapshot can raise almost anything
        return snap._replace(problem=f"it cannot be read ({type(exc).__name__}: {exc})"[:300])


def _sha256_for(count: int) -> Any:
    """OpenSSL's sha256 when it is loaded or the read is long, else the interpreter's own (importing
    ``hashlib`` loads OpenSSL, a twentieth of a ``trv show``)."""
    if count > 256 or "hashlib" in sys.modules:
        from hashlib import sha256
        return sha256
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  (CPython 3.12 on)
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef]  (CPython 3.11)
        except ImportError:
            from hashlib import sha256
    return sha256


def fold_live(ruleset: Any, records: Sequence[StoredEvent], state: Any = None,
              retracted: Sequence[Sequence[int]] = (), folded: int = 0,
              game: str = "") -> tuple[Any, list[list[int]]] | None:
    """The one fold of retractions: ``state`` (the fold of the live events ``1..folded``, after the
    ``retracted`` ranges) folded on with ``records``, skipping every event a retraction takes back;
    returns the state and every retracted range.  None when a retraction among ``records`` takes back
    an event ``state`` already holds: then fold again from the start."""
    ranges = [list(r) for r in retracted]
    for r in records:
        if r.kind == RETRACTION_KIND:
            try:
                taken = decode_retraction(r.payload)
            except BAD as exc:
                raise DamagedStore(game, r.number, f"it does not decode: {exc}") from None
            if taken.first <= folded:
                return None
            ranges.append([taken.first, taken.last])
    dead = {n for first, last in ranges[len(retracted):] for n in range(first, last + 1)}
    events = []
    for r in records:
        if r.kind in STORE_KINDS or r.number in dead:
            continue
        try:
            events.append(decode_payload(ruleset, r.kind, r.schema, r.payload))
        except BAD as exc:
            raise DamagedStore(game, r.number, f"it does not decode: {exc}") from None
    if events:
        state = ruleset.fold(events, state)
    return state, ranges


class Reader:
    """Reads a store's games from its rows (``events`` and ``snapshots``: :data:`Select` functions),
    checking every record it returns or folds against the chain."""

    def __init__(self, events: Select, snapshots: Select):
        self.select, self.select_snaps = events, snapshots

    @staticmethod
    def head_of(state: bytes) -> Head:
        return _head.decode(zlib.decompress(state))

    # ---------------------------------------------------------------- rows
    def header(self, game: str) -> Header | None:
        rows = self.select(row_key(game), None, 0, False, None)
        if not rows:
            return None
        version, topic, state = rows[-1]
        try:
            if version != 0 or topic != HEAD_TOPIC:
                raise ValueError(f"a {topic!r} row at version {version}")
            h = self.head_of(state)
        except BAD as exc:
            raise DamagedStore(game, 0, f"its header does not read ({type(exc).__name__}: {exc})"[:300]) from None
        if h.name != game:
            raise DamagedStore(game, 0, f"its header names another game ({h.name[:40]!r})")
        return Header(h.name, h.ruleset, h.rules_version, h.store_schema, h.parent, h.parent_at, h.parent_head,
                      h.bots, h.charter, h.domain, stamp_of(h.created))

    def _saves(self, game: str, rows: Sequence[tuple[int, str, bytes]]) -> list[Save]:
        out = []
        for version, topic, state in rows:
            try:
                if topic != SAVE_TOPIC:
                    raise ValueError(f"a {topic!r} row")
                save = _save.decode(zlib.decompress(state))
                if save.first != version or not save.records:
                    raise ValueError(f"a row of records {save.first}+ stored at {version}")
            except BAD as exc:
                raise DamagedStore(game, max(version, 1),
                                   f"it cannot be read ({type(exc).__name__}: {exc})"[:300]) from None
            out.append(save)
        return out

    def stored(self, game: str, since: int, upto: int | None, previous: str, decode: bool = True,
               header: Header | None = None) -> list[StoredEvent]:
        """Records ``since < number <= upto`` (``previous``: the hash after ``since``), numbered without
        a gap, each opening with its kind, their hashes chained from ``previous`` and checked at the end
        of each row (a row is read to its end); the read stops where the rows end."""
        header = header or self.header(game)
        if header is None:
            return []
        name = header.ruleset
        key = row_key(game)
        rows = list(self.select(key, None, since + 1, True, 1)) if since > 0 else []  # the row holding since + 1
        rows = [r for r in rows if r[0] > 0]
        start = rows[0][0] if rows else since
        rows += self.select(key, max(start, 0), upto, False, None)
        saves = self._saves(game, rows)
        out: list[StoredEvent] = []
        number, ruleset, actions = since, None, {}
        sha256 = _sha256_for(sum(len(save.records) for save in saves))
        for save in saves:
            if save.first > number + 1:
                raise DamagedStore(game, number + 1, f"events {number + 1}-{save.first - 1} are missing")
            if ruleset is None and decode:
                ruleset = rulesets.get(name)
            stamp, first = stamp_of(save.stamp), max(save.first, number + 1)
            for i, r in enumerate(save.records):
                n = save.first + i
                if n <= number:
                    continue
                if r.schema < 1:
                    raise DamagedStore(game, n, "its stored schema cannot be")
                try:
                    kind = kind_of(r.payload)
                except (ValueError, UnicodeDecodeError):
                    raise DamagedStore(game, n, "its payload does not open with its kind") from None
                h = chain(previous, r.payload, r.action, r.sig, sha256)
                event = action = None
                if decode and (upto is None or n <= upto):
                    try:
                        event = decode_payload(ruleset, kind, r.schema, r.payload)
                        if r.action and kind not in STORE_KINDS:
                            action = actions.get(r.action)
                            if action is None:
                                action = ruleset.decode_action(r.action)
                                config = getattr(type(action), "__struct_config__", None)
                                if config is not None and config.frozen:  # records share it only when frozen
                                    actions[r.action] = action
                    except BAD as exc:
                        raise DamagedStore(game, n, f"it does not decode: {exc}"[:300]) from None
                out.append(StoredEvent(n, kind, name, r.schema, r.payload, h, previous, stamp, event,
                                       r.action, action, r.sig))
                previous, number = h, n
            if save.head.hex() != previous:
                damage = DamagedStore(game, first, f"the hash does not follow from event {first - 1}'s")
                damage.hashes = (previous, save.head.hex())  # type: ignore[attr-defined]  (GameStore.verify)
                raise damage
        return out if upto is None else [r for r in out if r.number <= upto]

    def last(self, game: str) -> int | None:
        """The number of the game's last record (0: none yet; None: no such game)."""
        rows = self.select(row_key(game), None, None, True, 1)
        if not rows:
            return None
        if rows[0][0] == 0:
            return 0
        save = self._saves(game, rows)[0]
        return save.first + len(save.records) - 1

    # ----------------------------------------------------------- snapshots
    def _snapshot(self, game: str, version: int, topic: str, state: bytes) -> Snap:
        if topic != SNAP_TOPIC:
            raise ValueError(f"a {topic!r} row")
        snap = _snap.decode(zlib.decompress(state))
        if snap.count != version or len(snap.head) != 32:
            raise ValueError(f"a snapshot after {snap.count} stored at {version}")
        return snap

    def _start(self, game: str, header: Header, at: int | None) -> tuple[Snap | None, Any]:
        """The latest snapshot at or before ``at`` a load can start from, and its state, or (None, None).
        It must read, be of this program's rules, end where a row ends with its head as that row's last
        stored hash, and be what the records from the snapshot before it (or from the genesis) fold to,
        checked link by link: a snapshot edited alone is never used (docs/store.md)."""
        rows = self.select_snaps(row_key(game), None, at, True, 2)
        try:
            ruleset = rulesets.get(header.ruleset)
            snaps = [self._snapshot(game, *row) for row in rows]
            if not snaps or snaps[0].rules != str(ruleset.rules_version) or not snaps[0].engine:
                return None, None
            latest, witness = snaps[0], snaps[1] if len(snaps) > 1 else None
            state = None
            if witness is not None and witness.rules == latest.rules and witness.engine:
                state = ruleset.decode_state(witness.engine)
            else:
                witness = None
            count, head = (witness.count, witness.head.hex()) if witness else (0, header.genesis)
            records = self.stored(game, count, latest.count, head, False, header)
            if (records[-1].number if records else count) != latest.count or records[-1].hash != latest.head.hex():
                return None, None
            folded = fold_live(ruleset, records, state, witness.retracted if witness else (), count, game)
            if folded is None or folded[1] != latest.retracted or ruleset.encode(folded[0]) != latest.engine:
                return None, None
            return latest, folded[0]
        except Exception:  # noqa: BLE001  a snapshot is a cache: the events are read instead (verify names it)
            return None, None

    def load(self, game: str, at: int | None = None) -> Folded | None:
        """The game after its last record (or record ``at``), folded from its latest usable snapshot."""
        header = self.header(game)
        if header is None:
            return None
        snap, state = self._start(game, header, at)
        count, head, retracted = (snap.count, snap.head.hex(), snap.retracted) if snap else (0, header.genesis, [])
        ruleset = rulesets.get(header.ruleset)
        records = self.stored(game, count, at, head, False, header)
        head = records[-1].hash if records else head
        folded = fold_live(ruleset, records, state, retracted, count, game)
        if folded is None:  # a retraction takes back an event the snapshot holds: from the start
            records = self.stored(game, 0, at, header.genesis, False, header)
            head = records[-1].hash if records else header.genesis
            folded = fold_live(ruleset, records, None, (), 0, game)
            assert folded is not None
        number = records[-1].number if records else count
        return Folded(header, folded[0], number, head, folded[1])

    def checked_hash(self, game: str, number: int) -> str | None:
        """The hash after record ``number``, checked as a load up to it checks it (None: no such record)."""
        header = self.header(game)
        if header is None:
            return None
        snap, _ = self._start(game, header, number)
        count, head = (snap.count, snap.head.hex()) if snap else (0, header.genesis)
        records = self.stored(game, count, number, head, False, header)
        head = records[-1].hash if records else head
        return head if (records[-1].number if records else count) == number else None

    def snapshots(self, game: str, heads: Sequence[str] | None = None, decode: bool = True) -> list[SnapshotRead]:
        """Every stored snapshot of ``game``, oldest first, each with why it is not used (``problem``)."""
        header = self.header(game)
        out = []
        for version, topic, state in self.select_snaps(row_key(game), None, None, False, None):
            try:
                snap = self._snapshot(game, version, topic, state)
            except BAD as exc:
                out.append(SnapshotRead(version, "", None, f"it cannot be read ({type(exc).__name__}: {exc})"[:300]))
                continue
            head, problem = snap.head.hex(), None
            try:
                stored = heads[snap.count - 1] if heads is not None and 0 < snap.count <= len(heads) else \
                    self.checked_hash(game, snap.count)
            except DamagedStore:
                stored = None
            if stored != head:
                problem = "its head is not the stored hash of its last event"
            name = header.ruleset if header else ""
            read = SnapshotRead(snap.count, head, None, problem, snap.engine, name)
            out.append(decoded(read) if decode else read)
        return out

    def tail(self, game: str, upto: int, limit: int) -> list[StoredEvent]:
        """The last records up to ``upto`` (at most ``limit``), checked from the hash before them."""
        since = max(upto - limit, 0)
        previous = self.checked_hash(game, since) if since else None
        if previous is None:
            header = self.header(game)
            if header is None:
                return []
            since, previous = 0, header.genesis
        return self.stored(game, since, upto, previous, decode=False)
