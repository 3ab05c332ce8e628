"""What stopped a new player in their first hour (issue 29), each pinned by a test:
usage errors, reads that create nothing, stdin, mail bodies, tracebacks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli

NEW = ("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "7", "--name", "duel")


def run(*args: str, code: int = 0, env: dict | None = None, input: str | bytes | None = None):
    result = CliRunner().invoke(cli, list(map(str, args)), input=input,
                                env={"TRV_DB": None, "TRV_GAME": None, "TRV_STORE": None, "NO_COLOR": "1",
                                     **(env or {})})
    assert result.exit_code == code, (args, result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("command", [["games"], ["show"], ["log"], ["legal"], ["verify"], ["games", "--json"]])
def test_a_read_through_a_mistyped_folder_creates_nothing(tmp_path, command):
    db = tmp_path / "typo" / "dir" / "x.sqlite"
    result = run("--db", db, *command, code=1)
    assert not (tmp_path / "typo").exists()
    assert f"no game store at {db}" in result.stderr


@pytest.mark.parametrize("args, hint, said", [
    (("new", "--ruleset", "vendeta", "--player", "ann:red", "--player", "bob:blue"), "--ruleset",
     "unknown ruleset 'vendeta' (did you mean 'vendetta'?); rulesets: vendetta, classic, carnival"),
    (("new", "--player", "ann:red:car", "--player", "bob:blue"), "--player",
     "'ann:red:car': unknown crew 'car' (did you mean 'cars'?); crews: cars, finalfive, bigrig"),
    (("new", "--player", "ann:red", "--bot", "greedy:blu:cars"), "--bot",
     "'greedy:blu:cars': unknown colour 'blu' (did you mean 'blue'?); colours: red, green"),
    (("new", "--player", "ann:purple:cars", "--player", "bob:pink"), "--player/--bot",
     "'bob:pink': pink and purple are both drawn P on the board; choose another colour (red, green"),
    (("new", "--ruleset", "classic", "--player", "ann:red", "--player", "bob:bleu"), "--player",
     "unknown colour 'bleu' (did you mean 'blue'?)"),
    (("new", "--player", "ann:red", "--player", "bob:red"), "--player",
     "'bob:red': red is ann's colour already; each seat has its own (free: green, yellow, blue"),
    (("new", "--player", "ann:red", "--bot", "greedy:red:cars"), "--bot",
     "'greedy:red:cars': red is ann's colour already; each seat has its own (free: green, yellow, blue"),
    (("new", "--ruleset", "classic", "--player", "ann:red", "--player", "bob:red"), "--player",
     "red is ann's colour already"),
    (("new", "--player", "ann:red"), "--player/--bot", "1 seat; vendetta is for 2 to 4 players"),
    (("new", "--player", "a:red", "--player", "b:blue", "--player", "c:green", "--player", "d:yellow",
      "--bot", "random:orange:cars"), "--player/--bot", "5 seats; vendetta is for 2 to 4 players"),
    (("invite", "--player", "ann:red", "--player", "bob:red", "--key", "ann=" + "a" * 64, "--key",
      "bob=" + "b" * 64, "--name", "x", "-o", "x.json"), "--player", "red is ann's colour already"),
    (("invite", "--player", "ann:red:car", "--player", "bob:blue", "--key", "ann=" + "a" * 64, "--key",
      "bob=" + "b" * 64, "--name", "x", "-o", "x.json"), "--player", "unknown crew 'car' (did you mean 'cars'?)"),
    (("sim", "--ruleset", "carnivl"), "--ruleset", "(did you mean 'carnival'?)"),
    (("sim", "--players", "1000000000001"), "--players", "vendetta is for 2 to 4 players"),
    (("shwo",), None, "unknown command 'shwo' (did you mean 'show'?); commands: act, claim, decide"),
])
def test_usage_errors_exit_2_with_the_legal_values_and_a_did_you_mean(tmp_path, args, hint, said):
    db = tmp_path / "u.sqlite"
    err = run("--db", db, *args, code=2).stderr
    assert said in err, err
    if hint:
        assert f"Invalid value for {hint}:" in err
    assert "Traceback" not in err and "position" not in err
    assert not db.exists()


def test_a_car_or_section_no_crew_has_is_a_usage_error_and_nothing_is_recorded(tmp_path):
    db = tmp_path / "c.sqlite"
    run("--db", db, *NEW)
    err = run("--db", db, "turn", "--car", "medum", "--assign", "4", code=2).stderr
    assert "unknown car 'medum' (did you mean 'medium'?); cars: small, medium, large" in err
    err = run("--db", db, "turn", "--section", "midd", "--command", "airstrike", "--assign", "1", code=2).stderr
    assert "unknown section 'midd' (did you mean 'mid'?); sections: rear, mid, front" in err
    assert "after event 14," in run("--db", db, "show").stdout
    run("--db", db, "turn", "--car", "blue-medium", "--assign", "5")  # a car named with its colour still plays




def test_import_dash_reads_a_pasted_mail_from_standard_input(tmp_path):
    ann, bob = tmp_path / "ann.sqlite", tmp_path / "bob.sqlite"
    run("--db", ann, *NEW)
    run("--db", ann, "export", "-o", tmp_path / "duel.trv")
    run("--db", bob, "import", tmp_path / "duel.trv")
    run("--db", ann, "turn", "--car", "medium", "--assign", "5")
    run("--db", ann, "export", "--since", "14", "--mail", "-o", tmp_path / "mail.txt")
    mail = (tmp_path / "mail.txt").read_text()
    quoted = "".join(f"> {line}\n" for line in mail.splitlines())
    out = run("--db", bob, "import", "-", input=quoted).stdout
    assert "imported packet into duel: 26 events" in out
    err = run("--db", bob, "import", "-", input="not a record", code=1).stderr
    assert err.startswith("Error: standard input")


def test_a_mail_body_says_the_moves_in_words_above_the_armoured_block(tmp_path):
    from trvendetta.replays.mail import BEGIN, WIDTH, unwrap

    db = tmp_path / "m.sqlite"
    run("--db", db, *NEW)
    run("--db", db, "turn", "--car", "medium", "--assign", "5")
    run("--db", db, "export", "--since", "14", "--mail", "-o", tmp_path / "mail.txt")
    mail = (tmp_path / "mail.txt").read_text()
    words, block = mail.split(BEGIN)
    assert words.startswith("15. bob assigns 5 to blue-medium\n")
    assert "18. blue-medium moves F from e0 to e1\n" in words and "26. ann's turn (2)\n" in words
    assert all(len(line) <= WIDTH and not line.startswith((" ", "From ")) for line in mail.splitlines())
    plain = run("--db", db, "export", "--since", "14").stdout
    assert unwrap(mail.encode(), 10**6).decode() == plain  # the words carry no weight


def test_act_quotes_a_huge_input_in_a_few_words(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    err = run("--db", db, "act", '{"type":"' + "x" * 100_000 + '"}', code=1).stderr
    assert "(100011 characters) is not an action" in err and len(err) < 2000


def test_a_store_url_whose_password_holds_brackets_is_read_as_typed():
    from trvendetta.store import location
    from trvendetta.store.errors import StoreError

    env = location.postgres_env("postgresql://ann:p[a]ss@127.0.0.1:5432/test")
    assert env["POSTGRES_PASSWORD"] == "p[a]ss" and env["POSTGRES_HOST"] == "127.0.0.1"
    assert "p[a]ss" not in location._without_password("postgresql://ann:p[a]ss@127.0.0.1:5432/test")
    with pytest.raises(StoreError, match="the store URL is not one"):
        location.postgres_env("postgresql://ann@[not-a-host]:5432/test")


def test_a_new_identity_over_a_dangling_link_is_refused_and_nothing_is_written_through_it(tmp_path):
    home = tmp_path / "home"
    (home / "identities").mkdir(parents=True)
    target = tmp_path / "elsewhere" / "bob.key"
    os.symlink(target, home / "identities" / "bob.key")
    err = run("id", "new", "bob", code=1, env={"TRV_HOME": str(home)}).stderr
    assert "bob.key is a link to the missing" in err and "choose another name or remove it" in err
    assert not target.exists() and not (home / "identities" / "bob.pub").exists()


def test_a_new_identity_says_how_to_give_its_public_key_and_that_file_binds_a_seat(tmp_path):
    home = {"TRV_HOME": str(tmp_path / "home")}
    out = run("id", "new", "bob", env=home).stdout
    assert "give the other players your public key: trv id show bob > bob.pub" in out
    assert "--key bob=bob.pub" in out
    (tmp_path / "bob.pub").write_text(run("id", "show", "bob", env=home).stdout)
    db = tmp_path / "k.sqlite"
    run("--db", db, "new", "--player", "ann:red", "--player", "bob:blue", "--key", f"bob={tmp_path / 'bob.pub'}",
        "--name", "k", env=home)
    assert "bob" in run("--db", db, "verify", "k", env=home).stdout


def test_usage_errors_follow_the_one_rule_the_readme_states():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "**What is a usage error.**" in readme


def test_json_on_new_turn_decide_act_and_import(tmp_path):
    import json

    ann, bob = tmp_path / "ann.sqlite", tmp_path / "bob.sqlite"
    made = json.loads(run("--db", ann, *NEW, "--json").stdout)
    assert made["game"] == "duel" and made["seed"] == 7 and made["setup_events"] == 14
    assert made["pending"]["player"] == "bob" and "assign 5 to blue-medium" in made["pending"]["legal"]
    run("--db", ann, "export", "-o", tmp_path / "duel.trv")
    played = json.loads(run("--db", ann, "turn", "--car", "medium", "--assign", "5", "--json").stdout)
    first = played["events"][0]
    assert first["n"] == 15 and first["text"] == "bob assigns 5 to blue-medium" and first["event"]["die"] == 5
    assert played["version"] == 26 and played["pending"]["player"] == "ann" and played["unused"] == []
    decided = json.loads(run("--db", ann, "decide", "--json", "assign", "4", "to", "red-small").stdout)
    assert decided["events"][0]["text"] == "ann assigns 4 to red-small"
    acted = json.loads(run("--db", ann, "act", "--json", '{"type":"no-command"}').stdout)
    assert acted["events"][0]["kind"] == "command-used"
    imported = json.loads(run("--db", bob, "import", tmp_path / "duel.trv", "--json").stdout)
    assert imported["imported"] == "game" and imported["events"] == 14 and imported["pending"]["player"] == "bob"
    run("--db", ann, "export", "--since", "14", "-o", tmp_path / "turn.trv")
    imported = json.loads(run("--db", bob, "import", tmp_path / "turn.trv", "--json").stdout)
    assert imported["imported"] == "packet" and imported["added"][0]["action"] == "assign 5 to blue-medium"


def complete(*words: str, env: dict | None = None) -> list[str]:
    """What the shell would offer for the last of ``words`` (click's bash protocol)."""
    line = ["trv", *words]
    result = CliRunner().invoke(cli, [], prog_name="trv", env={"_TRV_COMPLETE": "bash_complete",
                                                               "COMP_WORDS": " ".join(line),
                                                               "COMP_CWORD": str(len(line) - 1), **(env or {})})
    return [item.split(",", 1)[1] for item in result.output.split()]


def test_the_shell_completes_turn_flags_rulesets_cars_and_game_ids(tmp_path):
    db = tmp_path / "g.sqlite"
    run("--db", db, *NEW)
    run("--db", db, "new", "--player", "ann:red", "--player", "bob:blue", "--name", "derby")
    assert complete("turn", "--road") == ["--road-die"]
    assert "--target-command" in complete("turn", "--target")
    assert complete("new", "--ruleset", "c") == ["classic", "carnival"]
    assert complete("turn", "--car", "m") == ["medium"] and complete("turn", "--section", "") == ["rear", "mid",
                                                                                                 "front"]
    assert complete("--db", str(db), "show", "--game", "d") == ["derby", "duel"]  # most recently used first
    assert complete("--db", str(db), "export", "du") == ["duel"]
    assert complete("export", "", env={"TRV_DB": str(tmp_path / "none.sqlite")}) == []
    assert not (tmp_path / "none.sqlite").exists()
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert 'eval "$(_TRV_COMPLETE=bash_source trv)"' in readme


def test_the_demo_draws_a_frame_a_turn_with_greedy_players_and_never_waits_when_piped(tmp_path, monkeypatch):
    import trvendetta.cli.demo as demo

    waits: list[float] = []
    monkeypatch.setattr(demo.time, "sleep", waits.append)
    db = tmp_path / "demo.sqlite"
    out = run("--db", db, "demo", "--seed", "3", "--players", "2", "--bot", "greedy", "--frames", "--delay", "5").stdout
    assert out.startswith("demo game demo-3: vendetta, seed 3, players ann, bob (greedy bots)")
    turns = run("--db", db, "log").stdout.count("'s turn ends")
    assert turns > 10 and out.count("\nround ") == turns + 1  # a board after every turn, and at the end
    assert waits == []  # piped: never a pause
    piped = run("demo", "--seed", "3", "--players", "2", "--bot", "greedy").stdout
    assert piped.count("\nround ") == 1  # piped without --frames: the sentences, then the final board
    assert piped.splitlines()[-2:] == out.splitlines()[-2:]  # the same game: the players choose by the seed
    assert "(greedy bots)" in piped and "winner: " in piped


def test_the_demo_names_an_unknown_bot_as_a_usage_error():
    err = run("demo", "--bot", "gredy", code=2).stderr
    assert "unknown bot 'gredy' (did you mean 'greedy'?)" in err


def test_the_demo_plays_the_search_bot_by_default():
    out = run("demo", "--ruleset", "toy", "--seed", "4", "--players", "2").stdout
    assert "(search bots)" in out.splitlines()[0]
    named = run("demo", "--ruleset", "toy", "--seed", "4", "--players", "2", "--bot", "search").stdout
    assert named == out  # the default is the search, and the same seed plays the same game
    greedy = run("demo", "--ruleset", "toy", "--seed", "4", "--players", "2", "--bot", "greedy").stdout
    assert "(greedy bots)" in greedy.splitlines()[0]


def test_the_demo_counts_the_bots_thinking_toward_a_frames_pause(monkeypatch):
    """On a terminal a frame waits --delay seconds after the last, less what the bots took: a slow bot
    never slows the demo below its pace, a fast one does not speed it up."""
    import trvendetta.bots
    import trvendetta.cli.demo as demo

    clock = [100.0]
    choices: list[int] = [0]  # the bots' choices since the last pause
    waits: list[tuple[float, int]] = []

    class Slow:
        """The greedy bot, a quarter of a second a choice on the demo's (fake) clock."""

        def __init__(self, inner):
            self.inner = inner

        def choose(self, *args):
            clock[0] += 0.25
            choices[0] += 1
            return self.inner.choose(*args)

    def sleep(seconds):
        waits.append((seconds, choices[0]))
        clock[0] += seconds
        choices[0] = 0

    get_bot = trvendetta.bots.get_bot
    monkeypatch.setattr(trvendetta.bots, "get_bot", lambda kind: Slow(get_bot(kind)))
    monkeypatch.setattr(demo, "_terminal", lambda: True)
    monkeypatch.setattr(demo.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(demo.time, "sleep", sleep)
    run("demo", "--seed", "3", "--players", "2", "--bot", "greedy", "--delay", "1")
    assert len(waits) > 10
    assert all(w == max(0.0, 1 - 0.25 * n) for w, n in waits), waits
    assert {w for w, _ in waits} > {0.0, 0.75}  # some turns thought longer than the pause, some less
