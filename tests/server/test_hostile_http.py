"""Hostile HTTP against a club server: every attack gets a 4xx with one clear message, never a
500, and writes nothing (the game's record, the players and the offers are as before).

Each defence with the attack it stops and the next route around it a cheater would try:
a forged signature, then a real one replayed (at a later point of the game, or at the same one
once played); another player's session, then your own session with their signed move; a move out
of turn; a stale version; a delegation for another server, by another player, or past its end."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from trvendetta.cli.identity import Keyring
from trvendetta.replays.signatures import delegation_body, message


@pytest.fixture
def game(club):
    """ann and bob logged in, a game `duel` started, waiting on someone; their sessions and keyrings."""
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    http = httpx.Client(base_url=club.url, timeout=30)

    def session(p):
        saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
        return {"Authorization": f"Bearer {saved['token']}"}

    def keyring(p):
        return Keyring({p.name: club.club.accounts.player(p.name)[1]}, p.name, p.home)

    browser = club.player("browser", login=False)  # a key of nobody's seat: a browser's, for delegations
    from trvendetta.cli.identity import identities

    browser_keys = Keyring({"browser": identities(browser.home)[0].public}, "browser", browser.home)
    yield {"http": http, "ann": ann, "bob": bob, "auth": {"ann": session(ann), "bob": session(bob)},
           "keys": {"ann": keyring(ann), "bob": keyring(bob), "browser": browser_keys}, "club": club}
    http.close()


def state(club) -> tuple:
    """Everything a request could write: the game's record, every game, the players, the offers."""
    c = club.club
    return (c.export("duel", None), [g.id for g in c.store.list_games()],
            c.accounts.all("SELECT name, public, email FROM trv_server_players ORDER BY name"),
            c.accounts.all("SELECT game, joined FROM trv_server_offers ORDER BY game"))


def refused(response, status: int, words: str) -> None:
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert words in error and "\n" not in error, error


def doc(g, who: str) -> dict:
    return g["http"].get("/api/games/duel", headers=g["auth"][who]).json()


def to_move(g) -> tuple[str, str]:
    d = doc(g, "ann")
    mover = d["pending"]["player"]
    return mover, "bob" if mover == "ann" else "ann"


def signed_act(g, who: str, signer: str | None = None, *, version=None, action=None, number=None,
               previous=None) -> dict:
    """An act body: the first legal option of ``who``'s decision, signed by ``signer``'s key."""
    d = doc(g, who)
    action = action or d["options"][0]["action"]
    version = d["version"] if version is None else version
    msg = message(d["domain"], number or d["version"] + 1, previous or d["head"], action.encode())
    signer = signer or who
    signature = g["keys"][signer].sign(signer, msg)
    return {"action": action, "version": version, "signature": base64.b64encode(signature).decode()}


def test_malformed_bodies_are_refused_with_one_message(game):
    g = game
    mover, _ = to_move(g)
    before = state(g["club"])
    http, auth = g["http"], g["auth"][mover]
    cases = [
        (b"{not json", 400, "is not a valid act request"),
        (b"[]", 400, "is not a valid act request"),
        (json.dumps({"action": "x", "version": "1", "signature": ""}).encode(), 400, "Expected `int`"),
        (json.dumps({"action": "x", "version": 1, "signature": "", "extra": 1}).encode(), 400, "unknown field"),
        (json.dumps({"action": "{", "version": 1, "signature": "!!"}).encode(), 409, "game moved on"),
    ]
    for body, status, words in cases:
        refused(http.post("/api/games/duel/act", content=body, headers=auth), status, words)
    d = doc(g, mover)
    for action, signature, status, words in [
        ('{"type":"nothing"}', base64.b64encode(b"x" * 64).decode(), 400, "is not a vendetta action"),
        (d["options"][0]["action"].replace(":", ": ", 1), base64.b64encode(b"x" * 64).decode(), 400, "canonical"),
        (d["options"][0]["action"], "not base64!", 400, "is not base64"),
        (d["options"][0]["action"], base64.b64encode(b"x" * 10).decode(), 400, "is 10 bytes"),
    ]:
        body = {"action": action, "version": d["version"], "signature": signature}
        refused(http.post("/api/games/duel/act", json=body, headers=auth), status, words)
    assert state(g["club"]) == before


