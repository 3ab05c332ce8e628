"""Packed records: each stored record deflated against a preset dictionary.

eventsourcing stores a record as its JSON (field names, the ``timestamp``
wrapper, the payload's JSON escaped inside a string, a hex hash): about 360
bytes for a typical 80-byte engine event.  Since 30 Nov 2026 the store gives
the library a compressor (its public ``COMPRESSOR_TOPIC`` setting, class
``store.Packer``) that deflates each record against a fixed 32 KiB dictionary
of typical records (``zdict1.py``): about 100 bytes, the same JSON once
inflated.  Records stored before are plain JSON and stay as they are: a
packed record starts with a mark byte, a plain one with ``{``, and
:func:`unpack` reads them all.  Snapshots are packed the same way.

Deflate codes a hash's 64 hex digits in about 58 bytes, for 32 bytes of
information: more than half a packed record.  So (mark 2, every record packed
since the evening of 30 Nov 2026) each run of 64 lowercase hex digits is cut
out as its 32 bytes before deflating, leaving the byte ``\\x01`` in its
place, which JSON text never holds raw: the record is ``MARK_2``, the number
of hashes cut (one byte), their bytes in order, then the rest deflated
against dictionary 1.  :func:`unpack` puts them back, the same JSON byte for
byte.  Records packed with mark 1 (the whole JSON deflated) read as before.

Light (``re``, ``zlib`` and the dictionary only): ``trv show`` reads records
with it.
"""

from __future__ import annotations

import re
import zlib

from .zdict1 import DICTIONARY_1

#: the first byte of a record packed whole with dictionary 1 (plain JSON starts with "{")
MARK_1 = b"\x01"
#: the first byte of a record packed with dictionary 1, its hashes cut out
MARK_2 = b"\x02"
_LEVEL, _MEM_LEVEL = 6, 8  # level 9 saves 2 bytes a record for 2.5x the time
_primed: zlib._Compress | None = None  # type: ignore[name-defined]
_PLACE = b"\x01"  # where a hash was; a control byte is always escaped in JSON text
_HASH = re.compile(rb"[0-9a-f]{64}")
_MAX_CUT = 255


def _deflate(data: bytes) -> bytes:
    global _primed
    if _primed is None:  # priming with the dictionary costs more than a record: copy a primed one
        _primed = zlib.compressobj(_LEVEL, zlib.DEFLATED, -15, _MEM_LEVEL, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_1)
    deflate = _primed.copy()
    return deflate.compress(data) + deflate.flush()


def _inflate(data: memoryview) -> bytes:
    # no flush(): decompress() gives all the output there is (flush() only ever returned b"" after it)
    return zlib.decompressobj(-15, DICTIONARY_1).decompress(data)


def pack(data: bytes) -> bytes:
    """``data`` with its hashes cut out, deflated against dictionary 1, after the mark."""
    hashes = _HASH.findall(data, 0, len(data))[:_MAX_CUT]
    if not hashes or _PLACE in data:
        return MARK_1 + _deflate(data)
    rest = _HASH.sub(_PLACE, data, count=len(hashes))
    return MARK_2 + bytes([len(hashes)]) + bytes.fromhex(b"".join(hashes).decode()) + _deflate(rest)


def unpack(data: bytes) -> bytes:
    """The record's JSON, whether it was stored packed (either mark) or plain."""
    mark = data[:1]
    if mark == MARK_1:
        return _inflate(memoryview(data)[1:])
    if mark != MARK_2:
        return bytes(data)
    count = data[1]
    end = 2 + 32 * count
    text = _inflate(memoryview(data)[end:])
    places = text.count(_PLACE)
    if places != count:
        raise zlib.error(f"a record with {count} hashes cut out has {places} places for them")
    if count == 1:  # nearly every record: its chain hash
        return text.replace(_PLACE, data[2:end].hex().encode(), 1)
    pieces = text.split(_PLACE)
    hexes = data[2:end].hex().encode()
    out = [pieces[0]]
    for i in range(count):
        out.append(hexes[64 * i:64 * i + 64])
        out.append(pieces[i + 1])
    return b"".join(out)
