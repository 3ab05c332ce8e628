"""Pure helpers of the signed records that every other record module uses (and that use none of
them): an Ed25519 check, a key's fingerprint, what a player signs to contribute to a host game's seed,
and a game's nonce from the messages that set it up."""

from __future__ import annotations

import base64
import binascii
import hashlib

import msgspec

#: the prefix of a nonce derived from the messages that set a game up
NONCE_PREFIX = b"trvendetta game nonce 1\n"


def nonce_of(*parts: str) -> str:
    """The nonce of a game set up by these messages (an invitation or offer id, then every answer's
    id): each player's answer is in it, so nobody alone chooses it (hex)."""
    return hashlib.sha256(NONCE_PREFIX + "\n".join(parts).encode()).hexdigest()


def valid(public: bytes, signature: bytes, msg: bytes) -> bool:
    """Whether ``signature`` is the Ed25519 signature of ``msg`` by the raw
    32-byte key ``public`` (RFC 8032, as libsodium checks it: canonical S, no
    small-order key or R)."""
    from nacl.bindings import crypto_sign_open  # libsodium: 2.4x faster than OpenSSL's here
    from nacl.exceptions import BadSignatureError

    if len(public) != 32 or len(signature) != 64:  # the C call reads exactly these lengths
        return False
    try:
        crypto_sign_open(signature + msg, public)  # a signed message is the signature, then the message
    except BadSignatureError:
        return False
    return True


def canonical_b64(text: str) -> bytes | None:
    """The bytes of a signature or key written in base64, or None when ``text`` is not base64 in
    its one canonical spelling (``b64encode(b64decode(text)) == text``): the decoder ignores the
    spare bits of the last character, so 64 bytes have 16 spellings, and a record or message that
    kept any of them would let its writer vary what hashes over it (a game's id, its draws)."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if base64.b64encode(raw).decode() == text else None


def fingerprint(public_hex: str) -> str:
    """A short name of a public key to read aloud or compare: 16 hex digits."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


#: what a host contributes for a bot seat it runs in a game with signed contributions: a fixed value,
#: so that the host cannot pick it after reading the players' contributions (its own seed already
#: is its contribution)
BOT_CONTRIBUTION = "00" * 32


def contribution_body(offer: str, seat: str, value: str, commit: str, kind: str = "trv-host-join") -> bytes:
    """The bytes a player signs to contribute ``value`` to a host's offer ``offer`` (its id) whose
    commitment is ``commit`` (``app.messages.Contribution.body``, a contribution with its sig empty)."""
    return msgspec.json.encode({"type": kind, "offer": offer, "seat": seat, "value": value, "sig": "",
                                "commit": commit})


__all__ = ["BOT_CONTRIBUTION", "NONCE_PREFIX", "canonical_b64", "contribution_body", "fingerprint", "nonce_of", "valid"]
