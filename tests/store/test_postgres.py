"""What is particular to PostgreSQL: its tables, tampering behind the store's back,
the derived index rebuilt, and a store opened by many processes for the first time."""

import subprocess
import sys

import pytest

from test_store import new, play
from trvendetta.store import ChainBroken, GameStore
from trvendetta.store.store import PG_EVENTS_TABLE

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

    table = f'"{_schema(pg_url)}".{PG_EVENTS_TABLE}'
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
        rows = conn.execute(f"SELECT originator_version, state FROM {table} WHERE topic = 'trv:e'").fetchall()
        edits = [(version, edited_state(state, record.hash, edit)) for version, state in rows]
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


def test_the_games_index_made_before_1_dec_2026_loses_its_last_used_index(pg_url, toy):
    from trvendetta.store.index import OLD_INDEX

    with GameStore(pg_url) as s:
        new(s, toy, "first")
        new(s, toy, "second")
    schema = _schema(pg_url)
    found = f"SELECT to_regclass('\"{schema}\".{OLD_INDEX}') IS NOT NULL"
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
        assert not conn.execute(found).fetchone()[0]  # a new store never has it
        conn.execute(f'CREATE INDEX {OLD_INDEX} ON "{schema}".trv_games (last_used)')  # as stores had it
    with GameStore(pg_url) as s:
        assert [g.id for g in s.list_games()] == ["second", "first"]
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
        assert not conn.execute(found).fetchone()[0]


def test_many_processes_open_a_new_store_at_once(pg_url):
    """The first use makes the tables once; the others wait for them (no "tuple concurrently updated")."""
    code = "import sys; from trvendetta.store import GameStore; GameStore(sys.argv[1]).list_games()"
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_url], stderr=subprocess.PIPE, text=True)
             for _ in range(6)]
    for proc in procs:
        assert proc.wait() == 0, proc.stderr.read()
    with GameStore(pg_url) as s:
        assert s.list_games() == []
