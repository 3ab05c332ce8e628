"""`trv --server URL` as the docs say: a move that could not reach the server is kept apart from
the copy of the game (sent by the next command, or taken back with a word), `--game` after the
command, the latest game without it, and `trv turn` playing on after the server rolled."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest

from trvendetta.cli.remote import mirror_path, pick_game
from trvendetta.store import GameStore


@pytest.fixture
def duel(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1h")
    bob("join", "duel")
    return club, {"ann": ann, "bob": bob}


def _mover(club, players):
    return players[json.loads(players["ann"]("games", "--json").stdout)["games"][0]["waiting_on"]]


def _copy_version(player, monkeypatch) -> int:
    monkeypatch.setenv("TRV_HOME", str(player.home))
    with GameStore(mirror_path(player.url)) as store:
        return store.version("duel")


@pytest.fixture
def uploads_lost(monkeypatch):
    """Every packet the CLI posts is lost on the way (the rest of the network works)."""
    real = urllib.request.urlopen
    lost: list = []

    def urlopen(req, *args, **kwargs):
        if lost is not None and req.get_method() == "POST" and req.full_url.endswith("/packet") and lost == []:
            raise urllib.error.URLError("connection reset")
        return real(req, *args, **kwargs)
    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    return lost


def test_a_lost_upload_is_kept_apart_and_sent_by_the_next_command(duel, uploads_lost, monkeypatch):
    club, players = duel
    who = _mover(club, players)
    before = club.club.store.version("duel")
    action = json.loads(who("legal", "--json").stdout)[0]
    err = who("act", json.dumps(action), code=1).stderr
    assert "not sent: cannot reach the server" in err and "kept apart" in err and "Traceback" not in err
    assert club.club.store.version("duel") == before
    # the copy shows the server's game, not the move it lacks
    assert _copy_version(who, monkeypatch) == before
    uploads_lost.append("the network is back")
    out = who("show")
    assert "sent your move in duel that did not reach the server before" in out.stderr
    assert club.club.store.version("duel") > before
    assert _copy_version(who, monkeypatch) == club.club.store.version("duel")
    # and the game goes on
    nxt = _mover(club, players)
    nxt("act", json.dumps(json.loads(nxt("legal", "--json").stdout)[0]))


def test_a_kept_move_the_server_refuses_is_taken_back_with_a_word(duel, uploads_lost, monkeypatch):
    club, players = duel
    who = _mover(club, players)
    who("act", json.dumps(json.loads(who("legal", "--json").stdout)[0]), code=1)
    from trvendetta.app.clock import parse_stamp

    deadline = parse_stamp(club.on_store(club.club.timing, "duel")["deadline"])
    assert club.on_store(club.club.tick, deadline + timedelta(seconds=1))["claimed"] == ["duel"]
    uploads_lost.append("the network is back")
    out = who("show")
    assert "is taken back: the server refused:" in out.stderr, out.stderr
    assert _copy_version(who, monkeypatch) == club.club.store.version("duel")
    assert "lost on time" in who("show").stdout


def test_game_after_the_command_and_the_latest_game_without_it(club):
    ann, bob = club.player("ann"), club.player("bob")
    for name in ("first", "second"):
        ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", name)
        bob("join", name)
    doc = club.on_store(club.club.games, "ann")
    assert pick_game(dict(doc, waiting_on_you=[]), None) == "second"  # nothing waits on you: the latest
    out = ann("show", "--game", "first", "--json").stdout
    assert json.loads(out)["game"] == "first"
    assert json.loads(ann("show", "--game=second", "--json").stdout)["game"] == "second"


def test_turn_plays_on_after_the_server_rolled(club):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))
    import toy_ruleset

    toy_ruleset.register()
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--name", "toy", "--ruleset", "toy")
    bob("join", "toy")
    out = ann("turn", "--assign", "2", "--no-reroll").stdout
    assert "waits for the others' dice for 'add 2'" in out and "ann adds 2" in out
    assert "once the reply is imported" not in out and "play them with" not in out, out
    assert "waiting on bob" in out and "waiting on bob" in ann("show").stdout
