"""Packed records: each stored record deflated against a preset dictionary.

eventsourcing stores a record as its JSON (field names, the ``timestamp``
wrapper, the payload's JSON escaped inside a string, a hex hash): about 360
bytes for a typical 80-byte engine event.  The store gives
the library a compressor (its public ``COMPRESSOR_TOPIC`` setting, class
``store.Packer``) that deflates each record against a fixed 32 KiB dictionary
of typical records (``zdict1.py``): about 100 bytes, the same JSON once
inflated.  Records stored plain stay as they are: a
packed record starts with a mark byte, a plain one with ``{``, and
:func:`unpack` reads them all.  Snapshots are packed the same way.

Deflate codes a hash's 64 hex digits in about 58 bytes, for 32 bytes of
information: more than half a packed record.  So (mark 2) each run of 64 lowercase hex digits is cut
out as its 32 bytes before deflating, leaving the byte ``\\x01`` in its
place, which JSON text never holds raw: the record is ``MARK_2``, the number
of hashes cut (one byte), their bytes in order, then the rest deflated
against dictionary 1.  :func:`unpack` puts them back, the same JSON byte for
byte.  Records packed with mark 1 (the whole JSON deflated) read as before.

A save of several records packs them together instead (marks 4 to 7:
``chunks``);
:func:`unpack` refuses those rows, which only ``reader`` reads.

Light (``re``, ``zlib`` and the dictionary only): ``trv show`` reads records
with it.
"""

from __future__ import annotations

import re
import zlib
from datetime import datetime, timedelta, timezone

from .zdict1 import DICTIONARY_1

#: the first byte of a record packed whole with dictionary 1 (plain JSON starts with "{")
MARK_1 = b"\x01"
#: the first byte of a record packed with dictionary 1, its hashes cut out
MARK_2 = b"\x02"
#: the first byte of a record packed with dictionary 1, its hashes and time stamps cut out
MARK_3 = b"\x03"
# level 9 saves 2 bytes a record for 2.5x the time.  Memory level 4 (against 8) costs a record 0.2
# bytes and halves the primed deflater's state copied for every record (4.5 of 18 us); a snapshot (2-3 kB of
# JSON, one in 100 records) it would cost 15-20 bytes, so anything longer than _LONG keeps level 8.
# Inflating is the same whatever the memory level.
# A short record's deflater sees only the last 16 KiB of the dictionary (a
# window of 14 bits instead of 15): its state, copied for every record, is half the size (a turn's deflate 16.7 ->
# 12.7 us) for 0.9 bytes a record.  Its output is read as any other: the inflater, primed with the whole dictionary,
# finds the same bytes at the same distances back.
_LEVEL, _MEM_LEVELS, _LONG = 6, (4, 8), 512
_WINDOWS = (14, 15)  # window bits, short and long
_primed: list = [None, None]  # the primed deflaters, short and long
_PLACE = b"\x01"  # where a hash was; a control byte is always escaped in JSON text
_HASH = re.compile(rb"[0-9a-f]{64}")
_MAX_CUT = 255
_HEX = b"0123456789abcdef"
_STAMP_PLACE = b"\x02"  # where a time stamp was
_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ZERO = timedelta(0)
_last_stamp: tuple[bytes, bytes] = (b"", b"")
_CHUNKED = (b"\x04", b"\x05", b"\x06", b"\x07")  # chunks.MARK_4 to MARK_7


def deflate(data: bytes) -> bytes:
    long = len(data) > _LONG
    primed = _primed[long]
    if primed is None:  # priming with the dictionary costs more than a record: copy a primed one
        primed = _primed[long] = primed_deflater(_LEVEL, _WINDOWS[long], _MEM_LEVELS[long])
    deflate = primed.copy()
    return deflate.compress(data) + deflate.flush()


def primed_deflater(level: int, window: int, memory: int) -> "zlib._Compress":
    """A raw deflater primed with dictionary 1, or with as much of its end as a window of ``window`` bits holds:
    what it writes is read by :func:`inflate` whatever the window."""
    zdict = DICTIONARY_1 if window == 15 else DICTIONARY_1[-(1 << window):]
    return zlib.compressobj(level, zlib.DEFLATED, -window, memory, zlib.Z_DEFAULT_STRATEGY, zdict)


def inflate(data: memoryview) -> bytes:
    # no flush(): decompress() gives all the output there is (flush() only ever returned b"" after it)
    return zlib.decompressobj(-15, DICTIONARY_1).decompress(data)


