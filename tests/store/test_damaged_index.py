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
    """With no games index row to compare, the refusal of the insert itself tells: a fresh read still ends
    where the append started, so the game did not move on."""
    count, short = _played(where, toy)
    with GameStore(where) as s:
        _drop_index_row(s)
        _hide_after(s, short)
        loaded = s.load("g")
        assert loaded.version == short
        with pytest.raises(DamagedStore) as found:
            s.append("g", short, events=[_next_event(s, toy, short)])
        assert not isinstance(found.value, GameMovedOn)
        assert str(found.value) == f"game 'g' is damaged at event {short + 1}: run trv verify"
    with GameStore(where) as s:
        assert s.load("g").version == count


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
