"""The one reader of stored games, and the one fold of their live events.

Every read of a game goes through :class:`GameReader`: ``GameStore``'s
``load``, ``events``, ``header``, ``verify`` and ``snapshots`` (SQLite,
PostgreSQL and memory alike) and ``trv show``'s read-only path
(``store/quick.py``, plain ``sqlite3``).  It takes a game's rows as
``(version, topic, state)`` (``library.Rows``), unpacks them
(``packing.unpack``: packed and plain records alike) and decodes the
library's JSON envelopes with msgspec, strictly: a record that does not
decode, a gap in the numbering or a topic that is not a game's is
:class:`DamagedStore` naming the event.

:func:`fold_live` is the one place that folds retractions: the engine state
of a game is the fold of its events that no retraction took back (the
aggregate only notes the retracted ranges; the walker of ``replays`` checks
each retraction against the rules).

Light: no eventsourcing import (``trv show`` never pays for it).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import zlib
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, Literal, NamedTuple

import msgspec

from trvendetta import rulesets

from trvendetta.core.errors import TrvError

from .chunks import MARK_4, MARK_5, MARK_6, ONE_ROW, Lean, back_of, unpack_chunk, unpack_lean
from ..errors import DamagedStore, StoreError
from .packing import split_3, stamp_of, unpack
from .parts import PART_TOPIC, PartMissing, checked, join, same_state, unstamped
from ..records import (
    RETRACTION_KIND,
    STORE_KINDS,
    StoredEvent,
    chain,
    decode_payload,
    decode_retraction,
    game_genesis,
    game_key,
)
from ..rows import SnapshotRead
from .runs import UNDECODABLE, Decoding, Records, lean_rows

_BAD = UNDECODABLE

#: the topics of an engine event or store record: the first one, and the short one written now
EVENT_TOPICS = frozenset({"trvendetta:game:engine-event", "trv:e"})
CREATED_TOPIC = "trvendetta:game:created"
#: a whole snapshot (the first layout), and one whose shared parts are stored apart (parts.py)
SNAPSHOT_TOPICS = frozenset({"trvendetta:game:snapshot", "trv:s"})
#: the library's version of a game's ``Created`` record (event ``n`` is version ``n + 1``)
FIRST = 1


class _Stamp(msgspec.Struct, forbid_unknown_fields=True):
    # an ISO string, parsed on demand: a ``datetime`` annotation would be resolved
    # to freezegun's FakeDatetime if this module is first imported under freeze_time
    data: str = msgspec.field(name="_data_")
    type: Literal["datetime_iso"] = msgspec.field(name="_type_", default="datetime_iso")


class _StoredRecord(msgspec.Struct, forbid_unknown_fields=True):  # a damaged key is not silently a default
    """A ``Recorded`` event as eventsourcing stores it (its JSON transcoder)."""

    ruleset: str
    schema: int
    kind: str
    payload: str
    hash: str
    timestamp: _Stamp
    action: str = ""
    sig: str = ""


class _Later(msgspec.Struct, kw_only=True):
    """The ``Created`` fields added over time (older records and snapshots lack them)."""

    parent: str = ""
    parent_at: int = 0
    parent_head: str = ""
    bots: str = ""
    charter: str = ""
    domain: str = ""


class _StoredCreated(_Later, forbid_unknown_fields=True):
    timestamp: _Stamp
    originator_topic: Literal["trvendetta:game"]
    name: str
    ruleset: str
    rules_version: str
    store_schema: int


class _SnapState(_Later):
    """The aggregate's fields in a snapshot."""

    name: str
    ruleset: str
    count: int
    head: str
    rules_version: str = ""
    store_schema: int = 1
    engine: str = ""
    engine_rules: Any = None
    engine_crc: int | None = None
    parts: dict[str, str] = {}  # shared fields left out of ``engine``, by address (parts.py)
    retracted: list[tuple[int, int]] = []
    stale: bool = False
    created_on: _Stamp | None = msgspec.field(name="_created_on", default=None)


class _Snapshot(msgspec.Struct):
    state: _SnapState


_record = msgspec.json.Decoder(_StoredRecord)
_created = msgspec.json.Decoder(_StoredCreated)
_snapshot = msgspec.json.Decoder(_Snapshot)


