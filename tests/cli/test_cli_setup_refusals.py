"""`trv new` refuses a set-up that contradicts itself, with one message naming what would be
legal, exit 2 and nothing written: a position file of another ruleset than `--ruleset`, a
position file naming no ruleset there is, a crew a ruleset does not take."""

from __future__ import annotations

from pathlib import Path

import pytest

from trvendetta import rulesets

VENDETTA_FILE = ('ruleset = "vendetta"\nseed = 5\n\n[[players]]\nname = "ann"\ncolor = "red"\n\n'
                 '[[players]]\nname = "bob"\ncolor = "blue"\n')


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _refused(trv, *args: str) -> str:
    before = trv.json("games")
    err = trv("new", *args, code=2).stderr
    assert "Traceback" not in err and err.count("Error:") == 1
    assert trv.json("games") == before  # nothing written
    return " ".join(err.split())


@pytest.mark.parametrize("other", ["carnival", "classic"])
def test_a_position_file_of_another_ruleset_than_the_one_asked_for_is_refused(trv, tmp_path, other):
    err = _refused(trv, "--ruleset", other, "--position", _file(tmp_path, VENDETTA_FILE))
    assert f"--ruleset {other}, but {tmp_path / 'position.toml'} is a position of vendetta" in err
    assert f"which {other} does not play" in err
    assert "leave --ruleset out (the file chooses vendetta), give --ruleset vendetta" in err


def test_the_file_chooses_without_ruleset_and_a_ruleset_built_on_it_takes_it(trv, tmp_path):
    path = _file(tmp_path, VENDETTA_FILE)
    assert "vendetta game" in trv("new", "--position", path).stdout  # no --ruleset: the file's
    assert "vendetta game" in trv("new", "--ruleset", "vendetta", "--position", path).stdout  # the same one
    assert "dunes game" in trv("new", "--ruleset", "dunes", "--position", path).stdout  # plays Vendetta's positions
    assert [g["ruleset"] for g in trv.json("games")].count("dunes") == 1


def test_a_position_file_naming_no_ruleset_there_is_is_a_usage_error_listing_them(trv, tmp_path):
    err = _refused(trv, "--position", _file(tmp_path, VENDETTA_FILE.replace('"vendetta"', '"vendeta"')))
    assert "unknown ruleset 'vendeta' (did you mean 'vendetta'?)" in err
    listed = err.split("rulesets: ")[1]
    assert all(name in listed for name in rulesets.names())


@pytest.mark.parametrize("seat", [("--player", "ann:red:cars"), ("--bot", "greedy:red:cars"),
                                  ("--bot", "greedy:red:finalfive:max")])
def test_a_crew_is_refused_by_a_ruleset_with_no_crews(trv, seat):
    option, text = seat
    err = _refused(trv, "--ruleset", "classic", option, text, "--player", "bob:blue")
    assert f"'{text}': the classic ruleset has no crews, so a seat takes none" in err
    form = "KIND:COLOR: or KIND:COLOR::NAME" if option == "--bot" else "NAME:COLOR"
    assert f"give the seat as {form}" in err


def test_a_classic_seat_without_a_crew_plays(trv):
    out = trv("new", "--ruleset", "classic", "--player", "ann:red", "--bot", "greedy:blue::max", "--seed", "4").stdout
    assert "classic game" in out
    assert [p["name"] for p in trv.json("show")["players"]] == ["ann", "max"]


def test_vendetta_crews_still_parse_and_an_unknown_one_is_named_with_the_crews_it_takes(trv):
    assert "vendetta game" in trv("new", "--player", "ann:red:finalfive", "--player", "bob:blue:bigrig",
                                  "--bot", "greedy:green:cars", "--bot", "random:yellow:").stdout
    assert [p["crew"] for p in trv.json("show")["players"]] == ["finalfive", "bigrig", "cars", "cars"]
    err = _refused(trv, "--player", "ann:red:jeeps", "--player", "bob:blue")
    assert "'ann:red:jeeps': unknown crew 'jeeps'; crews: cars, finalfive, bigrig" in err
