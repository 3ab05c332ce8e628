"""A server's store (``trust_own_reads``) on SQLite skips the kept game's look (its last row, index row and
latest snapshot, ``GameStore._look``) while ``PRAGMA data_version`` of its writer connection is what it was
when that look last found the kept game to be the stored one: nothing but this store's own commits
changed the file since.  Each attack here is a commit by another connection (another process, or this
process's other connections), made after the store went quiet; each is seen on the next request exactly
as a store that looks every time sees it (docs/store.md, "A long-running server trusts its own reads").

What stays outside, as before: a byte edit of the file behind SQLite's back changes no counter, and
SQLite's page cache serves the rows it read before; a fresh store finds it."""

import sqlite3

import pytest

from test_kept_reads_attacked import _copy, _cut_after, _drop_index_row, _edit, _move, _moves, _refused, _restore
from test_store import new, play
from trvendetta.store import DamagedStore, GameMovedOn, GameStore


class _Counted(GameStore):
    """A trusting store that counts its looks (``_look``: the one statement a kept game's check reads)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.looks = 0
        self.trust_own_reads()

    def _look(self, game):
        self.looks += 1
        return super()._look(game)


def _request(store, fn):
    """``fn()`` as a server's request runs it (``one_look``), and how many looks it took."""
    before = store.looks
    with store.one_look():
        out = fn()
    return out, store.looks - before


def _quiet_game(toy, db) -> _Counted:
    """A trusting store whose kept game 'g' it found stored and then played on alone: quiet."""
    s = _Counted(db)
    new(s, toy, target=100)
    play(s, toy, "g", 3)
    s.events("g")
    _request(s, lambda: _move(toy, s))
    assert _request(s, lambda: s.load("g"))[1] == 0  # quiet: nothing read for the check
    return s


def test_a_store_that_alone_writes_its_file_reads_no_kept_games_check(toy, db):
    with _quiet_game(toy, db) as s:
        for _ in range(5):
            done, looks = _request(s, lambda: _move(toy, s))  # its own commits leave it quiet
            assert looks == 0
        with GameStore(db) as plain:
            stored = plain.load("g")
        assert (done.version, done.head, done.state) == (stored.version, stored.head, stored.state)
        assert (s.load("g").head, s.events("g")[-1].hash) == (stored.head, stored.head)


def test_postgresql_looks_on_every_request(toy, pg_url):
    """No counter of other writers there: each request's kept load is its one round trip."""
    with _Counted(pg_url) as s:
        new(s, toy, target=100)
        play(s, toy, "g", 2)
        for _ in range(3):
            assert _request(s, lambda: _move(toy, s))[1] == 1


def test_another_connections_move_is_read_on_the_next_request(toy, db):
    with _quiet_game(toy, db) as s:
        with GameStore(db) as other:
            theirs = _move(toy, other)
        (loaded, looks) = _request(s, lambda: s.load("g"))
        assert looks == 1 and (loaded.version, loaded.head) == (theirs.version, theirs.head)
        mine, _ = _request(s, lambda: _move(toy, s))  # on top of theirs
        assert mine.version == theirs.version + 1


def test_an_append_on_the_kept_version_after_another_connections_move_is_refused(toy, db):
    from trvendetta.store import GameMovedOn

    with _quiet_game(toy, db) as s:
        g = s.load("g")
        events = toy.apply(g.state, toy.legal_actions(g.state)[0])[1]
        with GameStore(db) as other:
            _move(toy, other)
        with pytest.raises(GameMovedOn):
            _request(s, lambda: s.append("g", g.version, events))


def test_the_last_row_edited_by_another_connection_is_refused(toy, db):
    with _quiet_game(toy, db) as s:
        count = s.load("g").version
        _edit(db, count)
        _refused(toy, s, count, db)


def test_a_tail_cut_by_another_connection_is_refused(toy, db):
    with _quiet_game(toy, db) as s:
        count = s.load("g").version
        with GameStore(db) as other:
            _move(toy, other)
        _request(s, lambda: s.load("g"))
        _cut_after(db, count)
        _drop_index_row(db)
        _refused(toy, s, count, db)


def test_a_file_rolled_back_is_read_as_it_is(toy, db):
    with _Counted(db) as s:
        new(s, toy, target=100)
        k = play(s, toy, "g", 3).version
        copy = _copy(db)
        _moves(toy, s, 3)
        assert _request(s, lambda: s.load("g"))[1] == 0
        _restore(db, copy)  # (SQLite's backup: a commit of another connection)
        loaded, looks = _request(s, lambda: s.load("g"))
        assert looks == 1 and loaded.version == k
        assert _request(s, lambda: _move(toy, s))[0].version == k + 1


