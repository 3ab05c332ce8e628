"""Deterministic dice.

The RNG for an action is derived from the game seed and the number of events
recorded so far, so re-running the same actions on the same seed gives the
same outcomes on any machine, any Python version and any run.  It is a
SHA-256 counter generator (not :mod:`random`), so its stream is fixed by this
file alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


_hash: Any = None


def _sha256(data: bytes) -> bytes:
    """SHA-256 of ``data``; hashlib is imported on the first draw, so reading a
    stored game (``trv show``) never imports it."""
    global _hash
    if _hash is None:
        from hashlib import sha256

        _hash = sha256
    return _hash(data).digest()


class Rng:
    """A seeded stream of integers; the only source of chance in the engine."""

    __slots__ = ("_seed", "_key", "_counter", "_pool", "_bits", "favor_key", "sealer")

    def __init__(self, seed: int, stream: int = 0):
        # the key is hashed on the first draw: every action gets an Rng, and most roll nothing
        self._seed = (seed, stream)
        self._key = b""
        self._counter = 0
        self._pool = 0
        self._bits = 0
        #: a host game's favor key (``core.draws.host_rng``): the deck and nonces of the favors the
        #: host deals face down (Carnival's ``favors.deck``); None for every other RNG
        self.favor_key: bytes | None = None
        #: the host's shell's ``sealer(owner, kind, nonce) -> {seat: sealed box}`` for a favor it
        #: deals (None: nothing sealed, as when a record is checked): data the rules carry, never read
        self.sealer: Callable[[str, str, str], dict[str, str]] | None = None

    @classmethod
    def for_action(cls, seed: int, events_so_far: int) -> "Rng":
        """The RNG that resolves the action taken after ``events_so_far`` events."""
        return cls(seed, events_so_far)

    def _refill(self) -> None:
        if not self._key:
            seed, stream = self._seed
            self._key = _sha256(f"trvendetta:{seed}:{stream}".encode())
        block = _sha256(self._key + self._counter.to_bytes(8, "big"))
        self._counter += 1
        self._pool = int.from_bytes(block, "big")
        self._bits = 256

    def _take(self, k: int) -> int:
        if self._bits < k:
            self._refill()
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._bits -= k
        return value

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        k = max(1, (n - 1).bit_length())
        while True:
            v = self._take(k)
            if v < n:
                return v

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``, uniformly (a die face, say)."""
        return options[self.below(len(options))]

    def weighted(self, counts: Mapping[str, int]) -> str:
        """Draw one item from a pile given as ``{kind: count}`` (sorted keys: stable)."""
        total = sum(counts.values())
        if total <= 0:
            raise ValueError("cannot draw from an empty pile")
        r = self.below(total)
        for kind in sorted(counts):
            r -= counts[kind]
            if r < 0:
                return kind
        raise AssertionError("unreachable")

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class NeedDice(Exception):
    """Raised by :class:`NoDice` when the rules want chance (an exchange game's
    action that must wait for the players' reveals, docs/fair-play.md)."""


class NoDice(Rng):
    """An RNG that refuses to give anything: ``apply(state, action, NoDice())``
    resolves an action that needs no chance, and raises :class:`NeedDice` for
    one that does (nothing is produced then: the rules are pure)."""

    def __init__(self) -> None:
        super().__init__(0, 0)

    def _take(self, k: int) -> int:
        raise NeedDice("this action needs a draw")


def fresh_seed(entropy: bytes) -> int:
    """Turn outside entropy (``os.urandom``) into a recordable 63-bit seed.

    The shell draws the entropy; the engine only ever sees the resulting seed.
    """
    return int.from_bytes(_sha256(entropy)[:8], "big") >> 1
