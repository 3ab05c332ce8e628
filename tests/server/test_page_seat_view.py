"""The page's options and reach API see the game as the player's seat does (docs/server.md, "The
page"): in Carnival the host deals favors face down, and the game document lists a player's favors
with their openings; ``/options`` and ``/reach`` list and sign them the same way, byte for byte."""

from __future__ import annotations

import json
import random

import pytest

from trvendetta.server.page_api import options_doc, reach_doc


@pytest.fixture
def entropy_label() -> bytes:
    """The game of tests/server/test_private_favors_server.py: a favor is listed to its owner."""
    return b"favors listed to their owner 4"


def _favor_decisions(club, name, chooser, players) -> int:
    """Random play of the Carnival game ``name`` until favor decisions were compared three times or the
    game ends: how many were compared."""
    compared = 0
    for _ in range(600):
        doc = club.on_store(club.club.game_doc, name, "ann")
        if doc["over"]:
            break
        who = doc["pending"]["player"]
        mine = club.on_store(club.club.game_doc, name, who)
        listed = [o["action"] for o in mine["options"]]
        if any(json.loads(a)["type"] == "play-favor" for a in listed):
            page = club.on_store(options_doc, club.club, name, who)
            assert [o["action"] for o in page["options"]] == listed  # the favors with their openings
            favor = next(n for n, a in enumerate(listed) if json.loads(a)["type"] == "play-favor")
            found = club.on_store(reach_doc, club.club, name, who, favor)
            for spaces in found["vehicles"].values():
                for way in spaces.values():
                    assert way["actions"][0] == listed[favor]
            if mine["pending"]["kind"] == "step":  # every option of a step at once
                found = club.on_store(reach_doc, club.club, name, who, None)
                for spaces in found["vehicles"].values():
                    assert all(way["actions"][0] in listed for way in spaces.values())
            compared += 1
            if compared >= 3:
                break
        options = json.loads(players[who]("--game", name, "legal", "--json").stdout)
        favors = [o for o in options if o["type"] == "play-favor"]
        players[who]("--game", name, "act", json.dumps(chooser.choice(favors or options)))
    return compared


def test_options_and_reach_sign_a_favor_as_the_game_document_lists_it(club):
    ann, bob = club.player("ann"), club.player("bob")
    players = {"ann": ann, "bob": bob}
    # whether a favor is dealt and played is the luck of the dice: a game that ends first is followed by
    # another (a bounded search, not one seed that finds it only while the dice stay what they were)
    for k in range(10):
        name = f"duel{k}"
        ann("new", "--ruleset", "carnival", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", name)
        bob("join", name)
        compared = _favor_decisions(club, name, random.Random(1 + k), players)
        if compared:
            break
    assert compared, "no favor decision was reached in 10 games"
