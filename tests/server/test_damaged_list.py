"""One game's rows damaged outside trv (its index row's count one past its events) does not take the
games list down for everyone: the healthy games are listed, the damaged one is named under ``damaged``
with the store's words."""

from __future__ import annotations

import sqlite3

import httpx

from .test_recovery import _session


def test_one_damaged_game_leaves_the_games_list_to_the_others(club):
    ann, bob, cat = club.player("ann"), club.player("bob"), club.player("cat")
    for game in ("g", "h"):
        ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", game)
        bob("join", game)
    with sqlite3.connect(club.store) as con:
        con.execute("UPDATE trv_games SET version = version + 1 WHERE id='g'")
    con.close()
    with httpx.Client(base_url=club.url, timeout=60) as http:
        for who, auth in (("cat", _session(cat)), ("anyone", None)):
            listed = http.get("/api/games", headers=auth)
            assert listed.status_code == 200, (who, listed.text)
            doc = listed.json()
            assert [g["game"] for g in doc["games"]] == ["h"], (who, doc)
            assert [d["game"] for d in doc["damaged"]] == ["g"], (who, doc)
            error = doc["damaged"][0]["error"]
            assert "\n" not in error and "damaged" in error and "'g'" in error, error
        mine = http.get("/api/me", headers=_session(ann))  # a player of the damaged game: theirs listed too
        assert mine.status_code == 200, mine.text
        assert [g["game"] for g in mine.json()["games"]] == ["h"]
        assert [(d["game"], d["players"]) for d in mine.json()["damaged"]] == [("g", ["ann", "bob"])]
        assert http.get("/api/me", headers=_session(cat)).json()["damaged"] == []  # not cat's game
