"""Rows that disagree with each other are named, not retried for ever.

A damaged index of the events table can hide a game's last rows from a read
in order while the database still holds them: a load then ends early, and
every append is refused because the event it adds is already stored.  That
is damage (``DamagedStore``, the one line that points to ``trv verify``),
never "game moved on", which a user would retry for ever.
"""

import sqlite3
import zlib


import pytest

from test_store import new, play
from trvendetta.store import DamagedStore, GameMovedOn, GameStore


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, db):
    return str(db) if request.param == "sqlite" else request.getfixturevalue("pg_url")


def _hide_after(store: GameStore, version: int) -> None:
    """Reads of the events in order end at ``version`` (as a damaged table index makes them); the last row,
    read backwards, is still found."""
    select = store.reader.select

    def damaged(key, gt, lte, desc, limit):
        found = select(key, gt, lte, desc, limit)
        return found if desc else [r for r in found if r[0] <= version]

    store.reader.select = damaged


def _played(where, toy) -> tuple[int, int]:
    """A game of a dozen appends: its count, and the last record of a row in the middle (where reads in
    order will end)."""
    with GameStore(where) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 12)
        versions = [row[0] for row in s.reader.select("g", 0, None, False, None)]
    return done.version, versions[len(versions) // 2] - 1  # (a row is stored under its first record's number)


def test_a_load_that_ends_before_the_games_index_is_damage(where, toy):
    count, short = _played(where, toy)
    with GameStore(where) as s:
        _hide_after(s, short)
        with pytest.raises(DamagedStore) as found:
            s.load("g")
        assert str(found.value) == f"game 'g' is damaged at event {short + 1}: run trv verify"
        with pytest.raises(DamagedStore):
            s.append("g", short, events=[_next_event(s, toy, short)])
    with GameStore(where) as s:
        assert s.load("g").version == count  # nothing was appended


def test_an_append_refused_as_stored_where_a_read_finds_nothing_is_damage(where, toy):
    """With no games index row to compare, its absence tells (a command writes its rows and its index row
    together), and so does the refusal of the insert: the game did not move on."""
    count, short = _played(where, toy)
    with GameStore(where) as s:
        _drop_index_row(s)
        _hide_after(s, short)
        with pytest.raises(DamagedStore):  # rows with no index row: one transaction writes both
            s.load("g")
        with pytest.raises(DamagedStore) as found:
            s.append("g", short, events=[_next_event(s, toy, short)])
        assert not isinstance(found.value, GameMovedOn)
        assert str(found.value) == f"game 'g' is damaged at event {short + 1}: run trv verify"
    with GameStore(where) as s:
        assert s.version("g") == count  # nothing appended


def test_a_game_that_moved_on_is_still_refused_as_moved_on(where, toy):
    count, _ = _played(where, toy)
    with GameStore(where) as s, GameStore(where) as other:
        stale = s.load("g")
        play(other, toy, "g", 1, seed=2)
        assert other.load("g").version > count
        with pytest.raises(GameMovedOn):
            s.append("g", stale.version, events=[_next_event(s, toy, stale.version)])


def _next_event(store: GameStore, toy, at: int):
    game = store.load("g", at)
    return toy.apply(game.state, toy.legal_actions(game.state)[0])[1][0]


def _drop_index_row(store: GameStore) -> None:
    with store._index_db.transaction(commit=True) as cursor:
        if store.schema is None:
            cursor.execute("DELETE FROM trv_games WHERE id = ?", ["g"])
        else:
            cursor.execute(f'DELETE FROM "{store.schema}".trv_games WHERE id = %s', ["g"])


def test_a_load_from_a_snapshot_checks_every_record_it_folds(db, toy):
    """A game with snapshots: a load starts from the latest one only when every row before it is read and
    its links checked from the genesis, and the records since the one before fold to it; it folds the
    records after it, checked too.  So a bit flipped in any row stops the load and the append (issue 42:
    a row before the snapshot before the latest was not read), and `events` (log, export) too."""
    from trvendetta import replays

    with GameStore(db, snapshot_interval=10) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 40)
        snapshots = [snap.number for snap in s.snapshots("g")]
    assert len(snapshots) >= 3
    before = snapshots[-2]  # the witness: the load folds from it
    con = sqlite3.connect(db)
    rows = con.execute("SELECT originator_version, state FROM stored_commands WHERE originator_id = ? "
                       "AND originator_version > 1 ORDER BY originator_version", ["g"]).fetchall()
    read, unread = 0, 0
    try:
        for version, state in rows:
            for byte in range(2, len(state), 7):  # past zlib's header
                flipped = bytearray(state)
                flipped[byte] ^= 0x10
                with con:
                    con.execute("UPDATE stored_commands SET state = ? WHERE originator_id = ? AND originator_version = ?",
                                [bytes(flipped), "g", version])
                try:
                    with GameStore(db) as s:
                        try:
                            if zlib.decompress(bytes(flipped)) == zlib.decompress(state):
                                continue  # the row still holds the same bytes (a flip in deflate's padding)
                        except zlib.error:
                            pass
                        with pytest.raises(DamagedStore):
                            s.events("g")
                        first = version  # the row's first record
                        with pytest.raises(DamagedStore):
                            s.load("g")
                        with pytest.raises(DamagedStore):
                            s.append("g", done.version, events=[_next_event_after(toy, done)])
                        if first > before:
                            read += 1  # folded from the witness on
                        else:
                            unread += 1  # before the witness: its links are checked, nothing decoded
                finally:
                    with con:
                        con.execute("UPDATE stored_commands SET state = ? WHERE originator_id = ? "
                                    "AND originator_version = ?", [state, "g", version])
    finally:
        con.close()
    assert read >= 5 and unread >= 5
    with GameStore(db) as s:
        assert s.load("g").version == done.version


