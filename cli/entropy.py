"""The one source of secret randomness of the shell: identities' keys, exchange secrets, a host's
seed and salt, players' contributions.

``random_bytes`` is the operating system's (``os.urandom``).  Tests replace it (pytest's
monkeypatch on this module's attribute) with a seeded generator, so a host or exchange game
plays the same way on every run; nothing else ever does.
"""

from __future__ import annotations

import os


def random_bytes(n: int) -> bytes:
    """``n`` bytes nobody can foresee."""
    return os.urandom(n)
