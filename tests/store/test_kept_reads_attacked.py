"""Attacks on a store that trusts its own reads (``GameStore.trust_own_reads``, the server's), each with
the next route around its defence.  Such a store keeps a game it read whole or wrote; it uses the kept
game only while the stored last row is byte for byte the one it read or wrote and the games index and
snapshots agree, and serves kept records only while the stored row holding the last one asked for
re-hashes from the kept chain.  Anything else is read as a plain store reads it: damage is refused
(nothing appended, no move lost), and a file rolled back or forked is read as it now is.

What stays outside: a row before the last one, edited after this process read it, is found by a
fresh store (a restart, ``trv store check``), not by the running process (docs/store.md)."""

import sqlite3
import zlib

import pytest

from tamper import edited_state
from test_store import new, play
from trvendetta.store import ChainBroken, DamagedStore, GameStore
from trvendetta.store.records import game_uuid
from trvendetta.store.rows import CHECK, _save, pack


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, db):
    return str(db) if request.param == "sqlite" else request.getfixturevalue("pg_url")


def _sql(where, sqlite_sql: str, pg_sql: str, params: list) -> None:
    """A statement run behind the stores' backs (another connection; ``{s}``: the PostgreSQL schema, and
    game 'g''s key its uuid there)."""
    with GameStore(where) as other:
        with other._index_db.transaction(commit=True) as cursor:
            if other.schema is None:
                cursor.execute(sqlite_sql, params)
            else:
                cursor.execute(pg_sql.format(s=other.schema), [str(game_uuid(params[0])), *params[1:]])


def _rows(where) -> list[tuple[int, bytes]]:
    with GameStore(where) as other:
        return [(v, bytes(s)) for v, _, s in other.reader.select("g", 0, None, False, None)]


def _set_row(where, version: int, state: bytes) -> None:
    with GameStore(where) as other:
        with other._index_db.transaction(commit=True) as cursor:
            if other.schema is None:
                cursor.execute("UPDATE stored_commands SET state = ? WHERE originator_id = ? "
                               "AND originator_version = ?", [state, "g", version])
            else:
                cursor.execute(f'UPDATE "{other.schema}".trvstore_commands SET state = %s WHERE originator_id = %s '
                               f'AND originator_version = %s', [state, str(game_uuid("g")), version])


def _edit(where, number: int) -> None:
    """Edit record ``number``'s payload in place, its row's check left as stored."""
    version, state = [(v, s) for v, s in _rows(where) if v <= number][-1]

    def flip(doc: dict) -> None:
        doc["payload"] = doc["payload"][:-1] + ',"x":1}'

    _set_row(where, version, edited_state(state, version, number, flip))


def _cut_after(where, count: int) -> None:
    _sql(where, "DELETE FROM stored_commands WHERE originator_id = ? AND originator_version > ?",
         'DELETE FROM "{s}".trvstore_commands WHERE originator_id = %s AND originator_version > %s', ["g", count])


def _trusting(where) -> GameStore:
    store = GameStore(where)
    store.trust_own_reads()
    return store


def _move(toy, store, pick: int = 0):
    g = store.load("g")
    return store.append("g", g.version, toy.apply(g.state, toy.legal_actions(g.state)[pick])[1])


def _moves(toy, store, n: int, pick: int = 0) -> int:
    """``n`` moves, each the ``pick``-th legal action (one event each: the games here are far from won)."""
    for _ in range(n):
        done = _move(toy, store, pick)
    return done.version


def _refused(toy, store, count: int, where) -> None:
    """The store names the damage on a load and an append (inside a request's look and outside), and
    nothing is written."""
    for _ in range(2):
        with pytest.raises(DamagedStore):
            store.load("g")
        with pytest.raises(DamagedStore):
            with store.one_look():
                _move(toy, store)
    with pytest.raises(DamagedStore):
        store.append("g", count, events=[])
    assert _rows(where)[-1][0] <= count


