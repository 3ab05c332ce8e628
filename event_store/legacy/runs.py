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
from itertools import accumulate, chain, repeat
from operator import add, getitem, gt, itemgetter, methodcaller, mul
from typing import Any

import msgspec

from trvendetta import rulesets

from trvendetta.core.errors import TrvError

from .chunks import _HEAD, LAST_STAMP, MARK_7, SEP, Lean, inflate_lean, kind_of, lean_head, opening_of
from ..errors import DamagedStore, StoreError
from ..records import StoredEvent, decode_payload, event_schema

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

    __slots__ = ("first", "fields", "hashes", "made")

    def __init__(self, first: int, fields: list[bytes], hashes: bytes, made: Callable[[int], StoredEvent]):
        self.first, self.fields, self.hashes, self.made = first, fields, hashes, made

    @property
    def count(self) -> int:
        return len(self.fields) // 3

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
    hashes: list[bytes]
    fields: list[bytes]
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
    """What :class:`Records` views: one read's rows, in parts (a part: consecutive lean chunks, or records made
    from older rows), and, once the read is closed, their records as segments."""

    __slots__ = ("decoding", "since", "previous", "parts", "segments", "firsts", "end", "sound")

    def __init__(self, decoding: Decoding, since: int, previous: str):
        self.decoding, self.since, self.previous = decoding, since, previous
        #: each part's first number and what it holds: ``(leans, odd)`` (lean chunks read whole, but for those
        #: of ``odd``: their index -> ``(skip, take, stamp)``) or ``(None, records)``, with, once closed, its
        #: rows' first numbers
        self.parts: list[list[Any]] = []
        self.segments: list[Segment] = []
        self.firsts: list[int] = []  # each part's first number (for bisect)
        self.end = since + 1  # the number after the last record taken
        self.sound: tuple[Any, Any] = (None, None)  # the last lean chunk's (ruleset, schema), checked

    def lean_part(self, first: int) -> tuple[list[Lean], dict[int, tuple[int, int, Any]]]:
        """A new part of lean chunks, numbered ``first`` on, after the parts so far: the list to add them to and
        their odd rows."""
        leans: list[Lean] = []
        odd: dict[int, tuple[int, int, Any]] = {}
        self.parts.append([first, leans, odd, None])
        return leans, odd

    def check(self, number: int, lean: Lean, skip: int) -> None:
        """A lean chunk's ruleset and schema, when not the last one's (``Decoding.row``)."""
        self.decoding.row(number, lean, skip)
        self.sound = (lean[0], lean[1])

    def close(self, end: int) -> None:
        """The records taken end before ``end``: each part's segment and rows' first numbers, made with a call or
        two a part (no step a row)."""
        self.end = end
        for part in self.parts:
            first, held, odd, _ = part
            self.firsts.append(first)
            if held is None:  # records made from older rows
                for segment in segments_of(odd, first - 1):
                    segment.made = self.made
                    self.segments.append(segment)
                part[3] = [first]
                continue
            if not odd:
                part[3] = list(accumulate(map(itemgetter(4), held), initial=first))
                fields = list(chain.from_iterable(map(_FIELDS, map(itemgetter(2), held))))
                hashes = b"".join(map(itemgetter(3), held))
            else:
                starts, fields, pieces, at = [], [], [], first
                for k, lean in enumerate(held):
                    skip, take, _ = odd.get(k, (0, lean[4], None))
                    starts.append(at)
                    at += take
                    fields += lean[2][2 + 3 * skip:2 + 3 * (skip + take)]
                    pieces.append(lean[3][32 * skip:32 * (skip + take)])
                starts.append(at)
                part[3], hashes = starts, b"".join(pieces)
            self.segments.append(Segment(first, fields, hashes, self.made))

    def _row(self, number: int) -> tuple[Any, int, Any]:
        """The row holding record ``number``: ``(lean, its index there, stamp)``, or ``(None, record, None)``."""
        first, held, odd, starts = self.parts[bisect_right(self.firsts, number) - 1]
        if held is None:
            return None, odd[number - first], None
        k = bisect_right(starts, number) - 1
        skip, _, stamp = odd.get(k, (0, 0, None))
        return held[k], skip + number - starts[k], stamp

    def made(self, number: int) -> StoredEvent:
        """The object of record ``number``, made as ``GameStore.events`` makes it."""
        lean, i, stamp = self._row(number)
        if lean is None:
            return i  # type: ignore[return-value]  # (None, record, None): the record itself
        out: list[StoredEvent] = []
        self.decoding.lean(number, lean, i, 1, self.hash_of(number - 1), stamp, False, out)
        return out[0]

    def hash_of(self, number: int) -> str:
        """The chain hash of record ``number`` (the one before the first read: ``previous``), hex."""
        if number <= self.since:
            return self.previous
        lean, i, _ = self._row(number)
        if lean is None:
            return i.hash  # type: ignore[attr-defined]  # (None, record, None): the record itself
        return lean[3][32 * i:32 * i + 32].hex()


#: a lean chunk's records' fields (after its ruleset and schema)
_FIELDS = itemgetter(slice(2, None))


