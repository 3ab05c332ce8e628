"""The SQLite file as an outside tool sees it (sqlite-utils): events are only
ever appended, and the games read model is a plain table anyone can query."""

import sqlite_utils
from click.testing import CliRunner

from trvendetta.cli.main import cli

NEW = ["new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3", "--name", "g1"]


def run(db, *args):
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result


def rows(db):
    return list(sqlite_utils.Database(db)["stored_events"].rows_where(order_by="originator_version"))


def test_commands_only_append_rows_and_undo_keeps_them(tmp_path):
    db = tmp_path / "t.sqlite"
    run(db, *NEW)
    first = rows(db)
    run(db, "decide", "assign 1 to blue-small")
    second = rows(db)
    assert second[: len(first)] == first and len(second) > len(first)
    run(db, "undo")
    third = rows(db)
    assert third[: len(second)] == second and len(third) == len(second) + 1  # a retraction record, nothing erased
    versions = [r["originator_version"] for r in third]  # a row under its last record's version
    assert versions[0] == 1 and versions == sorted(set(versions))


def test_the_games_read_model_is_a_plain_table(tmp_path):
    db = tmp_path / "t.sqlite"
    run(db, *NEW)
    table = sqlite_utils.Database(db)["trv_games"]
    assert {"id", "ruleset", "players", "round", "status", "winner", "version", "head"} <= set(table.columns_dict)
    (row,) = table.rows
    shown = run(db, "show", "--json").stdout
    assert row["id"] == "g1" and row["ruleset"] == "vendetta" and row["head"] in shown
