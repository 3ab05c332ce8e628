"""Every kind of command against PostgreSQL (``--store`` / ``$TRV_STORE``) says
exactly what it says against SQLite: same commands, same records, same checks."""

import json
import re

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli

#: (arguments, exit code); heads and times differ by nothing but the clock
SESSION = [
    (["new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", "duel"], 0),
    (["show"], 0),
    (["legal"], 0),
    (["turn", "--car", "small", "--assign", "1", "--path", "F"], 0),
    (["undo", "--agreed"], 0),
    (["decide", "road-die"], 0),
    (["turn", "--path", "F,F", "--no-shoot"], 0),
    (["log", "--all"], 0),
    (["fork", "--at", "14", "--name", "what-if"], 0),
    (["games", "--json"], 0),
    (["verify"], 0),
    (["--game", "duel", "verify"], 0),
    (["export", "--game", "duel"], 0),
    (["show", "--at", "99"], 1),
    (["--game", "nope", "show"], 1),
    (["new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel"], 1),
    (["sim", "--games", "2", "--store", "-q"], 0),
    (["games"], 0),
]
_CLOCK = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?(\+00:00)?")
_SECONDS = re.compile(r"in \d+\.\d+ s: [\d.]+ games/s")


def _session(store: str) -> list[tuple[int, str, str]]:
    runner = CliRunner()
    env = {"TRV_STORE": store, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}
    out = []
    for args, code in SESSION:
        result = runner.invoke(cli, args, env=env)
        assert result.exit_code == code, (args, result.output)
        text = _SECONDS.sub("in S", _CLOCK.sub("T", result.stdout))
        out.append((result.exit_code, text, result.stderr))
    return out


def test_postgresql_and_sqlite_say_the_same(pg_url, tmp_path):
    on_sqlite = _session(f"sqlite:{tmp_path / 'trv.sqlite'}")
    on_postgres = _session(pg_url)
    for (args, _), a, b in zip(SESSION, on_sqlite, on_postgres):
        assert a == b, args
    games = json.loads(on_postgres[SESSION.index((["games", "--json"], 0))][1])
    assert {g["id"] for g in games} == {"duel", "what-if"}


def test_the_store_option_and_its_errors(tmp_path):
    runner = CliRunner()
    env = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None}
    bad = runner.invoke(cli, ["--store", "mysql://db/x", "games"], env=env)
    assert bad.exit_code == 1 and bad.stderr == (
        "Error: unknown store 'mysql://db/x': give an SQLite file (PATH or sqlite:PATH) "
        "or postgresql://USER@HOST/DB\n")
    down = runner.invoke(cli, ["--store", "postgresql://someone:secret@127.0.0.1:1/db", "games"], env=env)
    assert down.exit_code == 1 and down.stderr.startswith(
        "Error: cannot open the PostgreSQL store someone@127.0.0.1:1/db: ") and down.stderr.count("\n") == 1
    assert "secret" not in down.stderr
    path = tmp_path / "x.sqlite"
    made = runner.invoke(cli, ["new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "g"],
                         env={**env, "TRV_STORE": f"sqlite:{path}"})
    assert made.exit_code == 0 and path.exists()
    assert runner.invoke(cli, ["--db", str(path), "games", "--json"], env=env).stdout.count('"id": "g"') == 1
