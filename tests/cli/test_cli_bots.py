"""Bot seats: `trv new --bot`, bots answering their decisions after each human command."""

import json

from click.testing import CliRunner

from trvendetta.cli.main import cli


def test_human_against_greedy_to_the_end_and_verify(trv):
    out = trv("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars", "--seed", "5", "--name", "duel")
    assert "bots greedy-blue (greedy)" in out.stdout
    for _ in range(2000):
        doc = trv.json("show")
        if doc["finished"]:
            break
        assert doc["pending"]["player"] == "ann"  # the bot never leaves its decision pending
        option = doc["pending"]["options"][0]
        trv("decide", *option.split())
    else:
        raise AssertionError("the game did not end")
    log = trv.json("log", "--all")
    bot_actions = [r for r in log if r["action"] is not None]
    assert bot_actions  # both seats' actions are recorded
    out = trv("verify", "duel")
    assert out.stdout.startswith(f"OK: {doc['version']} events")
    games = trv.json("games")
    assert games[0]["id"] == "duel" and games[0]["status"] == "over"


def test_bots_only_game_is_played_at_creation(trv):
    out = trv("new", "--bot", "greedy:red:cars:max", "--bot", "random:blue:cars", "--seed", "3", "--name", "b")
    assert "max (bot greedy): " in out.stdout and "random-blue (bot random): " in out.stdout
    assert out.stdout.rstrip().splitlines()[-1].startswith("game over")
    doc = trv.json("show")
    assert doc["finished"] and {p["name"] for p in doc["players"]} == {"max", "random-blue"}
    assert trv("verify").stdout.startswith("OK: ")


def test_seats_follow_the_command_line_order(trv):
    trv("new", "--bot", "random:red:cars", "--player", "ann:blue:cars", "--seed", "4", "--name", "o")
    assert [p["name"] for p in trv.json("show")["players"]] == ["random-red", "ann"]


def test_undo_takes_back_the_bots_actions_and_yours(trv):
    trv("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars", "--seed", "5", "--name", "u")
    before = trv.json("show")
    option = before["pending"]["options"][0]
    trv("decide", *option.split())
    after = trv.json("show")
    out = trv("undo", "--agreed")
    assert "takes back" in out.stdout
    again = trv.json("show")
    assert again["pending"] == before["pending"] and again["vehicles"] == before["vehicles"]
    assert after["version"] < again["version"]  # nothing was deleted: retractions were appended
    assert trv("verify").stdout.startswith("OK: ")


def test_bad_bot_seats_are_refused_and_nothing_is_written(trv):
    for args, text in (
        (("--bot", "clever:blue:cars"), "no bot called 'clever'"),
        (("--bot", "greedy:blue"), "is not KIND:COLOR:CREW"),
        (("--bot", "greedy:blue:cars", "--bot", "greedy:blue:cars"), "two seats are called greedy-blue"),
    ):
        result = CliRunner().invoke(cli, ["--db", str(trv.db), "new", "--player", "ann:red:cars", *args])
        assert result.exit_code == 2 and text in result.stderr, result.stderr
    assert trv.json("games") == []


def test_a_fork_keeps_the_bot_seats(trv):
    trv("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars", "--seed", "5", "--name", "f")
    for _ in range(50):
        before = trv.json("show")["version"]
        option = trv.json("show")["pending"]["options"][0]
        if "(bot greedy)" in trv("decide", *option.split()).stdout:
            break
    actions = [r["n"] for r in trv.json("log", "--all") if r["action"] is not None and r["n"] > before]
    bot_first = actions[1]  # ann's action, then the bot's
    out = trv("fork", "f", "--at", str(bot_first - 1), "--name", "f2")  # just before the bot's action
    assert "(bot greedy)" in out.stdout  # the bot plays again in the fork
    assert trv.json("show", "--game", "f2")["pending"]["player"] == "ann"
    assert trv("verify", "f2").stdout.startswith("OK: ")