def _next_event_after(toy, game):
    return toy.apply(game.state, toy.legal_actions(game.state)[0])[1][0]


def _sql(store: GameStore, sqlite_sql: str, pg_sql: str, params: list) -> None:
    """Run one statement behind the store's back (``{s}``: the PostgreSQL schema; the game's key is the first
    parameter: its name on SQLite, its uuid on PostgreSQL)."""
    from trvendetta.store.records import game_uuid

    with store._index_db.transaction(commit=True) as cursor:
        if store.schema is None:
            cursor.execute(sqlite_sql, params)
        else:
            cursor.execute(pg_sql.format(s=store.schema), [str(game_uuid(params[0])), *params[1:]])


def _cut_tail(store: GameStore, after: int) -> None:
    _sql(store, "DELETE FROM stored_commands WHERE originator_id = ? AND originator_version > ?",
         'DELETE FROM "{s}".trvstore_commands WHERE originator_id = %s AND originator_version > %s', ["g", after])


def _snapshot_key(store: GameStore, cursor) -> object:
    """Game 'g''s key in the application's table, as stored (read by its name row)."""
    if store.schema is None:
        cursor.execute("SELECT originator_id FROM stored_events WHERE topic = 'g' AND state = CAST('g' AS BLOB)")
        return cursor.fetchone()[0]
    from trvendetta.store.records import game_uuid

    return str(game_uuid("g"))


def _cut_snapshots(store: GameStore, after: int) -> None:
    with store._index_db.transaction(commit=True) as cursor:
        key = _snapshot_key(store, cursor)
        if store.schema is None:
            cursor.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version > ?", [key, after])
        else:
            cursor.execute(f'DELETE FROM "{store.schema}".trvstore_events WHERE originator_id = %s '
                           f'AND originator_version > %s', [key, after])


def _refused_everywhere(where, toy, count: int, says: str) -> None:
    """Every load, every whole read and every append of game 'g' stops with DamagedStore saying ``says``."""
    with GameStore(where) as s:
        for read in (lambda: s.load("g"), lambda: s.events("g"), lambda: s.events("g", decode=False),
                     lambda: s.append("g", count, events=[_next_event_after(toy, s.load("g", count))])):
            with pytest.raises(DamagedStore) as found:
                read()
            assert says in found.value.detail


