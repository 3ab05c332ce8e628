"""Chunks: the records of one save packed together in one row (mark 6; marks 4 and 5 before).

Packing each record alone (``packing``: deflated against dictionary 1) costs
about 10 us a record, most of it starting a deflater primed with 32 KiB of
dictionary, whatever the record's size: three quarters of what storing a
simulated game costs (``trv sim --store``).  So a
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
and inserting them was a fifth of ``trv sim --store``'s time.  So a chunk
then became **one row** (``MARK_6``), laid out as a
mark-4 row, stored under the version of its **last** record: the row at
version ``v`` holding ``k`` records holds records ``v - k + 1`` to ``v``
(versions are record numbers plus one, the ``Created`` record's being 1).  The
greatest version is still the game's count; a range read (``reader``) skips
the records of its first row before the range and reads one row past its
end when the row holding its last record lies beyond it.  Every save of
:data:`ROW_MIN` or more records is chunked, so a turn's few records are one
row and one deflate, not one each; a save of one record packed it alone
(``packing``) until mark 7.  Rows of marks 4 and 5 are no longer written and read as they
always did.  A stale append is refused by the games index row, which the
save checks and advances in its own transaction (``GameStore._save``): two
appends after the same event may store rows under different versions.

A chunk written now is **lean** (``MARK_7``), and
every save is one (a turn of one event too; mark 3 packed those alone): the
mark, the count, the stamp and the hashes as in mark 6, then the records'
fields framed as raw bytes instead of a JSON list, deflated against
dictionary 2 (``zdict2``, 8 KiB, a 13-bit window): ``ruleset 0x01 schema``,
then for each record ``0x01 payload 0x01 action 0x01 sig`` (its kind is the
one its payload opens with, ``{"type":"KIND"``).
Canonical JSON never holds a raw control byte, nor does a signature (a seat
name and base64), so one ``split`` gives every field; a save whose fields
hold one anyway is stored as mark 6.  Reading a turn's row costs about half
of mark 6's (no JSON to decode, no string to encode again, a quarter of the
dictionary to prime the inflater with), and deflating it a third.  A chunk
holds records of one ruleset and schema (a save that mixes them makes one
row for each run).

Only ``reader.GameReader`` reads chunks: the library's mapper cannot
(``packing.unpack`` refuses them in one line).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import zlib
from datetime import datetime

import msgspec

from .packing import deflate, inflate, primed_deflater, stamp_of
from .zdict2 import DICTIONARY_2

#: the first byte of a chunk's first row, and of its other rows (read, no longer written)
MARK_4, MARK_5 = b"\x04", b"\x05"
#: the first byte of a chunk stored as one row, under its last record's version
MARK_6 = b"\x06"
#: the first byte of a lean chunk (one row, its fields framed raw, dictionary 2): every save writes one
MARK_7 = b"\x07"
#: what separates a lean chunk's fields
SEP = b"\x01"
#: a save of fewer records than this packs each record alone (marks 4 and 5: 8; mark 6: 2; mark 7: every save
#: is a chunk, the one record of a turn too)
ROW_MIN = 1
#: the most records in one chunk (a range read may start up to this many rows after its chunk's first)
CHUNK_MAX = 32
_HEAD = 10  # mark, count, stamp
_HEADS = (MARK_4, MARK_6)
#: the marks of a chunk stored as one row (under its last record's version)
ONE_ROW = (MARK_6, MARK_7)
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


# A lean chunk is deflated at level 6 with memory level 4 and a 13-bit window, primed with dictionary 2 (8 KiB):
# on the store bench's turn-by-turn game 32.5 bytes a row of deflated fields against mark 6's 49, the primed
# deflater copied for each row a sixth of mark 6's (3.8 against 12.7 us a turn), inflating 0.66 against 1.2 us.
# A longer body (a save of many records: a game stored whole, ``trv sim --store``, about 3 kB a chunk of 32) is
# deflated at level 3: 10.0 against 24.4 us a chunk, 1.3 bytes a record more.
_WINDOW_2 = 13
_primed_2: list = [None, None]  # the primed deflaters, a turn's body and a longer one


def pack_lean(stamp: bytes, hashes: list[str], ruleset: str, schema: int, fields: list[bytes]) -> bytes | None:
    """A lean chunk (``MARK_7``), stored under its last record's version; None when a field holds the separator
    (store the chunk as mark 6 then).

    ``stamp`` and ``hashes`` as :func:`pack_row` takes them; ``fields``: the payload, action and signature of
    each record in turn, as bytes (empty when none).  Each payload starts ``{"type":"KIND"``: its kind."""
    return lean_row(stamp, [bytes.fromhex(h) for h in hashes], ruleset, schema, fields)


def lean_row(stamp: bytes, digests: list[bytes], ruleset: str, schema: int, fields: list[bytes]) -> bytes | None:
    """:func:`pack_lean` given the records' chain hashes as their 32 raw bytes each (``writing.Batch``'s)."""
    count = len(digests)
    if not 1 <= count <= CHUNK_MAX or len(fields) != 3 * count or len(stamp) != 8:
        raise ValueError(f"a chunk holds 1 to {CHUNK_MAX} records, each with its hash and three fields, "
                         "and one 8-byte stamp")
    name = ruleset.encode()
    if SEP in name or SEP in b"".join(fields):  # a search as fast as a copy: counting SEP in the body was 3x that
        return None
    body = SEP.join((name, b"%d" % schema, *fields))
    return b"".join((MARK_7, bytes([count]), stamp, *digests, deflate_lean(body)))


def deflate_lean(body: bytes) -> bytes:
    """A lean chunk's fields, framed, deflated against dictionary 2."""
    long = len(body) > _SHORT
    primed = _primed_2[long]
    if primed is None:
        primed = _primed_2[long] = zlib.compressobj(3 if long else 6, zlib.DEFLATED, -_WINDOW_2, 4,
                                                    zlib.Z_DEFAULT_STRATEGY, DICTIONARY_2)
    deflater = primed.copy()
    return deflater.compress(body) + deflater.flush()


