"""Two processes on one store: a read meets the other's append between two of its statements.

A read to a game's end reads its rows, then its games index row, then its latest snapshot, each in a
statement of its own.  When another process (a second `trv serve` on the same PostgreSQL database, or a
second process on one SQLite file) commits a move in between, the index row, or a snapshot, names events
the rows just read do not hold: the game moved on, and that is no damage (issue 43: a healthy game was
called damaged, its page answered 503 and the server's clock skipped a round).  The events they name are
read again, as stored now, each checked on from the read's end; an index ahead of the rows with nothing
stored for it, or another head, is damage as before, and so are rows hidden from a read in order.
"""

from __future__ import annotations

import pytest

from test_store import new, play
from trvendetta.store import DamagedStore, GameStore


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, db):
    return str(db) if request.param == "sqlite" else request.getfixturevalue("pg_url")


def _move(store: GameStore, toy) -> int:
    """One move of game 'g' committed by ``store`` (another process); the game's count after it."""
    g = store.load("g")
    return store.append("g", g.version, toy.apply(g.state, toy.legal_actions(g.state)[0])[1]).version


def _before_first(obj, attr: str, act, when=lambda *args: True) -> list:
    """``obj.attr`` runs ``act()`` once, just before its first call that ``when`` accepts (another
    process commits between two reads); the list it returns holds what ``act`` returned, once run."""
    real, done = getattr(obj, attr), []

    def hooked(*args, **kwargs):
        if not done and when(*args):
            done.append(act())
        return real(*args, **kwargs)

    setattr(obj, attr, hooked)
    return done


def _tail(s: GameStore, n: int):
    return s.events("g", since=max(0, n - 2), decode=False)  # as a server reads a game's last record


def _whole(s: GameStore, n: int):
    return s.events("g")


def _load(s: GameStore, n: int):
    return [s.load("g")]


READS = {"tail": _tail, "whole": _whole, "load": _load}


def _played(where, toy, moves: int = 4) -> int:
    with GameStore(where) as s:
        new(s, toy, target=100)
        return play(s, toy, "g", moves).version


def _last(read) -> int:
    last = read[-1]
    return last.number if hasattr(last, "number") else last.version


@pytest.mark.parametrize("read", READS)
@pytest.mark.parametrize("played", ["here", "elsewhere"])
@pytest.mark.parametrize("server", [True, False], ids=["server", "plain"])
def test_a_move_committed_between_the_rows_and_the_index_is_no_damage(where, toy, read, played, server):
    """``played``: the game's moves so far made by this process (its records kept, as checked) or another."""
    with GameStore(where) as s, GameStore(where) as other:
        if server:  # as `trv serve` reads: its own reads trusted, one look at each game a request
            s.trust_own_reads()
        new(s if played == "here" else other, toy, target=100)
        n = play(s if played == "here" else other, toy, "g", 4).version
        done = _before_first(s.index, "get", lambda: _move(other, toy))
        with s.one_look():
            assert s.version("g") == n  # the request's first look at the game's end
            got = READS[read](s, n)
        assert done == [n + 1]  # the other process's move landed between the two reads
        assert _last(got) == n  # the game as its rows were read
        assert s.load("g").version == n + 1 and s.version("g") == n + 1  # and as it is now, read again


@pytest.mark.parametrize("read", READS)
def test_a_snapshot_written_between_the_index_and_the_snapshots_is_no_damage(where, toy, read):
    """The other process's move passes a snapshot interval after this read's index row was read."""
    n = _played(where, toy)
    with GameStore(where) as s, GameStore(where, snapshot_interval=1) as other:
        s.trust_own_reads()
        done = _before_first(s.reader, "select_snaps", lambda: _move(other, toy),
                             when=lambda game, gt, lte, desc, limit: gt == n and limit == 1)
        with s.one_look():
            got = READS[read](s, n)
        assert done == [n + 1] and [snap.number for snap in s.snapshots("g")][-1] == n + 1
        assert _last(got) == n
        assert s.load("g").version == n + 1


def _index_sql(store: GameStore, assignment: str) -> None:
    index = store.index
    with index.transaction(commit=True) as c:
        c.execute(index._sql(f"UPDATE {index.table} SET {assignment} WHERE id = ?"), ["g"])


@pytest.mark.parametrize("read", READS)
@pytest.mark.parametrize("server", [True, False], ids=["server", "plain"])
def test_an_index_row_claiming_events_never_stored_is_still_damage(where, toy, read, server):
    """The attack the re-read must not excuse: the index row edited to name two events more than stored."""
    n = _played(where, toy)
    with GameStore(where) as s:
        _index_sql(s, "version = version + 2")
    with GameStore(where) as s:
        if server:
            s.trust_own_reads()
        with s.one_look(), pytest.raises(DamagedStore) as found:
            READS[read](s, n)
        assert found.value.number == n + 1
        assert found.value.detail == f"events {n + 1}-{n + 2} are missing: the store holds {n}, " \
                                     f"the games index says {n + 2}"
        assert s.version("g") == n


@pytest.mark.parametrize("read", ["whole", "load"])
def test_an_index_ahead_of_rows_a_read_in_order_cannot_see_is_still_damage(where, toy, read):
    """The route around a re-read of the game's last row alone: the rows' table index damaged so that a
    read in order ends early while the last row, read backwards, is found (it says the game moved on)."""
    n = _played(where, toy, moves=8)
    with GameStore(where) as s:
        versions = [row[0] for row in s.reader.select("g", 0, None, False, None)]
    short = versions[len(versions) // 2] - 1  # a read in order ends after this record
    with GameStore(where) as s:
        s.trust_own_reads()
        select = s.reader.select
        s.reader.select = lambda key, gt, lte, desc, limit: (
            select(key, gt, lte, desc, limit) if desc else
            [r for r in select(key, gt, lte, desc, limit) if r[0] <= short])
        with s.one_look(), pytest.raises(DamagedStore) as found:
            READS[read](s, n)
        assert found.value.number == short + 1 and f"the games index says {n}" in found.value.detail


def test_a_move_committed_meanwhile_under_an_index_head_off_its_chain_is_damage(where, toy):
    """Between the two reads the game moved on, and its index row then names a head its events do not have."""
    n = _played(where, toy)
    with GameStore(where) as s, GameStore(where) as other:
        s.trust_own_reads()

        def moved_and_edited() -> int:
            count = _move(other, toy)
            _index_sql(other, "head = '" + "ab" * 32 + "'")
            return count

        done = _before_first(s.index, "get", moved_and_edited)
        with s.one_look(), pytest.raises(DamagedStore) as found:
            _tail(s, n)
        assert done == [n + 1]
        assert found.value.number == n + 1 and "the games index says its head is abababab" in found.value.detail
