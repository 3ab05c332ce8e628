"""The write path: a command's records as the library's stored rows, built directly.

A record is stored as the library would store an ``Game.Entry`` event: a row
``(originator_id, originator_version, topic "trv:e", state)`` whose state is
the library's JSON of the event's fields (the ``timestamp`` wrapper, then
``ruleset``, ``schema``, ``kind``, ``payload``, ``hash``, ``action``,
``sig``, in that order), packed (``packing``).  Through the library's
machinery (``trigger_event``, a domain-event object, the mapper, the
transcoder, the compressor's regular expressions) a record cost about 30 us
before packing, most of ``trv sim --store``'s time.  :class:`Batch` writes the same bytes (the
transcoder's JSON, byte for byte: ``tests/store/test_library_hooks.py``) from
the fields, with the chain hash's place known (``packing.pack_record``), keeps
the aggregate's fields as the event's ``apply`` would have (count, head,
engine, retractions, the library's version and modified time), and hands the
rows to the recorder's public ``insert_events``.

A save given the state after its steps (``GameStore.append(..., state=)``,
``trv sim --store``) records them in one loop (:meth:`Batch.add_steps`: the
chain on raw digests, each event type's kind looked up once, the aggregate's
count and head set at the end), the same rows as one record at a time
(``tests/store/test_writing.py``).

The aggregate's ``Created`` event (one a game) still goes through the
library's mapper.

A save (``chunked``: every save of the store's) packs its records in chunks
instead (``chunks``): each record's fields are kept until its chunk is full,
its stamp, ruleset or schema changes or the save ends (:meth:`Batch.finish`),
then the chunk is made into one row, stored under its last record's version:
a lean chunk (mark 7), or mark 6 when a field holds the lean chunk's
separator.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from hashlib import sha256
from typing import Any, NamedTuple

import msgspec

from trvendetta.core.protocol import Ruleset

from .aggregate import RETRACTION_KIND, Game, chain, event_schema
from .chunks import CHUNK_MAX, Entry, lean_row, opening_of, pack_row
from ..errors import StoreError
from .packing import pack_record, stamp_bytes, utc_bytes
from .reader import Record


class Row(NamedTuple):
    """A stored row as the library's recorders take it: the four fields of its
    ``eventsourcing.persistence.StoredEvent``, which they read by name (a frozen
    dataclass, three times the cost to make: a game stored whole is hundreds)."""

    originator_id: Any
    originator_version: int
    topic: str
    state: bytes


_text = msgspec.json.Encoder().encode
_ENTRY = Game.Entry.TOPIC
_OPEN, _RULESET = b'{"timestamp":{"_type_":"datetime_iso","_data_":', b'},"ruleset":'
_NO_ACTION = b'","action":"","sig":""}'
#: an engine event type's kind (its tag) and its payload's opening (``Batch.add_steps``)
_BY_TYPE: dict[type, tuple[str, bytes]] = {}


def _tail(action: str, sig: str) -> bytes:
    """The record's JSON after its hash."""
    return b'","action":' + _text(action) + b',"sig":' + _text(sig) + b"}"