def pack(data: bytes) -> bytes:
    """``data`` with its hashes and time stamps cut out, deflated against
    dictionary 1, after the mark (mark 3; mark 2 when it holds no stamp that
    can be cut, mark 1 when it holds neither)."""
    if _PLACE in data or _STAMP_PLACE in data:
        return MARK_1 + deflate(data)
    at_hashes, at_stamps = _hashes_at(data), _stamps_at(data)
    hashes = [data[i:i + 64] for i in at_hashes]
    stamps = [data[i:i + 32] for i in at_stamps]
    cut = _stamps(stamps) if stamps and not _overlap(at_hashes, at_stamps) else None
    if cut is not None:
        rest = _cut_out(data, [(i, 64, _PLACE) for i in at_hashes] + [(i, 32, _STAMP_PLACE) for i in at_stamps])
        return b"".join((MARK_3, bytes([len(hashes)]), bytes.fromhex(b"".join(hashes).decode()),
                         bytes([len(stamps)]), cut, deflate(rest)))
    if not hashes:
        return MARK_1 + deflate(data)
    rest = _cut_out(data, [(i, 64, _PLACE) for i in at_hashes])
    return MARK_2 + bytes([len(hashes)]) + bytes.fromhex(b"".join(hashes).decode()) + deflate(rest)


# Where the hashes and stamps are, found as ``_HASH.findall`` and ``_STAMP.findall`` find them (leftmost, not
# overlapping, at most ``_MAX_CUT``) but at C speed: on a snapshot's 6 kB of JSON the regular expressions took
# 120 us, half of packing it.  A hash is a run of 64 hex digits in the text mapped to "x"
# for a hex digit; a stamp ends with "+00:00", the regular expression is only tried just before one.
_HEX_MASK = bytes(0x78 if c in b"0123456789abcdef" else 0x2E for c in range(256))
_RUN = b"x" * 64
_UTC = b"+00:00"


def _hashes_at(data: bytes) -> list[int]:
    mask = data.translate(_HEX_MASK)
    found: list[int] = []
    at = mask.find(_RUN)
    while at >= 0 and len(found) < _MAX_CUT:
        found.append(at)
        at = mask.find(_RUN, at + 64)
    return found


def _stamps_at(data: bytes) -> list[int]:
    found: list[int] = []
    at = data.find(_UTC, 26)
    while at >= 0 and len(found) < _MAX_CUT:
        if _STAMP.match(data, at - 26):
            found.append(at - 26)
        at = data.find(_UTC, at + 6)
    return found


def _overlap(at_hashes: list[int], at_stamps: list[int]) -> bool:
    """Does a stamp run into a hash (a stamp's last digits then 64 hex digits: never in a record, which closes
    a stamp with a quote)?  Its stamps then stay text: cut out with the hash, the record would not come
    back."""
    return any(s < h + 64 and h < s + 32 for h in at_hashes for s in at_stamps)


def _cut_out(data: bytes, spans: list[tuple[int, int, bytes]]) -> bytes:
    """``data`` with each span ``(start, length, place)`` (none overlapping) replaced by its place."""
    out: list[bytes] = []
    last = 0
    for start, length, place in sorted(spans):
        out += (data[last:start], place)
        last = start + length
    out.append(data[last:])
    return b"".join(out)


