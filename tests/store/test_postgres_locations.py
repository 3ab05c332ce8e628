"""PostgreSQL locations a user may mistype, servers that do not answer, and an upgrade into a schema
stopped half-way: one clear line each, nothing created (docs/store.md)."""

import re
import socket
import sqlite3
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli
from trvendetta.store import GameStore, StoreError, location

ENV = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}
HERE = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize("schema, message", [
    ("select", "schema 'select' is a word PostgreSQL reserves"),
    ("user", "schema 'user' is a word PostgreSQL reserves"),
    ("int", "schema 'int' is a word PostgreSQL reserves"),
    ("left", "schema 'left' is a word PostgreSQL reserves"),
    ("information_schema", "schema 'information_schema' is PostgreSQL's own"),
    ("pg_catalog", "schema 'pg_catalog' is PostgreSQL's own"),
    ("pg_mine", "schema 'pg_mine' is PostgreSQL's own"),
    ("", "?schema= is empty: name the schema"),
    ("club%0a", "schema 'club.n': use lower-case letters"),  # P1b: `$` matched before a final newline
])
def test_reserved_system_and_empty_schema_names_are_refused_before_anything(schema, message):
    with pytest.raises(StoreError, match=message.replace("?", r"\?")):
        location.postgres_env(f"postgresql://ann@db/club?schema={schema}")


def test_a_schema_named_twice_is_refused():
    with pytest.raises(StoreError, match="more than once"):
        location.postgres_env("postgresql://ann@db/club?schema=a&schema=b")


def _schemas(base, mine=None):
    """The server's schemas; given ``mine`` (this test's schema), less those of other tests running beside
    this one (``t_`` and sixteen hex digits, the ``pg_url`` fixture's, and what is made from them)."""
    import psycopg

    with psycopg.connect(base) as conn:
        names = {n for (n,) in conn.execute("SELECT nspname FROM pg_namespace")}
    if mine is None:
        return names
    return {n for n in names if not re.match(r"t_[0-9a-f]{16}", n) or n.startswith(mine)}


@pytest.mark.parametrize("schema", ["select", "information_schema", "pg_catalog", "", "uf_newline%0a"])
def test_the_cli_refuses_them_in_one_line_and_creates_nothing(pg_url, schema):
    base, mine = pg_url.split("?")[0], pg_url.rsplit("schema=", 1)[1]
    before = _schemas(base, mine)
    result = CliRunner().invoke(cli, ["--store", f"{base}?schema={schema}", "games"], env=ENV)
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1, result.output
    assert "schema" in result.stderr and "Traceback" not in result.output
    assert _schemas(base, mine) == before
    if schema == "information_schema":
        import psycopg

        with psycopg.connect(base) as conn:
            assert conn.execute("SELECT to_regclass('information_schema.trv_games')").fetchone()[0] is None


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again: nothing listens there


def test_a_server_that_refuses_is_one_line():
    """libpq's message spans lines ("connection to server ... failed: Connection refused\\n\\tIs the
    server running ..."): the user gets one."""
    url = f"postgresql://ann@127.0.0.1:{_closed_port()}/club"
    result = CliRunner().invoke(cli, ["--store", url, "games"], env=ENV)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: cannot open the PostgreSQL store ann@127.0.0.1:") and "refused" in line


def test_a_server_that_refuses_the_user_is_one_line(pg_url):
    base, query = pg_url.split("?")
    url = base.replace("postgres@", "nosuchuser@", 1) + "?" + query
    result = CliRunner().invoke(cli, ["--store", url, "games"], env=ENV)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: cannot open the PostgreSQL store nosuchuser@")


def _layout2_schema(pg_url):
    """The layout-2 fixture's rows in the schema of ``pg_url`` (as tests/store/test_postgres.py)."""
    import psycopg

    from trvendetta.store.legacy.layout2 import Layout2Store

    schema, base = pg_url.rsplit("schema=", 1)[1], pg_url.split("?")[0]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    Layout2Store(pg_url, create=True).close()
    con = sqlite3.connect(HERE / "main-55e2233-layout2.sqlite")
    with psycopg.connect(base, autocommit=True) as conn:
        for table, pg in (("stored_events", "trvstore_events"), ("stored_snapshots", "trvstore_snapshots")):
            for oid, version, topic, state in con.execute(f"SELECT * FROM {table} ORDER BY originator_version"):
                conn.execute(f'INSERT INTO "{schema}".{pg} (originator_id, originator_version, topic, state) '
                             "VALUES (%s, %s, %s, %s)", [UUID(oid), version, topic, state])
    con.close()
    return schema, base


