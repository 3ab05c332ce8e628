"""Snapshots: a save that reaches a multiple of the interval snapshots the game at its end (in the
command's transaction); a load checks every row's link from the genesis (no decoding) and folds from
the latest one (docs/store.md, "Every row is checked as it is read")."""

import sqlite3

import pytest

from trvendetta import rulesets
from trvendetta.bots import get_bot
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore
from trvendetta.store.records import game_key
from trvendetta.store import rows
from trvendetta.store.rows import SNAP_TOPIC


def _whole_game(rs, seed: int = 3, actions: int = 120) -> tuple:
    """A random 2-player Vendetta game: (set-up events, steps, the state after each step)."""
    state, first = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], seed))
    bot, steps, states = get_bot("random"), [], []
    for i in range(actions):
        if rs.is_over(state):
            break
        action = bot.choose(rs, state, Rng(seed, 1000 + i), rs.pending(state))
        state, new = rs.apply(state, action)
        steps.append((action, new))
        states.append(state)
    return first, steps, states


def _snapshot_versions(db, game: str) -> list[int]:
    con = sqlite3.connect(db)
    try:
        return [v for (v,) in con.execute("SELECT originator_version FROM stored_events WHERE originator_id = ? "
                                           "AND originator_version > 0 ORDER BY originator_version",
                                           [game_key(game)])]
    finally:
        con.close()


def _rows_read(store, game: str) -> list[int]:
    """The versions of the event rows a load of ``game`` reads (its header row apart)."""
    select, read = store.reader.select, []

    def spy(key, gt, lte, desc, limit):
        rows = select(key, gt, lte, desc, limit)
        read.extend(v for v, _, _ in rows if v)
        return rows

    store.reader.select = spy
    try:
        store.load(game)
    finally:
        store.reader.select = select
    return read


@pytest.mark.parametrize("given", ["state", "folded"])
def test_a_game_saved_in_one_go_is_snapshotted_at_its_end_and_loads_from_there(tmp_path, given):
    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs)
    db = tmp_path / "trv.sqlite"
    with GameStore(db, snapshot_interval=20) as store:
        kwargs = {"state": states[-1]} if given == "state" else {}
        saved = store.create_game("g", rs.name, first, steps=steps, **kwargs)
        assert saved.state == states[-1] and saved.version >= 60
    assert _snapshot_versions(db, "g") == [saved.version]
    with GameStore(db) as store:
        assert max(_rows_read(store, "g")) <= saved.version  # only the row holding its last record: its head
        assert [s.problem for s in store.snapshots("g")] == [None]
        assert store.load("g").state == states[-1]


def test_turn_by_turn_a_snapshot_each_time_a_save_reaches_a_multiple(tmp_path, monkeypatch):
    real = rows.decode_payload
    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs, actions=60)
    db = tmp_path / "trv.sqlite"
    with GameStore(db, snapshot_interval=10) as store:
        game = store.create_game("g", rs.name, first)
        counts = [game.version]
        for step, state in zip(steps, states):
            game = store.append("g", game.version, steps=[step], state=state)
            counts.append(game.version)
    expected = [b for a, b in zip(counts, counts[1:]) if b // 10 > a // 10]
    if counts[0] >= 10:
        expected.insert(0, counts[0])
    assert _snapshot_versions(db, "g") == expected
    with GameStore(db) as store:
        read = _rows_read(store, "g")  # every row, each link checked from the genesis...
        assert sorted(set(read)) == _command_versions(db, "g")
        decoded = []
        monkeypatch.setattr(rows, "decode_payload", lambda *a: decoded.append(a[-1]) or real(*a))
        assert store.load("g").state == states[-1]
        assert 0 < len(decoded) <= counts[-1] - expected[-2]  # ...and only those after the second latest decoded


def _command_versions(db, game: str) -> list[int]:
    con = sqlite3.connect(db)
    try:
        return [v for (v,) in con.execute("SELECT originator_version FROM stored_commands WHERE originator_id = ? "
                                           "AND originator_version > 0 ORDER BY originator_version", [game])]
    finally:
        con.close()


def test_a_snapshot_that_cannot_be_written_fails_its_command(request, monkeypatch):
    """On PostgreSQL too a snapshot is written in the command's transaction (the application recorder's
    own lock and insert statements): when it cannot be written, nothing of the command is."""
    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs, actions=40)
    url = request.getfixturevalue("pg_url")
    with GameStore(url, snapshot_interval=10) as store:
        monkeypatch.setattr(store.app.recorder, "insert_events_statement", "INSERT INTO nowhere VALUES (%s)")
        with pytest.raises(Exception, match="nowhere"):
            store.create_game("g", rs.name, first, steps=steps, state=states[-1])
    with GameStore(url) as store:
        assert not store.exists("g") and store.list_games() == []


def test_the_memory_store_snapshots_the_same():
    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs)
    with GameStore(":memory:", snapshot_interval=20) as store:
        saved = store.create_game("g", rs.name, first, steps=steps, state=states[-1])
        snaps = store.snapshots("g")
        assert snaps[-1].number == saved.version and all(s.problem is None for s in snaps)
        assert store.load("g").state == states[-1]
