"""The club server's group commit on SQLite: a command's commit does not wait for its own fsync, but its
answer waits for an fsync that started after it (``server.app._Syncer``), one fsync for all the commits
made meanwhile; a sync that fails is an error, never a 200."""

from __future__ import annotations

import asyncio
import threading

import pytest

from trvendetta.server.app import _Syncer

from .test_recovery import _act, duel  # noqa: F401  (the fixture)


def test_a_move_is_answered_only_once_an_fsync_after_its_commit_returned(duel):  # noqa: F811
    server = duel["club"].app.state.server
    store = server.club.store
    synced: list[int] = []
    real = server._syncer._sync

    def sync() -> None:
        started = store.commits  # (every commit counted here returned before this fsync)
        real()
        synced.append(started)
    server._syncer._sync = sync
    for _ in range(3):
        response = _act(duel)
        assert response.status_code == 200, response.text
        assert synced and max(synced) >= store.commits  # its commits (the move, the roll) are durable


def test_a_sync_that_fails_before_its_fsync_is_a_503_saying_what_was_recorded(duel):  # noqa: F811
    """The log could not even be opened (no fsync failed, no page is lost: the next sync covers it): the
    request's records are stored, not known to be on disk yet; the server goes on.  (A failed fsync
    itself: test_failed_fsync.py.)"""
    server = duel["club"].app.state.server
    real = server._syncer._sync
    failing = [True]

    def sync() -> None:
        if failing[0]:
            raise OSError(24, "Too many open files")
        real()
    server._syncer._sync = sync
    response = _act(duel)
    assert response.status_code == 503, response.text
    answer = response.json()
    assert answer["recorded"] == server.club.store.version("duel"), answer
    assert "not known to be on disk" in answer["error"] and "Too many open files" in answer["error"], answer
    failing[0] = False
    assert _act(duel).status_code == 200  # the next fsync covers it, and the game goes on


def test_a_failed_sync_is_not_tried_again_in_a_loop():
    """Once the requests waiting on a failed sync are answered, the thread waits for the next commit:
    it does not call the failing disk again and again."""
    calls: list[int] = []

    def sync() -> None:
        calls.append(1)
        raise OSError(5, "Input/output error")
    syncer = _Syncer(sync)

    async def main() -> None:
        with pytest.raises(OSError):
            await asyncio.wait_for(syncer.synced(1), 30)
    try:
        asyncio.run(main())
    finally:
        syncer.close()
    assert len(calls) == 1 and not syncer._thread.is_alive()


def test_commits_made_during_one_fsync_share_the_next():
    calls: list[int] = []
    entered, release = threading.Event(), threading.Event()

    def sync() -> None:
        calls.append(1)
        if len(calls) == 1:
            entered.set()
            release.wait(30)
    syncer = _Syncer(sync)

    async def main() -> None:
        first = asyncio.ensure_future(syncer.synced(1))
        await asyncio.sleep(0)  # (it asks for the first fsync)
        assert await asyncio.get_running_loop().run_in_executor(None, entered.wait, 30)
        later = [asyncio.ensure_future(syncer.synced(n)) for n in (2, 3, 4)]  # committed during it
        await asyncio.sleep(0)
        release.set()
        await asyncio.wait_for(asyncio.gather(first, *later), 30)
        await asyncio.wait_for(syncer.synced(4), 30)  # durable already: no fsync more
    try:
        asyncio.run(main())
    finally:
        syncer.close()
    assert len(calls) == 2
