"""`trv login --revoke` as a cheater with a lost laptop's page would try it (docs/server.md, "Revoking";
docs/fair-play.md, threat model): the revocation is dated by the server's clock, not the signer's; a
key certified in the same second before it is revoked and one after it is not; the pairing's session
ends with it."""

import base64
import time

import httpx
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from tests.server.test_pairing import _bobs_turn, _page_act, _paired_page


def _duel(club):
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    return ann, bob


def _start(ann, bob):
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    _bobs_turn(ann)


def test_a_revocation_signed_by_a_slow_clock_still_revokes_the_page_paired_before_it(club):
    """bob's CLI clock is five minutes slow; his page was paired a moment ago (after the time he signs):
    the server takes the revocation as of its own clock, so the lost page is refused."""
    from trvendetta.server.club import revocation_message

    ann, bob = _duel(club)
    lost, done = _paired_page(club, bob, 11)
    _start(ann, bob)
    key = load_pem_private_key((bob.home / "identities" / "bob.key").read_bytes(), None)
    at = int(time.time()) - 300
    sig = base64.b64encode(key.sign(revocation_message("bob", club.public, at))).decode()
    from tests.server.test_claims_on_server import _auth

    with httpx.Client(base_url=club.url, timeout=30) as http:
        r = http.post("/api/me/revoke", headers=_auth(bob), json={"at": at, "signature": sig})
    assert r.status_code == 200 and r.json()["revoked"] == 1 and r.json()["revoked_until"] >= at + 290, r.text
    before = club.club.export("duel", None)
    with httpx.Client(base_url=club.url, timeout=30) as http:  # its session ended
        assert http.get("/api/me", headers={"Authorization": f"Bearer {done['token']}"}).status_code == 401
    moved = _page_act(club, lost, done, auth=_auth(bob))  # its key, through bob's own session
    assert moved.status_code == 403 and "bob revoked the browser keys" in moved.json()["error"], moved.text
    assert club.club.export("duel", None) == before


def test_a_revocation_in_the_pairings_second_revokes_it_and_a_new_pairing_in_it_acts(club):
    """The server's clock stands still (every step in one second): the page paired before the revocation
    is revoked, the page paired after it in the same second acts (a plain `<=` on seconds would block it)."""
    ann, bob = _duel(club)
    second = int(time.time())
    club.club.clock = lambda: float(second)
    lost, done = _paired_page(club, bob, 11)
    _start(ann, bob)
    assert "revoked every browser key you let act for bob" in bob("login", club.url, "--revoke", server=False).stdout
    acc = club.club.accounts
    assert club.on_store(acc.certified_at, "bob", lost.public_key().public_bytes_raw().hex()) < 0
    from tests.server.test_claims_on_server import _auth

    assert _page_act(club, lost, done, auth=_auth(bob)).status_code == 403
    page, fresh = _paired_page(club, bob, 13)
    assert club.on_store(acc.certified_at, "bob", page.public_key().public_bytes_raw().hex()) == second
    assert _page_act(club, page, fresh).status_code == 200


def test_a_revoked_pages_session_ends_with_its_key(club):
    """After the revocation the lost page's session sends no reminders elsewhere and offers no game in
    bob's name; bob's own CLI session goes on."""
    ann, bob = _duel(club)
    lost, done = _paired_page(club, bob, 11)
    _start(ann, bob)
    assert "ends their sessions" in bob("id", "revoke", club.url, server=False).stdout  # (= trv login --revoke)
    auth = {"Authorization": f"Bearer {done['token']}"}
    with httpx.Client(base_url=club.url, timeout=30) as http:
        e = http.post("/api/me/email", headers=auth, json={"email": "thief@example.org"})
        g = http.post("/api/games", headers=auth, json={"players": ["bob:red:cars", "ann:blue:cars"],
                                                         "name": "bait", "ruleset": "vendetta", "time": "1h"})
        me = http.get("/api/me", headers=auth)
    assert (e.status_code, g.status_code, me.status_code) == (401, 401, 401), (e.text, g.text, me.text)
    assert club.on_store(club.club.accounts.email, "bob") != "thief@example.org"
    assert "duel" in bob("games").stdout


def _marks_keys(first, second):
    """A revocation marks the keys certified before it, in one step every process of the club sees; a
    revocation kept from before keys were marked in place is applied to its keys when a process starts."""
    from trvendetta.server.accounts import Accounts

    acc = first.club.accounts
    old, new = "aa" * 32, "bb" * 32
    first.on_store(acc.certified, "bob", old, 100)
    assert first.on_store(acc.revoke, "bob", 50, "sig") == 1  # (signed at 50 by a slow clock: revokes it all)
    first.on_store(acc.certified, "bob", new, 100)  # paired after it, in the same second
    other = second.club.accounts
    assert second.on_store(other.certified_at, "bob", old) < 0
    assert second.on_store(other.certified_at, "bob", new) == 100
    # a revocation stored the old way (only its time): the keys certified before that time
    first.on_store(acc.run, "INSERT INTO trv_server_delegations (name, key, certified) VALUES (?, ?, ?)", "cyd",
                   old, 10)
    first.on_store(acc.run, "INSERT INTO trv_server_revocations (name, at, signature) VALUES (?, ?, ?)", "cyd",
                   20, "sig")
    started = Accounts(first.store)
    try:
        assert started.certified_at("cyd", old) < 0 and started.certified_at("bob", new) == 100
    finally:
        started.close()


def test_a_revocation_marks_the_keys_before_it(club):
    _marks_keys(club, club)


def test_a_revocation_marks_the_keys_before_it_for_every_process_on_postgres(two_processes):
    _marks_keys(*two_processes)
