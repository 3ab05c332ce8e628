"""What a new player, a library user and an organiser still tripped on in their second hour
(issue 48), each pinned by a test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli

NEW = ("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "7", "--name", "duel")


def run(*args: object, code: int = 0, env: dict | None = None, input: str | None = None):
    result = CliRunner().invoke(cli, list(map(str, args)), input=input,
                                env={"TRV_DB": None, "TRV_GAME": None, "TRV_STORE": None, "NO_COLOR": "1",
                                     "TRV_AS": None, **(env or {})})
    assert result.exit_code == code, (args, result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("command", [["tournament", "list"], ["tournament", "standings", "spring"],
                                     ["tournament", "report", "spring", "--table", "1"],
                                     ["tournament", "register", "spring", "ann"],
                                     ["tournament", "export", "spring"]])
def test_a_tournament_command_through_a_mistyped_folder_creates_nothing(tmp_path, command):
    db = tmp_path / "typo" / "deeper" / "x.sqlite"
    result = run("--db", db, *command, code=1)
    assert not (tmp_path / "typo").exists()
    assert f"no game store at {db}" in result.stderr


def test_tournament_new_still_creates_its_store(tmp_path):
    db = tmp_path / "club" / "spring.sqlite"
    db.parent.mkdir()
    run("--db", db, "tournament", "new", "spring", "--rounds", "1")
    assert "spring" in run("--db", db, "tournament", "list").stdout
    assert "no tournament 'nope'" in run("--db", db, "tournament", "register", "nope", "ann", code=1).stderr


def test_the_public_key_file_names_no_private_key_path(tmp_path):
    home = {"TRV_HOME": str(tmp_path / "home")}
    run("id", "new", "ann", env=home)
    shown = run("id", "show", "ann", env=home)
    assert "public key" in shown.stdout and str(tmp_path) not in shown.stdout and "private" not in shown.stdout
    assert "never share this file" in shown.stderr  # the player at the terminal still sees where it is


def test_verify_against_a_copy_with_an_edited_roll_never_opens_with_the_same_record(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    run("--db", db, "turn", "--car", "medium", "--assign", "5")
    run("--db", db, "export", "duel", "-o", tmp_path / "duel.trv")
    text = (tmp_path / "duel.trv").read_text()
    rolled = '{"type":"road-die-rolled","value":2,'
    assert rolled in text
    (tmp_path / "edited.trv").write_text(text.replace(rolled, '{"type":"road-die-rolled","value":3,'))
    result = run("verify", tmp_path / "duel.trv", "--against", tmp_path / "edited.trv", code=1)
    first = result.stdout.split("\n")[0]
    assert "same record" not in result.stdout
    assert first.endswith("split at event 10:"), first
    assert '"road die: 2"' in result.stdout and '"road die: 3"' in result.stdout
    assert "the same record" in run("verify", tmp_path / "duel.trv", "--against", tmp_path / "duel.trv").stdout


def test_json_on_verify_fork_undo_export_and_tournament_report(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    run("--db", db, "turn", "--car", "medium", "--assign", "5")
    doc = json.loads(run("--db", db, "verify", "--json").stdout)
    assert (doc["ok"], doc["game"], doc["unsigned"]) == (True, "duel", ["ann", "bob"])
    assert doc["events"] == json.loads(run("--db", db, "show", "--json").stdout)["version"]
    exported = json.loads(run("--db", db, "export", "--json").stdout)
    assert exported["kind"] == "record" and exported["text"].startswith("% trvendetta record")
    assert exported["head"] == doc["head"]
    (tmp_path / "d.trv").write_text(exported["text"])
    assert json.loads(run("verify", tmp_path / "d.trv", "--json").stdout)["file"] == str(tmp_path / "d.trv")
    packet = json.loads(run("--db", db, "export", "--since", 14, "-o", tmp_path / "p.trv", "--json").stdout)
    assert (packet["kind"], packet["output"], packet["text"]) == ("packet", str(tmp_path / "p.trv"), None)
    broken = json.loads(run("verify", tmp_path / "d.trv", "--against", tmp_path / "p.trv", "--json", code=1).stdout)
    assert broken["ok"] is False and "turn packet" in broken["error"]
    undone = json.loads(run("--db", db, "undo", "--agreed", "--json").stdout)
    assert [r["player"] for r in undone["retractions"]] == ["bob"] and undone["pending"]["player"] == "bob"
    forked = json.loads(run("--db", db, "fork", "--at", 14, "--name", "w", "--json").stdout)
    assert (forked["game"], forked["at"], forked["moved"]) == ("w", 14, None)


def test_json_on_tournament_report(tmp_path):
    db = tmp_path / "t.sqlite"
    run("--db", db, "tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "3")
    run("--db", db, "tournament", "register", "cup", "ann", "bob")
    run("--db", db, "tournament", "pair", "cup")
    run("--db", db, "tournament", "start", "cup", "--bots", "random")
    doc = json.loads(run("--db", db, "tournament", "report", "cup", "--table", "1", "--json").stdout)
    assert (doc["tournament"], doc["round"], doc["table"], doc["game"]) == ("cup", 1, 1, "cup-r1-t1")
    assert sorted(doc["places"]) == ["ann", "bob"] and sorted(doc["places"].values()) == [1, 2]
    assert doc["events"] == json.loads(run("--db", db, "verify", "cup-r1-t1", "--json").stdout)["events"]


def test_a_fatal_path_step_is_named_with_its_space(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    err = run("--db", db, "turn", "--car", "medium", "--assign", "5", "--path", "FR,FR,FR,F,F", code=1).stderr
    assert "blue-medium was eliminated: --path step 2 (FR) from f0 leaves the road at g1" in err
    assert "nothing was played" in err


def test_the_big_rig_road_die_refusal_names_traction_drive(tmp_path):
    db = tmp_path / "r.sqlite"
    run("--db", db, "new", "--player", "ann:red:bigrig", "--player", "bob:yellow:finalfive", "--seed", "3")
    err = run("--db", db, "turn", "--steering", "1", "--section", "front", "--command", "cow-catcher", "--assign",
              "2", "--path", "F,F", "--road-die", code=1).stderr
    assert "--road-die: the Big Rig takes the road die only when it moves with Traction Drive" in err
    assert "this move's command: cow-catcher" in err and "did not start on the road" not in err


def test_the_final_five_road_die_refusal_gives_a_reason(tmp_path):
    db = tmp_path / "r.sqlite"
    run("--db", db, "new", "--player", "ann:red:bigrig", "--player", "bob:yellow:finalfive", "--seed", "3")
    run("--db", db, "turn", "--steering", "1", "--section", "front", "--command", "cow-catcher", "--assign", "2",
        "--path", "F,F")
    out = run("--db", db, "turn", "--bike", "1", "--assign", "3", "--path", "FL,FL,F", "--road-die", "--bike", "2",
              "--assign", "1", "--path", "F").stdout
    assert "--bike 1 --road-die: the road die was not offered: yellow-bike1 is eliminated" in out


def test_decide_with_a_misspelt_action_gets_a_did_you_mean(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    err = run("--db", db, "decide", "asign", "1", "to", "blue-small", code=1).stderr
    assert "'asign 1 to blue-small' is not an option of the pending decision (did you mean " \
           "'assign 1 to blue-small'" in err
    assert "did you mean" not in run("--db", db, "decide", "xyzzy", code=1).stderr


def test_the_rulebooks_words_are_mapped_to_the_words_trv_uses():
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "notation.md").read_text()
    section = text.split("## The rulebook's words and trv's", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| the rulebook")]
    said = {row[0]: row[1] for row in rows}
    for rulebook in ("crash", "crash die", "steering die", "helicopter"):
        assert rulebook in said, f"docs/notation.md maps no {rulebook!r}"
    code = " ".join(p.read_text().lower() for folder in ("trvendetta/vendetta", "cli")
                    for p in (root / folder).glob("*.py"))
    for rulebook, ours in said.items():
        for word in ours.split("`")[1::2]:
            assert word.lower() in code, f"{rulebook!r} -> {word!r}, which the code never says"


def test_undo_turn_takes_back_the_whole_move(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    before = json.loads(run("--db", db, "show", "--json").stdout)
    run("--db", db, "turn", "--car", "medium", "--assign", "5", "--path", "F,F,FL")
    out = run("--db", db, "undo", "--turn").stdout
    assert "bob takes back 'assign 5 to blue-medium'" in out and "bob takes back 'FL'" in out
    after = json.loads(run("--db", db, "show", "--json").stdout)
    assert {k: v for k, v in after.items() if k not in ("version", "head")} == \
        {k: v for k, v in before.items() if k not in ("version", "head")}
    assert "no move to take back" in run("--db", db, "undo", "--turn", code=1).stderr
    run("--db", db, "turn", "--car", "medium", "--assign", "5")  # the whole turn: it passes to ann
    err = run("--db", db, "undo", "--turn", code=1).stderr
    assert "bob's move is over and the game now waits on ann; take it back only with --agreed" in err
    doc = json.loads(run("--db", db, "undo", "--turn", "--agreed", "--json").stdout)
    assert doc["retractions"][-1]["text"].startswith("bob takes back 'assign 5 to blue-medium'")
    assert doc["pending"]["player"] == "bob" and doc["pending"]["kind"] == "assign"
    assert run("--db", db, "verify").stdout.startswith("OK: ")


def test_legal_targets_lists_what_each_die_reaches_and_a_way_that_does(tmp_path):
    db = tmp_path / "a.sqlite"
    run("--db", db, *NEW)
    run("--db", db, "turn", "--car", "medium", "--assign", "5", "--path", "F,F,FL,F,F,F,F", "--road-die")
    doc = json.loads(run("--db", db, "legal", "--targets", "--json").stdout)
    assert doc["player"] == "ann" and doc["kind"] == "assign"
    way = doc["targets"]["assign 4 to red-large"]["blue-medium"]
    assert doc["targets"]["assign 1 to red-large"] == {}
    for name in ["assign 4 to red-large", *way]:  # the way it names plays, and ends in reach of the shot
        run("--db", db, "decide", name)
    assert "shoot blue-medium" in run("--db", db, "legal").stdout
    text = run("--db", db, "legal", "--targets").stdout
    assert "shoot blue-medium: blue-medium (now)" in text


def _play_out(db: Path, game: str) -> None:
    """Play ``game`` of the store ``db`` to its end, always the first legal option (as another store would)."""
    from trvendetta.app import GameService
    from trvendetta.store import GameStore

    with GameStore(db) as store:
        svc = GameService(store)
        while not svc.load(game).ruleset.is_over(svc.load(game).state):
            def first(ruleset, state):
                for _ in range(50):
                    if ruleset.is_over(state()):
                        return
                    yield ruleset.legal_actions(state())[0]
            svc.play(game, first)


def test_a_table_reported_from_a_record_played_in_another_store(tmp_path):
    org, ann = tmp_path / "org.sqlite", tmp_path / "ann.sqlite"
    run("--db", org, "tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "3")
    run("--db", org, "tournament", "register", "cup", "ann", "bob")
    run("--db", org, "tournament", "pair", "cup")
    run("--db", org, "tournament", "start", "cup")  # people play: the game waits at its start
    run("--db", org, "export", "cup-r1-t1", "-o", tmp_path / "start.trv")
    run("--db", ann, "import", tmp_path / "start.trv")
    _play_out(ann, "cup-r1-t1")
    run("--db", ann, "export", "cup-r1-t1", "-o", tmp_path / "end.trv")
    out = run("--db", org, "tournament", "report", "cup", "--table", "1", tmp_path / "end.trv").stdout
    assert out.startswith("round 1 table 1: cup-r1-t1 verified (")
    assert run("--db", org, "verify", "cup-r1-t1", "--json").stdout == run("--db", ann, "verify", "cup-r1-t1",
                                                                               "--json").stdout


def test_a_table_decided_by_two_concessions_is_reported_as_finished(tmp_path):
    db = tmp_path / "t.sqlite"
    run("--db", db, "tournament", "new", "cup", "--rounds", "1", "--pod-size", "3", "--seed", "3")
    run("--db", db, "tournament", "register", "cup", "ann", "bob", "cyd")
    run("--db", db, "tournament", "pair", "cup")
    run("--db", db, "tournament", "start", "cup")
    run("--db", db, "tournament", "concede", "cup", "ann", "--table", "1", "--by", "ann")
    run("--db", db, "tournament", "concede", "cup", "bob", "--table", "1", "--by", "bob")
    out = run("--db", db, "tournament", "report", "cup", "--table", "1").stdout
    assert "round 1 table 1: finished, decided by concessions and no-shows - 1. cyd, 2. ann, 2. bob" in out
    assert "not finished" not in out
    doc = json.loads(run("--db", db, "tournament", "report", "cup", "--table", "1", "--json").stdout)
    assert doc["places"] == {"cyd": 1, "ann": 2, "bob": 2} and doc["game"] is None
