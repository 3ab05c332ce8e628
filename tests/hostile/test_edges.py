"""Each hostile input issue 17 found a traceback for: now one line, nothing written."""

import re

import pytest

from .helpers import stored_rows

TWO = 'players=[{name="ann",color="red"},{name="bob",color="blue"}]\n'


@pytest.fixture
def duel(trv, tmp_path):
    trv("new", "--name", "duel", "--seed", 1, "--player", "ann:red", "--player", "bob:blue")
    trv("export", "duel", "-o", tmp_path / "duel.trv")
    return (tmp_path / "duel.trv").read_text(encoding="utf-8")


def write(tmp_path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path / name


@pytest.mark.parametrize("text, says", [
    ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    (TWO + "round = " + "9" * 5000 + "\n", "4300 digits"),
    (TWO + "[script]\nmovement = [" + ",".join(["6"] * 20000) + "]\n", "at most 1000"),
    (TWO + "round = 9223372036854775807\n", "round: 9223372036854775807 is out of range"),
    (TWO + "first_piece = 9223372036854775807\n", "first_piece"),
    (TWO + 'choppers=[{owner="ann"},{owner="ann"}]\n', "two choppers for ann"),
    ('players=[{name="ann",color="red",turns=-3},{name="bob",color="blue"}]\n', "turns: -3 is out of range"),
    ('players=[{name="ann",color="red",turns=4},{name="bob",color="blue"}]\n', "turns: 4 is out of range"),
    ('players=[{name="ann",color="red",dice=[]},{name="bob",color="blue"}]\n', "no dice left"),
    ('players=[{name="ann",color="red",dice=[' + "9" * 40 + ']},{name="bob",color="blue"}]\n', "is not 1-6"),
    (TWO + 'wrecks=[{at="c\u0663"}]\n', "is not a space name"),
    ('ruleset="classic"\n' + TWO + "rear_board = 9223372036854775807\n", "rear_board"),
    ('ruleset="classic"\n' + TWO + "round = 99999\n", "round"),
    ('ruleset="classic"\n' + TWO + "[script]\nred = [" + ",".join(["1"] * 1001) + "]\n", "at most 1000"),
    ('ruleset="classic"\n' + TWO + 'choppers=[{owner="ann",next_board=9223372036854775807}]\n', "next_board"),
])
def test_a_bad_position_is_one_line_and_writes_nothing(trv, tmp_path, text, says):
    assert says in trv("new", "--position", write(tmp_path, "p.toml", text), code=1).stderr
    assert stored_rows(trv.db) == 0


def test_a_position_with_two_turns_taken_may_hold_no_dice(trv, tmp_path):
    text = 'players=[{name="ann",color="red",dice=[],turns=2,command_used=true},{name="bob",color="blue"}]\n'
    trv("new", "--position", write(tmp_path, "p.toml", text))


@pytest.mark.parametrize("claim", [
    '{"a":' * 5000 + "1" + "}" * 5000,
    '{"a":' + "[" * 5000 + "]" * 5000 + "}",
    '{"players":[{"name":[1]}]}',
    '{"vehicles":[{"id":[1]}, 5, null, {"id":{"x":1}}]}',
    '{"version": 99999999999999999999999}',
    "[1, 2]",
    "",
])
def test_a_hostile_claim_is_one_line(trv, tmp_path, duel, claim):
    trv("verify", "duel", "--claim", write(tmp_path, "c.json", claim), code=None)


@pytest.mark.parametrize("args", [
    ["show", "--at", "9223372036854775807"], ["show", "--at", "99999999999999999999"],
    ["replay", "duel", "--to", "99999999999999999999"], ["replay", "duel", "--from", "9223372036854775808"],
    ["export", "duel", "--since", "9223372036854775807"],
    ["fork", "duel", "--at", "9223372036854775807", "--name", "f"],
])
def test_numbers_past_sqlites_range_are_refused_where_they_enter(trv, duel, args):
    assert "is not in the range" in trv(*args, code=2).stderr


def test_a_record_with_no_events_is_refused_by_verify_and_import(trv, tmp_path, duel):
    text = "\n".join(line for line in duel.splitlines() if not re.match(r"^(\d+ |> )", line)) + "\n"
    text = re.sub(r'\[Events "\d+"\]', '[Events "0"]', text)
    text = re.sub(r'\[Head "[0-9a-f]+"\]', '[Head "' + "0" * 64 + '"]', text)
    text = re.sub(r'\[Players "[^"]*"\]\n', "", text)
    path = write(tmp_path, "z.trv", text)
    assert "no events" in trv("verify", path, code=1).stderr
    other = tmp_path / "other.sqlite"
    assert "no events" in trv("import", path, db=other, code=1).stderr
    assert stored_rows(other) == 0
