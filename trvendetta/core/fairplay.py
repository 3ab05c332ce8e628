"""The records of the fair-play protocol (docs/fair-play.md), as data: the charter that binds a
game's seats to keys, an exchange game's intents and reveals, a host's reveal of its seed, claims on
time and resignations; each a msgspec struct with its canonical JSON.  Pure types, no I/O: the store
keeps them as records (``trvendetta.store``), the record tools check them (``trvendetta.replays``)."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one

from typing import Annotated, Any, TypeVar

import msgspec

from .errors import TrvError

_Hex64 = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
_Seat = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


#: a charter's ``offered`` when it keeps none (the one default object: msgspec omits it by identity)
NO_OFFER = msgspec.Raw()


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
    #: a host game's offer (its id, which every contribution names) and each player's signature over
    #: its contribution (base64; ``app.messages.Contribution``: the offer, the seat, the value in
    #: ``setup`` and ``seed_commit``): every store checks them, so the host can neither change a
    #: contribution nor commit after reading them; empty in games made before signed contributions
    offer: Annotated[str, msgspec.Meta(pattern="^([0-9a-f]{64})?$")] = ""
    signed: dict[_Seat, Annotated[str, msgspec.Meta(max_length=400)]] = {}
    #: the charter's format (docs/fair-play.md, "Every store rebuilds the set-up"): 0 for games made
    #: before it; 2 keeps the offer (or invitation) itself in ``offered`` and every answer's signature in
    #: ``signed``, so every store rebuilds the set-up and the nonce from signed messages, and a host
    #: game's draws follow each intent's content, not its signature bytes
    v: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 0
    #: the host's offer (or the inviter's invitation), its JSON as signed, compact (format 2)
    offered: msgspec.Raw = NO_OFFER


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
                                       charter.time, charter.nonce, charter.offer,
                                       dict(sorted(charter.signed.items())), charter.v,
                                       charter.offered if bytes(charter.offered) else NO_OFFER)).decode()


def decode_charter(text: str) -> "Charter | None":
    return _decoder("charter", Charter).decode(text) if text else None


def charter_of(charter: "Charter | str") -> "Charter":
    """The charter of a game that has one (an exchange, host or keyed game), decoded when it is text; a
    game without one (``""``) is a :class:`TrvError` naming what was asked of it."""
    if isinstance(charter, Charter):
        return charter
    decoded = decode_charter(charter)
    if decoded is None:
        raise TrvError("this game has no charter (no seat is bound to a key): it is not an exchange, host "
                       "or keyed game")
    return decoded


def charter_dice(text: str) -> str:
    """Who supplies a game's dice, read from its charter's ``dice`` field:
    ``"exchange"``, ``"host"`` or ``""`` (the seed; also a game without a
    charter). Decoded, never matched as text: a seat may be named "exchange"."""
    charter = decode_charter(text)
    return charter.dice if charter is not None else ""




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

#: a player's revocation of browser keys it delegated, carried into a game at a point of its chain
REVOKE_KIND = "trv-revoke"


class Revoke(msgspec.Struct, frozen=True, tag_field="type", tag=REVOKE_KIND, forbid_unknown_fields=True):
    """``seat``'s revocation, made at ``at`` (seconds since 1970, by the seat's clock) for the server
    (host) ``server``, of the browser keys ``keys`` (sorted, each once) it had delegated there; ``sig``
    (base64) is the seat's own key's signature of it (``replays.signatures.revocation_body``).  Its
    place in a game's chain is where it takes effect: no signature made with one of ``keys`` counts
    for ``seat`` after it; the records before it are untouched."""

    seat: _Seat
    server: _Hex64
    at: Annotated[int, msgspec.Meta(ge=0)]
    keys: Annotated[list[_Hex64], msgspec.Meta(max_length=1000)]
    sig: Annotated[str, msgspec.Meta(max_length=100)]


def decode_revoke(payload: bytes) -> "Revoke":
    return _decoder("revocation", Revoke).decode(payload)

_draw_enc = msgspec.json.Encoder()


def encode_draw(record: "Intent | Reveal | HostReveal | Claim | Resign | Revoke") -> bytes:
    return _draw_enc.encode(record)


def decode_outcome(payload: bytes) -> "Claim | Resign":
    return _decoder("outcome", Claim | Resign).decode(payload)


def decode_draw(payload: bytes) -> "Intent | Reveal | HostReveal":
    return _decoder("draw", Intent | Reveal | HostReveal).decode(payload)


_Draw = TypeVar("_Draw", "Intent", "Reveal", "HostReveal")


def decode_draw_as(payload: bytes, of: "type[_Draw]") -> "_Draw":
    """A draw record's payload as the one type its kind names (a record's kind is its payload's
    ``type``): :func:`decode_draw` where the caller has read the kind already."""
    return _decoder(f"draw:{of.__name__}", of).decode(payload)



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
    if isinstance(event, Revoke):
        return (f"{event.seat} revokes {len(event.keys)} browser key(s) delegated on this game's server: "
                "none acts for them from here on")
    return f"{event.player} takes back events {event.first}-{event.last}" + (" (agreed)" if event.agreed else "")
