"""The light half of the event store: record formats, ids, the hash chain and
the result types, importable without eventsourcing (so a read-only ``trv show``
does not pay for it; see ``trvendetta.store.quick``)."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import os
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from typing import TYPE_CHECKING

import msgspec

from .errors import SchemaError
from .named import Named

#: version of the envelope format described in docs/store.md: 2 since a game's hash chain
#: starts from its bot seats too (:func:`genesis`); a game stored at 1 keeps them outside
STORE_SCHEMA = 2
#: the first store schema whose games chain their bot seats
BOTS_CHAINED = 2
#: the hash "before" event 1
GENESIS = "0" * 64
if TYPE_CHECKING:
    from uuid import UUID

#: uuid5(NAMESPACE_URL, "https://trvendetta/games/"), the namespace of game ids (tests check it)
_NAMESPACE_BYTES = bytes.fromhex("418f6096eb4b595c93feaa8ef91c2220")


def game_key(game: str) -> str:
    """``game_uuid(game).hex``, without importing uuid or hashlib (``trv show``'s
    path imports neither; the standard library's own SHA-1 module is enough)."""
    try:
        from _sha1 import sha1
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


def chain(previous: str, payload: bytes, action: bytes = b"", sig: bytes = b"", sha256: Any = None) -> str:
    """The hash chain link of one record, hex.

    ``hash_n = sha256(hash_{n-1} as 32 raw bytes + payload_n)`` for a record
    without an action; a record that carries the action that produced it
    hashes ``action + b"\\n" + payload`` instead (canonical JSON never holds a
    raw newline, so the two forms cannot be confused).  A signed record (a
    game with seats bound to keys, docs/fair-play.md) puts its signature line
    ``sig + b"\\n"`` just before the payload: a signature starts with a seat
    name, never with ``{``, so no two forms can be confused either.
    ``sha256``: the hash function (default: hashlib's).
    """
    body = payload
    if sig:
        body = sig + b"\n" + body
    if action:
        body = action + b"\n" + body
    return (sha256 or _sha256)(bytes.fromhex(previous) + body).hexdigest()


def _sha256(data: bytes) -> Any:
    """hashlib's sha256, imported on the first hash (reading a game for show
    hashes nothing); it then takes this function's place: an import statement
    in :func:`chain` cost as much as the hash itself (verify hashes every record)."""
    global _sha256
    from hashlib import sha256 as _sha256

    return _sha256(data)


_Hex64 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
_Seat = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class Charter(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What the players agreed on before event 1 (docs/fair-play.md): the
    public key (64 hex digits, Ed25519) each bound seat signs with; in an
    exchange game (``dice="exchange"``) each seat's commitment (the top of
    its hash chain of reveals) and its reveal for draw 1 (the set-up); in a
    host game (``dice="host"``) the host's public key (``host``), its
    commitment to its secret seed (``seed_commit``, SHA-256 of seed and salt)
    and each seat's contribution to the game's seed (``setup``); the bot
    seats and their kinds (``bots``, bound to the key of whoever runs them).
    An exchange game's ``order`` is its turn order, the order its seats
    reveal in.

    A game with a charter starts its hash chain from :func:`genesis` instead
    of 64 zeros, so event 1's hash (the game's id) commits to all of it."""

    seats: dict[_Seat, _Hex64]
    dice: Annotated[str, msgspec.Meta(pattern="^(exchange|host)?$")] = ""
    commits: dict[_Seat, _Hex64] = {}
    setup: dict[_Seat, _Hex64] = {}
    host: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""
    seed_commit: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""
    #: bot seats, ``{seat: bot kind}``: each is bound in ``seats`` to the key of whoever runs it
    #: (a host game's host), which signs the bot's actions under the seat's name
    bots: dict[_Seat, Annotated[str, msgspec.Meta(max_length=50)]] = {}
    #: an exchange game's turn order (the players as invited): the other seats reveal in this
    #: order after the actor; empty in games made before it, whose seats reveal in name order
    order: list[_Seat] = []
    #: the time control (``app/clock.py``): ``3d`` a move, or a reserve plus an increment (``7d+1d``);
    #: empty: no time limit
    time: Annotated[str, msgspec.Meta(max_length=40)] = ""
    #: what makes this game unlike any other with the same seats, keys and seed (docs/fair-play.md,
    #: "Unique games"): from every player's answer to the invitation or offer, or random in a local
    #: game; empty in games made before it (their signatures could pass in such a twin game)
    nonce: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""


#: the decoders of the store's own records, each built on its first use (a Decoder resolves its
#: types when built; a game without a charter, a draw or a retraction is read without them)
_decoders: dict[str, msgspec.json.Decoder] = {}


def _decoder(name: str, of: Any) -> msgspec.json.Decoder:
    decoder = _decoders.get(name)
    if decoder is None:
        decoder = _decoders[name] = msgspec.json.Decoder(of)
    return decoder


def encode_charter(charter: "Charter | None") -> str:
    """Canonical JSON of a charter, seats sorted ("" for none)."""
    if charter is None or not charter.seats:
        return ""
    return msgspec.json.encode(Charter(dict(sorted(charter.seats.items())), charter.dice,
                                       dict(sorted(charter.commits.items())),
                                       dict(sorted(charter.setup.items())),
                                       charter.host, charter.seed_commit,
                                       dict(sorted(charter.bots.items())), list(charter.order),
                                       charter.time, charter.nonce)).decode()


def decode_charter(text: str) -> "Charter | None":
    return _decoder("charter", Charter).decode(text) if text else None


def charter_dice(text: str) -> str:
    """Who supplies a game's dice, read from its charter's ``dice`` field:
    ``"exchange"``, ``"host"`` or ``""`` (the seed; also a game without a
    charter). Decoded, never matched as text: a seat may be named "exchange"."""
    charter = decode_charter(text)
    return charter.dice if charter is not None else ""


def genesis(charter_text: str, bots_text: str = "") -> str:
    """The hash "before" event 1: 64 zeros, or for a game with a charter
    ``sha256("trvendetta charter 1\\n" + charter JSON)``; then, for a game
    with bot seats (stored from schema 2), ``sha256("trvendetta bots 1\\n" +
    that hash as 32 raw bytes + the bots' canonical JSON)``.  So event 1's
    hash, the game's id, commits to the charter and to which seats bots play:
    a record whose Bots tag was changed no longer chains (docs/store.md)."""
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


#: an exchange game's records that are neither engine events nor retractions (docs/fair-play.md)
INTENT_KIND = "trv-intent"
REVEAL_KIND = "trv-reveal"
#: a host game's reveal of its secret seed (docs/fair-play.md, host mode)
HOST_REVEAL_KIND = "trv-host-reveal"


class Intent(msgspec.Struct, frozen=True, tag_field="type", tag=INTENT_KIND, forbid_unknown_fields=True):
    """A player's action that needs a draw, recorded (and signed) before the
    other players reveal; the record's ``action`` is the action, and
    ``reveal`` the player's own value for the draw."""

    seat: _Seat
    draw: Annotated[int, msgspec.Meta(ge=2, le=1_000_000)]
    reveal: _Hex64


class Reveal(msgspec.Struct, frozen=True, tag_field="type", tag=REVEAL_KIND, forbid_unknown_fields=True):
    """Another player's value for the open draw (checked against its chain)."""

    seat: _Seat
    draw: Annotated[int, msgspec.Meta(ge=2, le=1_000_000)]
    reveal: _Hex64


class HostReveal(msgspec.Struct, frozen=True, tag_field="type", tag=HOST_REVEAL_KIND, forbid_unknown_fields=True):
    """The host's secret seed and salt, published (signed by the host) at the
    game's end or on ``trv host reveal``: SHA-256(seed || salt) must be the
    charter's ``seed_commit``."""

    seed: _Hex64
    salt: _Hex64


#: a game's end that the rules do not give: a claim on time and a resignation (docs/fair-play.md, "Time")
CLAIM_KIND = "trv-claim"
RESIGN_KIND = "trv-resign"
_Stamp = Annotated[str, msgspec.Meta(pattern="^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")]


class Claim(msgspec.Struct, frozen=True, tag_field="type", tag=CLAIM_KIND, forbid_unknown_fields=True):
    """``by`` claims the game on time: ``seat`` had to answer record ``after`` (its hash ``after_hash``;
    ``unanswered``: a ``decision`` or a ``reveal``) since ``since`` and did not by ``deadline``; claimed
    at ``at`` (every time by the claimant's clock, UTC).  Signed by ``by``, over ``after`` and its hash."""

    seat: _Seat
    by: _Seat
    after: Annotated[int, msgspec.Meta(ge=1)]
    after_hash: _Hex64
    unanswered: Annotated[str, msgspec.Meta(pattern="^(decision|reveal)$")]
    control: Annotated[str, msgspec.Meta(max_length=40)]
    since: _Stamp
    deadline: _Stamp
    at: _Stamp


class Resign(msgspec.Struct, frozen=True, tag_field="type", tag=RESIGN_KIND, forbid_unknown_fields=True):
    """``seat`` resigns after record ``after`` (its hash ``after_hash``), at ``at`` by its own clock (UTC):
    the game ends, ``seat`` lost.  Signed by ``seat`` (in a game with bound seats), over ``after`` and its hash."""

    seat: _Seat
    after: Annotated[int, msgspec.Meta(ge=1)]
    after_hash: _Hex64
    at: _Stamp


#: the kinds that end a game outside the rules
OUTCOME_KINDS = frozenset({CLAIM_KIND, RESIGN_KIND})

_draw_enc = msgspec.json.Encoder()


def encode_draw(record: "Intent | Reveal | HostReveal | Claim | Resign") -> bytes:
    return _draw_enc.encode(record)


def decode_outcome(payload: bytes) -> "Claim | Resign":
    return _decoder("outcome", Claim | Resign).decode(payload)


def decode_draw(payload: bytes) -> "Intent | Reveal | HostReveal":
    return _decoder("draw", Intent | Reveal | HostReveal).decode(payload)


#: the kinds of record the store writes itself (not engine events)
STORE_KINDS = frozenset({"trv-retraction", INTENT_KIND, REVEAL_KIND, HOST_REVEAL_KIND, CLAIM_KIND, RESIGN_KIND})


def describe_store_record(event: Any) -> str:
    """A sentence for a retraction, an intent or a reveal (``trv log``)."""
    if isinstance(event, Intent):
        return f"{event.seat} waits for the others' dice (draw {event.draw})"
    if isinstance(event, Reveal):
        return f"{event.seat} reveals dice for draw {event.draw}"
    if isinstance(event, HostReveal):
        return "the host reveals the game's secret seed: every roll can now be checked"
    if isinstance(event, Claim):
        return (f"{event.by} claims the game on time: {event.seat} did not answer event {event.after} "
                f"by {event.deadline} ({event.control}); {event.seat} loses on time")
    if isinstance(event, Resign):
        return f"{event.seat} resigns"
    return f"{event.player} takes back events {event.first}-{event.last}" + (" (agreed)" if event.agreed else "")


_retraction_enc = msgspec.json.Encoder()


def encode_retraction(retraction: Retraction) -> bytes:
    return _retraction_enc.encode(retraction)


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
    """Decode a stored record (an engine event, upcasting older schemas through
    the ruleset, or a :class:`Retraction`).

    A ruleset that changes an event's shape raises ``event_schema`` and
    provides ``upcast_event(data: dict, schema: int) -> dict`` that lifts a
    decoded payload of an older schema to the current one.
    """
    if kind == RETRACTION_KIND:
        return decode_retraction(payload)
    if kind in (INTENT_KIND, REVEAL_KIND, HOST_REVEAL_KIND):
        return decode_draw(payload)
    if kind in OUTCOME_KINDS:
        return decode_outcome(payload)
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


MEMORY = ":memory:"
#: snapshot every this many aggregate versions (engine state only: a few kB)
SNAPSHOT_INTERVAL = 100


def default_db_path(environ: dict[str, str] | None = None) -> Path:
    """``$TRV_DB``, else ``$XDG_DATA_HOME/trvendetta/trv.sqlite`` (``~/.local/share`` when unset)."""
    env = os.environ if environ is None else environ
    if env.get("TRV_DB"):
        return Path(env["TRV_DB"]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path("~/.local/share").expanduser())
    return Path(base).expanduser() / "trvendetta" / "trv.sqlite"


class Loaded(Named):
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


class StoredEvent(Named):
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


class RawRecord(Named):
    """One record to append as canonical bytes (imports, forks, retractions, copies)."""

    kind: str
    schema: int
    payload: bytes
    action: bytes = b""
    sig: bytes = b""
    #: the wall-clock stamp to store (a copy keeps its source's); None: now
    recorded_at: datetime | None = None


class GameHeader(Named):
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