class Records(Sequence[StoredEvent]):
    """A game's stored records ``since < number <= upto`` (``GameStore.events(..., lazy=True)``): a sequence of
    :class:`StoredEvent` made where asked, and :meth:`segments`, the same records as raw fields (a stored game
    of lean chunks: one segment).  A slice is a view of the same read.

    The reader builds it (``GameReader.stored``): each lean chunk added to a part's list as it is read (its
    ruleset and schema checked where they change), records made from older rows with :meth:`add_records`,
    then :meth:`close`."""

    __slots__ = ("read", "lo", "hi")

    def __init__(self, decoding: Decoding, since: int, previous: str):
        self.read = _Read(decoding, since, previous)
        self.lo = self.hi = since + 1  # the view: numbers lo <= n < hi

    def add_records(self, records: list[StoredEvent]) -> None:
        """Take records already made (the rows before lean chunks), numbered on from the last taken."""
        self.read.parts.append([records[0].number, None, records, None])

    def close(self, end: int) -> "Records":
        """The read's records end before ``end``."""
        self.read.close(end)
        self.hi = end
        return self

    # -------------------------------------------------------- reading
    def segments(self) -> list[Segment]:
        """The view's records as segments, in order (the first and last cut where the view starts and ends)."""
        lo, hi = self.lo, self.hi
        return [s.cut(lo, hi) for s in self.read.segments if s.first < hi and s.first + s.count > lo]

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


class _Rows(Sequence[Lean]):
    """The lean chunks :func:`lean_rows` read, each made as a :class:`Lean` where asked (a record made)."""

    __slots__ = ("fields", "hashes", "counts", "starts", "heads")

    def __init__(self, fields: list[list[bytes]], hashes: bytes, counts: list[int], starts: list[int],
                 heads: list[tuple[str, int]]):
        self.fields, self.hashes, self.counts, self.starts, self.heads = fields, hashes, counts, starts, heads

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, k: Any) -> Any:
        at, count = self.starts[k] - self.starts[0], self.counts[k]
        ruleset, schema = self.heads[k]
        return tuple.__new__(Lean, (ruleset, schema, self.fields[k], self.hashes[32 * at:32 * (at + count)], count))


_MARK, _COUNT, _STAMP = itemgetter(slice(0, 1)), itemgetter(1), itemgetter(slice(2, _HEAD))


def lean_rows(decoding: Decoding, rows: Sequence[Any], since: int, previous: str, topics: Any) -> "Records | None":
    """The records of ``rows`` (``(version, topic, state)`` each, in order: a game's rows after record ``since``,
    to its end) when every row is a whole lean chunk (mark 7) of a record topic (``topics``), numbered on from
    ``since + 1`` without a gap or an overlap, that unpacks as :func:`chunks.unpack_lean` unpacks one (its stamp
    checked to read): all of them read at once, each step a call over every row (``map``), none a step a row
    (``trv verify`` of the bench's game: 653 rows, a turn each).  None when any row is not such a chunk: the
    reader's row-by-row path then reads them and names what is wrong.  Each chunk's ruleset and schema are
    checked as that path checks them (``Decoding.row``), at the first chunk of each."""
    n = len(rows)
    if not n:
        return None
    datas = list(map(itemgetter(2), rows))
    if set(map(type, datas)) != {bytes} or not set(map(itemgetter(1), rows)) <= topics \
            or set(map(_MARK, datas)) != {MARK_7}:
        return None
    counts = list(map(_COUNT, datas))
    starts = list(accumulate(counts, initial=since + 1))
    # a row is stored under its last record's version (the record's number + 1): ``starts[k + 1]``
    if 0 in counts or list(map(itemgetter(0), rows)) != starts[1:] or max(map(_STAMP, datas)) > LAST_STAMP:
        return None
    ends = list(map(add, map(mul, counts, repeat(32)), repeat(_HEAD)))
    if not all(map(gt, map(len, datas), ends)):
        return None
    try:  # an inflater a row, each dropped when done (600 of them kept at once took 7x the time: 10 MB of state)
        bodies = list(map(inflate_lean, map(getitem, datas, map(slice, ends, repeat(None)))))  # type: ignore[arg-type]  # typeshed's getitem slices any Sequence to a Sequence: here bytes to bytes
    except zlib.error:
        return None
    fields = list(map(methodcaller("split", SEP), bodies))
    if list(map(len, fields)) != list(map(add, map(mul, counts, repeat(3)), repeat(2))):
        return None
    raw_heads = list(zip(map(itemgetter(0), fields), map(itemgetter(1), fields)))
    known: dict[tuple[bytes, bytes], tuple[str, int]] = {}
    for raw in sorted(set(raw_heads), key=raw_heads.index):  # each (ruleset, schema), in the order first met
        try:
            known[raw] = lean_head(*raw)
        except ValueError:
            return None
    heads = list(map(known.__getitem__, raw_heads))
    hashes = b"".join(map(getitem, datas, map(slice, repeat(_HEAD), ends)))
    leans = _Rows(fields, hashes, counts, starts, heads)
    for raw in known:
        k = raw_heads.index(raw)
        decoding.row(starts[k], leans[k], 0)
    records = Records(decoding, since, previous)
    read = records.read
    read.parts.append([since + 1, leans, {}, starts])
    read.segments.append(Segment(since + 1, list(chain.from_iterable(map(_FIELDS, fields))), hashes, read.made))
    read.firsts.append(since + 1)
    read.end = records.hi = starts[-1]
    return records