class Record(NamedTuple):
    """One stored record after the ``Created`` one: an engine event, a
    retraction, an intent or a reveal, as canonical text."""

    number: int
    ruleset: str
    schema: int
    kind: str
    payload: str
    hash: str
    action: str = ""
    sig: str = ""
    recorded_at: datetime | None = None  # the library's wall-clock stamp (metadata)


class Header(NamedTuple):
    """What a game's ``Created`` record (or a snapshot, which repeats it) says."""

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
    created: datetime | None  # when the game was created


class Folded(NamedTuple):
    """A game read and folded: the engine state of its live events after ``count`` records."""

    header: Header
    state: Any
    count: int  # type: ignore[assignment]  # the field callers read; it hides tuple.count, which none calls
    head: str
    retracted: list[list[int]]
    modified: datetime | None  # the last record's stamp


def follows(game: str, records: Sequence[Any], previous: str) -> str:
    """Check that each of ``records`` (``Record`` or ``StoredEvent``) holds the
    hash that follows from ``previous`` and its own bytes (``records.chain``'s
    link): a command folds or shows only what it checked against the chain.
    Returns the last hash; :class:`DamagedStore` naming the first record whose
    hash does not follow."""
    for r in records:
        payload, action, sig = r.payload, r.action, r.sig
        if type(payload) is str:
            payload, action, sig = payload.encode(), action.encode(), sig.encode()
        if chain(previous, payload, action, sig) != r.hash:
            raise DamagedStore(game, r.number, f"the hash does not follow from event {r.number - 1}'s")
        previous = r.hash
    return previous


def fold_live(ruleset: Any, records: Sequence[Record], state: Any = None,
              retracted: Sequence[Sequence[int]] = (), folded: int = 0,
              game: str = "") -> tuple[Any, list[list[int]]] | None:
    """The one fold of retractions: ``state`` (the fold of the live events
    ``1..folded``, after the ``retracted`` ranges) folded on with the records
    that follow, skipping every event a retraction takes back; returns the
    state and every retracted range.  None when a retraction among
    ``records`` takes back an event ``state`` already holds: then fold again
    from the start (``folded`` 0)."""
    ranges = [list(r) for r in retracted]
    for r in records:
        if r.kind == RETRACTION_KIND:
            try:
                taken = decode_retraction(r.payload.encode())
            except _BAD as exc:
                raise DamagedStore(game, r.number, f"it does not decode: {exc}") from None
            if taken.first <= folded:
                return None
            ranges.append([taken.first, taken.last])
    dead = {n for first, last in ranges[len(retracted):] for n in range(first, last + 1)} if ranges else ()
    events = []
    for r in records:
        if r.kind in STORE_KINDS or r.number in dead:
            continue
        try:
            events.append(decode_payload(ruleset, r.kind, r.schema, r.payload.encode()))
        except _BAD as exc:
            raise DamagedStore(game, r.number, f"it does not decode: {exc}") from None
    if events:
        state = ruleset.fold(events, state)
    return state, ranges


class _Unpacker:
    """Reads one game's record rows in order: records packed alone (marks 1
    to 3, or plain JSON) and chunks (``chunks``: marks 4 and 5), keeping the
    last chunk read; a range that starts inside a chunk reads its first row."""

    __slots__ = ("select", "key", "first", "entries", "stamp", "cut", "cut_stamp")

    def __init__(self, select: Any, key: str):
        self.select, self.key = select, key
        self.first = 0  # the version of the chunk's first row read last (0: none)
        self.entries: list = []
        self.stamp: datetime | None = None
        self.cut = b""  # the last mark-3 stamp read, and its datetime
        self.cut_stamp: datetime | None = None

    def read(self, version: int, data: bytes) -> tuple[Any, datetime]:
        """The record a row holds (its fields as attributes) and its stamp; raises one of ``UNDECODABLE``."""
        mark = data[:1]
        if mark == MARK_5:
            back = back_of(data)
            if self.first != version - back:
                if version - back <= FIRST:
                    raise ValueError(f"it says its chunk starts {back} rows back, before the game's first record")
                self._chunk(version - back)
            if back >= len(self.entries):
                raise ValueError(f"its chunk (from event {self.first - FIRST}) holds {len(self.entries)} records only")
            return self.entries[back], self.stamp  # type: ignore[return-value]
        if mark == MARK_4:
            self.first = 0
            self.entries, self.stamp = unpack_chunk(data)
            self.first = version
            return self.entries[0], self.stamp
        usual = split_3(data)
        if usual is not None:  # a record packed alone: its hash and stamp taken from their bytes
            text, hash_, cut = usual
            e = _record.decode(text)
            if e.hash or e.timestamp.data:
                raise ValueError("a record with its hash or stamp both cut out and written")
            e.hash = hash_
            if cut != self.cut:  # the records of one command share their stamp
                self.cut, self.cut_stamp = cut, stamp_of(cut)
            return e, self.cut_stamp  # type: ignore[return-value]
        e = _record.decode(unpack(data))
        return e, datetime.fromisoformat(e.timestamp.data)

    def _chunk(self, version: int) -> None:
        self.first = 0
        found = self.select(self.key, version - 1, version)
        if not found or found[0][0] != version or found[0][1] not in EVENT_TOPICS or found[0][2][:1] != MARK_4:
            raise ValueError(f"the first row of its chunk (event {version - FIRST}) is missing or not a chunk's")
        self.entries, self.stamp = unpack_chunk(found[0][2])
        self.first = version


