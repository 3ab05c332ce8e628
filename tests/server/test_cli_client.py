"""Two players on one club server from the CLI: a whole game, the same everywhere, whose
record verifies offline and in which an action or a roll the server altered is named."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from trvendetta import replays

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fairplay"))
from fairplay_helpers import rechain  # noqa: E402


def play_to_the_end(ann, bob, limit=2000):
    """Each player, when the game waits on them, plays the first legal action (`trv act`)."""
    by_name = {"ann": ann, "bob": bob}
    for _ in range(limit):
        doc = json.loads(ann("games", "--json").stdout)
        row = doc["games"][0]
        if row["status"] == "over" or row["waiting_on"] is None:
            return row
        who = by_name[row["waiting_on"]]
        action = json.loads(who("legal", "--json").stdout)[0]
        who("act", json.dumps(action))
    raise AssertionError("the game did not end")


def test_a_whole_game_from_the_cli_ends_alike_everywhere_and_verifies(club, tmp_path):
    ann, bob = club.player("ann"), club.player("bob")
    out = ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel").stdout
    assert "waiting for bob to join" in out
    assert "duel" in bob("games").stdout.splitlines()[1] and "waiting on you (bob): duel" in bob("games").stdout
    started = bob("join", "duel").stdout
    assert "waiting on " in started and re.search(r"\d+ events", started)
    row = play_to_the_end(ann, bob)
    assert row["status"] == "over"
    record = ann("export", "duel").stdout
    assert bob("export", "duel").stdout == record
    assert club.club.export("duel", None) == record
    assert ann("log").stdout == bob("log").stdout
    path = tmp_path / "duel.trv"
    path.write_text(record)
    verified = ann("verify", str(path), server=False).stdout
    assert verified.startswith("OK:"), verified
    gf = replays.read_file(record.encode(), "duel.trv")
    result = replays.verify_file(gf)
    assert set(result.signed) >= {"ann", "bob"}



@pytest.fixture
def entropy_label() -> bytes:
    """Games whose host rolls before they end: playing each seat's first legal option ends some
    games in round 1 without a roll (this label's do not; the seed follows the offer's bytes)."""
    return b"a move needs the host's dice 2"


@pytest.fixture
def finished(club, tmp_path):
    """A whole game on the server, played from the CLI by ann and bob; its record."""
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    play_to_the_end(ann, bob)
    return ann, ann("export", "duel").stdout


def test_verify_names_an_action_the_server_altered(finished, tmp_path):
    ann, record = finished
    # the server changes one of bob's signed actions (and recomputes the unkeyed chain)
    m = re.search(r'^> (\{"type":"step","direction":"(F|FL|FR)"\})$', record, re.M)
    assert m, "no step in a whole game"
    other = "FR" if m.group(2) != "FR" else "FL"
    forged = record.replace(m.group(0), m.group(0).replace(f'"{m.group(2)}"', f'"{other}"'), 1)
    (tmp_path / "forged.trv").write_text(rechain(forged))
    err = ann("verify", tmp_path / "forged.trv", code=1, server=False).stderr
    number = re.match(r"Error: event (\d+): ", err)
    assert number, err
    assert "is not signed by" in err or "the resolution of" in err, err


def test_verify_names_a_roll_the_server_lied_about(finished, tmp_path):
    ann, record = finished
    assert "trv-host-reveal" in record  # the seed is revealed at the game's end: every roll checkable
    after = record[re.search(r"^\+ @host:", record, re.M).start():]
    # a roll the host made: a slam's direction die, or else movement dice (which game has a slam is the seed's)
    m = re.search(r'^(\d+) [0-9a-f]{64} (\{"type":"slam-rolled".*"direction":"(F|FL|FR|B|BL|BR)".*\})$', after, re.M)
    if m:
        number, payload, face = int(m.group(1)), m.group(2), m.group(3)
        changed = payload.replace(f'"direction":"{face}"', f'"direction":"{"F" if face != "F" else "B"}"', 1)
    else:
        m = re.search(r'^(\d+) [0-9a-f]{64} (\{"type":"dice-rolled".*"dice":\[(\d)[,\]].*\})$', after, re.M)
        assert m, "no roll made by the host in the game"
        number, payload, face = int(m.group(1)), m.group(2), m.group(3)
        changed = payload.replace(f'"dice":[{face}', f'"dice":[{"1" if face != "1" else "2"}', 1)
    (tmp_path / "forged.trv").write_text(rechain(record, number, payload, changed))
    err = ann("verify", tmp_path / "forged.trv", code=1, server=False, multiline=True).stderr
    assert err.startswith(f"Error: event {number} differs") and "the rules give" in err, err


def test_two_server_processes_on_one_postgresql_serve_one_game(two_processes, tmp_path):
    """ann plays through one server, bob through another: the same game, no move lost or doubled."""
    first, second = two_processes
    ann = first.player("ann")
    bob = second.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    assert "waiting on you (bob): duel" in bob("games").stdout  # the offer, seen through the other process
    bob("join", "duel")
    row = play_to_the_end(ann, bob)
    assert row["status"] == "over"
    record = first.club.export("duel", None)
    assert second.club.export("duel", None) == record == bob("export", "duel").stdout
    gf = replays.read_file(record.encode(), "duel.trv")
    result = replays.verify_file(gf)
    assert set(result.signed) >= {"ann", "bob"}
