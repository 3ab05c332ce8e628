"""The light half of the event store: record formats, ids, the hash chain and
the result types, importable without eventsourcing (so a read-only ``trv show``
does not pay for it; see ``trvendetta.store.quick``)."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from datetime import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import msgspec

from trvendetta.core.fairplay import (  # noqa: F401  (re-exported: the store's API names them)
    CLAIM_KIND, HOST_REVEAL_KIND, INTENT_KIND, OUTCOME_KINDS, RESIGN_KIND, REVEAL_KIND, REVOKE_KIND, Charter,
    Claim, HostReveal, Intent, Resign, Reveal, Revoke, _decoder, charter_dice, decode_charter, decode_draw,
    decode_outcome, decode_revoke, describe_store_record, encode_charter, encode_draw)

from .errors import SchemaError

#: the store schema of the games written now (docs/store.md); from ``BOTS_CHAINED`` on, a game's chain
#: starts from its bot seats too (:func:`genesis`)
STORE_SCHEMA = 2
BOTS_CHAINED = 2
#: the hash "before" event 1
GENESIS = "0" * 64
if TYPE_CHECKING:
    from uuid import UUID

#: uuid5(NAMESPACE_URL, "https://trvendetta/games/"), the namespace of game ids (tests check it)
_NAMESPACE_BYTES = bytes.fromhex("418f6096eb4b595c93feaa8ef91c2220")


def game_key(game: str) -> str:
    """``game_uuid(game).hex`` without uuid or hashlib (``trv show``'s path imports neither): CPython's SHA-1."""
    try:
        from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's private module: typeshed has no stub
    except ImportError:  # an interpreter built without it
        from hashlib import sha1
    digest = bytearray(sha1(_NAMESPACE_BYTES + game.encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    return digest.hex()


def game_uuid(game: str) -> "UUID":
    """The aggregate id of the game called ``game`` (names are unique per store)."""
    from uuid import UUID

    return UUID(game_key(game))


def chain(previous: str, payload: bytes, action: bytes = b"", sig: bytes = b"") -> str:
    """The hash chain link of one record, hex (docs/store.md, "The hash chain")."""
    return link(bytes.fromhex(previous), payload, action, sig).hex()


def link(previous: bytes, payload: bytes, action: bytes = b"", sig: bytes = b"", sha256: Any = None) -> bytes:
    """:func:`chain` on the hashes' bytes; ``sha256``: :func:`sha256_for`'s (the same hash), else OpenSSL's."""
    body = payload
    if sig:
        body = sig + b"\n" + body
    if action:
        body = action + b"\n" + body
    return (sha256 or _sha256)(previous + body).digest()


def _sha256(data: bytes) -> Any:
    """hashlib's sha256, imported on the first hash; it then takes this function's place."""
    global _sha256
    from hashlib import sha256 as _sha256

    return _sha256(data)


def sha256_for(rows: int) -> Any:
    """The sha256 for a read of ``rows`` rows: CPython's own up to 256 (0.9 us a record slower than OpenSSL's,
    whose ``import hashlib`` costs 2.8 ms, a twentieth of ``trv show``), else OpenSSL's (verify)."""
    if rows > 256:
        return _sha256
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # CPython 3.11 (3.12 on: _sha2); no stub
    except ImportError:
        from _sha2 import sha256  # type: ignore[import-not-found]  # as _sha256
    return sha256


def genesis(charter_text: str, bots_text: str = "") -> str:
    """The hash "before" event 1, committing to the charter and the bot seats (docs/store.md, "The
    hash chain"): a record whose Bots tag was changed no longer chains."""
    if not charter_text and not bots_text:
        return GENESIS
    from hashlib import sha256

    start = sha256(b"trvendetta charter 1\n" + charter_text.encode()).hexdigest() if charter_text else GENESIS
    if not bots_text:
        return start
    return sha256(b"trvendetta bots 1\n" + bytes.fromhex(start) + bots_text.encode()).hexdigest()


def game_genesis(charter_text: str, bots_text: str, store_schema: int) -> str:
    """A stored game's genesis: its bots are in it from store schema 2 on
    (a game stored before keeps its bot seats outside the chain)."""
    return genesis(charter_text, bots_text if store_schema >= BOTS_CHAINED else "")


#: the kind (and payload tag) of a retraction record, written by ``trv undo``
RETRACTION_KIND = "trv-retraction"


class Retraction(msgspec.Struct, frozen=True, tag_field="type", tag=RETRACTION_KIND, forbid_unknown_fields=True):
    """Events ``first..last`` (one action's) are taken back; they stay stored."""

    first: Annotated[int, msgspec.Meta(ge=1)]
    last: Annotated[int, msgspec.Meta(ge=1)]
    player: Annotated[str, msgspec.Meta(max_length=200)] | None
    agreed: bool = False


#: the kinds of record the store writes itself (not engine events)
STORE_KINDS = frozenset({"trv-retraction", INTENT_KIND, REVEAL_KIND, HOST_REVEAL_KIND, CLAIM_KIND, RESIGN_KIND,
                         REVOKE_KIND})


def encode_retraction(retraction: Retraction) -> bytes:
    return msgspec.json.encode(retraction)


def decode_retraction(payload: bytes) -> Retraction:
    return _decoder("retraction", Retraction).decode(payload)


def encode_bots(bots: "dict[str, str] | None") -> str:
    """The ``bots`` field of a ``Created`` record: canonical JSON, seats sorted."""
    return msgspec.json.encode(dict(sorted(bots.items()))).decode() if bots else ""


def decode_bots(text: str) -> dict[str, str]:
    return dict(msgspec.json.decode(text, type=dict[str, str])) if text else {}


def event_schema(ruleset: Any) -> int:
    """The payload schema version a ruleset writes (``event_schema``, default 1)."""
    return int(getattr(ruleset, "event_schema", 1))


def decode_payload(ruleset: Any, kind: str, schema: int, payload: bytes) -> Any:
    """Decode a stored record: one of the store's kinds, or an engine event (one of an older schema lifted
    by the ruleset's ``upcast_event(data: dict, schema: int) -> dict``)."""
    if kind == RETRACTION_KIND:
        return decode_retraction(payload)
    if kind in (INTENT_KIND, REVEAL_KIND, HOST_REVEAL_KIND):
        return decode_draw(payload)
    if kind in OUTCOME_KINDS:
        return decode_outcome(payload)
    if kind == REVOKE_KIND:
        return decode_revoke(payload)
    current = event_schema(ruleset)
    if schema == current:
        return ruleset.decode_event(payload)
    upcast = getattr(ruleset, "upcast_event", None)
    if schema > current or upcast is None:
        raise SchemaError(
            f"{kind} event stored with schema {schema}; ruleset {ruleset.name!r} reads schema {current}"
        )
    data = msgspec.json.decode(payload)
    data = upcast(data, schema)
    return ruleset.decode_event(msgspec.json.encode(data))


#: snapshot every this many records (engine state only: a few kB; a page of the file each)
SNAPSHOT_INTERVAL = 500
#: the games index copies a game after the command that passes each multiple of this many records (and
#: after its first); ``trv show`` folds the records after the copy
COPY_INTERVAL = 50


class Loaded(NamedTuple):
    """A game as loaded: its engine state after ``version`` events, and the head hash."""

    game: str
    ruleset: Any
    state: Any
    version: int
    head: str
    #: the seats played by bots, ``{player: bot kind}`` (see ``GameStore.create_game``)
    bots: dict | None = None
    #: the seats bound to keys (``Charter`` JSON, "" for none) and the signatures' domain spec
    charter: str = ""
    domain: str = ""


class StoredEvent(NamedTuple):
    """One stored engine event, numbered from 1."""

    number: int
    kind: str
    ruleset: str
    schema: int
    payload: bytes  # canonical JSON, exactly as hashed
    hash: str
    previous: str
    recorded_at: datetime | None  # wall clock: metadata, not hashed
    event: Any  # decoded engine event (or a Retraction)
    action: bytes = b""  # canonical JSON of the action whose first event this is
    decoded_action: Any = None
    sig: bytes = b""  # signatures of a signed record, ``seat:base64`` separated by spaces


class RawRecord(NamedTuple):
    """One record to append as canonical bytes (imports, forks, retractions, copies)."""

    kind: str
    schema: int
    payload: bytes
    action: bytes = b""
    #: the signatures, or a signer ``(number, previous hash, payload) -> signatures`` that
    #: ``GameStore.append`` calls once it knows where the record goes
    sig: bytes | Callable[[int, str, bytes], bytes] = b""
    #: the wall-clock stamp to store (a copy keeps its source's); None: now
    recorded_at: datetime | None = None


class GameHeader(NamedTuple):
    """What the ``Created`` record says about a game."""

    game: str
    ruleset: str
    rules_version: str
    store_schema: int
    parent: str
    parent_at: int
    parent_head: str
    created: datetime
    bots: dict | None = None
    #: the charter's canonical JSON ("" for a game without bound seats)
    charter: str = ""
    #: what its signatures name as the game: event 1's hash, or for a fork its own (docs/fair-play.md)
    domain: str = ""

    @property
    def genesis(self) -> str:
        """The hash its chain starts from (its charter and, from store schema 2, its bots)."""
        return game_genesis(self.charter, encode_bots(self.bots), self.store_schema)

    @property
    def bots_unchained(self) -> bool:
        """Bot seats stored before they were chained (schema 1): the chain does not cover them."""
        return bool(self.bots) and self.store_schema < BOTS_CHAINED


