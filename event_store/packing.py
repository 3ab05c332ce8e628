"""Packed records: each stored record deflated against a preset dictionary.

eventsourcing stores a record as its JSON (field names, the ``timestamp``
wrapper, the payload's JSON escaped inside a string, a hex hash): about 360
bytes for a typical 80-byte engine event.  Since 30 Nov 2026 the store gives
the library a compressor (its public ``COMPRESSOR_TOPIC`` setting, class
``store.Packer``) that deflates each record against a fixed 32 KiB dictionary
of typical records (``zdict1.py``): about 90 bytes, the same JSON once
inflated.  Records stored before are plain JSON and stay as they are: a
packed record starts with the byte ``MARK_1``, a plain one with ``{``, and
:func:`unpack` reads both.  Snapshots are packed the same way.

Light (``zlib`` and the dictionary only): ``trv show`` reads records with it.
"""

from __future__ import annotations

import zlib

from .zdict1 import DICTIONARY_1

#: the first byte of a record packed with dictionary 1 (plain JSON starts with "{")
MARK_1 = b"\x01"
_LEVEL, _MEM_LEVEL = 6, 8  # level 9 saves 2 bytes a record for 2.5x the time
_primed: zlib._Compress | None = None  # type: ignore[name-defined]


def pack(data: bytes) -> bytes:
    """``data`` deflated against dictionary 1, after the mark."""
    global _primed
    if _primed is None:  # priming with the dictionary costs more than a record: copy a primed one
        _primed = zlib.compressobj(_LEVEL, zlib.DEFLATED, -15, _MEM_LEVEL, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_1)
    deflate = _primed.copy()
    return MARK_1 + deflate.compress(data) + deflate.flush()


def unpack(data: bytes) -> bytes:
    """The record's JSON, whether it was stored packed or plain."""
    if data[:1] == MARK_1:
        inflate = zlib.decompressobj(-15, DICTIONARY_1)
        return inflate.decompress(memoryview(data)[1:]) + inflate.flush()
    return bytes(data)
