"""The store's errors: domain errors (``TrvError``), so the CLI maps them to exit 1."""

from __future__ import annotations

from trvendetta.core.errors import TrvError


#: where a damage line points to when the damage is the store's (not one game's chain)
CHECK_HINT = "; `trv store check` names every damaged game"


class StoreError(TrvError):
    """Something about the stored games themselves (not the rules) is wrong."""


class GameNotFound(StoreError):
    def __init__(self, game: str, known: list[str] | None = None):
        text = f"no game {game!r} in this store"
        if known:
            shown = known[:10] + ([f"... {len(known) - 10} more"] if len(known) > 10 else [])
            text += "; games: " + ", ".join(shown)
        else:
            text += "; create one with `trv new`"
        super().__init__(text)


class GameExists(StoreError):
    def __init__(self, game: str):
        super().__init__(f"a game called {game!r} already exists; choose another --name")


class StoreReadOnly(StoreError):
    """A write to a store opened for reading only (this process cannot write the file or its folder)."""

    def __init__(self, path: object, why: str | None = None):
        why = why or "its folder cannot hold SQLite's -wal and -shm files"
        super().__init__(f"the game store {path} is read-only here: {why}, so it was opened for reading (show, "
                         "log, legal, verify, export work); to play, ask its owner, or copy it where you can write")


class StoreUnsynced(Exception):
    """A write to a store whose fsync failed (``GameStore.sync``): the operating system may have dropped the
    pages that fsync was to write and count them written, so a later fsync that succeeds proves nothing of
    the commits before it, and nothing more is chained onto them.  Not a ``TrvError``: it is no refusal of
    a command, and no caller that turns those into an answer (a 4xx) may take it for one."""

    def __init__(self, path: object, why: str):
        self.why = why
        super().__init__(f"the game store {path} takes no more writes in this process: {why}, so what it "
                         "committed since its last fsync that succeeded may not be on disk; restart the process, "
                         "which reads the store as it is on disk")


class GameMovedOn(StoreError):
    """Optimistic concurrency: someone else appended since this command loaded the game."""

    def __init__(self, now: int):
        super().__init__(f"game moved on since you loaded it (now at event {now}); run the command again")


class NotAfter(StoreError):
    """``--after N``: the game is no longer at the event the player saw (a retry of a command that landed)."""

    def __init__(self, seen: int, now: int):
        self.seen, self.now = seen, now
        super().__init__(f"game moved on (now at event {now}), not at event {seen} as --after says: nothing was "
                         f"done; look at `trv show` (a retry of a command that landed is refused here)")


class ChainBroken(StoreError):
    """A stored event whose hash does not follow from its predecessor."""

    def __init__(self, game: str, number: int, expected: str, found: str, what: str = "game"):
        super().__init__(f"{what} {game!r}: hash chain broken at event {number}: "
                         f"expected {expected[:16]}..., stored {found[:16]}...")


class SchemaError(StoreError):
    """An event stored with a schema version this ruleset cannot read."""


class DamagedStore(StoreError):
    """Stored rows that cannot be read or disagree with each other, damaged outside trv: one line,
    ``game 'g' is damaged at event N: run trv verify``; ``detail`` is verify's to say (:meth:`in_full`)."""

    def __init__(self, game: str, number: int | None, detail: str, *, full: bool = False):
        self.game = game
        self.number = number
        self.detail = detail
        if number is None or full:
            where = f"event {number}: " if number is not None else ""
            super().__init__(f"game {game!r} is damaged: {where}{detail}")
        else:
            super().__init__(f"game {game!r} is damaged at event {number}: run trv verify")

    def in_full(self) -> "DamagedStore":
        """The same damage, its line saying what is wrong (``trv verify``)."""
        return DamagedStore(self.game, self.number, self.detail, full=True)
