"""The wall clock is metadata only (freezegun): it shows in `trv games` and a
record's Created tag (`trv export --created`), and never changes an event, a
hash or a verification."""

import json

import eventsourcing.application  # noqa: F401  imported before any freeze: its transcoders register the real datetime
from click.testing import CliRunner
from freezegun import freeze_time

import trvendetta.store.store  # noqa: F401  eventsourcing imported before any clock is frozen: alone, too
from trvendetta.cli.main import cli

NEW = ["new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3", "--name", "g1"]
TURN = ["turn", "--car", "medium", "--assign", "1", "--path", "F"]


def play(db, when):
    runner = CliRunner()
    with freeze_time(when):
        for args in (NEW, TURN):
            result = runner.invoke(cli, ["--db", str(db)] + args)
            assert result.exit_code == 0, result.output
        assert "blue-medium moves F from e0 to e1" in result.stdout  # the turn was played and stored
        shown = runner.invoke(cli, ["--db", str(db), "show", "--json"])
        games = runner.invoke(cli, ["--db", str(db), "games"])
        record = runner.invoke(cli, ["--db", str(db), "export", "--created"])
        plain = runner.invoke(cli, ["--db", str(db), "export"])
    assert shown.exit_code == 0 and games.exit_code == 0 and record.exit_code == 0, record.output
    assert plain.stdout == "\n".join(line for line in record.stdout.split("\n") if not line.startswith("[Created"))
    return json.loads(shown.stdout), games.stdout, record.stdout


def test_the_same_actions_at_different_times_give_the_same_hashes(tmp_path):
    a, games_a, record_a = play(tmp_path / "a.sqlite", "2030-01-02 03:04:05")
    b, games_b, record_b = play(tmp_path / "b.sqlite", "2041-07-08 09:10:11")
    assert a["head"] == b["head"] and a["version"] == b["version"]
    assert "2030-01-02 03:04:05" in games_a and "2041-07-08 09:10:11" in games_b
    assert '[Created "2030-01-02T03:04:05' in record_a and '[Created "2041-07-08T09:10:11' in record_b
    # the records differ only in their Created tag
    strip = lambda r: [line for line in r.splitlines() if not line.startswith("[Created")]  # noqa: E731
    assert strip(record_a) == strip(record_b)


def test_a_record_made_under_a_frozen_clock_verifies_later(tmp_path):
    _, _, record = play(tmp_path / "a.sqlite", "2030-01-02 03:04:05")
    path = tmp_path / "g1.trv"
    path.write_text(record, encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "c.sqlite"), "verify", str(path)])
    assert result.exit_code == 0 and result.stdout.startswith("OK: "), result.output