class GameReader:
    """Reads games from a store's rows (``library.Rows``)."""

    def __init__(self, rows: Any):
        self.rows = rows
        #: snapshot parts read or stored, by address (checked against it when read)
        self.parts: dict[str, bytes] = {}

    # ------------------------------------------------------------ records
    def created(self, game: str) -> Header | None:
        """The game's ``Created`` record, or None when there is no such game."""
        found = self.rows.events(game_key(game), 0, FIRST)
        return self._header(game, *found[0]) if found else None

    def records(self, game: str, since: int = 0, upto: int | None = None,
                previous: str | None = None) -> list[Record]:
        """The records numbered ``since < n <= upto``, in order, contiguous; with ``previous`` (the hash
        after record ``since``), each checked against the chain (:func:`follows`)."""
        found = self._decode(game, self._range(game_key(game), since, upto), since, upto=upto)
        if previous is not None:
            follows(game, found, previous)
        return found

    def _range(self, key: str, since: int, upto: int | None) -> Sequence[Any]:
        """The rows holding the records numbered ``since < n <= upto``: the rows stored under those versions,
        and the row after them when it is a chunk (mark 6, stored under its last record's version) that holds
        record ``upto``."""
        lte = None if upto is None else upto + FIRST
        rows = self.rows.events(key, since + FIRST, lte)
        end = [] if lte is None else self._end_row(key, rows[-1][0] if rows else since + FIRST, lte)
        return [*rows, *end] if end else rows

    def _end_row(self, key: str, last: int, lte: int) -> list[Any]:
        """The row after version ``last`` when a range's rows end before version ``lte`` and that row is a
        chunk (mark 6) holding the records up to it; else nothing."""
        if last >= lte:
            return []
        more = self.rows.events(key, last, None, False, 1)
        return [more[0]] if more and more[0][2][:1] in ONE_ROW else []

    def stored(self, game: str, since: int, upto: int | None, previous: str, decode: bool,
               stamped: bool = True, lazy: bool = False) -> "list[StoredEvent] | Records":
        """The records numbered ``since < n <= upto`` as ``StoredEvent`` (canonical bytes, ``previous`` the
        hash before the first), in order: ``GameStore.events``.  Besides :meth:`records`' checks, each
        record's ruleset is known, its schema one that ruleset reads and its kind its payload's, and its
        action decodes (and, with ``decode``, its event): else :class:`DamagedStore` naming it.

        One loop from the rows to the walker's records: no :class:`Record` in between, each check a (ruleset,
        kind, schema) passed made once (``runs.Decoding``), and a lean chunk's fields (mark 7: bytes already)
        taken as they are.  ``stamped`` False: a lean chunk's records carry no ``recorded_at`` (None; its stamp
        is checked to read), which ``trv verify`` never looks at.  ``lazy`` (without ``decode``): a
        :class:`runs.Records` instead, whose lean records are made only where asked (``trv verify``)."""
        if lazy and decode:
            raise ValueError("a lazy read does not decode its events")
        decoding = Decoding(game)
        rows = self._range(game_key(game), since, upto)
        if lazy and not stamped and upto is None:
            found = lean_rows(decoding, rows, since, previous, EVENT_TOPICS)  # every row at once, when it can
            if found is not None:
                return found
        records = Records(decoding, since, previous) if lazy else None
        read = records.read if records is not None else None
        leans: list[Lean] | None = None  # (lazy) the lean chunks of the part being read, and its odd rows
        out: list[StoredEvent] = []
        append, new = out.append, tuple.__new__
        number = since
        blocks = self._blocks(game, rows, since, upto, stamped=stamped)
        for _, block, skip, take, stamp in blocks:
            if type(block) is Lean:  # a lean chunk: its fields are the records' bytes
                if read is None:
                    previous = decoding.lean(number + 1, block, skip, take, previous, stamp, decode, out)
                else:  # taken as it is (runs.Records): its ruleset and schema checked where they change
                    if out:
                        records.add_records(out)  # type: ignore[union-attr]  # read is records.read: records is set
                        out = []
                        append = out.append
                    if leans is None:
                        leans, odd = read.lean_part(number + 1)
                    if block[0] is not read.sound[0] or block[1] != read.sound[1]:
                        read.check(number + 1, block, skip)
                    if skip or take != block[4] or stamp is not None:
                        odd[len(leans)] = (skip, take, stamp)
                    leans.append(block)
                    previous = ""  # (found where a record of an older row follows)
                number += take
                continue
            if not previous:  # the last lean chunk's last hash
                assert leans is not None  # a record after a lean chunk: that chunk's part is open
                skip_, take_, _ = odd.get(len(leans) - 1, (0, leans[-1][4], None))
                previous = leans[-1][3][32 * (skip_ + take_) - 32:32 * (skip_ + take_)].hex()
                leans = None
            for e in block[skip:skip + take]:
                number += 1
                try:
                    rules, opening = decoding.sound(e.ruleset, e.kind, e.schema)
                    payload = e.payload.encode()
                    if not payload.startswith(opening):
                        raise StoreError(f"its kind {e.kind!r} or schema {e.schema} is not its payload's")
                    action = e.action.encode()
                    event = decode_payload(rules, e.kind, e.schema, payload) if decode else None
                    decoded_action = decoding.action(rules, e.ruleset, action) if action else None
                except (TrvError, *_BAD) as exc:
                    raise DamagedStore(game, number, f"it does not decode: {exc}") from None
                append(new(StoredEvent, (number, e.kind, e.ruleset, e.schema, payload, e.hash, previous, stamp, event,
                                         action, decoded_action, e.sig.encode())))
                previous = e.hash
        if records is not None:
            if out:
                records.add_records(out)
            return records.close(number + 1)
        return out

    def last(self, game: str) -> int | None:
        """The number of the game's last record (0: only ``Created``), None: no such game."""
        found = self.rows.events(game_key(game), 0, None, True, 1)
        return found[0][0] - FIRST if found else None

    def hash_at(self, game: str, number: int) -> str | None:
        """The hash the stored record ``number`` holds, or None."""
        if number == 0:
            created = self.created(game)
            return None if created is None else game_genesis(created.charter, created.bots, created.store_schema)
        try:
            found = self.records(game, number - 1, number)
        except DamagedStore:
            raise
        except StoreError:
            return None
        return found[0].hash if found else None

    def checked_hash(self, game: str, number: int) -> str | None:
        """The hash after record ``number`` (None: no such record), read from where a load up to it starts
        (:meth:`_start`), each record on the way checked against the chain."""
        start = self._start(game, number)
        if start is not None:
            count, head = start[2], start[3]
        else:
            header = self.created(game)
            if header is None:
                return None
            count, head = 0, game_genesis(header.charter, header.bots, header.store_schema)
        if number == count:
            return head
        found = self.records(game, count, number, head)
        return found[-1].hash if found and found[-1].number == number else None

    def tail(self, game: str, upto: int, limit: int) -> list[Record]:
        """Up to ``limit`` records ending with record ``upto``, in order."""
        key = game_key(game)
        rows = list(reversed(self.rows.events(key, FIRST, upto + FIRST, True, limit)))
        rows += self._end_row(key, rows[-1][0] if rows else FIRST, upto + FIRST)  # a chunk holding ``upto``
        if not rows:
            return []
        version, _, data = rows[0]
        held = data[1] if data[:1] in ONE_ROW and len(data) > 1 else 1  # a chunk's row holds its count
        found = self._decode(game, rows, max(version - held, FIRST) - FIRST, upto=upto)[-limit:]
        if found:
            follows(game, found[1:], found[0].hash)  # (its first record is checked by the load it follows)
        return found

    def _decode(self, game: str, rows: Sequence[Any], since: int, unpacker: _Unpacker | None = None,
                upto: int | None = None) -> list[Record]:
        return [Record(version - FIRST, e.ruleset, e.schema, e.kind, e.payload, e.hash, e.action, e.sig, stamp)
                for version, e, stamp in self._each(game, rows, since, upto, unpacker)]

    def _each(self, game: str, rows: Sequence[Any], since: int, upto: int | None = None,
              unpacker: _Unpacker | None = None) -> Iterator[tuple[int, Any, datetime]]:
        """``(version, fields, stamp)`` of each record numbered ``since < n <= upto`` that ``rows`` hold, in
        order (:meth:`_blocks`' records one by one, a lean chunk's as :class:`chunks.Entry`)."""
        for version, block, skip, take, stamp in self._blocks(game, rows, since, upto, unpacker):
            entries = block.entries() if type(block) is Lean else block
            for i in range(skip, skip + take):
                yield version, entries[i], stamp
                version += 1

    def _blocks(self, game: str, rows: Sequence[Any], since: int, upto: int | None = None,
                unpacker: _Unpacker | None = None, stamped: bool = True) -> Iterator[tuple[int, Any, int, int, Any]]:
        """The records numbered ``since < n <= upto`` that ``rows`` hold, in order, a row at a time:
        ``(version, block, skip, take, stamp)``, the records ``block[skip:skip + take]`` being versions
        ``version`` on; ``block`` a list of records (their fields as attributes: one a row packed alone, or a
        mark-6 chunk's) or a :class:`chunks.Lean` (mark 7).  A chunk stored as one row (marks 6 and 7) holds
        records before ``since`` (skipped) and may hold records after ``upto`` (left out); ``stamped`` False: a
        lean chunk's stamp None (checked to read as one).  The numbering must
        run on without a gap or a record twice, each topic be a game record's and each record read: else
        :class:`DamagedStore` naming the event."""
        read = (unpacker or _Unpacker(self.rows.events, game_key(game))).read
        expected = since + FIRST  # the version of the last record given
        stop = None if upto is None else upto + FIRST
        for version, topic, data in rows:
            if expected == stop:
                return
            mark = data[:1]
            if mark in ONE_ROW and topic in EVENT_TOPICS:
                try:
                    block, stamp = unpack_chunk(data) if mark == MARK_6 else unpack_lean(data, stamped)
                except _BAD as exc:
                    raise DamagedStore(game, expected + 1 - FIRST,
                                       f"the stored record does not decode: {exc}") from None
                first = version - (block[4] if mark != MARK_6 else len(block)) + 1  # a lean chunk's count: [4]
                if first > expected + 1:
                    raise DamagedStore(game, expected + 1 - FIRST, f"event {expected + 1 - FIRST} is missing (the "
                                                                   f"store holds event {first - FIRST} next)")
                if (first <= expected and expected > since + FIRST) or first <= FIRST:
                    raise DamagedStore(game, max(first, FIRST + 1) - FIRST, f"events {first - FIRST} to "
                                       f"{version - FIRST} are stored in one row after event {expected - FIRST}")
                skip = expected + 1 - first
                take = version - expected if stop is None else min(version, stop) - expected
                yield expected + 1, block, skip, take, stamp
                expected += take
                continue
            expected += 1
            if version != expected:
                raise DamagedStore(game, expected - FIRST, f"event {expected - FIRST} is missing (the store "
                                                           f"holds event {version - FIRST} next)")
            if topic not in EVENT_TOPICS:
                raise DamagedStore(game, version - FIRST, f"its topic {topic!r} is not a game record's")
            try:
                e, stamp = read(version, data)
            except _BAD as exc:
                raise DamagedStore(game, version - FIRST, f"the stored record does not decode: {exc}") from None
            yield version, [e], 0, 1, stamp

    @staticmethod
    def _header(game: str, version: int, topic: str, data: bytes) -> Header:
        if topic != CREATED_TOPIC:
            raise DamagedStore(game, 0, f"its first record has the topic {topic!r}, not a game's")
        try:
            c = _created.decode(unpack(data))
            stamp = datetime.fromisoformat(c.timestamp.data)
        except _BAD as exc:
            raise DamagedStore(game, 0, f"the stored record does not decode: {exc}") from None
        return Header(c.name, c.ruleset, c.rules_version, c.store_schema, c.parent, c.parent_at, c.parent_head,
                      c.bots, c.charter, c.domain, stamp)

    # ---------------------------------------------------------- snapshots
    def snapshots(self, game: str, heads: Sequence[str] | None = None, decode: bool = True) -> list[SnapshotRead]:
        """Every stored snapshot of ``game``, oldest first; ``heads``: the hashes of the game's stored
        events, in order, when the caller has read them (else each snapshot's is read); ``decode``
        False: the engine states left as JSON (:class:`SnapshotRead`)."""
        out = []
        for version, topic, data in self.rows.snapshots(game_key(game), 0):
            number = version - FIRST
            try:
                snap = self._snap(topic, data, stamps=False)
                problem = self.snapshot_problem(game, number, snap, heads)
                state, engine = None, b""
                try:
                    whole = self._engine(snap)
                    if whole and decode:
                        state = rulesets.get(snap.ruleset).decode_state(whole)
                    elif whole:
                        engine = whole
                except PartMissing as exc:
                    problem = problem or str(exc)
                out.append(SnapshotRead(number, snap.head, state, problem, engine, snap.ruleset))
            except Exception as exc:  # noqa: BLE001  a damaged snapshot can raise almost anything
                out.append(SnapshotRead(number, "", None, f"it cannot be read ({type(exc).__name__}: {exc})"[:300]))
        return out

    @staticmethod
    def _snap(topic: str, data: bytes, stamps: bool = True) -> _SnapState:
        """The snapshot's fields; ``stamps`` False: its time stamps left empty (``parts.unstamped``)."""
        if topic not in SNAPSHOT_TOPICS:
            raise ValueError(f"its topic {topic!r} is not a game snapshot's")
        return _snapshot.decode(unpack(data) if stamps else unstamped(data)).state

    def _part(self, addr: str) -> bytes:
        """The stored part ``addr``, checked against its address (PartMissing)."""
        data = self.parts.get(addr)
        if data is None:
            found = self.rows.snapshots(addr, 0, FIRST)
            data = checked(addr, unpack(found[0][2]) if found and found[0][1] == PART_TOPIC else None)
            self.parts[addr] = data
        return data

    def _joined(self, snap: _SnapState) -> _SnapState:
        """The snapshot with the parts it names spliced back into its engine JSON."""
        if not snap.parts:
            return snap
        return msgspec.structs.replace(snap, engine=self._engine(snap).decode(), parts={})

    def _engine(self, snap: _SnapState) -> bytes:
        """The snapshot's engine JSON, the parts it names spliced back in (PartMissing)."""
        engine = snap.engine.encode()
        if not snap.parts:
            return engine
        return join(engine, {name: self._part(addr) for name, addr in snap.parts.items()})

    def snapshot_problem(self, game: str, number: int, snap: _SnapState,
                         heads: Sequence[str] | None = None) -> str | None:
        """Why a snapshot may not stand for the fold of the events before it
        (None when it may, as far as the cheap checks tell): its ``count`` is
        its number; its ``engine_crc`` (snapshots taken since it exists)
        matches the engine JSON it holds; its ``head`` is the hash the stored
        event at its number holds.  A load also checks its parts and that the
        snapshot before folds to it (:meth:`_start`); ``trv verify`` folds
        every event and compares."""
        if snap.count != number:
            return f"it says {snap.count!r} events but is stored as after event {number}"
        if snap.engine_crc is not None and snap.engine_crc != zlib.crc32(snap.engine.encode()):
            return "its engine state does not match its checksum"
        if number:
            if heads is None:
                head = self.hash_at(game, number)
            else:
                head = heads[number - 1] if 0 < number <= len(heads) else None
            if head != snap.head:
                return f"its head is not the hash of the stored event {number}"
        return None

    def _usable(self, game: str, version: int, topic: str, data: bytes) -> _SnapState:
        """A snapshot a load may start from or witness with, parts joined (else ValueError)."""
        snap = self._snap(topic, data)
        rules = rulesets.get(snap.ruleset)
        if snap.stale or not snap.engine or str(snap.engine_rules) != str(rules.rules_version):
            raise ValueError("a snapshot of other rules, or awaiting a refold")
        problem = self.snapshot_problem(game, version - FIRST, snap)
        if problem is not None:
            raise ValueError(problem)
        return self._joined(snap)

    def _start(self, game: str, at: int | None) -> tuple[Header, Any, int, str, list[list[int]]] | None:
        """Where a load starts: the latest snapshot (at or before ``at``) when
        the one before it passes the same checks and the stored events from
        it fold to the latest (its engine state, count, head and retractions:
        an edited snapshot, checksum recomputed or not, is never used); else
        None (fold from the start)."""
        found = self.rows.snapshots(game_key(game), 0, None if at is None else at + FIRST, True, 2)
        if len(found) != 2:
            return None
        try:
            latest, before = (self._usable(game, *row) for row in found)
            if latest.name != before.name or latest.ruleset != before.ruleset:
                return None
            rules = rulesets.get(before.ruleset)
            records = self.records(game, before.count, latest.count, before.head)
            folded = fold_live(rules, records, rules.decode_state(before.engine.encode()), before.retracted,
                               before.count, game)
            if folded is None or (records[-1].number if records else before.count) != latest.count \
                    or (records[-1].hash if records else before.head) != latest.head \
                    or folded[1] != [list(r) for r in latest.retracted] \
                    or not same_state(rules, folded[0], latest.engine.encode()):
                return None
            stamp = datetime.fromisoformat(latest.created_on.data) if latest.created_on is not None else None
        except Exception:  # noqa: BLE001  a snapshot that does not hold, or an edited state the engine chokes on
            return None
        header = Header(latest.name, latest.ruleset, latest.rules_version, latest.store_schema, latest.parent,
                        latest.parent_at, latest.parent_head, latest.bots, latest.charter, latest.domain, stamp)
        return header, folded[0], latest.count, latest.head, folded[1]

    # -------------------------------------------------------------- load
    def load(self, game: str, at: int | None = None) -> Folded | None:
        """The game after its last record (or record ``at``), its live
        events folded; None when there is no such game."""
        start = self._start(game, at)
        if start is not None:
            header, state, count, head, retracted = start
            records = self.records(game, count, at, head)
            folded = fold_live(rulesets.get(header.ruleset), records, state, retracted, count, game)
            if folded is not None:
                last = records[-1] if records else None
                if header.created is None:  # a snapshot older than its field
                    created = self.created(game)
                    header = header._replace(created=created.created if created else None)
                return Folded(header, folded[0], last.number if last else count, last.hash if last else head,
                              folded[1], last.recorded_at if last else header.created)
        made = self.created(game)
        if made is None:
            return None
        genesis = game_genesis(made.charter, made.bots, made.store_schema)
        records = self.records(game, 0, at, genesis)
        rules = rulesets.get(made.ruleset)
        state, retracted = fold_live(rules, records, None, (), 0, game)  # type: ignore[misc]
        last = records[-1] if records else None
        return Folded(made, state, last.number if last else 0, last.hash if last else genesis,
                      retracted, last.recorded_at if last else made.created)

    def first_unreadable(self, game: str) -> int | None:
        """The number of the first record of ``game`` that does not read or
        decode (0 for its ``Created`` record), or None."""
        try:
            header = self.created(game)
            if header is None:
                return None
            rules = rulesets.get(header.ruleset)
        except Exception:  # noqa: BLE001
            return 0
        unpacker = _Unpacker(self.rows.events, game_key(game))
        number = 0  # the last record read
        for row in self.rows.events(game_key(game), FIRST):
            try:
                for version, e, _ in self._each(game, [row], number, None, unpacker):
                    number = version - FIRST
                    if e.kind != RETRACTION_KIND:
                        decode_payload(rules, e.kind, e.schema, e.payload.encode())
                    else:
                        decode_retraction(e.payload.encode())
            except Exception:  # noqa: BLE001
                return number + 1
        return None
