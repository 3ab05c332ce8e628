"""A running server's store keeps the games it read or wrote (``GameStore.trust_own_reads``) and what
it worked out for them (``Club._seen``): a row edited behind its back, once it is the game's last, is
seen on the next request as a fresh process sees it (the store red team's a09/a10: the page used to be
served, and a move appended, on top of the edited record)."""

from __future__ import annotations

import json

import httpx

from tamper import edit_record
from trvendetta.store import GameStore


def test_a_last_record_edited_behind_the_server_is_refused_not_played_on(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    players = {"ann": ann, "bob": bob}

    def mover():
        return players[json.loads(ann("games", "--json").stdout)["games"][0]["waiting_on"]]

    for _ in range(2):
        who = mover()
        who("act", json.dumps(json.loads(who("legal", "--json").stdout)[0]))
    assert httpx.get(f"{club.url}/api/games/duel", timeout=30).status_code == 200  # worked out and kept
    who = mover()
    move = json.dumps(json.loads(who("legal", "--json").stdout)[0])
    db = club.root / "club.sqlite"
    with GameStore(db) as plain:
        last = plain.events("duel")[-1]

    def edit(doc: dict) -> None:
        doc["payload"] = doc["payload"][:-1] + ',"x":1}'

    assert edit_record(db, last.hash, edit) == 1
    response = httpx.get(f"{club.url}/api/games/duel", timeout=30)
    assert response.status_code == 503 and "damaged at event" in response.text, response.text
    err = who("act", move, code=1).stderr
    assert "damaged at event" in err, err
    assert club.on_store(club.club.store.version, "duel") == last.number  # nothing appended
