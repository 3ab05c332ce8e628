"""A server on PostgreSQL whose cached view of a game is ahead of the database (a commit the database took
back in a crash, a row deleted behind its back): its next write is refused inside its transaction, the
game keeps no gap, and a move made afterwards goes on from where the database has the game."""

from __future__ import annotations

import pytest

from tamper import pg_index_row, pg_take_back  # tests/ is on sys.path (rootdir conftest)
from trvendetta.store import GameStore

from .conftest import Club
from .test_recovery import _act, duel  # noqa: F401  (the fixture, over this module's club)

psycopg = pytest.importorskip("psycopg")


@pytest.fixture
def club(tmp_path, pg_url):
    c = Club(tmp_path, pg_url)
    yield c
    c.stop()


def test_the_hosts_roll_onto_an_intent_the_database_lost_is_refused_and_leaves_no_gap(duel, pg_url):  # noqa: F811
    """The red team's gap: a player's intent commits, the database loses it before the host's roll is
    written in the same request, and the roll was chained onto the server's cached game (event N+2 stored,
    N+1 missing: the game damaged for good, the move answered 200).  Now the roll is refused: no 200,
    the game ends where the database has it and verifies, and the next move is played from there."""
    club = duel["club"]
    server = club.app.state.server
    store, service = server.club.store, server.club.service
    real = service.answer_host
    taken: list[int] = []
    before: dict = {}

    def answer_host(game, host, **bots):
        if service.waiting(game) and not taken:  # the intent is committed: the crash takes it back
            pg_take_back(pg_url, store._key(game), game, before["version"], before["index"])
            taken.append(before["version"])
        return real(game, host, **bots)
    service.answer_host = answer_host
    game, games = "duel", 0
    for _ in range(400):
        doc = duel["http"].get(f"/api/games/{game}", headers=duel["auth"]["ann"]).json()
        if doc["pending"] is None:  # over before the host's dice were needed: another game
            games += 1
            game = f"duel{games}"
            duel["ann"]("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", game)
            duel["bob"]("join", game)
            continue
        before.update(version=store.version(game), index=pg_index_row(pg_url, game))
        response = _act(duel, game)
        if taken:
            break
        assert response.status_code == 200, response.text
    else:
        raise AssertionError("no move needed the host's dice")
    assert response.status_code == 409, response.text
    assert f"your move is not stored: the game is at event {taken[0]}" in response.json()["error"], response.text
    with GameStore(pg_url) as fresh:
        assert fresh.version(game) == taken[0] and fresh.verify(game)
    assert _act(duel, game).status_code == 200  # the game goes on from where the database has it
    with GameStore(pg_url) as fresh:
        assert fresh.version(game) > taken[0] and fresh.verify(game)