def test_oversized_bodies_are_refused_before_they_are_read(game):
    g = game
    http, auth = g["http"], g["auth"]["ann"]
    before = state(g["club"])
    refused(http.post("/api/games/duel/act", content=b"x" * 20000, headers=auth), 413, "larger than 16384 bytes")
    refused(http.post("/api/login", content=b"{" * 100000), 413, "larger than")

    def chunks():  # no Content-Length: the stream is cut at the limit
        for _ in range(2000):
            yield b"x" * 4096
    refused(http.post("/api/games/duel/packet", content=chunks(), headers=auth), 413, "larger than 4194304 bytes")
    assert state(g["club"]) == before


def test_a_forged_signature_and_a_replayed_one_are_refused(game):
    g = game
    mover, other = to_move(g)
    http = g["http"]
    before = state(g["club"])
    # signed with the other player's key
    refused(http.post("/api/games/duel/act", json=signed_act(g, mover, signer=other), headers=g["auth"][mover]),
            403, f"the signature is not {mover}'s over this action")
    # a real signature of the mover, made for another point of the chain (the next record, another head)
    wrong_place = signed_act(g, mover, number=doc(g, mover)["version"] + 2)
    refused(http.post("/api/games/duel/act", json=wrong_place, headers=g["auth"][mover]), 403, "at this point")
    assert state(g["club"]) == before
    # a good move, then the same request again: answered as recorded, nothing added (a replay plays
    # nothing twice); and the same signature presented at the new version signs another place in the chain
    good = signed_act(g, mover)
    assert http.post("/api/games/duel/act", json=good, headers=g["auth"][mover]).status_code == 200
    after = state(g["club"])
    again = http.post("/api/games/duel/act", json=good, headers=g["auth"][mover])
    assert again.status_code == 200 and again.json()["added"] == 0, again.text
    assert state(g["club"]) == after
    now = doc(g, "ann")
    if now["pending"]["player"] == mover:
        replayed = dict(good, version=now["version"])
        refused(http.post("/api/games/duel/act", json=replayed, headers=g["auth"][mover]), 403, "at this point")
    assert state(g["club"]) == after


def test_another_players_session_and_a_move_out_of_turn_are_refused(game):
    g = game
    mover, other = to_move(g)
    http = g["http"]
    before = state(g["club"])
    # the mover's own signed move, sent with the other player's session
    refused(http.post("/api/games/duel/act", json=signed_act(g, mover), headers=g["auth"][other]), 403,
            f"it is {mover}'s decision, not {other}'s")
    # the other player's own move out of turn, signed with their own key (the mover's options)
    refused(http.post("/api/games/duel/act", json=signed_act(g, mover, signer=other), headers=g["auth"][other]),
            403, f"it is {mover}'s decision, not {other}'s")
    # no session, a made-up session
    refused(http.post("/api/games/duel/act", json=signed_act(g, mover)), 401, "log in first")
    refused(http.post("/api/games/duel/act", json=signed_act(g, mover), headers={"Authorization": "Bearer x"}),
            401, "unknown or expired")
    # a stale version, correctly signed for that version
    stale = signed_act(g, mover, version=doc(g, mover)["version"] - 1)
    refused(http.post("/api/games/duel/act", json=stale, headers=g["auth"][mover]), 409, "game moved on")
    # an illegal action, signed properly
    illegal = signed_act(g, mover, action='{"type":"assign","car":"red-small","die":9}')
    response = http.post("/api/games/duel/act", json=illegal, headers=g["auth"][mover])
    assert response.status_code in (400, 422), response.text
    assert state(g["club"]) == before