def inflate_lean(data: bytes | memoryview) -> bytes:
    """What :func:`deflate_lean` deflated (zlib.error when it is damaged, cut off or followed by other bytes)."""
    inflater = zlib.decompressobj(-_WINDOW_2, DICTIONARY_2)
    body = inflater.decompress(data)
    if not inflater.eof or inflater.unused_data:
        raise zlib.error("a chunk whose fields are cut off or followed by other bytes")
    return body


#: how a record's payload starts: its kind follows, up to the next quote
OPENING = b'{"type":"'


def opening_of(kind: str) -> bytes:
    """How a payload of ``kind`` opens: ``{"type":"KIND"`` (the reader's check of a record's kind, and what a
    lean chunk keeps of it)."""
    return OPENING + kind.encode() + b'"'


def kind_of(payload: bytes) -> bytes:
    """The kind a payload opens with (ValueError when it names none)."""
    if not payload.startswith(OPENING):
        raise ValueError("a payload that does not open with its kind")
    return payload[9:payload.index(b'"', 9)]


class Lean(tuple):
    """A lean chunk read (:func:`unpack_lean`), a tuple ``(ruleset, schema, fields, hashes, count)``: its ruleset
    and schema, ``fields`` as :func:`pack_lean` took them after ruleset and schema (``fields[2 + 3 * i]`` is record
    ``i``'s payload), ``hashes`` the records' chain hashes, 32 bytes each, one after another, and ``count``."""

    __slots__ = ()

    def entries(self) -> list[Entry]:
        """The records as :class:`Entry` (text fields, hash set): what a mark-6 chunk reads as (ValueError when
        a payload names no kind)."""
        ruleset, schema, f, hashes, count = self
        hexes = hashes.hex()
        return [Entry(ruleset, schema, kind_of(f[j]).decode(), f[j].decode(), f[j + 1].decode(), f[j + 2].decode(),
                      hexes[64 * i:64 * i + 64])
                for i, j in enumerate(range(2, 2 + 3 * count, 3))]


#: a lean chunk's schema and ruleset as text, by their bytes (a read of a game meets the same few hundreds of times)
_SCHEMAS: dict[bytes, int] = {}
_RULESETS: dict[bytes, str] = {}


def unpack_lean(data: bytes, stamped: bool = True) -> tuple[Lean, datetime | None]:
    """A lean chunk's records and their stamp (None unless ``stamped``: the stamp's 8 bytes are then only
    checked to read as one); zlib.error or ValueError when damaged.  About 2 us a turn's row, the stamp 0.8
    more."""
    if type(data) is not bytes:
        data = bytes(data)
    count = data[1] if data[:1] == MARK_7 and len(data) > _HEAD else 0
    end = _HEAD + 32 * count
    if not count or len(data) <= end:
        raise zlib.error(f"a chunk of {count} records cut off in its hashes")
    fields = inflate_lean(data[end:]).split(SEP)
    if len(fields) != 3 * count + 2:
        raise zlib.error(f"a chunk of {count} records holds {len(fields) - 2} fields, not {3 * count} (three a record)")
    ruleset, schema = lean_head(fields[0], fields[1])
    if data[2:_HEAD] > LAST_STAMP:
        raise ValueError("a chunk's stamp is past the year 9999")
    lean = tuple.__new__(Lean, (ruleset, schema, fields, data[_HEAD:end], count))
    return lean, stamp_of(data[2:_HEAD]) if stamped else None


#: the greatest stamp a chunk can hold that reads back (``packing.stamp_of``): 9999-12-31 23:59:59.999999 UTC, as
#: its 8 bytes (big-endian: compared as bytes, the stamps compare as numbers)
LAST_STAMP = (253_402_300_799_999_999).to_bytes(8, "big")


def lean_head(ruleset: bytes, schema: bytes) -> tuple[str, int]:
    """A lean chunk's ruleset and schema as text and number (ValueError when the schema is not a number)."""
    found_schema, found_ruleset = _SCHEMAS.get(schema), _RULESETS.get(ruleset)
    if found_schema is None:
        found_schema = int(schema)
        if schema != b"%d" % found_schema:
            raise ValueError(f"a chunk's schema {schema!r} is not a number")
        if len(_SCHEMAS) < 64:
            _SCHEMAS[schema] = found_schema
    if found_ruleset is None:
        found_ruleset = ruleset.decode()
        if len(_RULESETS) < 64:  # a store's few rulesets (a damaged one's odd names are not kept)
            _RULESETS[ruleset] = found_ruleset
    return found_ruleset, found_schema
