"""Private pieces of a host game (docs/fair-play.md, "Private favors").

The host deals a Carnival party favor face down for real: the record holds the
favor's commitment (the rules', ``carnival.favors.commit``) and its kind and
nonce sealed to the owner's key with libsodium's sealed box (PyNaCl): an
ephemeral X25519 key and XSalsa20-Poly1305, so only the holder of the owner's
private key opens it.  A seat's key is Ed25519 (its signatures); libsodium
converts it to the X25519 key the box needs (``crypto_sign_ed25519_pk_to_curve25519``
and its private-key twin), so the players need no second key.

Here: the host's sealer (:func:`sealer`, handed to the rules on the RNG of a
draw it resolves), opening a box with a private key (:func:`open_box`), and
the openings one player's keys give for a game's events (:func:`openings`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterable
from typing import Any


def seal(public_hex: str, plaintext: bytes) -> str:
    """``plaintext`` sealed to the Ed25519 public key ``public_hex`` (base64)."""
    from nacl.bindings import crypto_sign_ed25519_pk_to_curve25519
    from nacl.public import PublicKey, SealedBox

    curve = crypto_sign_ed25519_pk_to_curve25519(bytes.fromhex(public_hex))
    return base64.b64encode(SealedBox(PublicKey(curve)).encrypt(plaintext)).decode()


def open_box(private_seed: bytes, public: bytes, box: str) -> bytes | None:
    """What ``box`` holds, opened with the Ed25519 key ``private_seed`` (its 32-byte seed) and
    ``public``; None when it was not sealed to that key or is damaged."""
    from nacl.bindings import crypto_sign_ed25519_sk_to_curve25519
    from nacl.exceptions import CryptoError
    from nacl.public import PrivateKey, SealedBox

    try:
        curve = crypto_sign_ed25519_sk_to_curve25519(private_seed + public)
        return SealedBox(PrivateKey(curve)).decrypt(base64.b64decode(box, validate=True))
    except (CryptoError, ValueError, TypeError):
        return None


#: what a sealed piece's plaintext is padded to (with spaces, which JSON ignores): every favor's
#: box has one size, so its length does not tell its kind (a longer plaintext takes the next multiple)
SEALED_SIZE = 64


def padded(plain: bytes) -> bytes:
    """``plain`` padded with spaces to a multiple of :data:`SEALED_SIZE` bytes."""
    return plain.ljust(-(-len(plain) // SEALED_SIZE) * SEALED_SIZE, b" ")


def sealer(seats: dict[str, str]) -> Callable[[str, str, str], dict[str, str]]:
    """The host's sealer of a favor it deals: its kind and nonce sealed to the owner's key only,
    padded to one size (boxes sealed before padding open the same way)."""
    def seal_for(owner: str, kind: str, nonce: str) -> dict[str, str]:
        return {owner: seal(seats[owner], padded(json.dumps([kind, nonce]).encode()))}
    return seal_for


def openings(ruleset: Any, events: Iterable[Any], opener: Callable[[str, str], bytes | None]
             ) -> dict[str, tuple[str, str]]:
    """Commitment -> (kind, nonce) of every piece dealt in ``events`` that ``opener(seat, box)``
    opens (a box that opens to anything but its commitment's opening is left out: the host sealed
    another favor than it dealt, and the owner's store does not take it)."""
    found: dict[str, tuple[str, str]] = {}
    for seat, commitment, box in ruleset.sealed_pieces(list(events)):
        plain = opener(seat, box) if box else None
        if plain is None:
            continue
        try:
            kind, nonce = json.loads(plain)
        except ValueError:
            continue
        if isinstance(kind, str) and isinstance(nonce, str) and ruleset.opens(commitment, kind, nonce):
            found[commitment] = (kind, nonce)
    return found


def hides(ruleset: Any, charter: str | None) -> bool:
    """Whether a game's pieces may be dealt face down to one player (a host game of a ruleset
    with hidden information): its views then follow who asks."""
    if not charter or not getattr(ruleset, "hidden_information", False):
        return False
    from trvendetta.store import decode_charter

    found = decode_charter(charter)
    return found is not None and found.dice == "host"


def open_pieces_line(ruleset: Any, first_event: Any, charter: str | None) -> str | None:
    """What ``trv verify`` says of a signed game that dealt its hidden pieces in the open (None for
    any other): a host or exchange game made before private favors, or a signed game without a
    host, which deals them in the open today too."""
    if not charter or not getattr(ruleset, "hidden_information", False) or first_event is None:
        return None
    from trvendetta.store import decode_charter

    found = decode_charter(charter)
    words = ruleset.dealt_in_the_open(first_event)
    if found is None or not found.seats or words is None:
        return None
    if found.dice:
        return f"made before private favors: {words}"
    return f"dealt in the open (a signed game without a host; only a host deals face down): {words}"


def local_view(store: Any, loaded: Any, keyring: Any) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """The openings the local identities' keys give for ``loaded``'s game and the seats they play
    (``({}, [])`` for a game that deals nothing face down)."""
    opener = getattr(keyring, "open_sealed", None)  # (a club server's relay of a player's signature opens nothing)
    if opener is None or not hides(loaded.ruleset, loaded.charter):
        return {}, []
    records = store.events(loaded.game, upto=loaded.version)
    return openings(loaded.ruleset, [r.event for r in records], opener), sorted(keyring.local)


def dealer_view(store: Any, loaded: Any, secret: "tuple[bytes, bytes] | None", seat: str) -> tuple[Any, dict]:
    """The game as the host shows it to ``seat`` (a club server hosting it): ``seat``'s favors opened
    with the host's favor key, nobody else's, and the openings (``secret``: the host's seed and
    salt; the state itself and no openings when the game deals nothing face down)."""
    if secret is None or not hides(loaded.ruleset, loaded.charter):
        return loaded.state, {}
    from trvendetta.core.draws import host_favor_key, host_game_seed
    from trvendetta.core.fairplay import charter_of

    charter = charter_of(loaded.charter)
    key = host_favor_key(host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in charter.setup.items()}))
    records = store.events(loaded.game, upto=loaded.version)
    found = loaded.ruleset.dealt_openings(loaded.state, [r.event for r in records], key, seat)
    return loaded.ruleset.private_view(loaded.state, found, [seat]), found


__all__ = ["SEALED_SIZE", "padded", "dealer_view", "hides", "local_view", "open_box", "open_pieces_line", "openings", "seal", "sealer"]
