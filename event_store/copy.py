"""Copy games from one store to another (``trv store copy``), verifying each copy.

A copy is the same game: the same ``Created`` fields (ruleset, rules
version, parent, bots, charter, creation time) and the same records, byte for
byte (kind, schema, payload, action, signatures, and so the same hash chain),
with their original wall-clock stamps.  After writing a game the copy is read back and
compared with its source record by record, and its hash chain is recomputed
from the stored bytes; any difference is an error naming the game and event.

A game already in the target with the same head is left as it is
("already there"); one with another history stops the copy before anything
is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from .errors import StoreError
from .records import RawRecord


class Copied(NamedTuple):
    game: str
    events: int
    head: str
    done: str  # "copied" or "already there"


def _fingerprint(store: Any, game: str) -> list[tuple]:
    return [(e.number, e.kind, e.schema, e.payload, e.action, e.sig, e.hash)
            for e in store.events(game, decode=False)]


def plan(source: Any, target: Any, games: Sequence[str] | None = None) -> list[str]:
    """The games to copy, in creation order; raises StoreError (nothing written) when
    one is missing from the source or has another history in the target."""
    known = [info.id for info in sorted(source.list_games(), key=lambda i: (i.created, i.id))]
    if games:
        missing = [g for g in games if g not in known]
        if missing:
            raise StoreError(f"no game {missing[0]!r} in the source store; games: {', '.join(known) or 'none'}")
        known = [g for g in known if g in set(games)]
    for game in known:
        if target.exists(game) and target.verify(game) != source.verify(game):
            raise StoreError(f"game {game!r} is already in the target with another history; "
                             "nothing was copied (rename or remove one of them first)")
    return known


def copy_game(source: Any, target: Any, game: str) -> Copied:
    """Copy one game and verify the copy (see the module docstring)."""
    head = source.verify(game)
    if target.exists(game):
        if target.verify(game) != head:
            raise StoreError(f"game {game!r} is already in the target with another history")
        return Copied(game, target.version(game), head, "already there")
    header = source.header(game)
    stored = source.events(game, decode=False)
    records = [RawRecord(e.kind, e.schema, e.payload, e.action, e.sig, e.recorded_at) for e in stored]
    target.create_game(game, header.ruleset, records=records, parent=header.parent, parent_at=header.parent_at,
                       parent_head=header.parent_head, bots=header.bots or None, charter=header.charter,
                       domain=header.domain, rules_version=header.rules_version, created_at=header.created,
                       store_schema=header.store_schema)
    _check(source, target, game, head)
    return Copied(game, len(records), head, "copied")


def _check(source: Any, target: Any, game: str, head: str) -> None:
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


def copy_games(source: Any, target: Any, games: Sequence[str] | None = None) -> Iterator[Copied]:
    """Copy ``games`` (default: every game of ``source``), one by one, each verified."""
    for game in plan(source, target, games):
        yield copy_game(source, target, game)
