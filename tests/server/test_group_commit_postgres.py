"""The club server's group commit on PostgreSQL: a command's transaction commits without waiting for the
database's log to be flushed (``synchronous_commit`` off), and its answer waits for a flush that started
after it (``GameStore.sync``: one for all the commits made meanwhile); a flush that fails is a 503 saying
what was recorded, never a 200, and stops no later write (the next flush covers it)."""

from __future__ import annotations

import pytest

from trvendetta.store import StoreError

from .conftest import Club
from .test_recovery import _act, duel  # noqa: F401  (the fixture, over this module's club)


@pytest.fixture
def club(tmp_path, pg_url):
    c = Club(tmp_path, pg_url)
    yield c
    c.stop()


def test_a_move_is_answered_only_once_a_flush_after_its_commit_returned(duel):  # noqa: F811
    server = duel["club"].app.state.server
    store = server.club.store
    assert server._syncer is not None  # (before, PostgreSQL's commits waited for their own flush)
    synced: list[int] = []
    real = server._syncer._sync

    def sync() -> None:
        started = store.commits  # (every commit counted here returned before this flush)
        real()
        synced.append(started)
    server._syncer._sync = sync
    for _ in range(3):
        response = _act(duel)
        assert response.status_code == 200, response.text
        assert synced and max(synced) >= store.commits  # its commits (the move, the roll) are durable


def test_a_flush_that_fails_is_a_503_saying_what_was_recorded_and_the_game_goes_on(duel):  # noqa: F811
    server = duel["club"].app.state.server
    real = server._syncer._sync
    failing = [True]

    def sync() -> None:
        if failing[0]:
            raise StoreError("cannot make the store's last commits durable: PostgreSQL did not flush its log "
                             "(server closed the connection unexpectedly)")
        real()
    server._syncer._sync = sync
    response = _act(duel)
    assert response.status_code == 503, response.text
    answer = response.json()
    assert answer["recorded"] == server.club.store.version("duel"), answer
    assert "not known to be on disk" in answer["error"] and "did not flush its log" in answer["error"], answer
    failing[0] = False
    assert server._stopped is None  # (not a failed fsync of a file: no write is stopped)
    assert _act(duel).status_code == 200  # the next flush covers it, and the game goes on