def test_an_upgrade_into_a_schema_stopped_half_way_leaves_no_target(pg_url, monkeypatch):
    """A fault after the second game: the target schema does not exist, only NAME_v3_upgrading; the next
    run drops that, starts clean and publishes the schema whole (renamed in one transaction)."""
    import json

    import psycopg

    import trvendetta.app.upgrade as upgrade_module

    schema, base = _layout2_schema(pg_url)
    target_schema = f"{schema}_v3"
    try:
        written = []

        def fault(game):
            written.append(game)
            if len(written) == 2:
                raise sqlite3.OperationalError("database or disk is full (injected)")

        monkeypatch.setattr(upgrade_module, "_written", fault)
        result = CliRunner().invoke(cli, ["--store", pg_url, "store", "upgrade"], env=ENV)
        assert result.exit_code == 1 and "the upgrade stopped" in result.stderr, result.output
        assert target_schema not in _schemas(base) and f"{target_schema}_upgrading" in _schemas(base)
        monkeypatch.undo()
        result = CliRunner().invoke(cli, ["--store", pg_url, "store", "upgrade"], env=ENV)
        assert result.exit_code == 0, result.output
        assert "starting clean: dropping schema" in result.stderr
        assert f"{target_schema}_upgrading" not in _schemas(base)
        said = json.loads((HERE / "main-55e2233-layout2.json").read_text())
        with GameStore(f"{base}?schema={target_schema}") as s:
            assert {g.id: (g.version, g.head) for g in s.list_games()} == \
                {g: (v["version"], v["head"]) for g, v in said.items()}
            assert s.verify("long") == said["long"]["head"]
        with psycopg.connect(base) as conn:  # nothing in it names the temporary schema (the library's function)
            (definition,) = conn.execute("SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON "
                                         "n.oid = p.pronamespace WHERE n.nspname = %s", [target_schema]).fetchone()
            assert f'"{target_schema}"."trvstore_events"' in definition and "_upgrading" not in definition
        again = CliRunner().invoke(cli, ["--store", pg_url, "store", "upgrade"], env=ENV)
        assert again.exit_code == 0 and "already upgraded long" in again.stdout, again.output
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            for name in (target_schema, f"{target_schema}_upgrading"):
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def test_a_schema_with_a_cut_off_game_is_named_and_nothing_is_created(pg_url):
    """The rows of 'long' after event 230 are gone from the old schema: the games index (276 events)
    tells, the game is named, and neither the target schema nor a temporary one is made."""
    import psycopg

    from trvendetta.store.records import game_uuid

    schema, base = _layout2_schema(pg_url)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE TABLE "{schema}".trv_games (id text PRIMARY KEY, ruleset text, players text, '
                     "round integer, status text, winner text, version integer, head text, created text, "
                     "last_used text)")  # the games index layout 2 had, with the SQLite fixture's rows
        con = sqlite3.connect(HERE / "main-55e2233-layout2.sqlite")
        for row in con.execute("SELECT id, ruleset, players, round, status, winner, version, head, created, "
                               "last_used FROM trv_games"):
            conn.execute(f'INSERT INTO "{schema}".trv_games VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)',
                         list(row))
        con.close()
        conn.execute(f'DELETE FROM "{schema}".trvstore_events WHERE originator_id = %s AND originator_version > 230',
                     [game_uuid("long")])
    before = _schemas(base, schema)
    try:
        result = CliRunner().invoke(cli, ["--store", pg_url, "store", "upgrade"], env=ENV)
        assert result.exit_code == 1, result.output
        lines = result.stderr.strip().splitlines()
        assert lines[0].startswith("game 'long': the games index says 276 events") and len(lines) == 2
        assert _schemas(base, schema) == before
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            for name in (f"{schema}_v3", f"{schema}_v3_upgrading"):
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def test_a_server_lost_mid_command_is_one_line(tmp_path, monkeypatch):
    """psycopg's error when the server goes away under a command spans lines, and is neither a TrvError
    nor the library's: the CLI prints it as one line, exit 1, no traceback."""
    psycopg = pytest.importorskip("psycopg")

    def lost(self, *args, **kwargs):
        raise psycopg.OperationalError("server closed the connection unexpectedly\n\tThis probably means the "
                                       "server terminated abnormally\n\tbefore or while processing the request.")

    monkeypatch.setattr(GameStore, "list_games", lost)
    db = tmp_path / "g.sqlite"
    GameStore(db).close()
    result = CliRunner().invoke(cli, ["--db", str(db), "games"], env=ENV)
    assert result.exit_code == 1, result.exception
    assert result.stderr == "Error: game store: server closed the connection unexpectedly This probably means the " \
                            "server terminated abnormally before or while processing the request.\n"


