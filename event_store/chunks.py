"""Chunks: the records of one save packed together in one row (mark 6; marks 4 and 5 before).

Packing each record alone (``packing``: deflated against dictionary 1) costs
about 10 us a record, most of it starting a deflater primed with 32 KiB of
dictionary, whatever the record's size: three quarters of what storing a
simulated game costs (``trv sim --store``, issue 16).  So since 1 Dec 2026 a
save of at least 8 records (a game stored whole, an import, a
fork, a copy) packs them in chunks of up to :data:`CHUNK_MAX` consecutive
records sharing one wall-clock stamp, each chunk deflated once:

- the chunk's first row (``MARK_4``): the number of records ``k`` (one byte),
  their stamp (8 bytes: microseconds since 1970, UTC, as mark 3 stores one),
  their chain hashes (``k`` x 32 bytes), then their fields deflated against
  dictionary 1: a JSON list of ``{"ruleset", "schema", "kind", "payload",
  "action", "sig"}`` objects (``action`` and ``sig`` left out when empty), the
  fields a record's library JSON holds (``writing``), in its order;
- each other row of the chunk (``MARK_5``): how many rows back its chunk
  starts (one byte), nothing else: its record is read from there.

Every record kept its own row: a game stored whole still wrote about 450 rows,
and inserting them was a fifth of ``trv sim --store``'s time.  So since the
second 1 Dec 2026 session a chunk is **one row** (``MARK_6``), laid out as a
mark-4 row, stored under the version of its **last** record: the row at
version ``v`` holding ``k`` records holds records ``v - k + 1`` to ``v``
(versions are record numbers plus one, the ``Created`` record's being 1).  The
greatest version is still the game's count; a range read (``reader``) skips
the records of its first row before the range and reads one row past its
end when the row holding its last record lies beyond it.  Every save of
:data:`ROW_MIN` or more records is chunked, so a turn's few records are one
row and one deflate, not one each; a save of one record packs it alone
(``packing``).  Rows of marks 4 and 5 are no longer written and read as they
always did.  A stale append is refused by the games index row, which the
save checks and advances in its own transaction (``GameStore._save``): two
appends after the same event may store rows under different versions.

Only ``reader.GameReader`` reads chunks: the library's mapper cannot
(``packing.unpack`` refuses them in one line).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import zlib
from datetime import datetime

import msgspec

from .packing import deflate, inflate, primed_deflater, stamp_of

#: the first byte of a chunk's first row, and of its other rows (until the second 1 Dec 2026 session)
MARK_4, MARK_5 = b"\x04", b"\x05"
#: the first byte of a chunk stored as one row, under its last record's version
MARK_6 = b"\x06"
#: a save of fewer records than this packs each record alone (marks 4 and 5: 8)
ROW_MIN = 2
#: the most records in one chunk (a range read may start up to this many rows after its chunk's first)
CHUNK_MAX = 32
_HEAD = 10  # mark, count, stamp
_HEADS = (MARK_4, MARK_6)
#: the state of the row ``back`` rows after its chunk's first
MEMBERS = [MARK_5 + bytes([back]) for back in range(CHUNK_MAX)]
# A chunk is deflated at level 3: on stored random games, 18.5 bytes an event against level 6's 15.4, for half
# the time (about 1.1 against 2.3 us an event); its records repeat each other, which any level finds.  A short
# chunk (a turn's few records, up to _SHORT bytes of JSON) is deflated as a record alone is (``packing``: level
# 6, memory level 4): its bytes are a turn's, and the smaller deflater is cheaper to copy.  A chunk up to _TURN
# bytes (a turn of several events, about 1 kB) at level 3 with memory level 4 and a 16 KiB window: the deflater
# copied for it is a quarter of the size (19.1 -> 14.9 us a turn, 4 bytes more a row); a longer one (a game
# stored whole: about 6 kB a chunk) gains nothing from the smaller state (58.7 against 63.4 us) and would lose
# 1.2 bytes an event, so it keeps the whole window and memory level 8.
_LEVEL, _SHORT, _TURN = 3, 512, 4096
_primed: list = [None, None]  # the deflaters primed with dictionary 1, for a turn's chunk and a longer one


def _deflate(data: bytes) -> bytes:
    if len(data) <= _SHORT:
        return deflate(data)
    long = len(data) > _TURN
    primed = _primed[long]
    if primed is None:
        primed = _primed[long] = primed_deflater(_LEVEL, 15, 8) if long else primed_deflater(_LEVEL, 14, 4)
    deflater = primed.copy()
    return deflater.compress(data) + deflater.flush()


class Entry(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One record of a chunk: its fields as stored; ``hash`` is set from the chunk's hashes when read."""

    ruleset: str
    schema: int
    kind: str
    payload: str
    action: str = ""
    sig: str = ""
    hash: str = ""


_encode = msgspec.json.Encoder().encode
_entries = msgspec.json.Decoder(list[Entry]).decode


def pack_row(stamp: bytes, hashes: list[str], entries: list[Entry]) -> bytes:
    """A chunk as one row (``MARK_6``), stored under its last record's version.

    ``stamp``: the records' stamp as ``packing.utc_bytes`` gives it; ``hashes``: their chain hashes."""
    return MARK_6 + _body(stamp, hashes, entries)


def pack_chunk(stamp: bytes, hashes: list[str], entries: list[Entry]) -> list[bytes]:
    """The states of a chunk's rows as marks 4 and 5 stored them (no longer written by the store: kept for the
    tests of stores written before), in order: the first holds the chunk, the others where it starts."""
    return [MARK_4 + _body(stamp, hashes, entries), *MEMBERS[1:len(entries)]]


def _body(stamp: bytes, hashes: list[str], entries: list[Entry]) -> bytes:
    if not 1 <= len(entries) <= CHUNK_MAX or len(hashes) != len(entries) or len(stamp) != 8:
        raise ValueError(f"a chunk holds 1 to {CHUNK_MAX} records, each with its hash, and one 8-byte stamp")
    return b"".join((bytes([len(entries)]), stamp, bytes.fromhex("".join(hashes)), _deflate(_encode(entries))))


def unpack_chunk(data: bytes) -> tuple[list[Entry], datetime]:
    """The records of a chunk's first row (mark 4) or of a chunk stored as one row (mark 6), hashes set, and
    their stamp (zlib.error or a msgspec error when damaged)."""
    data = bytes(data)
    if len(data) < _HEAD or data[:1] not in _HEADS:
        raise zlib.error("a chunk cut off before its hashes")
    count = data[1]
    end = _HEAD + 32 * count
    if not count or len(data) <= end:
        raise zlib.error(f"a chunk of {count} records cut off in its hashes")
    entries = _entries(inflate(memoryview(data)[end:]))
    if len(entries) != count:
        raise zlib.error(f"a chunk of {count} records holds {len(entries)}")
    hexes = data[_HEAD:end].hex()
    for j, entry in enumerate(entries):
        entry.hash = hexes[64 * j:64 * j + 64]
    return entries, stamp_of(data[2:_HEAD])


def back_of(data: bytes) -> int:
    """How many rows back a chunk's other row says its chunk starts (zlib.error when damaged)."""
    if len(data) != 2 or data[:1] != MARK_5 or not 0 < data[1] < CHUNK_MAX:
        raise zlib.error("a row of a chunk that does not say where its chunk starts")
    return data[1]
