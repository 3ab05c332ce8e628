"""Private favors on a club server (docs/fair-play.md, "Private favors"): the server hosts the game
and deals each favor face down; a player's page names their own favors and lists them to play (with
their opening), never another's; the record holds commitments only."""

from __future__ import annotations

import json
import random

import pytest


@pytest.fixture
def entropy_label() -> bytes:
    """A game in which a favor is listed to its owner and played: `legal --json` once listed it
    without its opening (the private view named the kind only; tests/carnival/test_hidden_favors.py)."""
    return b"favors listed to their owner 4"


def test_a_player_sees_and_plays_the_favors_dealt_to_them_and_no_one_elses(club):
    ann, bob = club.player("ann"), club.player("bob")
    players = {"ann": ann, "bob": bob}
    # whether a favor is dealt and played is the luck of the dice: a game that ends first is followed by
    # another (a bounded search, not one seed that finds it only while the dice stay what they were)
    for k in range(10):
        name = f"duel{k}"
        ann("new", "--ruleset", "carnival", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", name)
        bob("join", name)
        chooser, played, seen = random.Random(1 + k), [], set()
        for _ in range(600):
            docs = {p: club.on_store(club.club.game_doc, name, p) for p in players}
            if docs["ann"]["over"]:
                break
            for me, other in (("ann", "bob"), ("bob", "ann")):
                mine, theirs = docs[me]["view"]["favors"][me], docs[other]["view"]["favors"][me]
                assert len(mine["kinds"]) == mine["count"] and "kinds" not in theirs
                seen.update(mine["kinds"])
            who = docs["ann"]["pending"]["player"]
            options = json.loads(players[who]("--game", name, "legal", "--json").stdout)
            favors = [o for o in options if o["type"] == "play-favor"]
            assert all(o.get("nonce") for o in favors)  # listed with their opening, signed as listed
            action = chooser.choice(favors or options)
            played += [action] if favors else []
            players[who]("--game", name, "act", json.dumps(action))
        if seen and played:
            break
    record = club.club.export(name, None)
    assert seen and played, "no favor was dealt, or none was listed to play, in 10 games"
    assert "favor-collected" not in record and '"type":"favor-dealt"' in record
    assert all(kind not in record.split('"type":"favor-dealt"', 1)[1] or any(p["favor"] == kind for p in played)
               for kind in seen)  # after the first dealing, a kind appears only once it was played
    for action in played:  # played as listed: its opening is in the record
        assert action["nonce"] in record