@pytest.mark.parametrize("which", ["last", "second-to-last"])
def test_a_record_of_the_last_row_edited_while_kept_is_refused(where, toy, which):
    """The red team's a01: its check left as stored, the edited record used to be appended on (the kept
    game was taken on the check alone)."""
    with _trusting(where) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 5)
        s.events("g")  # the whole chain kept too
        if which == "second-to-last":  # a record of the last row that is not its last: a command of two
            g = s.load("g")
            added = toy.apply(g.state, toy.legal_actions(g.state)[0])[1]
            added += toy.apply(toy.fold(added, g.state), toy.legal_actions(toy.fold(added, g.state))[0])[1]
            done = s.append("g", g.version, added)
            assert _rows(where)[-1][0] < done.version
        _edit(where, done.version - (which == "second-to-last"))
        _refused(toy, s, done.version, where)
        with pytest.raises(DamagedStore):
            s.events("g")
        with pytest.raises(DamagedStore):
            s.events("g", upto=done.version)


def test_a_row_before_the_last_edited_after_it_was_read_is_found_by_a_fresh_store(where, toy):
    """The next route: a row this process read and checked before is not read again by it (the kept
    chain); a restart and ``verify`` read every row, and find it."""
    with _trusting(where) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 5)
        s.events("g")
        rows = _rows(where)
        version = rows[-2][0]
        _edit(where, version)
        assert s.load("g").head == done.head  # this process's kept chain: not read again
        with GameStore(where) as fresh:
            with pytest.raises(DamagedStore, match=f"event {version}"):
                fresh.load("g")
            with pytest.raises(ChainBroken, match=f"event {version}"):
                fresh.verify("g")


def test_a_tail_cut_behind_a_kept_game_loses_no_move(where, toy):
    """The red team's a04 and a11: another process appended, then its rows were deleted; the games index
    still names them, so the kept game is not the store's (it used to be appended on, the other
    process's moves lost)."""
    with _trusting(where) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 4)
        s.events("g")
        with GameStore(where) as other:
            _move(toy, other)
        _cut_after(where, done.version)
        _refused(toy, s, done.version, where)


def test_a_tail_cut_with_its_index_row_is_refused(where, toy):
    """The next route: the index row deleted with the rows (a lost index row is damage to a plain load)."""
    with _trusting(where) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 4)
        with GameStore(where) as other:
            _move(toy, other)
        _cut_after(where, done.version)
        _drop_index_row(where)
        _refused(toy, s, done.version, where)


def _drop_index_row(where) -> None:
    with GameStore(where) as other:
        with other._index_db.transaction(commit=True) as cursor:
            if other.schema is None:
                cursor.execute("DELETE FROM trv_games WHERE id = ?", ["g"])
            else:
                cursor.execute(f'DELETE FROM "{other.schema}".trv_games WHERE id = %s', ["g"])


@pytest.mark.parametrize("attack", ["index head", "snapshot past the end"])
def test_the_index_row_and_snapshots_are_checked_for_a_kept_game(where, toy, attack):
    """The red team's a05: the index row's head edited at the same count, or a snapshot planted one
    past the last record; a plain load names both, and so does a kept game's."""
    with GameStore(where, snapshot_interval=4) as s:
        s.trust_own_reads()
        new(s, toy, target=100)
        done = play(s, toy, "g", 6)
        s.events("g")
        s.load("g")
        assert s._look("g") is not None  # (the end, index row and snapshots in one statement)
        with GameStore(where) as other:
            with other._index_db.transaction(commit=True) as cursor:
                if attack == "index head":
                    table = "trv_games" if other.schema is None else f'"{other.schema}".trv_games'
                    mark = "?" if other.schema is None else "%s"
                    cursor.execute(f"UPDATE {table} SET head = {mark} WHERE id = {mark}", ["00" * 32, "g"])
                else:
                    snap = other.reader.select_snaps("g", 0, None, True, 1)[0]
                    key = "g" if other.schema is None else str(game_uuid("g"))
                    if other.schema is None:
                        cursor.execute("SELECT originator_id FROM stored_events WHERE topic = 's' LIMIT 1")
                        key = cursor.fetchone()[0]
                        cursor.execute("INSERT INTO stored_events VALUES (?, ?, ?, ?)",
                                       [key, done.version + 3, snap[1], snap[2]])
                    else:
                        cursor.execute(f'INSERT INTO "{other.schema}".trvstore_events (originator_id, '
                                       f'originator_version, topic, state) VALUES (%s, %s, %s, %s)',
                                       [key, done.version + 3, snap[1], snap[2]])
        with GameStore(where) as plain:
            with pytest.raises(DamagedStore):
                plain.load("g")
        _refused(toy, s, done.version, where)