def delegation(g, who: str, host: str, until: int, browser: Keyring | None = None, seat: str | None = None):
    """``who``'s key delegating the key of ``browser`` (a browser's) for ``seat``."""
    browser = browser or g["keys"]["browser"]
    key = browser.seats[next(iter(browser.seats))]
    body = delegation_body(seat or who, key, host, until)
    return bytes.fromhex(key) + until.to_bytes(8, "big") + g["keys"][who].sign(who, body)


def test_delegations_for_another_server_by_another_player_or_past_their_end_are_refused(game):
    g = game
    mover, other = to_move(g)
    club = g["club"].club
    http = g["http"]
    before = state(g["club"])
    now = club.now()

    def delegated(deleg: bytes, signer: str = "browser") -> dict:
        body = signed_act(g, mover, signer=signer)
        return dict(body, signature=base64.b64encode(base64.b64decode(body["signature"]) + deleg).decode())

    cases = [
        (delegation(g, mover, "ab" * 32, now + 3600), "for this server"),
        (delegation(g, other, club.host_public, now + 3600, seat=mover), f"not signed by {mover}'s key"),
        (delegation(g, mover, club.host_public, now - 1), "the delegation ended"),
        (delegation(g, mover, club.host_public, now + 400 * 86400), "at most 90 days"),
    ]
    for deleg, words in cases:
        response = http.post("/api/games/duel/act", json=delegated(deleg), headers=g["auth"][mover])
        assert 400 <= response.status_code < 500 and words in response.json()["error"], response.text
    # a good delegation, but the signature made with another key than the delegated one
    good = delegation(g, mover, club.host_public, now + 3600)
    refused(http.post("/api/games/duel/act", json=delegated(good, signer=mover), headers=g["auth"][mover]), 403,
            "not " f"{mover}'s over this action")
    assert state(g["club"]) == before
    # and the good one is taken
    assert http.post("/api/games/duel/act", json=delegated(good), headers=g["auth"][mover]).status_code == 200


def test_login_attacks(game):
    g = game
    http = g["http"]
    before = state(g["club"])
    ann = g["keys"]["ann"]
    public = ann.seats["ann"]
    from trvendetta.server.club import login_message

    def attempt(name="ann", signer=ann, server=None, challenge=None):
        got = http.get("/api/challenge").json()
        challenge = challenge or got["challenge"]
        sig = signer.sign(next(iter(signer.seats)), login_message(server or got["server"], challenge))
        return {"name": name, "public": public, "challenge": challenge, "signature": base64.b64encode(sig).decode()}

    refused(http.post("/api/login", json=attempt(signer=g["keys"]["bob"])), 401, "is not")
    refused(http.post("/api/login", json=attempt(server="cd" * 32)), 401, "over this server's challenge")
    refused(http.post("/api/login", json=attempt(challenge="made-up")), 401, "unknown, used already or expired")
    once = attempt()
    assert http.post("/api/login", json=once).status_code == 200
    refused(http.post("/api/login", json=once), 401, "used already")  # a replayed login
    # bob's name with ann's key: the name is bound to bob's key
    refused(http.post("/api/login", json=attempt(name="bob")), 403, "belongs to key")
    refused(http.post("/api/login", json=dict(attempt(), name="no spaces")), 400, "player name")
    after = state(g["club"])
    assert after[:2] == before[:2] and after[2] == before[2]


def test_packets_that_do_not_extend_the_game_or_are_not_theirs_are_refused(game, tmp_path):
    g = game
    http, club = g["http"], g["club"]
    mover, other = to_move(g)
    before = state(club)
    refused(http.post("/api/games/duel/packet", content=b"hello", headers=g["auth"][mover]), 400, "")
    record = club.club.export("duel", None)
    # the whole record again is nothing new
    assert http.post("/api/games/duel/packet", content=record.encode(), headers=g["auth"][mover]).json()["added"] == 0
    # a packet with a changed signature line
    changed = record.replace("+ @host:", "+ @host:A", 1) if "+ @host:" in record else record + "garbage\n"
    response = http.post("/api/games/duel/packet", content=changed.encode(), headers=g["auth"][mover])
    assert 400 <= response.status_code < 500 and "\n" not in response.json()["error"], response.text
    # another player's session on a game they do not sit in
    carl = club.player("carl")
    carl_auth = {"Authorization": "Bearer " + json.loads(next((carl.home / "servers").glob("*.json")).read_text())[
        "token"]}
    refused(http.post("/api/games/duel/packet", content=record.encode(), headers=carl_auth), 403, "has no seat")
    refused(http.post("/api/games/duel/act", json=signed_act(g, mover), headers=carl_auth), 403, "has no seat")
    assert state(club)[:2] == before[:2]


