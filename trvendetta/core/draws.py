"""Dice nobody can foresee or choose (docs/fair-play.md): pure derivations.

In an *exchange* game every player commits, before the game, to the top of a
hash chain of secrets: ``top = H^K(secret)``.  The ``d``-th value a player
reveals is ``H^(K-d)(secret)``, so each reveal is fixed in advance and
checkable (``H(reveal_d) == reveal_(d-1)``, ``reveal_0 = top``) yet unknown to
everyone else until shown.  The randomness of draw ``d`` is derived from every
player's ``d``-th reveal (:func:`draw_rng`); the acting player's action is
recorded before the others reveal, so nobody can foresee a roll or choose it.

The engine never sees a secret: randomness reaches ``decide`` only through
the :class:`~trvendetta.core.rng.Rng` these functions build.  Everything here
is pure; secrets are drawn and kept by the shell.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from .rng import Rng

#: how many draws a hash chain allows (a long greedy game makes a few hundred)
CHAIN_LENGTH = 4096


def step(value: bytes) -> bytes:
    """One link of a hash chain."""
    return hashlib.sha256(b"trvendetta chain 1\n" + value).digest()


def reveal(secret: bytes, draw: int, length: int = CHAIN_LENGTH) -> bytes:
    """The value revealed for draw ``draw`` (1-based): ``H^(length - draw)(secret)``;
    draw 0 is the commitment (the chain's top)."""
    if not 0 <= draw <= length:
        raise ValueError(f"draw {draw} is outside the chain (0 to {length})")
    value = secret
    for _ in range(length - draw):
        value = step(value)
    return value


def commitment(secret: bytes, length: int = CHAIN_LENGTH) -> bytes:
    return reveal(secret, 0, length)


def follows(value: bytes, previous: bytes) -> bool:
    """Whether ``value`` is the reveal after ``previous`` in its chain."""
    return step(value) == previous


def draw_rng(draw: int, reveals: Sequence[bytes], intent: str = "") -> Rng:
    """The RNG of draw ``draw``: every player's reveal for it, in seat-name order, and (in a game
    made since one-reveal-per-draw) the hash of the intent it resolves, so the same reveals give
    other dice for any other intent (a fork's, a copy's)."""
    if intent:
        digest = hashlib.sha256(b"trvendetta draw 2\n%d\n" % draw + bytes.fromhex(intent) + b"".join(reveals)).digest()
    else:
        digest = hashlib.sha256(b"trvendetta draw 1\n%d\n" % draw + b"".join(reveals)).digest()
    return Rng(int.from_bytes(digest[:8], "big") >> 1, 0)


# ------------------------------------------------------------------ host mode
#: the length in bytes of a host's secret seed, its salt and a player's contribution
HOST_BYTES = 32


def _exact(name: str, value: bytes) -> bytes:
    if len(value) != HOST_BYTES:
        raise ValueError(f"{name} must be {HOST_BYTES} bytes, not {len(value)}")
    return value


def host_commitment(seed: bytes, salt: bytes) -> bytes:
    """A host game's commitment to its secret seed: ``SHA-256(seed || salt)``
    (docs/fair-play.md, host mode).  It is published before any player
    contributes, so the host cannot choose the seed after seeing theirs; the
    salt keeps a guessed seed from being confirmed against it."""
    return hashlib.sha256(_exact("the seed", seed) + _exact("the salt", salt)).digest()


def host_game_seed(seed: bytes, contributions: Mapping[str, bytes]) -> bytes:
    """The seed the game's dice follow: the host's secret seed and every
    seat's contribution (seats sorted, each exactly 32 bytes).  Nobody controls
    it: the host committed first, each player contributed without knowing the
    host's seed, and any one change gives another seed."""
    if not contributions:
        raise ValueError("a host game needs every seat's contribution; there are none")
    parts = [_exact(f"{seat}'s contribution", contributions[seat]) for seat in sorted(contributions)]
    return hashlib.sha256(b"trvendetta host seed 1\n" + _exact("the seed", seed) + b"".join(parts)).digest()


def host_rng(game_seed: bytes, draw: int, intent: str = "") -> Rng:
    """The RNG of draw ``draw`` of a host game (draw 1 is the set-up), numbered
    as an exchange game's draws are, so the same intents open them; in a game made since
    one-reveal-per-draw it covers the hash of the intent it resolves too."""
    seed = _exact("the game seed", game_seed)
    if intent:
        digest = hashlib.sha256(b"trvendetta host draw 2\n%d\n" % draw + bytes.fromhex(intent) + seed).digest()
    else:
        digest = hashlib.sha256(b"trvendetta host draw 1\n%d\n" % draw + seed).digest()
    rng = Rng(int.from_bytes(digest[:8], "big") >> 1, 0)
    rng.favor_key = host_favor_key(game_seed)
    return rng


def host_favor_key(game_seed: bytes) -> bytes:
    """The key of the favors a host deals face down (Carnival's ``favors.deck``): secret while
    the game seed is, the same for every draw of the game."""
    return hashlib.sha256(b"trvendetta favor key 1\n" + _exact("the game seed", game_seed)).digest()
