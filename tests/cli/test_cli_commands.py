"""Every command, through click's CliRunner, on the toy ruleset (the CLI, not the rules)."""

import json

import click
import pytest

from trvendetta.cli.main import cli


def new_toy(trv, *more):
    return trv("new", "--ruleset", "toy", "--player", "ann:red:cars", "--player", "bob:blue", "--seed", "4", *more)


def test_every_command_has_help_with_examples():
    ctx = click.Context(cli)
    for name, command in cli.commands.items():
        text = command.get_help(ctx)
        assert command.help and "Examples:" in text, name


def test_new_prints_the_id_and_the_game_becomes_current(trv):
    result = new_toy(trv)
    assert result.stdout.splitlines()[0] == "toy-1"
    assert "waiting on ann" in result.stdout
    assert new_toy(trv).stdout.splitlines()[0] == "toy-2"
    assert trv.json("show")["game"] == "toy-2"
    assert trv.json("show", "--game", "toy-1")["game"] == "toy-1"
    assert trv.json("show")["game"] == "toy-2"  # looking writes nothing: current is the last created or played
    assert trv("show", "--json", env={"TRV_GAME": "toy-2"}).stdout.count('"game": "toy-2"') == 1


def test_new_with_a_name_and_a_random_seed(trv):
    trv("new", "--ruleset", "toy", "--player", "ann:red", "--player", "bob:blue", "--name", "duel")
    log = json.loads(trv("log", "--json").stdout)
    assert log[0]["event"]["position"]["seed"] > 0
    trv("new", "--ruleset", "toy", "--player", "ann:red", "--player", "bob:blue", "--name", "duel", code=1)


def test_show_json_contract(trv):
    new_toy(trv)
    trv("turn", "--assign", "2")
    doc = trv.json("show")
    assert list(doc)[:4] == ["game", "ruleset", "version", "head"]
    assert (doc["game"], doc["ruleset"], doc["version"]) == ("toy-1", "toy", 2)
    log = json.loads(trv("log", "--json").stdout)
    assert doc["head"] == log[-1]["hash"]
    assert doc["pending"]["player"] == "bob"
    assert trv.json("show", "--at", "1")["version"] == 1
    trv("show", "--at", "9", code=1)
    trv("show", "--at", "0", code=2)


def test_show_text(trv):
    new_toy(trv)
    out = trv("show").stdout
    assert out.startswith("game toy-1 (toy) after event 1, head ")
    assert "race to 10" in out and "\x1b[" not in out


def test_log_is_numbered_from_one(trv):
    new_toy(trv)
    trv("turn", "--assign", "3")
    lines = trv("log").stdout.splitlines()
    assert [line.split(".")[0].strip() for line in lines] == ["1", "2"]
    assert lines[1].endswith("ann adds 3")


def test_legal_json_round_trips_through_act(trv):
    new_toy(trv)
    actions = trv.json("legal")
    assert actions == [{"type": "add", "n": 1}, {"type": "add", "n": 2}, {"type": "add", "n": 3}]
    trv("act", json.dumps(actions[1]))
    assert trv.json("show")["players"][0]["score"] >= 2
    assert "allow" in trv("legal").stdout or "add 1" in trv("legal").stdout


def test_decide_by_printed_name(trv):
    new_toy(trv)
    out = trv("decide", "add", "3").stdout
    assert "ann adds 3" in out and "waiting on bob" in out
    trv("decide", "ADD", "1")  # case does not matter when unambiguous
    err = trv("decide", "add", "9", code=1).stderr
    assert "'add 9' is not an option" in err and "legal: add 1, add 2, add 3" in err


def test_turn_stops_at_a_decision_the_flags_do_not_answer(trv):
    # scores: ann 3+b; a score on a multiple of 4 makes the next player decide a veto
    new_toy(trv)
    doc = trv.json("show")
    while doc["pending"]["kind"] != "veto":
        out = trv("turn", "--assign", "3").stdout
        doc = trv.json("show")
    assert f"waiting on {doc['pending']['player']}: veto" in out
    before = doc["version"]
    err = trv("turn", "--assign", "3", code=1).stderr  # nothing in these flags answers a veto
    assert "--assign 3: the game waits on veto for" in err and "nothing was played" in err
    assert "legal: allow, veto" in err
    assert trv.json("show")["version"] == before
    trv("turn", "--no-reroll")
    assert trv.json("show")["pending"]["kind"] == "add"


def test_errors_append_nothing(trv):
    new_toy(trv)
    version = trv.json("show")["version"]
    trv("act", '{"type":"add","n":7}', code=1)
    trv("act", "not json", code=1)
    err = trv("act", '{"type":"fly"}', code=1).stderr
    assert "is not an action" in err and '{"type":"add","n":1}' in err
    trv("turn", "--as", "bob", "--assign", "1", code=1)
    assert "it is ann's decision (add), not bob's" in trv("decide", "--as", "bob", "add", "1", code=1).stderr
    assert trv.json("show")["version"] == version
    trv("decide", "--as", "ann", "add", "1")


