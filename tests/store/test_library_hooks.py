"""The store's one private hook into eventsourcing (``trvendetta.store.library``).

These tests fail loudly when the library changes under the hook: another
release than the pinned one, the private method gone or reshaped, or the
index row no longer written in the events' transaction.  When one fails,
read ``event_store/library.py`` before moving the pin in pyproject.toml.
"""

import inspect
from datetime import datetime, timezone
import sqlite3
from importlib.metadata import version
from pathlib import Path

import pytest

from trvendetta.store import GameStore, compact_ids, game_uuid, library

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_library_is_the_pinned_one():
    assert version("eventsourcing") == library.PINNED
    pin = f'"eventsourcing[postgres]=={library.PINNED}"'
    assert pin in (ROOT / "pyproject.toml").read_text(), "pyproject.toml pins another eventsourcing"


def _recorders():
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    found = [SQLiteApplicationRecorder]
    try:
        from eventsourcing.postgres import PostgresApplicationRecorder
    except ImportError:  # psycopg missing: the PostgreSQL recorder cannot be checked here
        return found
    return [*found, PostgresApplicationRecorder]


@pytest.mark.parametrize("recorder", _recorders(), ids=lambda r: r.__name__)
def test_the_private_insert_hook_has_the_shape_the_store_wraps(recorder):
    hook = inspect.signature(recorder._insert_events)
    names = list(hook.parameters)
    assert len(names) == 4 and names[0] == "self", names
    assert hook.parameters[names[3]].kind is inspect.Parameter.VAR_KEYWORD
    # insert_events calls it with the cursor and every keyword save() was given
    source = inspect.getsource(recorder.insert_events)
    assert "self._insert_events(" in source and "**kwargs" in source


def test_save_keywords_reach_the_recorder():
    from eventsourcing.application import Application
    from eventsourcing.persistence import EventStore

    assert "**kwargs" in inspect.getsource(Application.save)
    assert "insert_events(stored_events, **kwargs)" in inspect.getsource(EventStore.put)


def _one_turn(store, toy):
    pos = toy.position_from_dict({"players": [["ann", "red", "cars"], ["bob", "blue", "cars"]], "seed": 3})
    _, events = toy.new_game(pos)
    store.create_game("g", "toy", events)
    state = store.load("g").state
    action = toy.legal_actions(state)[0]
    return action, toy.apply(state, action)[1]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_failing_index_write_takes_the_events_with_it(toy, db, backend, request, monkeypatch):
    """The hook's purpose: one command, one transaction, on every backend."""
    from trvendetta.store.index import GameIndex

    where = db if backend == "sqlite" else request.getfixturevalue("pg_url")
    with GameStore(where) as s:
        action, events = _one_turn(s, toy)
        before = s.info("g")

        def broken(self, cursor, row, *args, **kwargs):
            raise sqlite3.OperationalError("disk on fire")

        # an append writes its row with ``advance`` (the check and the write in one statement)
        monkeypatch.setattr(GameIndex, "advance", broken)
        with pytest.raises(Exception, match="disk on fire"):
            s.append("g", before.version, steps=[(action, events)])
        monkeypatch.undo()
        with GameStore(where) as again:
            assert again.version("g") == before.version
            assert again.info("g").version == before.version
        # and when it works, both are written
        s.append("g", before.version, steps=[(action, events)])
        assert s.info("g").version == s.version("g") == before.version + len(events)


