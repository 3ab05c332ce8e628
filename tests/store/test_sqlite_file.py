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
    return list(sqlite_utils.Database(db)["stored_commands"].rows_where(order_by="originator_version"))


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
    versions = [r["originator_version"] for r in third]  # the header at 0, a row under its first record's number
    assert versions[0] == 0 and versions == sorted(set(versions))


def test_the_games_read_model_is_a_plain_table(tmp_path):
    db = tmp_path / "t.sqlite"
    run(db, *NEW)
    table = sqlite_utils.Database(db)["trv_games"]
    assert {"id", "ruleset", "players", "round", "status", "winner", "version", "head"} <= set(table.columns_dict)
    (row,) = table.rows
    shown = run(db, "show", "--json").stdout
    assert row["id"] == "g1" and row["ruleset"] == "vendetta" and row["head"] in shown


def test_the_integrity_check_runs_once_for_each_state_of_the_file(tmp_path):
    """``GameStore.integrity`` reads the whole file: one store object runs it again only after another
    connection committed (``PRAGMA data_version``) or after its own save, so damage made from outside
    between two checks is still found."""
    import sqlite3

    from trvendetta import rulesets
    from trvendetta.store import GameStore

    db = tmp_path / "t.sqlite"
    rs = rulesets.get("vendetta")
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 3))
    with GameStore(db) as s:
        s.create_game("g", rs.name, events)
        with s._index_db.transaction(commit=False) as c:
            connection = c.sqlite_cursor.connection
        ran = []
        connection.set_trace_callback(lambda sql: ran.append(sql) if "integrity_check" in sql else None)
        assert s.integrity() == [] and s.integrity() == [] and len(ran) == 1
        loaded = s.load("g")
        action = rs.legal_actions(loaded.state)[0]
        s.append("g", loaded.version, steps=[(action, rs.apply(loaded.state, action)[1])])
        assert s.integrity() == [] and len(ran) == 2  # its own save: checked again
        outside = sqlite3.connect(db)  # an index that no longer matches its table, made by another program
        outside.execute("CREATE INDEX idx_probe ON trv_games (version)")
        outside.execute("PRAGMA writable_schema = ON")
        outside.execute("UPDATE sqlite_master SET sql = replace(sql, '(version)', '(head)') WHERE name = 'idx_probe'")
        outside.commit()
        outside.close()
        assert s.integrity() != [] and len(ran) == 3
        assert s.integrity() != [] and len(ran) == 3
