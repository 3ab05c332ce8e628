"""Copy a game from one store to another (``trv store copy`` and ``upgrade``; ``app.stores`` plans which).

A copy is the same game: the same header and the same records, byte for byte (so the same hash chain),
with their original stamps; it is read back and compared with its source record by record, its chain
recomputed, and any difference is an error naming the game and event.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import StoreError
from .records import RawRecord


class Copied(NamedTuple):
    game: str
    events: int
    head: str
    done: str  # "copied", "already there" or "brought up to date"


def _fingerprint(store: Any, game: str) -> list[tuple]:
    return [(e.number, e.kind, e.schema, e.payload, e.action, e.sig, e.hash)
            for e in store.events(game, decode=False)]


def copy_game(source: Any, target: Any, game: str) -> Copied:
    """Copy one game the target does not hold (what it holds is ``app.stores``' to plan) and verify the copy."""
    if target.exists(game):
        raise StoreError(f"game {game!r} is already in the target")
    head = source.verify(game)
    header = source.header(game)
    stored = source.events(game, decode=False)
    records = [RawRecord(e.kind, e.schema, e.payload, e.action, e.sig, e.recorded_at) for e in stored]
    target.create_game(game, header.ruleset, records=records, parent=header.parent, parent_at=header.parent_at,
                       parent_head=header.parent_head, bots=header.bots or None, charter=header.charter,
                       domain=header.domain, rules_version=header.rules_version, created_at=header.created,
                       store_schema=header.store_schema)
    theirs, ours = _fingerprint(source, game), _fingerprint(target, game)
    for a, b in zip(theirs, ours):
        if a != b:
            raise StoreError(f"the copy of game {game!r} differs from its source at event {a[0]}")
    if len(theirs) != len(ours):
        raise StoreError(f"the copy of game {game!r} has {len(ours)} events, its source {len(theirs)}")
    if target.verify(game) != head:
        raise StoreError(f"the copy of game {game!r} does not verify")
    a, b = source.header(game), target.header(game)
    if a[1:] != b[1:]:  # ruleset, rules version, parent, creation time, bots, charter, domain...
        raise StoreError(f"the copy of game {game!r} has another header than its source")
    return Copied(game, len(records), head, "copied")
