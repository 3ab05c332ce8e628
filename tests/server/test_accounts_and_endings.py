"""The server's accounts and a game's ends outside the rules: no 500 for a key bound to another
name or an odd `since`; a challenge writes nothing; a session can be ended; a player resigns
(the API and `trv --server URL resign`) and claims on time (`trv --server URL claim`) a server game."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from trvendetta.cli.identity import Keyring
from trvendetta.replays.signatures import domain_at, message
from trvendetta.server.club import resign_payload


def _tokens(club) -> list:
    return club.on_store(club.club.accounts.all, "SELECT digest, kind FROM trv_server_tokens ORDER BY digest")


def _session(p) -> dict:
    saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
    return {"Authorization": f"Bearer {saved['token']}"}


def test_a_key_bound_to_another_name_and_an_odd_since_are_refused_not_500(club):
    ann = club.player("ann")
    err = ann("login", club.url, "--as", "annie", server=False, code=1).stderr
    assert "your key" in err and "'ann'" in err and "log in as that name" in err, err
    ann("new", "--player", "ann:red:cars", "--player", "ann2:blue:cars", code=1)  # (ann2 never logged in)
    bob = club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    for since in ("%C2%B2", "%D9%A3", "99999999999999999999999"):
        response = httpx.get(f"{club.url}/api/games/duel/record?since={since}", timeout=30)
        assert response.status_code == 400 and "is not an event number" in response.json()["error"], response.text


def test_challenges_write_nothing_and_each_is_used_once(club):
    before = _tokens(club)
    for _ in range(20):
        assert httpx.get(f"{club.url}/api/challenge", timeout=30).status_code == 200
    assert _tokens(club) == before
    ann = club.player("ann")  # a login with one of them still works
    http = httpx.Client(base_url=club.url, timeout=30)
    got = http.get("/api/challenge").json()
    keys = Keyring({"ann": club.club.accounts.player("ann")[1]}, "ann", ann.home)
    from trvendetta.server.club import login_message

    body = {"name": "ann", "public": club.club.accounts.player("ann")[1], "challenge": got["challenge"],
            "signature": base64.b64encode(keys.sign("ann", login_message(got["server"], got["challenge"]))).decode()}
    assert http.post("/api/login", json=body).status_code == 200
    again = http.post("/api/login", json=body)  # the same challenge twice: refused
    assert again.status_code == 401 and "used already" in again.json()["error"]
    forged = dict(body, challenge=got["challenge"][:-4] + "AAAA")
    assert http.post("/api/login", json=forged).status_code == 401


def test_a_session_ends_at_logout(club):
    ann = club.player("ann")
    auth = _session(ann)
    assert httpx.get(f"{club.url}/api/me", headers=auth, timeout=30).status_code == 200
    out = ann("logout", club.url, server=False).stdout
    assert "the server ended the session" in out
    response = httpx.get(f"{club.url}/api/me", headers=auth, timeout=30)
    assert response.status_code == 401 and "log in again" in response.json()["error"]
    assert "not logged in" in ann("games", code=1).stderr


@pytest.fixture
def duel(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1h")
    bob("join", "duel")
    return club, ann, bob


def test_a_player_resigns_a_server_game_through_the_api(duel, tmp_path):
    club, ann, bob = duel
    http = httpx.Client(base_url=club.url, timeout=30)
    doc = http.get("/api/games/duel").json()
    at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    keys = Keyring({"bob": club.club.accounts.player("bob")[1]}, "bob", bob.home)
    payload = resign_payload("bob", doc["version"], doc["head"], at)
    game_id = club.club.store.events_head("duel", 1)
    msg = message(domain_at(club.club.store.load("duel").domain, game_id, doc["version"] + 1), doc["version"] + 1,
                  doc["head"], payload)
    body = {"version": doc["version"], "at": at, "signature": base64.b64encode(keys.sign("bob", msg)).decode()}
    # another player's session with bob's signature: refused
    refused = http.post("/api/games/duel/resign", json=body, headers=_session(ann))
    assert refused.status_code == 403, refused.text
    out = http.post("/api/games/duel/resign", json=body, headers=_session(bob))
    assert out.status_code == 200, out.text
    assert "bob resigned" in out.json()["ended"]
    record = club.club.export("duel", None)
    (tmp_path / "duel.trv").write_text(record)
    verified = ann("verify", tmp_path / "duel.trv", server=False).stdout
    assert "bob resigned" in verified and "every roll checked against the host's revealed seed" in verified


def test_a_player_resigns_from_the_cli(duel):
    club, ann, bob = duel
    out = ann("resign").stdout
    assert "ann resigned" in out and "trv send" not in out
    assert "waiting on" not in out, out  # the game is over: nobody's move is awaited
    assert "ann resigned" in club.club.games(None)["games"][0]["ended"]
    assert "ann resigned" in bob("show").stdout


def test_options_and_reach_after_a_resignation_say_the_game_is_over(duel):
    """The rules' state still has a decision pending (a resignation is the game's record, not a
    rule): the page's options and reach must say the game is over, not list moves."""
    club, ann, bob = duel
    waiting = club.on_store(club.club.timing, "duel")["seat"]
    mover = ann if waiting == "ann" else bob
    http = httpx.Client(base_url=club.url, timeout=30)
    assert http.get("/api/games/duel/options", headers=_session(mover)).json()["options"]  # moves, before
    assert http.get("/api/games/duel/reach?option=0", headers=_session(mover)).status_code == 200
    ann("resign")
    for path in ("/api/games/duel/options", "/api/games/duel/reach?option=0", "/api/games/duel/reach"):
        for player in (ann, bob):
            out = http.get(path, headers=_session(player))
            assert out.status_code == 409, (path, out.text)
            said = out.json()["error"]
            assert said.startswith("duel is over (ann resigned") and "nothing moves" in said, said
    assert http.get("/api/games/duel", headers=_session(mover)).json()["options"] == []


