"""Work on whole stores (``trv store copy``): copy games from one store to another.

The copying itself, each game verified after it is written, is the store's
(``trvendetta.store.copy``); this module opens the two stores, refuses a copy
of a store onto itself, and closes both when the copy is over.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from trvendetta.core.errors import TrvError
from trvendetta.store import GameStore, location
from trvendetta.store.copy import Copied, copy_games


class SameStore(TrvError):
    """The source and the target of a copy are one store."""


def copy_store(source: str, target: str, games: Sequence[str] = ()) -> Iterator[Copied]:
    """Copy ``games`` (default: every game) from the store at ``source`` into the one at
    ``target``, one game at a time as the result is iterated.  Raises :class:`SameStore`
    at once, before either store is opened, when both name one store."""
    if location.parse(source) == location.parse(target):
        raise SameStore("the source and the target are the same store")
    return _copy(source, target, games)


def _copy(source: str, target: str, games: Sequence[str]) -> Iterator[Copied]:
    with GameStore(source) as src, GameStore(target) as dst:
        yield from copy_games(src, dst, games)