@pytest.mark.parametrize("snapshots", ["kept", "cut"])
def test_a_cut_tail_with_its_index_row_deleted_is_refused(where, toy, snapshots):
    """A cheater's rollback: the last rows and the game's index row deleted (issue 42 red team, b_rollback):
    the snapshots past the cut, or the missing index row, tell; nothing reads it as a sound, shorter game."""
    with GameStore(where, snapshot_interval=10) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 40)
        cut = [row[0] for row in s.reader.select("g", 0, None, False, None)][-3] - 1  # rows after it go
        assert cut > 20 and done.version > cut
        _cut_tail(s, cut)
        _drop_index_row(s)
        if snapshots == "cut":
            _cut_snapshots(s, cut)
    expected = (f"events {cut + 1}-" if snapshots == "kept" else "the games index has no row for it")
    _refused_everywhere(where, toy, cut, expected)
    with GameStore(where) as s:
        assert s.version("g") == cut  # nothing appended


def test_snapshots_planted_past_the_last_event_stop_appends_at_once(where, toy):
    """Snapshot rows copied to versions the game has not reached (red team, h_planted_snapshot)."""
    with GameStore(where, snapshot_interval=10) as s:
        new(s, toy, target=100)
        done = play(s, toy, "g", 30)
        latest = s.snapshots("g")[-1].number
        with s._index_db.transaction(commit=True) as cursor:
            key = _snapshot_key(s, cursor)
            table = "stored_events" if s.schema is None else f'"{s.schema}".trvstore_events'
            mark = "?" if s.schema is None else "%s"
            cursor.execute(f"SELECT state FROM {table} WHERE originator_id = {mark} AND originator_version = {mark}",
                           [key, latest])
            found = cursor.fetchone()
            state = bytes(found[0] if s.schema is None else found["state"])
    with GameStore(where, snapshot_interval=10) as s:
        with s._index_db.transaction(commit=True) as cursor:
            for n in range(done.version + 1, done.version + 5):
                if s.schema is None:
                    cursor.execute("INSERT INTO stored_events (originator_id, originator_version, topic, state) "
                                   "VALUES (?, ?, 's', ?)", [key, n, state])
                else:
                    cursor.execute(f'INSERT INTO "{s.schema}".trvstore_events (originator_id, originator_version, '
                                   f"topic, state) VALUES (%s, %s, 's', %s)", [key, n, state])
    _refused_everywhere(where, toy, done.version, f"events {done.version + 1}-{done.version + 4} are missing")


def test_an_index_row_naming_fewer_events_off_the_chain_is_damage(where, toy):
    """Rows swapped between two unsigned games (the same genesis), index rows kept (red team, c_swap): the
    index of the shorter names fewer events than its rows now hold, with a head not on their chain."""
    with GameStore(where) as s:
        new(s, toy, target=100)
        play(s, toy, "g", 4)
        new(s, toy, name="h", seed=8, target=100)
        long = play(s, toy, "h", 12, seed=3)
        short = s.load("g").version
        assert long.version > short
        _sql(s, "DELETE FROM stored_commands WHERE originator_id = ? AND originator_version > 0",
             'DELETE FROM "{s}".trvstore_commands WHERE originator_id = %s AND originator_version > 0', ["g"])
        from trvendetta.store.records import game_uuid

        with s._index_db.transaction(commit=True) as cursor:  # g's rows become h's
            if s.schema is None:
                cursor.execute("INSERT INTO stored_commands SELECT 'g', originator_version, topic, state "
                               "FROM stored_commands WHERE originator_id = 'h' AND originator_version > 0")
            else:
                cursor.execute(f'INSERT INTO "{s.schema}".trvstore_commands SELECT %s, originator_version, topic, '
                               f'state FROM "{s.schema}".trvstore_commands WHERE originator_id = %s '
                               f"AND originator_version > 0", [str(game_uuid("g")), str(game_uuid("h"))])
    _refused_everywhere(where, toy, long.version, "hash is not that head")
    if not str(where).startswith("postgresql"):
        from trvendetta.store.quick import QuickReader

        with QuickReader.open(where) as q:  # trv show's reader leaves it to GameStore
            assert q.load("g") is None