def test_any_commit_of_another_connection_makes_it_look_again(toy, db):
    """Even to a table of no game (the server's accounts are another connection to the same file)."""
    with _quiet_game(toy, db) as s:
        con = sqlite3.connect(db)
        with con:
            con.execute("CREATE TABLE IF NOT EXISTS other (x)")
            con.execute("INSERT INTO other VALUES (1)")
        con.close()
        assert _request(s, lambda: s.load("g"))[1] == 1
        assert _request(s, lambda: s.load("g"))[1] == 0  # quiet again


def test_a_byte_edit_behind_sqlite_is_found_by_a_fresh_store(toy, db):
    """The boundary: no connection committed, so no counter moved; SQLite's page cache serves what it read
    (a look would too).  A fresh store, ``verify`` and ``trv store check`` read the file and find it."""
    with _quiet_game(toy, db) as s:
        count = s.load("g").version
        row = s._tails["g"][2]
        edited = False
        for f in (db.with_name(db.name + "-wal"), db):
            data = bytearray(f.read_bytes())
            at = data.rfind(row)
            if at >= 0:
                data[at + len(row) // 2] ^= 0x55
                f.write_bytes(bytes(data))
                edited = True
                break
        assert edited
        with GameStore(db) as fresh:
            with pytest.raises(DamagedStore, match=f"event {count}"):
                fresh.load("g")


def test_a_commit_landing_just_after_the_look_is_seen_by_the_next_request(toy, db):
    """The counter is read before the look: a move another connection commits just after the look read
    the end (the kept game then found stored, as it was) leaves the counter changed, so the next request
    looks again and reads the move rather than taking the kept game for the stored one."""

    class Racing(_Counted):
        race = False

        def _look(self, game):
            out = super()._look(game)
            if self.race:
                self.race = False
                with GameStore(db) as other:
                    self.theirs = _move(toy, other)
            return out

    with Racing(db) as s:
        new(s, toy, target=100)
        play(s, toy, "g", 3)
        mine, _ = _request(s, lambda: _move(toy, s))
        s._quiet.clear()  # (the next request looks)
        s.race = True
        assert _request(s, lambda: s.load("g")) == (mine, 1)  # as the look found it
        loaded, looks = _request(s, lambda: s.load("g"))
        assert looks == 1 and (loaded.version, loaded.head) == (s.theirs.version, s.theirs.head)


# ------------------------------------------------ inside one request: the write lock checks again
def _rows(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM stored_commands").fetchone()[0]
    finally:
        con.close()


def test_a_file_rolled_back_inside_a_request_is_not_appended_to(toy, db):
    """The counter is read at the request's first look (game h); g, quiet, is not looked at.  A copy of
    the file from before g's last moves is restored after that, inside the request: the append on top
    of the kept g would chain onto records the file no longer holds, and is refused, nothing written."""
    with _quiet_game(toy, db) as s:
        copy = _copy(db)
        _moves(toy, s, 2)
        new(s, toy, name="h", target=100)
        s.load("h")
        with s.one_look():
            s.load("h")  # the request's counter is read here
            g = s.load("g")  # quiet: the kept g, nothing read
            _restore(db, copy)
            rows = _rows(db)
            with pytest.raises(GameMovedOn):
                s.append("g", g.version, toy.apply(g.state, toy.legal_actions(g.state)[0])[1])
            assert _rows(db) == rows
        with GameStore(db) as fresh:
            stored = fresh.load("g")
        assert stored.version == g.version - 2
        assert _request(s, lambda: _move(toy, s))[0].version == stored.version + 1


def test_the_last_row_cut_inside_a_request_is_not_appended_to(toy, db):
    with _quiet_game(toy, db) as s:
        new(s, toy, name="h", target=100)
        s.load("h")
        with s.one_look():
            s.load("h")
            g = s.load("g")
            _cut_after(db, g.version - 1)
            rows = _rows(db)
            with pytest.raises((GameMovedOn, DamagedStore)):
                s.append("g", g.version, toy.apply(g.state, toy.legal_actions(g.state)[0])[1])
            assert _rows(db) == rows


def test_another_games_commit_inside_a_request_does_not_refuse_the_append(toy, db):
    """The next route: the check under the write lock must not refuse a game nobody touched because
    another connection committed elsewhere (it reads g's last row again, finds it kept, and stamps it)."""
    with _quiet_game(toy, db) as s:
        with s.one_look():
            g = s.load("g")
            con = sqlite3.connect(db)
            with con:
                con.execute("CREATE TABLE IF NOT EXISTS other (x)")
                con.execute("INSERT INTO other VALUES (1)")
            con.close()
            done = s.append("g", g.version, toy.apply(g.state, toy.legal_actions(g.state)[0])[1])
        assert done.version == g.version + 1
        assert _request(s, lambda: s.load("g"))[1] == 0  # found kept under the lock: quiet again
        with GameStore(db) as fresh:
            assert fresh.load("g").head == done.head
