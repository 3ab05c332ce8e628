"""What a command pays at start-up, checked by what the process imports and how the store is
read, never by a clock (the instruction counts: ``python bench/startup.py``, docs/performance.md)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import click
from click.testing import CliRunner

from trvendetta import rulesets
from trvendetta.bots import new_position
from trvendetta.store import GameStore

# runs `trv ARGS...` through the console script's own import, then prints the modules it loaded
RUN = r"""
import json, sys
from trvendetta.cli.main import main
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


def _modules(*args: str, env: dict | None = None) -> tuple[list[str], str]:
    out = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, check=True,
                         env={**os.environ, "NO_COLOR": "1", **(env or {})}).stdout
    *printed, last = out.strip().splitlines()
    return json.loads(last), "\n".join(printed)


def _duel(path) -> None:
    rs = rulesets.get("vendetta")
    with GameStore(path) as store:
        store.create_game("duel", "vendetta", rs.new_game(new_position(rs, 2, 4))[1])


def test_trv_turn_imports_only_the_ruleset_of_its_game(tmp_path):
    db = tmp_path / "t.sqlite"
    _duel(db)
    modules, out = _modules("--db", str(db), "turn", "--car", "small", "--assign", "2", "--dry-run")
    assert "dry run: nothing is recorded" in out
    assert "trvendetta.vendetta.notation" in modules
    assert [m for m in modules if m.split(".")[:2] in (["trvendetta", "carnival"], ["trvendetta", "classic"])] == []


def test_trv_version_needs_neither_click_nor_the_commands():
    modules, out = _modules("--version")
    assert out.startswith("trv ") and out.split()[1] == __import__("trvendetta").__version__
    assert [m for m in modules if m == "click" or m.startswith(("trvendetta.cli.group", "trvendetta.store"))] == []


def test_trv_help_imports_no_command_module():
    modules, out = _modules("--help")
    assert "Commands:" in out
    assert [m for m in modules if m.startswith("trvendetta.cli.") and m not in
            ("trvendetta.cli.main", "trvendetta.cli.group", "trvendetta.cli.common")] == []


def test_the_help_summaries_are_the_commands_own_words():
    """`trv --help` lists the commands from ``group.SUMMARIES``; with every command imported the
    list is the same, word for word."""
    from trvendetta.cli import group

    cold = CliRunner().invoke(group.cli, ["--help"]).stdout
    ctx = click.Context(group.cli, info_name="trv")
    for name in group.COMMANDS:
        group.cli.get_command(ctx, name)
    assert set(group.SUMMARIES) == set(group.COMMANDS)
    warm = CliRunner().invoke(group.cli, ["--help"]).stdout
    assert cold == warm


def test_the_latest_game_is_found_by_the_index_not_a_scan(tmp_path):
    db = tmp_path / "t.sqlite"
    _duel(db)
    con = sqlite3.connect(db)
    from trvendetta.store.index import LATEST, LATEST_INDEX

    plan = " ".join(str(r) for r in con.execute(f"EXPLAIN QUERY PLAN {LATEST}"))
    assert f"USING INDEX {LATEST_INDEX}" in plan, plan
    con.execute(f"DROP INDEX {LATEST_INDEX}")  # a store made before the index: the next writer adds it
    con.commit()
    con.close()
    with GameStore(db) as store:
        assert store.latest_game() == "duel"
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (LATEST_INDEX,)).fetchone() == (1,)
    con.close()
