"""Snapshot parts: big values many snapshots share, stored once by their hash.

A Vendetta state carries the game's components (about 7 kB of its 11 kB of
JSON), the same in every snapshot of the game and in every game of the same
components.  A ruleset names such top-level fields of its state
(``SHARED_STATE``); a snapshot (topic ``trv:s``) stores its
engine JSON without them and names each by its address (BLAKE2b-128 of its
canonical JSON, 32 hex digits), and each distinct value is stored once in the
snapshots table, as the row ``(address, 1)`` of topic ``trv:part`` (packed).
Loading splices them back (:func:`join`) after checking each against its
address.  Snapshots taken before (topic ``trvendetta:game:snapshot``) hold
the whole engine JSON and are read as they are.

A snapshot row read for its state alone (``GameReader.snapshots``: ``trv
verify``) leaves its time stamps out (:func:`unstamped`).

Light (msgspec, zlib and the standard library's own BLAKE2): ``trv show``
reads snapshots with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from .packing import _PLACE, _STAMP_PLACE, MARK_3, inflate, stamp_of, unpack

#: the topic of a stored part (its originator id is its address, its version 1)
PART_TOPIC = "trv:part"
_fields = msgspec.json.Decoder(dict[str, msgspec.Raw])
#: a stamp's place where a snapshot's stamps are (inside the engine's JSON, a string, a quote is escaped)
_STAMP_DATA = b'"_data_":"' + _STAMP_PLACE + b'"'
_NO_DATA = b'"_data_":""'



def address(data: bytes) -> str:
    """A part's address: BLAKE2b-128 of its bytes, in hex (also its row's id)."""
    try:
        from _blake2 import blake2b  # the builtin module: importing hashlib costs a few ms on `trv show`
    except ImportError:  # pragma: no cover  (an interpreter without it)
        from hashlib import blake2b
    return blake2b(data, digest_size=16).hexdigest()


def split(engine: bytes, names: Iterable[str]) -> tuple[bytes, dict[str, bytes]]:
    """``engine`` (a JSON object) without its top-level fields ``names``, and
    those fields' JSON (a field that is absent or null stays in place)."""
    names = tuple(names)
    if not names:
        return engine, {}
    fields = _fields.decode(engine)
    parts = {}
    for name in names:
        raw = fields.get(name)
        if raw is not None and bytes(raw) != b"null":
            parts[name] = bytes(fields.pop(name))
    if not parts:
        return engine, {}
    return msgspec.json.encode(fields), parts


#: a part's value, JSON and address, by the value's id (``split_state``: a game's components, the same object
#: in every state of the game)
_known: dict[int, tuple[object, bytes, str]] = {}


def split_state(encode: Callable[[Any], bytes], state: Any,
                names: Iterable[str]) -> tuple[bytes, dict[str, tuple[bytes, str]]]:
    """:func:`split` of ``encode(state)``, each part with its :func:`address`, the same bytes without encoding
    the parts in the state and decoding them out again: a msgspec struct (not array-like, no field renamed, none
    left out at its default, no ``__post_init__``) is encoded with its parts unset, and a part's JSON and address
    are kept while the state holds the same object (a game's components: its every snapshot encoded, decoded,
    encoded and hashed them again otherwise: 50 of a snapshot's 290 us)."""
    names = tuple(names)
    kind = type(state)
    config = getattr(kind, "__struct_config__", None)
    if (not names or config is None or config.array_like or config.omit_defaults or hasattr(kind, "__post_init__")
            or kind.__struct_encode_fields__ != kind.__struct_fields__
            or not all(name in kind.__struct_fields__ for name in names)):
        rest, found = split(encode(state), names)
        return rest, {name: (data, address(data)) for name, data in found.items()}
    parts: dict[str, tuple[bytes, str]] = {}
    for name in names:
        value = getattr(state, name)
        if value is None or value is msgspec.UNSET:
            continue  # left in place (null) or not in the JSON at all, as split leaves them
        known = _known.get(id(value))
        if known is None or known[0] is not value:
            if len(_known) >= 16:
                _known.clear()
            data = encode(value)
            known = _known[id(value)] = (value, data, address(data))
        parts[name] = (known[1], known[2])
    if not parts:
        return encode(state), {}
    return encode(msgspec.structs.replace(state, **dict.fromkeys(parts, msgspec.UNSET))), parts


def join(rest: bytes, parts: dict[str, bytes]) -> bytes:
    """The engine JSON again: ``rest`` with ``parts`` as its last fields (a
    decoder does not mind the order)."""
    if not parts:
        return rest
    body = b",".join(msgspec.json.encode(name) + b":" + data for name, data in parts.items())
    return rest[:-1] + (b"," if rest.strip() != b"{}" else b"") + body + b"}"


class PartMissing(ValueError):
    """A snapshot names a part that is not stored, or not what its address says."""


def checked(addr: str, data: bytes | None) -> bytes:
    """``data`` when it is the part ``addr`` names; else PartMissing."""
    if data is None:
        raise PartMissing(f"its part {addr} is not stored")
    if address(data) != addr:
        raise PartMissing(f"its part {addr} does not match its address")
    return data


def same_state(ruleset: object, state: object, claim: bytes) -> bool:
    """Whether the engine JSON ``claim`` (a snapshot's, parts joined) is
    ``state``: its canonical bytes (the shared fields are a state's last, as
    Vendetta's components are), else, decoded, the same state (an old
    snapshot that its ruleset upcasts on decoding)."""
    if ruleset.encode(state) == claim:  # type: ignore[attr-defined]
        return True
    return ruleset.decode_state(claim) == state  # type: ignore[attr-defined]


def unstamped(data: bytes) -> bytes:
    """A snapshot row's JSON as ``packing.unpack`` gives it, but for its time stamps, each left as "" (each
    still read as a time, which fails as ``unpack`` fails): the usual mark-3 row (its head's hash and three
    stamps cut out, each stamp's place a stamp's ``_data_``) without writing the stamps back as text to be
    parsed again (20 -> 12 us a row of the bench game; ``trv verify`` reads a dozen).  Any other row is
    ``unpack``'s, which says what is wrong with it."""
    if data[:1] == MARK_3 and len(data) > 34 and data[1] == 1:
        stamps = data[34]
        start = 35 + 8 * stamps
        if len(data) >= start:
            text = inflate(memoryview(data)[start:])
            # the places counted by what replacing them adds or takes (bytes.count of one byte is a slow loop)
            cut = text.replace(_STAMP_DATA, _NO_DATA)
            if len(text) - len(cut) == stamps and _STAMP_PLACE not in cut:
                whole = cut.replace(_PLACE, data[2:34].hex().encode())
                if len(whole) - len(cut) == 63:  # one place for the hash
                    for at in range(35, start, 8):
                        stamp_of(data[at:at + 8])
                    return whole
    return unpack(data)