def test_usage_errors_exit_2(trv):
    new_toy(trv)
    trv("turn", "--path", ",", code=2)
    trv("turn", "--shoot", "x", "--no-shoot", code=2)
    trv("turn", "--assign", "many", code=2)
    trv("new", "--player", "ann", "--player", "bob:blue", code=2)
    trv("new", code=2)
    trv("frobnicate", code=2)
    trv("decide", code=2)


def test_unknown_game_and_empty_store(trv):
    assert "no game store at" in trv("show", code=1).stderr  # and it is not created
    assert "no games yet" in trv("games").stdout
    new_toy(trv)
    err = trv("show", "--game", "nope", code=1).stderr
    assert "no game 'nope'" in err and "toy-1" in err
    trv("new", "--ruleset", "chess", "--player", "a:b", "--player", "c:d", code=2)


def test_games_lists_status(trv):
    new_toy(trv)
    new_toy(trv)
    rows = trv.json("games")
    assert [g["id"] for g in rows] == ["toy-2", "toy-1"]
    assert rows[0]["players"] == ["ann", "bob"] and rows[0]["status"] == "playing"
    text = trv("games").stdout.splitlines()
    assert text[0].split() == ["ID", "RULESET", "PLAYERS", "ROUND", "STATUS", "LAST", "ACTIVITY"]


def test_game_played_to_the_end(trv):
    new_toy(trv)
    for _ in range(200):
        doc = trv.json("show")
        if doc["finished"]:
            break
        if doc["pending"]["kind"] == "veto":
            trv("decide", "veto")
        else:
            trv("turn", "--assign", "3")
    assert doc["finished"] and doc["winner"] in ("ann", "bob")
    assert f"game over: {doc['winner']} wins; no action is legal" in trv("turn", "--assign", "1", code=1).stderr
    trv("decide", "add", "1", code=1)
    assert trv.json("games")[0]["status"] == "over"
    assert "the game is over" in trv("legal").stdout
    assert trv.json("legal") == []


def test_bad_db_path_is_a_clean_error(trv, tmp_path):
    (tmp_path / "file").write_text("x")
    result = trv.runner.invoke(cli, ["--db", str(tmp_path / "file" / "x.sqlite"), "games"])
    assert result.exit_code == 1 and "no game store at" in result.stderr


def test_demo_runs_in_memory(trv, tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "TRV_DB": None, "TRV_GAME": None}
    result = trv.runner.invoke(cli, ["demo", "--ruleset", "toy", "--seed", "5", "--players", "2"], env=env)
    assert result.exit_code == 0, result.stderr
    assert "winner: " in result.stdout and result.stdout.rstrip().endswith("seed 5")
    assert not (tmp_path / "data").exists()  # nothing kept without --db


def test_demo_with_a_store_keeps_the_game(trv):
    trv("demo", "--ruleset", "toy", "--seed", "5", "--players", "3", "--quiet")
    assert trv.json("games")[0]["id"] == "demo-5"
    trv("demo", "--ruleset", "toy", "--seed", "5", "--players", "3", "--quiet")
    assert trv.json("games")[0]["id"] == "demo-5-2"


def test_db_from_the_environment(trv, tmp_path):
    env = {"TRV_DB": str(tmp_path / "env.sqlite"), "TRV_GAME": None, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    args = ["new", "--ruleset", "toy", "--player", "a:r", "--player", "b:g", "--name", "e"]
    assert trv.runner.invoke(cli, args, env=env).exit_code == 0
    assert (tmp_path / "env.sqlite").exists()
    env["TRV_DB"] = None
    assert trv.runner.invoke(cli, args, env=env).exit_code == 0
    assert (tmp_path / "xdg" / "trvendetta" / "trv.sqlite").exists()


def test_position_file_with_a_seed_override(trv, tmp_path):
    path = tmp_path / "race.toml"
    path.write_text('ruleset = "toy"\ntarget = 5\nplayers = [["ann", "red", "cars"], ["bob", "blue", "cars"]]\n')
    trv("new", "--position", str(path), "--seed", "99")
    event = json.loads(trv("log", "--json").stdout)[0]["event"]
    assert event["position"]["seed"] == 99 and event["position"]["target"] == 5
    path.write_text('ruleset = "toy"\ntarget = 500\nplayers = [["ann", "red", "cars"], ["bob", "blue", "cars"]]\n')
    assert "position target: 500 is not 1-100" in trv("new", "--position", str(path), code=1).stderr