def test_a_player_claims_on_time_from_the_cli(duel):
    club, ann, bob = duel
    silent = club.on_store(club.club.timing, "duel")["seat"]
    other = bob if silent == "ann" else ann
    err = other("claim", code=1).stderr
    assert "not passed yet" in err, err
    club.club.clock = lambda: (datetime.now(timezone.utc) + timedelta(hours=2)).timestamp()
    out = other("claim").stdout
    assert f"{silent} lost on time" in out and "claimed by @host" in out


def test_a_replay_page_is_drawn_once_a_version_off_the_store_thread_and_not_reverified(duel, monkeypatch):
    """Looping clients on /replay/G must not load the one store thread: each version is drawn once,
    on the drawing thread, from records the store checked when it took them (no re-verification)."""
    import threading

    from trvendetta import replays
    from trvendetta.pictures import viewer

    club, ann, bob = duel
    drawn: list = []
    real = viewer.page

    def page(*args, **kwargs):
        drawn.append(threading.current_thread().name)
        return real(*args, **kwargs)

    def verify_game(*args, **kwargs):
        raise AssertionError("a replay re-verified the game")
    monkeypatch.setattr(viewer, "page", page)
    monkeypatch.setattr(replays, "verify_game", verify_game)
    first = httpx.get(f"{club.url}/replay/duel", timeout=60)
    assert first.status_code == 200 and "every record was checked" in first.text
    for _ in range(5):
        assert httpx.get(f"{club.url}/replay/duel", timeout=60).text == first.text
    assert len(drawn) == 1 and drawn[0].startswith("trv-replay"), drawn
    ann("resign")  # the game moves on: drawn again, once
    assert httpx.get(f"{club.url}/replay/duel", timeout=60).text != first.text
    httpx.get(f"{club.url}/replay/duel", timeout=60)
    assert len(drawn) == 2
    assert httpx.get(f"{club.url}/replay/nothing", timeout=60).status_code == 404