def test_a_users_own_store_named_like_the_temporary_schema_is_never_dropped(pg_url):
    """P3: the user keeps a store of their own in schema NAME_v3_upgrading. Old main took it for an
    upgrade's leftover and dropped it with CASCADE ("starting clean"): its game was lost. Only a schema
    that carries the mark an upgrade puts on its temporary schema is dropped; this one is refused and
    left as it is."""
    import psycopg

    schema, base = _layout2_schema(pg_url)
    own = f"{base}?schema={schema}_v3_upgrading"
    try:
        made = CliRunner().invoke(cli, ["--store", own, "new", "--player", "ann:red:cars", "--player",
                                        "bob:blue:cars", "--seed", "3", "--name", "precious"], env=ENV)
        assert made.exit_code == 0, made.output
        result = CliRunner().invoke(cli, ["--store", pg_url, "store", "upgrade"], env=ENV)
        assert result.exit_code == 1, result.output
        assert result.stderr == f"Error: the schema {schema}_v3_upgrading exists and is not one an upgrade of trv " \
                                "left (it carries no mark of one): it was left as it is; name another target with --to\n"
        with GameStore(own) as s:
            assert [g.id for g in s.list_games()] == ["precious"]
        assert f"{schema}_v3" not in _schemas(base)
        elsewhere = f"{base}?schema={schema}_new"
        done = CliRunner().invoke(cli, ["--store", pg_url, "store", "upgrade", "--to", elsewhere], env=ENV)
        assert done.exit_code == 0, done.output
        with psycopg.connect(base) as conn:  # the published schema carries no mark
            assert conn.execute("SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = %s",
                                [f"{schema}_new"]).fetchone() == (None,)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            for name in (f"{schema}_v3", f"{schema}_v3_upgrading", f"{schema}_new", f"{schema}_new_upgrading"):
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.mark.parametrize("command", [["games"], ["show"], ["log"], ["verify"]])
def test_a_read_on_a_schema_without_a_store_says_so_and_creates_nothing(pg_url, command):
    """Old main's `trv games` on a schema that does not exist created it with the store's tables (a read
    that writes). A read says there is no store there, in one line, and the server is as it was."""
    base = pg_url.split("?")[0]
    url = f"{pg_url}_none"
    mine = pg_url.rsplit("schema=", 1)[1]
    before = _schemas(base, mine)
    result = CliRunner().invoke(cli, ["--store", url, *command], env=ENV)
    assert result.exit_code == 1, result.output
    assert result.stderr == f"Error: no game store at {url}; create a game there with `trv new --player " \
                            "NAME:COLOR ...` (or give --db / $TRV_DB)\n"
    assert _schemas(base, mine) == before


def test_a_default_target_schema_too_long_asks_for_to():
    """P2: a 61-character schema's default target (NAME_v3) would pass PostgreSQL's 63: the upgrade says
    so and asks for --to, instead of "use at most 63" about a name the user never typed."""
    from trvendetta.app.upgrade import upgrade_target

    schema = "s" * 61
    with pytest.raises(StoreError, match=f"the new store's schema would be {schema}_v3, longer than PostgreSQL's "
                                         "63 characters: name the target with --to"):
        upgrade_target(f"postgresql://ann@db/club?schema={schema}")
