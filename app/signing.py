"""Signing a command's actions with the player's keyring (docs/fair-play.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trvendetta.core.errors import TrvError
from trvendetta.store import GameStore, Loaded


def sign_runs(store: GameStore, loaded: Loaded, keyring: Any, steps: list[tuple[Any, ...]],
              seats: Sequence[str | None]) -> list[tuple[Any, ...]]:
    """Give the last action of each run of one bound seat's actions a signer
    (the signature covers the run through the chain; docs/fair-play.md)."""
    from trvendetta.replays import signatures

    for seat in seats:
        if seat in keyring.seats and not keyring.can_sign(seat):
            raise TrvError(f"{seat}'s seat is bound to a key that is not among your identities; "
                           f"only {seat} can sign {seat}'s actions")
    return signatures.sign_runs(steps, list(seats), keyring.seats, keyring.sign, loaded.domain,
                                store.events_head(loaded.game, 1))


__all__ = ["sign_runs"]
