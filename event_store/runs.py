"""A game's records as runs of raw fields: what ``trv verify`` walks without making a record per event.

``GameStore.events`` gives a list of :class:`~.records.StoredEvent`, one object a record, each
checked as it is made (its ruleset known, its schema one that ruleset reads, its kind its payload's,
its action decodable).  Making them was a third of ``trv verify``'s time beyond the engine (issue
16): a verify compares each record's bytes with the rules' own and needs no object for a record
whose bytes are the rules'.  So ``GameStore.events(..., lazy=True)`` gives :class:`Records`, a
sequence of the same records made only where asked (``records[i]``, iteration), which also gives
them as **runs** (:meth:`Records.runs`): each run a list of raw fields, three a record (payload,
action, signature), and its records' chain hashes as 32 bytes each, one after another.  A lean
chunk (``chunks``, mark 7) is a run as it is read; the records of older rows are made as before and
taken as runs of their own fields.

What a lean record's object would have checked is checked where it matters: a row's ruleset and
schema as it is read (``Decoding.sound``, through the first record's kind), and a record's kind and
action when its object is made, which the walker asks for every record whose bytes are not the
rules' (a record whose payload is the bytes the rules produce has that event's kind, and its action
is the one the rules applied).  So a damaged record is still named in the same words.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import zlib
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from trvendetta import rulesets

from trvendetta.core.errors import TrvError

from .chunks import Lean, kind_of, opening_of
from .errors import DamagedStore, StoreError
from .records import StoredEvent, decode_payload, event_schema

#: what a record or row that does not decode raises
UNDECODABLE = _BAD = (msgspec.DecodeError, msgspec.ValidationError, zlib.error, ValueError, TypeError, RecursionError)


def frozen(value: Any) -> bool:
    """Can records share ``value`` (a frozen msgspec struct: every ruleset's actions are)?"""
    config = getattr(type(value), "__struct_config__", None)
    return config is not None and config.frozen


class Decoding:
    """What one read of a game has checked and decoded, kept for the rest of it: each (ruleset, kind,
    schema) seen to be sound, each action decoded (by ruleset, then by its canonical bytes: a game repeats its
    actions, 101 distinct of 652 in the bench's game, and a decoded action is a frozen struct its records can
    share), and a lean chunk's kinds by ruleset and schema, then by their payloads' opening."""

    __slots__ = ("game", "known", "actions", "kinds")

    def __init__(self, game: str):
        self.game = game
        self.known: dict[tuple[str, str, int], tuple[Any, bytes]] = {}
        self.actions: dict[str, dict[bytes, Any]] = {}
        self.kinds: dict[tuple[str, int], dict[bytes, tuple[str, Any]]] = {}

    def sound(self, ruleset: str, kind: str, schema: int) -> tuple[Any, bytes]:
        """The rules of a sound (ruleset, kind, schema) and the opening of a payload of that kind (TrvError or
        StoreError when its ruleset is unknown or the schema is not one it reads)."""
        found = self.known.get((ruleset, kind, schema))
        if found is None:
            rules = rulesets.get(ruleset)
            if not 1 <= schema <= event_schema(rules):
                raise StoreError(f"its kind {kind!r} or schema {schema} is not its payload's")
            found = self.known[ruleset, kind, schema] = (rules, opening_of(kind))
        return found

    def action(self, rules: Any, ruleset: str, action: bytes) -> Any:
        """``action`` decoded by ``rules``, shared with the read's other records of it when frozen."""
        acts = self.actions.get(ruleset)
        if acts is None:
            acts = self.actions[ruleset] = {}
        decoded_action = acts.get(action)
        if decoded_action is None:
            decoded_action = rules.decode_action(action)
            if frozen(decoded_action):
                acts[action] = decoded_action
        return decoded_action

    def lean(self, number: int, lean: Lean, skip: int, take: int, previous: str, stamp: Any, decode: bool,
             out: list[StoredEvent]) -> str:
        """Append to ``out`` the records ``skip`` to ``skip + take`` of a lean chunk, numbered ``number`` on,
        ``previous`` the hash before the first; returns the last one's hash.  :class:`DamagedStore` naming the
        record whose kind or action does not decode (or, with ``decode``, its payload)."""
        ruleset, schema, fields, hashes, _ = lean
        table = self.kinds.get((ruleset, schema))
        if table is None:
            table = self.kinds[ruleset, schema] = {}
        acts = self.actions.get(ruleset)
        if acts is None:
            acts = self.actions[ruleset] = {}
        append, new = out.append, tuple.__new__
        hexes, at = hashes[32 * skip:32 * (skip + take)].hex(), 0
        for j in range(2 + 3 * skip, 2 + 3 * (skip + take), 3):
            payload, action = fields[j], fields[j + 1]
            # its kind: what its payload opens with (``{"type":"KIND"``), and its action, each seen before
            found = table.get(payload[:payload.find(b'"', 9) + 1])
            decoded_action = acts.get(action) if action else None
            event = None
            if found is None or decode or (action and decoded_action is None):
                try:
                    if found is None:
                        kind = kind_of(payload).decode()
                        rules, opening = self.sound(ruleset, kind, schema)
                        found = table[opening] = (kind, rules)
                    if action and decoded_action is None:
                        decoded_action = self.action(found[1], ruleset, action)
                    if decode:
                        event = decode_payload(found[1], found[0], schema, payload)
                except (TrvError, *_BAD) as exc:
                    raise DamagedStore(self.game, number, f"it does not decode: {exc}") from None
            hash_ = hexes[at:at + 64]
            at += 64
            # StoredEvent's fields: number, kind, ruleset, schema, payload, hash, previous, recorded_at, event,
            # action, decoded_action, sig
            append(new(StoredEvent, (number, found[0], ruleset, schema, payload, hash_, previous, stamp, event,
                                     action, decoded_action, fields[j + 2])))
            previous = hash_
            number += 1
        return previous

    def row(self, number: int, lean: Lean, skip: int) -> None:
        """Check what a lean chunk's records share, its ruleset and schema, as :meth:`lean` checks them with its
        first record read (``number``, record ``skip`` of the chunk): DamagedStore naming that record when
        unsound (or when its own kind does not decode, as :meth:`lean` says it)."""
        ruleset, schema, fields, _, _ = lean
        table = self.kinds.get((ruleset, schema))
        if table:
            return
        payload = fields[2 + 3 * skip]
        try:
            kind = kind_of(payload).decode()
            rules, opening = self.sound(ruleset, kind, schema)
        except (TrvError, *_BAD) as exc:
            raise DamagedStore(self.game, number, f"it does not decode: {exc}") from None
        self.kinds.setdefault((ruleset, schema), {})[opening] = (kind, rules)


class Segment:
    """Consecutive records, numbered ``first`` on, as raw fields: ``fields``, three a record (payload, action,
    signature: bytes, b"" when none), and ``hashes``, their chain hashes, 32 bytes each, or b"" for a record
    whose stored hash is not one ``chain`` writes (no computed hash matches it); ``made(number)`` makes the
    object of one of them (DamagedStore when it does not decode)."""

    __slots__ = ("first", "fields", "hashes", "made", "_pieces")

    def __init__(self, first: int, fields: list[bytes], hashes: bytes, made: Callable[[int], StoredEvent]):
        self.first, self.fields, self.hashes, self.made = first, fields, hashes, made
        self._pieces: list[bytes] = []  # hashes still to join (a segment the reader is adding rows to)

    @property
    def count(self) -> int:
        return len(self.fields) // 3

    def sealed(self) -> "Segment":
        if self._pieces:
            self.hashes += b"".join(self._pieces)
            self._pieces = []
        return self

    def cut(self, lo: int, hi: int) -> "Segment":
        """Its records numbered ``lo <= n < hi`` (itself when that is all of them)."""
        a, b = max(lo, self.first) - self.first, min(hi, self.first + self.count) - self.first
        if (a, b) == (0, self.count):
            return self
        return Segment(self.first + a, self.fields[3 * a:3 * b], self.hashes[32 * a:32 * b] if self.hashes else b"",
                       self.made)


def segments_of(records: Sequence[StoredEvent], number: int) -> Iterator[Segment]:
    """``records`` (any sequence of record objects, the first numbered ``number + 1`` if they hold together) as
    segments: each stretch of records that hold together as a stored game's do (numbered on without a gap, a
    hash of 64 lowercase hex digits as ``chain`` writes it, no decoded event: its bytes are what counts) one
    segment, and each other record a segment of its own without a hash (a walker takes it through ``feed``)."""
    i, n = 0, len(records)
    while i < n:
        j, hashes, fields = i, [], []
        while j < n:
            r = records[j]
            if r.number != number + 1 + (j - i) or r.event is not None:
                break
            try:
                raw = bytes.fromhex(r.hash)
            except (ValueError, TypeError):
                break
            if len(raw) != 32 or raw.hex() != r.hash:
                break
            hashes.append(raw)
            fields += (r.payload, r.action or b"", r.sig or b"")
            j += 1
        if j > i:
            yield Segment(number + 1, fields, b"".join(hashes), _made_of(records[i:j]))
            number += j - i
        if j < n:
            r = records[j]
            yield Segment(r.number, [r.payload, r.action or b"", r.sig or b""], b"", _made_of([r]))
            number += 1
            j += 1
        i = j


def _made_of(records: Sequence[StoredEvent]) -> Callable[[int], StoredEvent]:
    first = records[0].number
    return lambda number: records[number - first]


class _Read:
    """What :class:`Records` views: the rows of one read (``rows``: each a lean chunk's ``(lean, skip)`` or
    ``(None, records)``, numbered from ``starts``) and their records as segments."""

    __slots__ = ("decoding", "since", "previous", "starts", "rows", "segments", "open", "end", "sound")

    def __init__(self, decoding: Decoding, since: int, previous: str):
        self.decoding, self.since, self.previous = decoding, since, previous
        self.starts: list[int] = []
        self.rows: list[tuple[Any, Any, Any]] = []
        self.segments: list[Segment] = []
        self.open: Segment | None = None  # the segment lean chunks are added to
        self.end = since + 1  # the number after the last record taken
        self.sound: tuple[Any, Any] = (None, None)  # the last (ruleset, schema) checked

    def made(self, number: int) -> StoredEvent:
        """The object of record ``number``, made as ``GameStore.events`` makes it."""
        k = bisect_right(self.starts, number) - 1
        lean, held, stamp = self.rows[k]
        i = number - self.starts[k]
        if lean is None:
            return held[i]
        out: list[StoredEvent] = []
        self.decoding.lean(number, lean, held + i, 1, self.hash_of(number - 1), stamp, False, out)
        return out[0]

    def hash_of(self, number: int) -> str:
        """The chain hash of record ``number`` (the one before the first read: ``previous``), hex."""
        if number <= self.since:
            return self.previous
        k = bisect_right(self.starts, number) - 1
        lean, held, _ = self.rows[k]
        i = number - self.starts[k]
        if lean is None:
            return held[i].hash
        return lean[3][32 * (held + i):32 * (held + i) + 32].hex()


class Records(Sequence[StoredEvent]):
    """A game's stored records ``since < number <= upto`` (``GameStore.events(..., lazy=True)``): a sequence of
    :class:`StoredEvent` made where asked, and :meth:`segments`, the same records as raw fields (a stored game
    of lean chunks: one segment).  A slice is a view of the same read."""

    __slots__ = ("read", "lo", "hi")

    def __init__(self, decoding: Decoding, since: int, previous: str):
        self.read = _Read(decoding, since, previous)
        self.lo = self.hi = since + 1  # the view: numbers lo <= n < hi

    # -------------------------------------------------------- building (the reader)
    def add_lean(self, lean: Lean, skip: int, take: int, stamp: Any) -> None:
        """Take records ``skip`` to ``skip + take`` of a lean chunk, checking what they share (its ruleset and
        schema, as the first record's object would have: ``Decoding.row``)."""
        read = self.read
        if read.sound[0] is not lean[0] or read.sound[1] != lean[1]:
            read.decoding.row(read.end, lean, skip)
            read.sound = (lean[0], lean[1])
        read.starts.append(read.end)
        read.rows.append((lean, skip, stamp))
        segment = read.open
        if segment is None:
            segment = read.open = Segment(read.end, [], b"", read.made)
            read.segments.append(segment)
        if skip == 0 and take == lean[4]:
            segment.fields += lean[2][2:]
            segment._pieces.append(lean[3])
        else:
            segment.fields += lean[2][2 + 3 * skip:2 + 3 * (skip + take)]
            segment._pieces.append(lean[3][32 * skip:32 * (skip + take)])
        read.end += take
        self.hi = read.end

    def add_records(self, records: list[StoredEvent]) -> None:
        """Take records already made (the rows before lean chunks), numbered on from the last taken."""
        if not records:
            return
        read = self.read
        read.starts.append(read.end)
        read.rows.append((None, records, None))
        for segment in segments_of(records, read.end - 1):
            segment.made = read.made
            read.segments.append(segment)
        read.open = None
        read.end += len(records)
        self.hi = read.end

    # -------------------------------------------------------- reading
    def segments(self) -> list[Segment]:
        """The view's records as segments, in order (the first and last cut where the view starts and ends)."""
        lo, hi = self.lo, self.hi
        return [s.sealed().cut(lo, hi) for s in self.read.segments if s.first < hi and s.first + s.count > lo]

    def __len__(self) -> int:
        return self.hi - self.lo

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            view = object.__new__(Records)
            view.read, view.lo, view.hi = self.read, self.lo + start, self.lo + max(start, stop)
            return view
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("record index out of range")
        return self.read.made(self.lo + index)

    def hash(self, index: int) -> str:
        """The chain hash of record ``index`` (``self[index].hash``, without making the record)."""
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("record index out of range")
        return self.read.hash_of(self.lo + index)

    def __iter__(self) -> Iterator[StoredEvent]:
        return map(self.read.made, range(self.lo, self.hi))