def test_an_event_stream_sees_a_move_another_process_made(duel, tmp_path):
    """A move the stream's process did not make (another server process's on the same store): the
    process's watcher finds the new version and says so."""
    from .conftest import Club

    club, ann, bob = duel
    other = Club(tmp_path, club.store, home=club.home)
    with httpx.stream("GET", f"{club.url}/api/games/duel/events", timeout=30) as response:
        lines = response.iter_lines()
        first = json.loads(next(line for line in lines if line.startswith("data: "))[6:])
        assert first == {"game": "duel", "version": club.club.store.version("duel")}
        mover = club.on_store(club.club.game_doc, "duel", None)["pending"]["player"]
        who = ann if mover == "ann" else bob
        who("login", other.url, server=False)
        who("--server", other.url, "act", json.dumps(json.loads(who("legal", "--json").stdout)[0]))
        second = json.loads(next(line for line in lines if line.startswith("data: "))[6:])
        assert second["version"] > first["version"]
    other.stop()


class _FullDisk:
    """The accounts' SQLite connection on a full disk: every insert fails as SQLite fails then."""

    def __init__(self, db):
        self.db = db

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith("INSERT"):
            import sqlite3

            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_full_disk_is_said_not_taken_for_a_row_that_exists(club):
    """A write that fails for want of room is no "there is an offer called X already", no
    "challenge used already": the 503 that says the store failed, and nothing was taken."""
    ann = club.player("ann")
    club.player("bob")
    http = httpx.Client(base_url=club.url, timeout=30)
    accounts = club.club.accounts
    got = http.get("/api/challenge").json()
    keys = Keyring({"ann": accounts.player("ann")[1]}, "ann", ann.home)
    from trvendetta.server.club import login_message

    login = {"name": "ann", "public": accounts.player("ann")[1], "challenge": got["challenge"],
             "signature": base64.b64encode(keys.sign("ann", login_message(got["server"], got["challenge"]))).decode()}
    offer = {"players": ["ann:red:cars", "bob:blue:cars"], "name": "second"}
    real = accounts.db
    accounts.db = _FullDisk(real)
    try:
        for response in (http.post("/api/games", json=offer, headers=_session(ann)), http.post("/api/login", json=login)):
            assert response.status_code == 503, response.text
            assert "already" not in response.text and "\n" not in response.json()["error"]
        import sqlite3

        for write, args in ((accounts.register, ("carl", "00" * 32, 0)), (accounts.remind_once, ("duel", 3)),
                            (accounts.put_offer, ("third", "{}", "ann", 0)), (accounts.use_once, ("x", 9))):
            with pytest.raises(sqlite3.OperationalError, match="disk is full"):
                club.on_store(write, *args)
    finally:
        accounts.db = real
    assert http.get("/api/offers/second", headers=_session(ann)).status_code == 404
    assert http.post("/api/login", json=login).status_code == 200  # the challenge was never used
    assert http.post("/api/games", json=offer, headers=_session(ann)).status_code == 200
    http.close()


def test_a_move_wakes_every_stream_of_its_game_with_one_read_of_its_version(duel, monkeypatch):
    """Thirty pages follow the game being played: the move's answer wakes them all, and the store
    thread reads the game's version once for them, not once a stream."""
    import socket

    from trvendetta.server import app as server_app

    club, ann, bob = duel
    monkeypatch.setattr(server_app, "POLL_SECONDS", 3600.0)  # (no look for other processes' moves meanwhile)
    streams = []
    for _ in range(30):
        s = socket.create_connection(("127.0.0.1", club.port), timeout=30)
        s.sendall(b"GET /api/games/duel/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        streams.append(s)

    def data_lines(s, n):
        got = b""
        while got.count(b"data: ") < n:
            chunk = s.recv(65536)
            assert chunk, got
            got += chunk
        return got
    try:
        for s in streams:
            data_lines(s, 1)  # each stream has said the version it starts at
        reads = []
        real = club.club.version
        monkeypatch.setattr(club.club, "version", lambda game: reads.append(game) or real(game))
        mover = club.on_store(club.club.game_doc, "duel", None)["pending"]["player"]
        who = ann if mover == "ann" else bob
        who("act", json.dumps(json.loads(who("legal", "--json").stdout)[0]))
        for s in streams:
            assert b"data: " in data_lines(s, 1)  # each stream said the move
        assert 1 <= reads.count("duel") <= 3, reads  # one read a wake-up (the act may answer twice: its roll)
    finally:
        for s in streams:
            s.close()