# ------------------------------------------------------------ a file rolled back (SQLite: a copy restored)
def _copy(db):
    copy = db.with_name("copy.sqlite")
    src, dst = sqlite3.connect(db), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    return copy


def _restore(db, copy):
    src, dst = sqlite3.connect(copy), sqlite3.connect(db, timeout=10)
    src.backup(dst)
    src.close()
    dst.close()


def _answers(store, n):
    return (store.load("g").head, store.events("g")[-1].hash, [r.hash for r in store.events("g", upto=n)],
            store.events_head("g", n))


def test_a_file_rolled_back_and_played_on_to_the_same_length_is_read_as_it_is(db, toy):
    """The red team's a02: the kept chain's old records used to be served as checked (``events(upto)``,
    ``events_head``), and ``events`` named the sound fork as damage."""
    with _trusting(db) as s:
        new(s, toy, target=100)
        play(s, toy, "g", 4)
        copy = _copy(db)
        n = _moves(toy, s, 3)
        s.events("g")
        kept = s.load("g").head
        _restore(db, copy)
        with GameStore(db) as other:
            assert _moves(toy, other, 3, pick=-1) == n  # another action from the copy on: a fork
            stored = _answers(other, n)
        assert stored[0] != kept
        with s.one_look():
            assert _answers(s, n) == stored
        assert _answers(s, n) == stored
        _move(toy, s)  # on the stored chain
        with GameStore(db) as fresh:
            assert fresh.verify("g")


def test_a_forked_last_row_carrying_the_kept_check_is_damage(db, toy):
    """The next route: rolled back and played on to the same length, with the last row's check set to the
    one this process kept: its records are re-hashed, so it is not taken for the kept one; the file is
    read as it is (the check does not follow: damage)."""
    with _trusting(db) as s:
        new(s, toy, target=100)
        play(s, toy, "g", 4)
        copy = _copy(db)
        n = _moves(toy, s, 3)
        s.events("g")
        kept = s.load("g").head
        _restore(db, copy)
        with GameStore(db) as other:
            assert _moves(toy, other, 3, pick=-1) == n
        version, state = _rows(db)[-1]
        save = _save.decode(zlib.decompress(state))
        save.check = bytes.fromhex(kept)[:CHECK]
        _set_row(db, version, pack(save))
        for read in (lambda: s.load("g"), lambda: s.events("g"), lambda: s.events("g", upto=n),
                     lambda: s.events_head("g", n), lambda: _move(toy, s)):
            with pytest.raises(DamagedStore):
                read()


def test_a_file_rolled_back_to_fewer_records_serves_only_those(db, toy):
    """The red team's a03: ``events(upto)`` used to serve records the store no longer holds."""
    with _trusting(db) as s:
        new(s, toy, target=100)
        k = play(s, toy, "g", 4).version
        copy = _copy(db)
        n = _moves(toy, s, 3)
        s.events("g")
        _restore(db, copy)
        assert [r.number for r in s.events("g", upto=n)][-1] == k
        assert s.load("g").version == k
        with pytest.raises(Exception, match="event"):
            s.events_head("g", n)
        assert _move(toy, s).version == k + 1


def test_a_file_rolled_back_and_played_past_the_kept_end_is_read_as_it_is(db, toy):
    """The next route: rolled back, then played on past the kept end by another process: the row holding
    a kept record is another one now, and the kept records are not served for it."""
    with _trusting(db) as s:
        new(s, toy, target=100)
        play(s, toy, "g", 4)
        copy = _copy(db)
        n = _moves(toy, s, 3)
        s.events("g")
        _restore(db, copy)
        with GameStore(db) as other:
            _moves(toy, other, 6, pick=-1)
            stored = [r.hash for r in other.events("g")]
        assert [r.hash for r in s.events("g", upto=n)] == stored[:n]
        assert s.events_head("g", n) == stored[n - 1]
        assert [r.hash for r in s.events("g")] == stored
        assert s.load("g").head == stored[-1]
