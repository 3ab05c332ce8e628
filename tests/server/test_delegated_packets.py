"""A delegated signature (a browser's key acting for a seat) is checked wherever it arrives: in a
packet as in `act`.  The attacks: a packet carrying a move signed under a delegation that ended,
and a seated player posting another seat's delegated move (with a delegation still running); and
the honest packet, taken.  (A delegation for another server is refused by every walk,
tests/server/test_delegation.py.)"""

from __future__ import annotations

import json

import httpx

from trvendetta.cli.identity import Keyring, identities
from trvendetta.replays.signatures import delegation_body


def _delegated_packet(club, mover, browser, until, monkeypatch, host=None):
    """``mover``'s next action made in her copy and signed with ``browser``'s key under a delegation
    by her own key (until ``until``, for ``host``): the packet from the server's version on."""
    from trvendetta.app.service import GameService
    from trvendetta.cli import identity
    from trvendetta.cli.remote import mirror_path
    from trvendetta.store import GameStore

    key = identities(browser.home)[0].public
    own = Keyring({mover.name: club.club.accounts.player(mover.name)[1]}, mover.name, mover.home)
    body = delegation_body(mover.name, key, host or club.club.host_public, until)
    deleg = bytes.fromhex(key) + until.to_bytes(8, "big") + own.sign(mover.name, body)
    browser_keys = Keyring({"browser": key}, "browser", browser.home)
    real = identity.Keyring.sign
    monkeypatch.setattr(identity.Keyring, "sign",
                        lambda self, seat, msg: real(browser_keys, "browser", msg) + deleg
                        if seat == mover.name else real(self, seat, msg))
    for old in (mover.home / "servers").glob("*.sqlite"):  # a fresh copy of the server's game
        old.unlink()
    mover("show")
    monkeypatch.setenv("TRV_HOME", str(mover.home))
    path = mirror_path(club.url)
    with GameStore(path) as store:
        before = store.version("duel")
    action = json.loads(mover.local("legal", "--json").stdout)[0]
    mover.local("act", json.dumps(action))
    monkeypatch.setattr(identity.Keyring, "sign", real)
    with GameStore(path) as store:
        return GameService(store).export("duel", since=before).encode()


def _auth(p):
    saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
    return {"Authorization": f"Bearer {saved['token']}"}


def _started(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    mover = json.loads(ann("games", "--json").stdout)["games"][0]["waiting_on"]
    return {"ann": ann, "bob": bob}[mover], {"ann": bob, "bob": ann}[mover]


def test_a_packet_with_a_move_under_an_ended_delegation_is_refused(club, monkeypatch):
    mover, other = _started(club)
    browser = club.player("browser", login=False)
    before = club.club.export("duel", None)
    now = club.club.now()
    packet = _delegated_packet(club, mover, browser, now - 1, monkeypatch)
    with httpx.Client(base_url=club.url, timeout=30) as http:
        response = http.post("/api/games/duel/packet", content=packet, headers=_auth(mover))
        assert response.status_code == 403 and "the delegation ended" in response.json()["error"], response.text
        # the next route: another seated player posts the same delegated move
        response = http.post("/api/games/duel/packet", content=packet, headers=_auth(other))
        assert response.status_code == 403 and f"only {mover.name}'s own session posts it" in \
            response.json()["error"], response.text
    assert club.club.export("duel", None) == before


def test_another_seats_delegated_move_is_refused_in_a_packet_and_the_seats_own_is_taken(club, monkeypatch):
    mover, other = _started(club)
    browser = club.player("browser", login=False)
    before = club.club.export("duel", None)
    now = club.club.now()
    good = _delegated_packet(club, mover, browser, now + 3600, monkeypatch)
    with httpx.Client(base_url=club.url, timeout=30) as http:
        response = http.post("/api/games/duel/packet", content=good, headers=_auth(other))
        assert response.status_code == 403 and f"only {mover.name}'s own session posts it" in \
            response.json()["error"], response.text
        assert club.club.export("duel", None) == before
        # the seat's own session: taken
        response = http.post("/api/games/duel/packet", content=good, headers=_auth(mover))
        assert response.status_code == 200 and response.json()["added"] >= 1, response.text
