"""What is particular to PostgreSQL: its tables, tampering behind the store's back,
the derived index rebuilt, and a store opened by many processes for the first time."""

import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from test_store import new, play
from trvendetta.store import ChainBroken, GameStore
from trvendetta.store.store import PG_COMMANDS_TABLE, PG_EVENTS_TABLE

psycopg = pytest.importorskip("psycopg")


def _schema(url):
    return url.rsplit("schema=", 1)[1]


def test_the_events_table_is_where_the_store_looks_for_it(pg_url, toy):
    with GameStore(pg_url) as s:
        assert s.app.recorder.events_table_name == PG_EVENTS_TABLE
        new(s, toy)
    with GameStore(pg_url) as s:  # opened again: the library is told not to create its tables
        assert s.app.env.get("CREATE_TABLE") == "n"
        assert s.load("g").version == 1


def test_verify_finds_a_rewritten_event(pg_url, toy):
    from tamper import edited_state  # tests/ is on sys.path (rootdir conftest)

    with GameStore(pg_url) as s:
        new(s, toy)
        play(s, toy, "g", 5)
        record = s.events("g")[1]

    def edit(doc: dict) -> None:
        doc["payload"] = doc["payload"].replace('"n":', '"n":1')

    table = f'"{_schema(pg_url)}".{PG_COMMANDS_TABLE}'
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
        rows = conn.execute(f"SELECT originator_version, state FROM {table} WHERE topic = 'c'").fetchall()
        edits = [(version, edited_state(state, version, record.number, edit)) for version, state in rows]
        (version, state), = [(v, e) for v, e in edits if e is not None]
        # someone edits the table behind the store's back (the store itself never updates a row)
        conn.execute(f"UPDATE {table} SET state = %s WHERE originator_version = %s", [state, version])
    with GameStore(pg_url) as s, pytest.raises(ChainBroken, match="broken at event 2"):
        s.verify("g")


def test_the_index_is_rebuilt_when_dropped(pg_url, toy):
    with GameStore(pg_url) as s:
        new(s, toy, "first")
        new(s, toy, "second")
        done = play(s, toy, "first", 200)
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
        conn.execute(f'DROP TABLE "{_schema(pg_url)}".trv_games')
    with GameStore(pg_url) as s:
        assert {g.id for g in s.list_games()} == {"first", "second"}
        assert s.info("first").status == "over" and s.info("first").head == done.head


def _upgrades_to_the_fixtures_heads(pg_url, target, fixture, old_table, before):
    """Upgrade the schema of ``pg_url`` into ``target``: every game of the fixture reaches the head its
    JSON names, loads and verifies to it there, and the old schema's rows are as they were."""
    import json
    from pathlib import Path

    from trvendetta.app.upgrade import upgrade_store

    schema, base = _schema(pg_url), pg_url.split("?")[0]
    try:
        copied = {c.game: c.head for c in upgrade_store(pg_url, target)}
        said = json.loads(Path(f"{fixture}.json").read_text())
        assert copied == {game: s["head"] for game, s in said.items()}
        with GameStore(target) as s:
            assert {g: s.load(g).head for g in said} == copied
            assert {g: s.verify(g) for g in said} == copied
        with psycopg.connect(base, autocommit=True) as conn:
            assert conn.execute(f'SELECT count(*), sum(length(state)) FROM "{schema}".{old_table}'
                                ).fetchone() == before
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{_schema(target)}" CASCADE')


def test_an_old_schema_says_to_upgrade_and_upgrades_into_a_schema_of_its_own(pg_url):
    """A schema of the older layout (the SQLite fixture's rows put in the older application's tables):
    any command says to upgrade it; the upgrade writes every game into another schema, to the same
    heads, and leaves the old rows as they were."""
    import sqlite3
    from pathlib import Path
    from uuid import UUID

    from trvendetta.store.legacy.store import GameStore as LegacyStore
    from trvendetta.store.store import OldStore

    fixture = Path(__file__).resolve().parent / "fixtures" / "main-c748638-mark6"
    LegacyStore(pg_url).close()  # the older application's tables
    schema, base = _schema(pg_url), pg_url.split("?")[0]
    con = sqlite3.connect(f"{fixture}.sqlite")
    with psycopg.connect(base, autocommit=True) as conn:
        for table, pg in (("stored_events", "trvgames_events"), ("stored_snapshots", "trvgames_snapshots")):
            for oid, version, topic, state in con.execute(f"SELECT * FROM {table} ORDER BY originator_version"):
                oid = UUID(bytes=oid) if isinstance(oid, bytes) else UUID(oid)
                conn.execute(f'INSERT INTO "{schema}".{pg} (originator_id, originator_version, topic, state) '
                             "VALUES (%s, %s, %s, %s)", [oid, version, topic, state])
        before = conn.execute(f'SELECT count(*), sum(length(state)) FROM "{schema}".trvgames_events').fetchone()
    con.close()
    with pytest.raises(OldStore, match="run `trv store upgrade`"):
        GameStore(pg_url)
    target = f"{base}?schema={schema}_v2"
    _upgrades_to_the_fixtures_heads(pg_url, target, fixture, "trvgames_events", before)