@pytest.mark.parametrize("backend", ["sqlite", "memory", "postgresql"])
def test_the_rows_read_without_the_mapper_are_the_recorders_own(toy, db, backend, request):
    """``library.rows_of`` reads the recorders' tables directly on SQLite (their
    ``events_table_name`` through their datastore): the rows must be the ones the
    public ``select_events`` gives, for events and snapshots alike."""
    where = {"sqlite": db, "memory": ":memory:"}.get(backend) or request.getfixturevalue("pg_url")
    with GameStore(where, snapshot_interval=3) as s:
        action, events = _one_turn(s, toy)
        s.append("g", s.version("g"), steps=[(action, events)])
        rows = library.rows_of(s.app)
        uid = game_uuid("g")
        for select, recorder in ((rows.events, s.app.recorder), (rows.snapshots, s.app.snapshots.recorder)):
            public = [(e.originator_version, e.topic, bytes(e.state)) for e in recorder.select_events(uid)]
            assert public, "nothing stored to compare"
            assert [(v, t, bytes(d)) for v, t, d in select(uid.hex)] == public
            assert [(v, t, bytes(d)) for v, t, d in select(uid.hex, 1, 2)] == public[1:2]
            assert [(v, t, bytes(d)) for v, t, d in select(uid.hex, 0, None, True, 1)] == public[-1:]
    if backend == "sqlite":
        quick = sqlite3.connect(db)
        names = {r[0] for r in quick.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        quick.close()
        assert {library.SQLITE_EVENTS, library.SQLITE_SNAPSHOTS} <= names  # what trv show reads


def test_the_flat_transcoder_writes_the_librarys_bytes(toy, db):
    """``FlatJSON`` writes a game's records with msgspec: the bytes must be the
    library's own transcoder's, for every record and snapshot of a game."""
    from eventsourcing.application import Application
    from eventsourcing.persistence import JSONTranscoder

    from trvendetta.store.store import FlatJSON

    library_json, flat = JSONTranscoder(), FlatJSON()
    for transcoder in (library_json, flat):
        for transcoding in Application(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}).mapper.transcoder.types.values():
            transcoder.register(transcoding)
    with GameStore(db, snapshot_interval=2) as s:
        action, events = _one_turn(s, toy)
        s.append("g", s.version("g"), steps=[(action, events)])
        mapper = s.app.mapper
        stored = list(s.app.recorder.select_events(game_uuid("g")))
        snaps = list(s.app.snapshots.recorder.select_events(game_uuid("g")))
        assert stored and snaps
        from trvendetta.store import chunks

        alone = [row for row in stored + snaps if row.state[:1] not in chunks.ONE_ROW]  # a chunk is no JSON
        assert len(alone) > len(snaps)  # the Created record too
        for row in alone:
            state = mapper.transcoder.decode(mapper.compressor.decompress(row.state))
            assert flat.encode(state) == library_json.encode(state)
        odd = {"text": "tab\t quote\" back\\ nul\x00 é ☃ \U0001F600 \u2028", "n": -(2 ** 62), "yes": True}
        assert flat.encode(odd) == library_json.encode(odd)
        every = "".join(chr(c) for c in [*range(0xD800), *range(0xE000, 0x10000), 0x1F600, 0x10FFFF])
        nested = {"state": {"parts": {"a": every}, "retracted": [[1, 2], (3, 4)], "none": None, "no": False,
                            "when": datetime(2026, 12, 1, 9, 30, 0, 5, tzinfo=timezone.utc)}, "big": 2 ** 70}
        assert flat.encode(nested) == library_json.encode(nested)  # 2 ** 70: msgspec refuses, the library writes
        del nested["big"]
        assert flat.encode(nested) == library_json.encode(nested)


def test_the_compact_ids_recorder_overrides_what_it_means_to():
    """compact_ids.CompactIdsRecorder gives the library the id in its stored form
    through the public insert and select, and reads a BLOB id back."""
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteFactory

    assert issubclass(compact_ids.CompactIdsRecorder, SQLiteApplicationRecorder)
    assert "APPLICATION_RECORDER_TOPIC" in inspect.getsource(SQLiteFactory.application_recorder)
    select = inspect.signature(SQLiteApplicationRecorder.select_events)
    assert list(select.parameters)[:2] == ["self", "originator_id"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(select.parameters.values())[2:])
    # the library writes a UUID as its hex and anything else as it is: a BLOB stays a BLOB
    assert ".hex" in inspect.getsource(SQLiteApplicationRecorder._insert_events)
    # its own private insert (one executemany) has the library's shape, and inserts what the library's would
    ours, theirs = (inspect.signature(c._insert_events) for c in (compact_ids.CompactIdsRecorder,
                                                                   SQLiteApplicationRecorder))
    assert list(ours.parameters)[:3] == list(theirs.parameters)[:3] == ["self", "c", "stored_events"]
    assert "self.insert_events_statement" in inspect.getsource(SQLiteApplicationRecorder._insert_events)
    assert "convert_originator_id(" in inspect.getsource(SQLiteApplicationRecorder.select_notifications)