def test_unknown_games_routes_and_methods(game):
    http = game["http"]
    refused(http.get("/api/games/nope"), 404, "no game called 'nope'")
    refused(http.get("/api/games/nope/record"), 404, "no game called")
    refused(http.get("/api/games/duel/record?since=x"), 400, "is not an event number")
    refused(http.get("/api/games/duel/record?since=99999"), 400, "the game has")
    refused(http.get("/api/nowhere"), 404, "no such address")
    refused(http.delete("/api/games/duel"), 405, "DELETE is not allowed")
    refused(http.get("/static/../club.sqlite"), 404, "")
    refused(http.get("/api/offers/duel"), 404, "no offer called 'duel'")


def test_join_attacks(game):
    g = game
    http, club = g["http"], g["club"]
    carl = club.player("carl")
    out = carl("new", "--player", "carl:green:cars", "--player", "ann:red:cars", "--name", "second").stdout
    assert "waiting for ann to join" in out
    before = state(club)
    offer = http.get("/api/offers/second").json()
    from trvendetta.app.messages import Contribution

    value = "11" * 32
    body = Contribution("trv-host-join", offer["id"], "ann", value).body()
    bad = base64.b64encode(g["keys"]["bob"].sign("bob", body)).decode()
    refused(http.post("/api/offers/second/join", json={"value": value, "signature": bad}, headers=g["auth"]["ann"]),
            403, "is not signed by ann's key")
    good = base64.b64encode(g["keys"]["bob"].sign("bob", Contribution("trv-host-join", offer["id"], "bob",
                                                                         value).body())).decode()
    refused(http.post("/api/offers/second/join", json={"value": value, "signature": good}, headers=g["auth"]["bob"]),
            403, "bob has no seat in second")
    refused(http.post("/api/offers/second/join", json={"value": "zz", "signature": bad}, headers=g["auth"]["ann"]),
            400, "32 random bytes")
    assert state(club) == before
    # a game offered with someone who never logged in, or without yourself
    refused(http.post("/api/games", json={"players": ["ann:red", "zed:blue"]}, headers=g["auth"]["ann"]), 400,
            "zed has never logged in")
    refused(http.post("/api/games", json={"players": ["bob:red", "carl:blue"]}, headers=g["auth"]["ann"]), 403,
            "you (ann) are not among the players")
    refused(http.post("/api/games", json={"players": ["ann:red", "bob:blue"], "name": "duel"},
                      headers=g["auth"]["ann"]), 409, "there is a game called 'duel'")
    assert state(club) == before


def test_garbage_to_every_route_is_never_a_500(game):
    g = game
    http = g["http"]
    routes = ["/api/login", "/api/me/email", "/api/games", "/api/offers/duel/join", "/api/games/duel/packet",
              "/api/games/duel/act", "/api/pairings/x/key", "/api/pairings/x/delegation",
              "/api/pairings/x/finish", "/api/pairings/x/nothing"]
    bodies = [b"", b"null", b"{}", b"[1,2]", b'{"a":1}', b"\xff\xfe", b'{"players":[1]}', b'{"public":"' + b"g" * 64
              + b'"}', b'{"value":1,"signature":2}', b'{"email":"a@b\\r\\nBcc: x"}', b'{"delegation":"AAAA"}']
    before = state(g["club"])
    for route in routes:
        for auth in ({}, g["auth"]["ann"]):
            for body in bodies:
                r = http.post(route, content=body, headers=auth)
                assert 400 <= r.status_code < 500, (route, body, r.status_code, r.text)
                assert r.json()["error"]
    assert state(g["club"]) == before
