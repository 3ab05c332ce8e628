"""The signed messages that set up a game at a distance (docs/fair-play.md).

An exchange game starts from an :class:`Invite` and every other player's
:class:`Join`; a host game from the host's :class:`Offer` and every player's
:class:`Contribution`.  Each is a JSON object whose ``sig`` is an Ed25519
signature (base64) over the object's own JSON with ``sig`` empty
(:meth:`Signed.body`); the id another message answers is the SHA-256 of that
body (:meth:`Signed.id`).

:class:`Signed` is the one envelope they share: it declares no field (a base
struct's fields would come first in every encoding and change the signed
bytes), only the methods, so each message keeps its fields in the order its
files and signatures were made with.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from typing import TypeVar

import msgspec

from trvendetta.core.errors import TrvError

M = TypeVar("M", bound="Signed")


class Signed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A message signed over its own bytes; subclasses declare ``sig: str = ""``."""

    def body(self) -> bytes:
        """The signed bytes: the message's JSON with ``sig`` empty."""
        return msgspec.json.encode(msgspec.structs.replace(self, sig=""))

    def id(self) -> str:
        """What an answer names this message by: SHA-256 of its body (hex)."""
        return hashlib.sha256(self.body()).hexdigest()

    def signed(self: M, sign: Callable[[bytes], bytes]) -> M:
        """The message with ``sig`` set from ``sign(body)``."""
        return msgspec.structs.replace(self, sig=base64.b64encode(sign(self.body())).decode())

    def signed_by(self, public_hex: str) -> bool:
        """Whether ``sig`` is the signature of key ``public_hex`` over the body."""
        from .keys import canonical_b64, valid

        # (another spelling of the same bytes is refused: see ``decode``)
        raw = canonical_b64(self.sig)  # type: ignore[attr-defined]  # each subclass declares it (its place in the JSON)
        try:
            return raw is not None and valid(bytes.fromhex(public_hex), raw, self.body())
        except ValueError:
            return False

    def file_bytes(self) -> bytes:
        """What a message file holds: indented JSON and a newline."""
        return msgspec.json.format(msgspec.json.encode(self), indent=1) + b"\n"

    @classmethod
    def decode(cls: type[M], data: bytes, source: str) -> M:
        """The message in ``data`` (read from ``source``), strictly: one clear error if it is not one."""
        from .keys import canonical_b64

        try:
            message = msgspec.json.decode(data, type=cls)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise TrvError(f"{source} is not a trv {cls.__name__.lower()}: {exc}") from None
        if canonical_b64(message.sig) is None:  # type: ignore[attr-defined]
            raise TrvError(f"{source}: its field sig is not base64 in its canonical spelling (b64encode of its "
                           "bytes): another spelling of one signature would let its sender vary what hashes over "
                           "it; refused")
        return message


class Invite(Signed, frozen=True, forbid_unknown_fields=True):
    """An exchange game's invitation, signed by its creator's seat key."""

    type: str
    game: str
    ruleset: str
    players: list[tuple[str, str, str]]
    seats: dict[str, str]
    creator: str
    commit: str
    sig: str = ""
    #: the game's time control (``--time``, the charter's ``time``); "": none
    time: str = ""
    #: the rules version the game is played under (event 1's); "": an invitation made before it was named
    rules: str = ""

    def body(self) -> bytes:
        return _untimed(self)

    def canonical(self) -> bytes:
        return _canonical(self)


class Join(Signed, frozen=True, forbid_unknown_fields=True):
    """A seat's answer to an invitation: its commitment and its set-up reveal."""

    type: str
    invite: str
    seat: str
    commit: str
    setup: str
    sig: str = ""


class Offer(Signed, frozen=True, forbid_unknown_fields=True):
    """A host game's offer, signed by the host: its commitment to a secret seed."""

    type: str
    game: str
    ruleset: str
    players: list[tuple[str, str, str]]
    seats: dict[str, str]
    host: str
    commit: str
    sig: str = ""
    #: bot seats ``{seat: kind}``, run by the host (each bound to the host's key in ``seats``)
    bots: dict[str, str] = {}
    #: the game's time control (``--time``, the charter's ``time``); "": none
    time: str = ""
    #: the rules version the game is played under (event 1's); "": an offer made before it was named
    rules: str = ""

    def body(self) -> bytes:
        return _untimed(self)

    def canonical(self) -> bytes:
        return _canonical(self)


_NO_TIME = b',"time":""}'
_NO_RULES = b',"rules":""}'


def _canonical(message: Signed) -> bytes:
    """A message with ``time`` and ``rules`` fields (its last two) as compact JSON, without ``rules``
    when empty: the bytes a message made before the field had (what a charter keeps of it)."""
    raw = msgspec.json.encode(message)
    return raw[:-len(_NO_RULES)] + b"}" if raw.endswith(_NO_RULES) else raw


def _untimed(message: Signed) -> bytes:
    """The signed bytes of a message with ``time`` and ``rules`` fields (its last two): without each
    when empty, so a message written before them (and its id, which answers name) stays what it was."""
    body = _canonical(msgspec.structs.replace(message, sig=""))
    return body[:-len(_NO_TIME)] + b"}" if body.endswith(_NO_TIME) else body


class Contribution(Signed, frozen=True, forbid_unknown_fields=True):
    """A seat's random contribution to a host game's seed, signed over the offer's id and the host's
    commitment (``commit``, the offer's: so the signature, which the charter keeps, shows the host
    committed before the contribution existed).  A contribution of a trv before that has no
    ``commit`` and keeps its bytes."""

    type: str
    offer: str
    seat: str
    value: str
    sig: str = ""
    #: the offer's commitment to the host's seed ("" in contributions made before signed contributions)
    commit: str = ""

    def body(self) -> bytes:
        from .keys import contribution_body

        if self.commit:
            return contribution_body(self.offer, self.seat, self.value, self.commit, self.type)
        return msgspec.json.encode(msgspec.structs.replace(self, sig=""))[:-len(b',"commit":""}')] + b"}"


__all__ = ["Contribution", "Invite", "Join", "Offer", "Signed"]