def test_new_games_store_their_id_as_16_bytes_old_ones_keep_their_hex(toy, db, tmp_path):
    import shutil

    from trvendetta.bots import get_bot
    from trvendetta.core.rng import Rng
    from trvendetta.store import game_uuid

    with GameStore(db) as s:
        _one_turn(s, toy)
    con = sqlite3.connect(db)
    ids = {i for (i,) in con.execute("SELECT originator_id FROM stored_events")}
    con.close()
    assert ids == {game_uuid("g").bytes}
    with GameStore(db) as s:
        assert s.rebuild_index() == 1 and s.load("g").version == 1  # the notification log reads BLOB ids back
    old = tmp_path / "old.sqlite"
    shutil.copyfile(ROOT / "tests" / "store" / "fixtures" / "main-2026-11-30-packed.sqlite", old)
    with GameStore(old) as s:
        loaded = s.load("duel")
        rs = loaded.ruleset
        action = get_bot("random").choose(rs, loaded.state, Rng(5, 5))
        s.append("duel", loaded.version, steps=[(action, rs.apply(loaded.state, action)[1])])
    con = sqlite3.connect(old)
    ids = {i for (i,) in con.execute("SELECT originator_id FROM stored_events WHERE originator_id IN (?, ?)",
                                      [game_uuid("duel").hex, game_uuid("duel").bytes])}
    con.close()
    assert ids == {game_uuid("duel").hex}  # its new rows too: one game, one id


def test_the_rows_written_directly_are_the_librarys_own(toy, db):
    """``writing.Batch`` builds a record's row without the library's event
    objects: a record it packs alone (its stamp not in UTC, which a chunk
    cannot hold: a copied or imported record's own) must be what the library's
    mapper writes for the same ``Game.Entry`` event (the transcoder's JSON,
    packed), byte for byte once unpacked, and packed as ``packing.pack`` packs it."""
    from datetime import datetime, timedelta, timezone

    from trvendetta.store import RawRecord
    from trvendetta.store.aggregate import Game
    from trvendetta.store.packing import pack, unpack
    from trvendetta.store.store import FlatJSON

    with GameStore(db) as s:
        action, events = _one_turn(s, toy)
        when = datetime(2026, 12, 1, 9, 30, 0, 123456, tzinfo=timezone(timedelta(hours=1)))
        raws = [RawRecord(toy.event_kind(e), 1, toy.encode(e), toy.encode(action) if i == 0 else b"",
                          recorded_at=when) for i, e in enumerate(events)]
        s.append("g", s.version("g"), records=raws)
        assert [r.recorded_at for r in s.events("g")[-len(raws):]] == [when] * len(raws)
        mapper = s.app.mapper
        rows = list(s.app.recorder.select_events(game_uuid("g")))[-len(raws):]
        assert len(rows) == len(raws) and {r.topic for r in rows} == {Game.Entry.TOPIC}
        flat = FlatJSON()
        for transcoding in mapper.transcoder.types.values():
            flat.register(transcoding)
        for row in rows:
            event = mapper.to_domain_event(row)  # the library's own event object for the row
            assert type(event) is Game.Entry
            state = dict(vars(event))
            del state["originator_id"], state["originator_version"]
            library_json = flat.encode(state)
            assert unpack(row.state) == library_json
            assert row.state == pack(library_json)


def test_the_private_snapshot_and_drain_hooks_have_the_shape_used():
    """``library.insert_with`` writes a save's snapshots with its cursor through
    the snapshot recorders' private inserts; ``library.drain_after_insert``
    wraps the PostgreSQL recorder's private insert of a save's events, which its
    public insert calls before syncing the pipeline."""
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    assert list(inspect.signature(SQLiteAggregateRecorder._insert_events).parameters)[:3] == [
        "self", "c", "stored_events"]
    try:
        from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder
    except ImportError:
        return
    for cls in (PostgresAggregateRecorder, PostgresApplicationRecorder):
        names = list(inspect.signature(cls._insert_stored_events).parameters)
        assert names[:3] == ["self", "curs", "stored_events"], names
    source = inspect.getsource(PostgresApplicationRecorder.insert_events)
    assert source.index("self._insert_stored_events(") < source.index("pipeline.sync()")


def test_drain_flushes_until_the_output_buffer_is_empty():
    """What a long save on PostgreSQL needed: psycopg waited for the server's
    answer with part of the insert still in libpq's buffer."""
    import socket

    a, b = socket.socketpair()
    try:
        class PGconn:
            socket = a.fileno()
            flushes, consumed = [1, 1, 1, 0], 0

            def flush(self):
                return self.flushes.pop(0)

            def consume_input(self):
                PGconn.consumed += 1
                a.recv(100)

        conn = PGconn()
        b.send(b"a result")
        library.drain(conn)
        assert conn.flushes == [] and PGconn.consumed == 1
    finally:
        a.close()
        b.close()