def utc_bytes(stamp: datetime) -> bytes | None:
    """A UTC stamp as 8 bytes (microseconds since 1970; :func:`stamp_of` reads
    them back), or None when it is not in UTC."""
    if stamp.utcoffset() != _ZERO:
        return None
    delta = stamp - _EPOCH
    return ((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds).to_bytes(8, "big")


def stamp_bytes(stamp: datetime) -> bytes | None:
    """A record's wall-clock stamp as mark 3 stores it (:func:`utc_bytes`), or
    None when its text is not the one form cut out (UTC, microseconds not 0:
    ``isoformat`` writes them)."""
    return None if stamp.microsecond == 0 else utc_bytes(stamp)


def _stamps(found: list[bytes]) -> bytes | None:
    """The stamps' 8 bytes each, or None when one of them would not come back
    as the same text (``_stamp_text``)."""
    out = []
    for text in found:
        try:
            cut = stamp_bytes(datetime.fromisoformat(text.decode()))
        except ValueError:
            return None
        if cut is None or _stamp_text(cut) != text:
            return None
        out.append(cut)
    return b"".join(out)


def _stamp_text(cut: bytes) -> bytes:
    global _last_stamp
    if _last_stamp[0] != cut:  # the records of one command share their stamp
        text = stamp_of(cut).isoformat().encode()
        _last_stamp = (cut, text)
    return _last_stamp[1]


def pack_record(before: bytes, hash_: str, after: bytes, *texts: bytes, stamp: bytes | None = None,
                cut_before: bytes = b"") -> bytes:
    """``pack(before + hash_ + after)``, byte for byte, for a record whose chain
    hash (64 hex digits) the writer placed between ``before`` and ``after``
    (JSON text, which holds no raw control byte): its place is known, so the
    regular expressions only look for other hashes and stamps in ``texts``, the
    parts of ``before`` and ``after`` that can hold one (the payload, the
    action and the signatures; ``writing.Batch``).  ``stamp``, the record's
    stamp as ``stamp_bytes`` gives it, and ``cut_before``, ``before`` with the
    stamp's text replaced by its place, give mark 3."""
    for text in texts:
        # a hash is 64 hex digits in a row: a text with fewer hex digits than that holds none (cheaper to count)
        if (len(text) - len(text.translate(None, _HEX)) >= 64 and _HASH.search(text) is not None) \
                or b"+00:00" in text:
            return pack(before + hash_.encode() + after)
    if stamp is None:
        return MARK_2 + b"\x01" + bytes.fromhex(hash_) + deflate(before + _PLACE + after)
    return MARK_3 + b"\x01" + bytes.fromhex(hash_) + b"\x01" + stamp + deflate(cut_before + _PLACE + after)


def unpack(data: bytes) -> bytes:
    """The record's JSON, whether it was stored packed (marks 1 to 3) or plain.

    A row of a chunk (marks 4 to 7, ``chunks``) holds no JSON of its own: refused."""
    mark = data[:1]
    if mark in _CHUNKED:
        raise zlib.error("a record packed in a chunk (marks 4 to 7) is read with its chunk (store.reader)")
    if mark == MARK_1:
        return inflate(memoryview(data)[1:])
    if mark == MARK_3:
        return _unpack_3(data)
    if mark != MARK_2:
        return bytes(data)
    count = data[1]
    end = 2 + 32 * count
    return _put_hashes(inflate(memoryview(data)[end:]), data[2:end], count)


def split_3(data: bytes) -> tuple[bytes, str, bytes] | None:
    """The usual mark-3 record (one chain hash, one stamp) as its JSON with
    both places left empty (``"hash":""``, ``"_data_":""``), its hash's hex and
    its stamp's 8 bytes: what a reader needs, without writing the hash and the
    stamp back as text to parse them again (``reader``; about 1 us a record).
    None for any other record (read it with :func:`unpack`)."""
    if data[:1] != MARK_3 or len(data) <= 43 or data[1] != 1 or data[34] != 1:
        return None
    text = inflate(memoryview(data)[43:])
    if text.count(_STAMP_PLACE) != 1 or text.count(_PLACE) != 1:
        return None
    return text.replace(_STAMP_PLACE, b"", 1).replace(_PLACE, b"", 1), data[2:34].hex(), data[35:43]


def stamp_of(cut: bytes) -> datetime:
    """A stamp mark 3 cut out (8 bytes), as the ``datetime`` its text reads as (days, seconds and
    microseconds given apart: ``timedelta(microseconds=...)`` normalising them took a third longer, and a
    read of a game makes one for every row)."""
    days, rest = divmod(int.from_bytes(cut, "big"), 86_400_000_000)
    seconds, micros = divmod(rest, 1_000_000)
    return _EPOCH + timedelta(days, seconds, micros)


def _unpack_3(data: bytes) -> bytes:
    if len(data) > 43 and data[1] == 1 and data[34] == 1:  # nearly every record: its chain hash and its stamp
        text = inflate(memoryview(data)[43:])
        if text.count(_STAMP_PLACE) == 1 and text.count(_PLACE) == 1:
            return text.replace(_STAMP_PLACE, _stamp_text(data[35:43]), 1).replace(_PLACE, data[2:34].hex().encode(), 1)
    count = data[1] if len(data) > 1 else 0
    end = 2 + 32 * count
    if len(data) <= end:
        raise zlib.error("a record cut off in its hashes")
    stamps = data[end]
    start, end_stamps = end + 1, end + 1 + 8 * stamps
    if len(data) < end_stamps:
        raise zlib.error("a record cut off in its stamps")
    text = inflate(memoryview(data)[end_stamps:])
    places = text.count(_STAMP_PLACE)
    if places != stamps:
        raise zlib.error(f"a record with {stamps} stamps cut out has {places} places for them")
    if stamps == 1:  # nearly every record: its own stamp
        text = text.replace(_STAMP_PLACE, _stamp_text(data[start:end_stamps]), 1)
    elif stamps:
        pieces = text.split(_STAMP_PLACE)
        out = [pieces[0]]
        for i in range(stamps):
            out.append(_stamp_text(data[start + 8 * i:start + 8 * i + 8]))
            out.append(pieces[i + 1])
        text = b"".join(out)
    return _put_hashes(text, data[2:end], count)


def _put_hashes(text: bytes, cut: bytes, count: int) -> bytes:
    """``text`` with its ``count`` hashes (``cut``, 32 bytes each) put back in their places."""
    places = text.count(_PLACE)
    if places != count:
        raise zlib.error(f"a record with {count} hashes cut out has {places} places for them")
    if count <= 1:  # nearly every record: its chain hash
        return text.replace(_PLACE, cut.hex().encode(), 1) if count else text
    pieces = text.split(_PLACE)
    hexes = cut.hex().encode()
    out = [pieces[0]]
    for i in range(count):
        out.append(hexes[64 * i:64 * i + 64])
        out.append(pieces[i + 1])
    return b"".join(out)
