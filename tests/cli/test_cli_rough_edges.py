"""The rough edges a new player hits (issue 9, part 3), each pinned by a test."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from trvendetta.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
NEW = ("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "7", "--name", "g")


def run(*args: str, code: int = 0, env: dict | None = None):
    result = CliRunner().invoke(cli, list(args), env={"TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1",
                                                      **(env or {})})
    assert result.exit_code == code, (args, result.output)
    return result


def test_version():
    assert re.fullmatch(r"trv \d+\.\d+\.\d+\S*\n", run("--version").stdout)


def test_db_after_the_command_name(tmp_path):
    db = str(tmp_path / "x.sqlite")
    run(*NEW, "--db", db)
    assert "g  " in run("games", "--db", db).stdout
    assert run("show", "--db", db, "--json").stdout.count('"game": "g"') == 1


def test_a_read_only_command_on_a_missing_store_does_not_create_it(tmp_path):
    db = tmp_path / "missing.sqlite"
    for args in (["show"], ["log"], ["legal"], ["export"], ["verify"], ["turn", "--car", "small", "--assign", "1"]):
        err = run("--db", str(db), *args, code=1).stderr
        assert f"no game store at {db}" in err and err.count("\n") == 1
    assert "no games yet" in run("--db", str(db), "games").stdout
    assert not db.exists()


def test_help_examples_name_files_that_exist():
    for command in ("new", "show", "turn", "verify", "replay"):
        for path in re.findall(r"\b((?:docs|tests)/[\w./-]+\.toml)", run(command, "--help").stdout):
            assert (ROOT / path).is_file(), path


def test_duplicate_players_are_named_without_speaking_of_bots(tmp_path):
    err = run("--db", str(tmp_path / "d.sqlite"), "new", "--player", "ann:red", "--player", "ann:blue",
              code=2).stderr
    assert "two players are called ann" in err and "--bot" not in err


def test_colours_are_listed_and_an_unknown_or_repeated_colour_is_refused(tmp_path):
    assert "vendetta: red, green, yellow, blue" in run("new", "--help").stdout
    db = str(tmp_path / "c.sqlite")
    err = run("--db", db, "new", "--player", "ann:mauve", "--player", "bob:blue", code=2).stderr
    assert "'ann:mauve': unknown colour 'mauve'; colours: red, green" in err
    err = run("--db", db, "new", "--player", "ann:red", "--player", "bob:red", code=2).stderr
    assert "'bob:red': red is ann's colour already; each seat has its own (free: green" in err
    assert not Path(db).exists() or "no games yet" in run("--db", db, "games").stdout


def test_show_legend_explains_every_symbol_and_the_half_step_rows(tmp_path):
    db = str(tmp_path / "l.sqlite")
    run("--db", db, *NEW)
    out = run("--db", db, "show", "--legend").stdout
    for symbol in ("[RM]", "[XX]", "^B", "###", " ?  ", "12+", "lower case"):
        assert symbol in out, symbol
    from trvendetta.vendetta.view import LEGEND

    assert LEGEND in (ROOT / "README.md").read_text()  # the README carries the legend too


def test_show_after_the_game_is_over_says_who_won(tmp_path):
    db = str(tmp_path / "o.sqlite")
    run("--db", db, "new", "--bot", "greedy:red:cars:max", "--bot", "random:blue:cars", "--seed", "3")
    out = run("--db", db, "show").stdout
    winner = re.search(r"game over: (\S+) wins", out)
    assert winner and "to play" not in out


def vendetta_game(**changes):
    """A Vendetta game from a small position (ann to assign; dice 4 2 6 1)."""
    from trvendetta.rulesets import get

    rs = get("vendetta")
    data = {"ruleset": "vendetta", "seed": 7, "road": ["the-parking-lot", "choke", "mudhole"], "road_die": 2,
            "fill": "road", "tokens": [], "active_player": "ann",
            "players": [{"name": "ann", "color": "red", "dice": [4, 2, 6, 1]},
                        {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6]}], **changes}
    return rs, rs.new_game(rs.position_from_dict(data))[0]


def test_a_colour_escape_closes_after_the_bracket():
    rs, state = vendetta_game(vehicles=[{"id": "red-medium", "at": "c3"}])
    text = rs.render(state, color=True)
    assert "\x1b[31m[RM]\x1b[0m" in text and "\x1b[0m]" not in text


def test_wording_one_move_left_and_one_event_retracted(tmp_path):
    from trvendetta.vendetta.actions import AssignDie, NoCommand

    rs, state = vendetta_game(vehicles=[{"id": "red-medium", "at": "c3"}])
    for action in (AssignDie("red-medium", 1), NoCommand()):
        state, _ = rs.apply(state, action)
    assert rs.pending(state).prompt == "1 move left"
    db = str(tmp_path / "u.sqlite")
    run("--db", db, *NEW)
    run("--db", db, "decide", run("--db", db, "legal").stdout.splitlines()[1].strip())
    out = run("--db", db, "undo").stdout
    assert re.search(r": event \d+ retracted", out), out


def test_one_player_is_refused_in_the_singular(tmp_path):
    err = run("--db", str(tmp_path / "p.sqlite"), "new", "--player", "ann:red", code=2).stderr
    assert "1 seat; vendetta is for 2 to 4 players" in err


def test_verify_names_what_it_checked_and_replay_reads_a_record_file(tmp_path):
    db = str(tmp_path / "v.sqlite")
    run("--db", db, *NEW)
    assert "checked game g of the store" in run("--db", db, "verify").stdout
    record = tmp_path / "g.trv"
    run("--db", db, "export", "-o", str(record))
    assert f"checked the record file {record}" in run("--db", db, "verify", str(record)).stdout
    out = run("--db", str(tmp_path / "other.sqlite"), "replay", str(record)).stdout
    assert "Vendetta game started" in out and not (tmp_path / "other.sqlite").exists()


def test_fork_keeps_the_parent_current_unless_switch(tmp_path):
    db = str(tmp_path / "f.sqlite")
    run("--db", db, *NEW)
    run("--db", db, "decide", run("--db", db, "legal").stdout.splitlines()[1].strip())
    at = run("--db", db, "show", "--json").stdout.split('"version": ')[1].split(",")[0]
    out = run("--db", db, "fork", "--at", at, "--name", "w").stdout
    assert "current game: g" in out and '"game": "g"' in run("--db", db, "show", "--json").stdout
    run("--db", db, "fork", "g", "--at", at, "--name", "w2", "--switch")
    assert '"game": "w2"' in run("--db", db, "show", "--json").stdout


def test_demo_delay_is_accepted_and_never_waits_when_piped():
    out = run("demo", "--seed", "3", "--players", "2", "--bot", "greedy", "--delay", "30", "--quiet").stdout
    assert "winner:" in out


def test_sim_prints_nothing_on_stderr_when_it_is_not_a_terminal(tmp_path):
    result = run("sim", "--games", "2", "--players", "2", "--seed", "1")
    assert result.stderr == ""