def test_a_layout_2_schema_says_to_upgrade_and_upgrades_to_the_same_heads(pg_url):
    """A schema of layout 2 (the fixture's rows, written by main at 55e2233, in that layout's tables):
    any command says to upgrade it; the upgrade writes every game into a schema of its own (by default
    ``NAME_v3``), to the same heads, and leaves the old rows as they were."""
    import sqlite3
    from pathlib import Path
    from uuid import UUID

    from trvendetta.app.upgrade import upgrade_target
    from trvendetta.store.legacy.layout2 import Layout2Store
    from trvendetta.store.store import OldStore

    fixture = Path(__file__).resolve().parent / "fixtures" / "main-55e2233-layout2"
    schema, base = _schema(pg_url), pg_url.split("?")[0]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    Layout2Store(pg_url, create=True).close()  # layout 2's tables
    con = sqlite3.connect(f"{fixture}.sqlite")
    with psycopg.connect(base, autocommit=True) as conn:
        for table, pg in (("stored_events", "trvstore_events"), ("stored_snapshots", "trvstore_snapshots")):
            for oid, version, topic, state in con.execute(f"SELECT * FROM {table} ORDER BY originator_version"):
                conn.execute(f'INSERT INTO "{schema}".{pg} (originator_id, originator_version, topic, state) '
                             "VALUES (%s, %s, %s, %s)", [UUID(oid), version, topic, state])
        before = conn.execute(f'SELECT count(*), sum(length(state)) FROM "{schema}".trvstore_events').fetchone()
    con.close()
    with pytest.raises(OldStore, match="run `trv store upgrade`"):
        GameStore(pg_url)
    target = upgrade_target(pg_url)
    assert target.endswith(f"schema={schema}_v3")
    _upgrades_to_the_fixtures_heads(pg_url, target, fixture, "trvstore_events", before)
    with psycopg.connect(base, autocommit=True) as conn:
        assert conn.execute("SELECT to_regclass(%s)", [f'"{schema}".{PG_COMMANDS_TABLE}']).fetchone()[0] is None


def test_many_processes_open_a_new_store_at_once(pg_url):
    """The first use makes the tables once; the others wait for them (no "tuple concurrently updated")."""
    code = "import sys; from trvendetta.store import GameStore; GameStore(sys.argv[1]).list_games()"
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_url], stderr=subprocess.PIPE, text=True)
             for _ in range(6)]
    for proc in procs:
        assert proc.wait() == 0, proc.stderr.read()
    with GameStore(pg_url) as s:
        assert s.list_games() == []


def test_a_store_writes_on_after_its_connections_are_terminated(pg_url, toy, monkeypatch):
    """A restart of the server ends every connection of the pool: the pool's check finds each (the
    error the server sent the idle connection) and hands out a new one, so a write (which the library
    does not retry) goes through, and so does every read."""
    import uuid

    name = f"trv-test-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("PGAPPNAME", name)
    with GameStore(pg_url) as s:
        s.trust_own_reads()
        new(s, toy)
        play(s, toy, "g", 2)
        for _ in range(2):  # twice: the pool's replacements are checked in turn
            with psycopg.connect(pg_url.split("?")[0], autocommit=True, application_name="killer") as conn:
                killed = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE application_name = %s", (name,)).fetchall()
            assert killed
            before = s.version("g")
            after = play(s, toy, "g", 2)
            assert after.version > before and s.events("g")[-1].hash == after.head


def test_one_dead_connection_found_replaces_every_connection_the_pool_holds(pg_url, toy):
    """A drop ends every connection at once; psycopg_pool tries the next held one only after a back-off
    (1, 2, 4 s...), so a request met each dead one in turn (three: 3 s; drops every few seconds: its
    whole 10 s and a 503, though new connections were ready).  The first found dead has the others
    replaced too: the request meets one dead connection, then a new one."""
    with GameStore(pg_url) as s:
        s.trust_own_reads()
        new(s, toy)
        count = play(s, toy, "g", 2).version
        pool = s.app.recorder.datastore.pool
        held = [pool.getconn() for _ in range(pool.max_size)]  # the pool holds as many as it may
        pids = [c.info.backend_pid for c in held]
        for conn in held:
            pool.putconn(conn)
        with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
            for pid in pids:  # (each waited for: its process has ended, its error sent)
                assert conn.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()[0]
        lost = pool.get_stats().get("connections_lost", 0)
        assert s.version("g") == count
        assert pool.get_stats().get("connections_lost", 0) - lost == 1
        assert play(s, toy, "g", 1).version > count