class Batch:
    """The records of one save, appended to ``agg`` as they are recorded.

    ``fold``: evolve the engine state with each engine event (False when the
    caller has the state after them: ``GameStore.append(..., state=)``).
    ``keep``: also keep each record as a ``reader.Record`` (``GameStore._fresh``
    refolds them after a retraction).  ``stored_id`` is the aggregate's id in
    the form its rows hold it (``CompactIdsRecorder``).  ``chunked``: pack
    the records in chunks (``chunks``: one row each); then :meth:`finish`
    makes the last chunk's row."""

    def __init__(self, agg: Game, stamp: datetime, *, fold: bool, keep: bool, stored_id: Any,
                 chunked: bool = False):
        self.agg = agg
        self.stamp = stamp
        self.fold = fold
        self.keep = keep
        self.oid = stored_id
        self.rows: list[Row] = []
        self.records: list[Record] = []
        self._heads: dict[datetime, bytes] = {}
        self._schemas: dict[str, int] = {}
        self._names: dict[tuple[str, int, str], bytes] = {}  # the JSON from the ruleset to the payload
        self.chunked = chunked
        #: the chunk being filled: its records' fields (payload, action, sig of each, as bytes), ruleset and
        #: schema, their hashes, its last record's version, and their stamp
        self._fields: list[bytes] = []
        self._kinds: list[str] = []
        self._ruleset, self._schema = "", 0
        self._hashes: list[bytes] = []  # raw, 32 bytes each
        self._odd = False  # a record of the chunk whose kind is not its payload's opening
        self._openings: dict[str, bytes] = {}  # by kind
        self._last = 0
        self._stamp: bytes | None = None
        self._cuts: dict[datetime, bytes | None] = {}  # stamps as chunks store them
        self._cut = self._chunk_stamp(stamp) if chunked else None  # the batch's own

    def _head(self, stamp: datetime) -> tuple[bytes, bytes, bytes | None]:
        """The record's JSON up to its ruleset, the same with the stamp's place
        instead of its text, and the stamp as mark 3 stores it (``packing``)."""
        found = self._heads.get(stamp)
        if found is None:
            found = self._heads[stamp] = (_OPEN + _text(stamp.isoformat()) + _RULESET,
                                          _OPEN + b'"\x02"' + _RULESET, stamp_bytes(stamp))
        return found

    def _chunk_stamp(self, stamp: datetime) -> bytes | None:
        found = self._cuts.get(stamp, False)
        if found is False:
            found = self._cuts[stamp] = utc_bytes(stamp)
        return found  # type: ignore[return-value]

    def _schema_of(self, ruleset: Any) -> int:
        schema = self._schemas.get(ruleset.name)
        if schema is None:
            schema = self._schemas[ruleset.name] = event_schema(ruleset)
        return schema

    def add(self, ruleset: Any, event: Any, action: Any = None, signer: Any = None) -> None:
        """One engine event (chained to the head), with the action that produced
        it when it is that action's first event; ``signer(number, previous_hash,
        action_bytes) -> bytes`` signs the action (a game with bound seats)."""
        agg = self.agg
        payload = ruleset.encode(event)
        action_bytes = b"" if action is None else ruleset.encode(action)
        sig = signer(agg.count + 1, agg.head, action_bytes) if signer is not None and action_bytes else b""
        self.add_raw(ruleset.name, self._schema_of(ruleset), ruleset.event_kind(event), payload, action_bytes, sig,
                     None, ruleset, event)

    @property
    def lean(self) -> bool:
        """Can :meth:`add_steps` record this batch's events (chunked, its stamp UTC, nothing to fold or keep)?"""
        return self._cut is not None and not self.fold and not self.keep

    def add_steps(self, ruleset: Any, steps: Sequence[Any], start: int = 0, until: int = 0) -> int:
        """Record ``steps[start:]`` as :meth:`add` records them, in one loop: each step ``(action, events)`` or
        ``(action, events, signer)``, its action (None: set-up events, no action) on its first event.  Stops
        after the first step at whose end the aggregate's version is ``until`` or more (0: never), so records
        one step at least; returns the index of the next step.  Only for a :attr:`lean` batch.

        A stored game is hundreds of records: :meth:`add` then :meth:`add_raw` for each, the hash chained in
        hex and noted on the aggregate, was most of ``trv sim --store``'s save (issue 16).  Here the chain
        runs on raw digests (``records.chain``'s bytes: ``action \\n``, ``sig \\n``, then the payload, after
        the previous hash), and the aggregate's count, head and version are set once, at the end."""
        agg = self.agg
        name, schema, cut = ruleset.name, self._schema_of(ruleset), self._cut
        if self._hashes and (cut != self._stamp or name != self._ruleset or schema != self._schema):
            self.finish()
        self._ruleset, self._schema, self._stamp = name, schema, cut
        encode, event_kind, openings = ruleset.encode, ruleset.event_kind, self._openings
        # a ruleset whose kinds are its event types' tags (the engine's ``Ruleset.event_kind``): looked up by type
        by_type = _BY_TYPE if type(ruleset).event_kind is Ruleset.event_kind else None
        fields, kinds, hashes, odd = self._fields, self._kinds, self._hashes, self._odd
        count, version, previous = agg.count, agg.version, bytes.fromhex(agg.head)
        i, end = start, len(steps)
        while i < end:
            step = steps[i]
            i += 1
            action, events = step[0], step[1]
            if not events:
                raise StoreError(f"the action {ruleset.describe_action(action)!r} produced no event to record it on")
            action_bytes = b"" if action is None else encode(action)
            signer = step[2] if len(step) > 2 else None
            sig = signer(count + 1, previous.hex(), action_bytes) if signer is not None and action_bytes else b""
            for event in events:
                known = by_type.get(type(event)) if by_type is not None else None
                if known is None:
                    kind = event_kind(event)
                    opening = openings.get(kind)
                else:
                    kind, opening = known
                if opening is None:
                    if kind == RETRACTION_KIND:  # no engine's, but noted as a retraction would be: by add()
                        self._odd, self._last = odd, version
                        agg.count, agg.version, agg.head = count, version, previous.hex()
                        self.add(ruleset, event, action if action_bytes else None, signer)
                        fields, kinds, hashes, odd = self._fields, self._kinds, self._hashes, self._odd
                        count, version, previous = agg.count, agg.version, bytes.fromhex(agg.head)
                        action_bytes = sig = b""
                        continue
                    opening = openings[kind] = opening_of(kind)
                if known is None and by_type is not None:
                    by_type[type(event)] = (kind, opening)
                payload = encode(event)
                if len(hashes) == CHUNK_MAX:
                    self._odd, self._last = odd, version
                    self.finish()
                    fields, kinds, hashes, odd = self._fields, self._kinds, self._hashes, False
                body = payload
                if sig:
                    body = sig + b"\n" + body
                if action_bytes:
                    body = action_bytes + b"\n" + body
                previous = sha256(previous + body).digest()
                fields += (payload, action_bytes, sig)
                kinds.append(kind)
                hashes.append(previous)
                if not payload.startswith(opening):
                    odd = True
                count += 1
                version += 1
                action_bytes = sig = b""
            if until and version >= until:
                break
        self._odd, self._last = odd, version
        if version != agg.version:
            agg.count, agg.version, agg.head = count, version, previous.hex()
            agg.modified_on = self.stamp
        return i

    def add_raw(self, ruleset: str, schema: int, kind: str, payload: bytes, action: bytes = b"", sig: bytes = b"",
                stamp: datetime | None = None, rules: Any = None, decoded: Any = None) -> None:
        """One record given as canonical bytes (imports, forks, retractions, copies);
        ``stamp`` None stamps it with the batch's stamp."""
        agg = self.agg
        hash_ = chain(agg.head, payload, action, sig)
        version = agg.version + 1
        cut = (self._cut if stamp is None else self._chunk_stamp(stamp)) if self.chunked else None
        if cut is not None:
            if self._hashes and (cut != self._stamp or len(self._hashes) == CHUNK_MAX or ruleset != self._ruleset
                                 or schema != self._schema):
                self.finish()
            self._fields += (payload, action, sig)
            self._kinds.append(kind)
            # a lean chunk keeps each record's kind as its payload's opening (``{"type":"KIND"``): a record whose
            # kind is another (which a read names as damage) makes its chunk mark 6, stored as it was given
            opening = self._openings.get(kind)
            if opening is None:
                opening = self._openings[kind] = opening_of(kind)
            if not payload.startswith(opening):
                self._odd = True
            self._ruleset, self._schema = ruleset, schema
            self._hashes.append(bytes.fromhex(hash_))
            self._last = version
            self._stamp = cut
        else:
            self.finish()
            self.rows.append(Row(self.oid, version, _ENTRY, self._alone(ruleset, schema, kind, payload.decode(), hash_,
                                                                        action.decode(), sig.decode(), stamp)))
        if self.keep:
            self.records.append(Record(agg.count + 1, ruleset, schema, kind, payload.decode(), hash_, action.decode(),
                                       sig.decode()))
        agg.note(ruleset, schema, kind, payload, hash_, decoded, rules, fold=self.fold)
        agg.version = version
        agg.modified_on = stamp or self.stamp

    def finish(self) -> None:
        """Make the row of the chunk being filled (every save ends with it)."""
        if not self._hashes:
            return
        ruleset, schema, f = self._ruleset, self._schema, self._fields
        state = None if self._odd else lean_row(self._stamp, self._hashes, ruleset, schema, f)  # type: ignore
        if state is None:  # a field holds the lean chunk's separator, or a kind is not its payload's
            entries = [Entry(ruleset, schema, kind, f[j].decode(), f[j + 1].decode(), f[j + 2].decode())
                       for kind, j in zip(self._kinds, range(0, len(f), 3))]
            state = pack_row(self._stamp, [h.hex() for h in self._hashes], entries)  # type: ignore[arg-type]
        self.rows.append(Row(self.oid, self._last, _ENTRY, state))
        self._fields, self._kinds, self._hashes, self._odd = [], [], [], False

    def _alone(self, ruleset: str, schema: int, kind: str, text: str, hash_: str, action_text: str, sig_text: str,
               stamp: datetime | None) -> bytes:
        """A record packed alone: its library JSON, packed (``packing.pack_record``)."""
        # the transcoder's JSON of the event's fields, in their order, the chain hash left out
        fields = _text(text)
        tail = _tail(action_text, sig_text) if action_text or sig_text else _NO_ACTION
        head, cut_head, cut = self._head(stamp or self.stamp)
        key = (ruleset, schema, kind)
        named = self._names.get(key)
        if named is None:
            named = self._names[key] = b"".join((_text(ruleset), b',"schema":', str(schema).encode(), b',"kind":',
                                                 _text(kind), b',"payload":'))
        middle = named + fields + b',"hash":"'
        return pack_record(head + middle, hash_, tail, fields, tail if len(tail) >= 64 else b"",
                           stamp=cut, cut_before=cut_head + middle)
