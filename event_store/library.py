"""The store's one use of eventsourcing beyond its public API, kept here alone.

Everything else in ``trvendetta.store`` uses the library's public API:
``Application`` configured by its environment, ``save(aggregate, **kwargs)``,
``repository.get``, ``events.get``, ``snapshots.put`` with ``Snapshot.take``,
``notification_log.select`` and the recorder's ``select_events``.

The private hook, and why it is worth it
-----------------------------------------
**One command, one transaction.**  A command's row of the game index
(``trv_games``) must be written in the same database transaction as its
events, so that a process killed in between leaves both or neither, and a
second durable commit (an fsync, the whole cost of a turn) is not paid.  The
library has no public "also run this in the insert's transaction" hook; its
recorders have a private method that does exactly that for its own tracking
records, ``_insert_events(cursor, stored_events, **kwargs)``, called inside
the transaction by ``insert_events`` (after the event inserts on SQLite,
before them on PostgreSQL; both roll back together).  :func:`run_in_insert`
wraps it on one recorder instance.

``tests/store/test_library_hooks.py`` fails loudly if the installed library
is not the pinned version, if the method is gone or has another signature,
or if the index row stops being written in the events' transaction.  The pin
in pyproject.toml (``eventsourcing==9.5.6``) points here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the eventsourcing release this module was checked against (pyproject pins it)
PINNED = "9.5.6"
#: the keyword ``GameStore`` passes to ``Application.save`` (public: save(**kwargs)
#: reaches the recorder's insert) to carry the writer of the index row
WRITE_KWARG = "trv_write"


def run_in_insert(recorder: Any) -> None:
    """Make ``recorder`` run ``save(..., trv_write=fn)``'s ``fn(cursor)`` inside
    the transaction that inserts the saved events."""
    insert = recorder._insert_events  # private: see the module docstring

    def insert_and_write(cursor: Any, stored_events: Any, **kwargs: Any) -> Any:
        write: Callable[[Any], None] | None = kwargs.pop(WRITE_KWARG, None)
        done = insert(cursor, stored_events, **kwargs)
        if write is not None:
            write(cursor)
        return done

    recorder._insert_events = insert_and_write