def test_a_process_with_a_thousand_files_open_still_reaches_postgresql(pg_url, toy):
    """A busy process (a server holding hundreds of event streams) has descriptors past 1023; the pool's
    check of a connection must still hand it out (``select`` refuses such a descriptor, and every
    command then said "couldn't get a connection after 10.00 sec")."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1200
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this machine lets a process open {hard} files, fewer than {wanted}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    held = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        with GameStore(pg_url) as store:
            made = new(store, toy, "busy")
            assert store.load("busy").version == made.version
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@contextmanager
def _round_trips(store: GameStore) -> Iterator[list[int]]:
    """The round trips the store makes to PostgreSQL meanwhile, in order, each as the number of statements
    it carried: a ``Sync`` message a connection it takes from its pool sends ends one, as a simple
    ``Query`` is one (libpq's trace of the protocol)."""
    from psycopg import pq

    datastore, trips = store._index_db, []  # (every connection of the store's pool: one datastore)
    real = datastore.get_connection

    @contextmanager
    def traced():
        with real() as conn, tempfile.TemporaryFile("w+") as trace:
            conn.pgconn.trace(trace.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
            try:
                yield conn
            finally:
                conn.pgconn.untrace()
                trace.seek(0)
                statements = 0
                for line in trace.read().splitlines():
                    sent, _, kind = line.split("\t")[:3]
                    if sent == "F" and kind == "Execute":
                        statements += 1
                    elif sent == "F" and kind in ("Sync", "Query"):
                        trips.append(statements or 1)
                        statements = 0
    datastore.get_connection = traced
    try:
        yield trips
    finally:
        datastore.get_connection = real


def test_a_move_on_a_game_a_server_kept_is_two_round_trips(pg_url, toy):
    """A server's store (``trust_own_reads``) moving a game it kept: one statement looks at the game's
    end (its last row, index row and snapshots), and the command's transaction (``BEGIN``, the check that
    the game still ends there, its rows, the index row and ``COMMIT``) is sent in one go: each statement
    waited for its answer before."""
    with GameStore(pg_url) as store:
        store.trust_own_reads()
        new(store, toy)
        play(store, toy, "g", 2)
        rnd = random.Random(3)
        for _ in range(3):
            with store.one_look(), _round_trips(store) as trips:
                game = store.load("g")
                _, events = toy.apply(game.state, rnd.choice(toy.legal_actions(game.state)))
                store.append("g", game.version, events)
            assert trips == [1, 5], trips  # BEGIN, the guard, the rows, the index row, COMMIT: in one go
        assert GameStore(pg_url).verify("g")


@pytest.mark.parametrize("replaced", [False, True], ids=["lost", "replaced"])
@pytest.mark.parametrize("server", [True, False], ids=["kept", "plain"])
def test_a_write_onto_a_row_the_database_no_longer_holds_is_refused_and_leaves_no_gap(pg_url, toy, server, replaced):
    """A command's commit that the database took back (a crash before its flush, a row deleted behind the
    store's back) while a server's store goes on from the game as it left it, within one look (the
    player's intent, then the host's roll onto it): the next write is refused inside its transaction,
    GameMovedOn naming where the game ends, nothing written, and the game reads and verifies whole.
    ``replaced``: another process has since stored another move at the same event, so the game ends at the
    number the store expects, on another record (no primary key refuses the write: the row it chains onto
    is not the one stored)."""
    from tamper import pg_index_row, pg_take_back  # tests/ is on sys.path (rootdir conftest)

    from trvendetta.store import GameMovedOn

    with GameStore(pg_url) as store:
        if server:
            store.trust_own_reads()
        new(store, toy)
        play(store, toy, "g", 3)
        before, index_row = store.version("g"), pg_index_row(pg_url, "g")
        rnd = random.Random(5)
        with store.one_look():
            game = store.load("g")
            actions = toy.legal_actions(game.state)
            _, events = toy.apply(game.state, actions[0])
            intent = store.append("g", game.version, events)  # committed, then taken back
            pg_take_back(pg_url, store._key("g"), "g", before, index_row)
            now = before
            if replaced:
                with GameStore(pg_url) as other:
                    _, events = toy.apply(game.state, actions[1])
                    now = other.append("g", before, events).version
                assert now == intent.version
            _, events = toy.apply(intent.state, rnd.choice(toy.legal_actions(intent.state)))
            with pytest.raises(GameMovedOn, match=f"now at event {now}"):
                store.append("g", intent.version, events)
        assert store.version("g") == now
        play(store, toy, "g", 2, seed=7)  # the game goes on from where the database has it
        after = store.version("g")
    with GameStore(pg_url) as fresh:
        assert fresh.version("g") == after and fresh.verify("g")
