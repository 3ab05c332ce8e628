"""The snapshots a save takes: written in the save's own transaction, and for a
game saved in one go (``trv sim --store``, an import, a copy) also one on its
way, so that a load starts from a snapshot instead of replaying it whole
(docs/store.md, "Snapshots")."""

import sqlite3

import pytest

from trvendetta import rulesets
from trvendetta.bots import get_bot
from trvendetta.core.rng import Rng
from trvendetta.store import GameStore
from trvendetta.store.records import game_key


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
        return [v for (v,) in con.execute("SELECT originator_version FROM stored_snapshots WHERE originator_id = ? "
                                           "ORDER BY originator_version", [game_key(game)])]
    finally:
        con.close()


def _loaded_from(store, game: str) -> list[int]:
    """The aggregate versions a load of ``game`` reads events after (from the start: [0])."""
    read, asked = store.reader.rows.events, []

    def spy(gid, gt=0, lte=None, desc=False, limit=None):
        # not one record's hash (a snapshot's cheap check), nor the one row past a range that may hold its end
        if limit != 1 and (lte is None or lte - gt > 1):
            asked.append(gt)
        return read(gid, gt, lte, desc, limit)

    rows = store.reader.rows
    store.reader.rows = rows._replace(events=spy)
    try:
        store.load(game)
    finally:
        store.reader.rows = rows
    return asked


@pytest.mark.parametrize("given", ["states", "folded"])
def test_a_game_saved_in_one_go_is_snapshotted_on_its_way_and_at_its_end(tmp_path, given):
    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs)
    db = tmp_path / "trv.sqlite"
    with GameStore(db, snapshot_interval=20) as store:
        if given == "states":
            saved = store.create_game("g", rs.name, first, steps=steps, state=states[-1], states=states)
        else:
            saved = store.create_game("g", rs.name, first, steps=steps)
        assert saved.state == states[-1]
    end = saved.version + 1  # aggregate versions count the Created record
    assert end >= 60, "a game long enough to reach several multiples of the interval"
    versions = _snapshot_versions(db, "g")
    last_multiple = end // 20 * 20
    assert versions[-1] == end and len(versions) == (2 if last_multiple < end else 1)
    if len(versions) == 2:
        assert last_multiple <= versions[0] < end  # the first step boundary from the last multiple
    with GameStore(db) as store:
        starts = _loaded_from(store, "g")
        snaps = store.snapshots("g")
        assert [s.problem for s in snaps] == [None] * len(snaps)
        assert store.load("g").state == states[-1]
    if len(versions) == 2:
        # the fold from the snapshot before the latest (the witness), then nothing after the latest
        assert starts == versions, starts


def test_the_snapshot_is_written_in_the_commands_transaction(tmp_path, monkeypatch):
    """A save whose index write fails takes its snapshot with its events; a save
    that works writes both, with no second commit for the snapshot."""
    from trvendetta.store.index import GameIndex

    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs, actions=60)
    db = tmp_path / "trv.sqlite"
    with GameStore(db, snapshot_interval=10) as store:
        loaded = store.create_game("g", rs.name, first)
        taken = _snapshot_versions(db, "g")
        put = []
        monkeypatch.setattr(store.app.snapshots, "put", lambda *a, **k: put.append(a))

        def broken(self, cursor, row, *args, **kwargs):
            raise sqlite3.OperationalError("disk on fire")

        with monkeypatch.context() as m:
            m.setattr(GameIndex, "advance", broken)  # an append's index write
            with pytest.raises(Exception, match="disk on fire"):
                store.append("g", loaded.version, steps=steps, state=states[-1], states=states)
        assert _snapshot_versions(db, "g") == taken and store.version("g") == loaded.version
        saved = store.append("g", loaded.version, steps=steps, state=states[-1], states=states)
        assert _snapshot_versions(db, "g")[-1] == saved.version + 1
        assert put == []  # no snapshot written apart from the save


def test_the_memory_store_snapshots_the_same():
    rs = rulesets.get("vendetta")
    first, steps, states = _whole_game(rs)
    with GameStore(":memory:", snapshot_interval=20) as store:
        saved = store.create_game("g", rs.name, first, steps=steps, state=states[-1], states=states)
        snaps = store.snapshots("g")
        assert snaps[-1].number == saved.version and all(s.problem is None for s in snaps)
        assert store.load("g").state == states[-1]
