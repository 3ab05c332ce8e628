"""Pairing a browser's key (`trv login --browser`, a real process) binds the key the page holds to
the pairing its player asked for: the page offers its key signed by that key, and the CLI certifies
the key that reached the server only when the player types the short code the page shows, which
only that key gives.  The attacks: a page (or anyone holding the pairing's address) that offers its
key first, certified today by `--yes`; a key offered without its private half.  The page is played
here by the test (the project's own code and the `cryptography` package); the Chromium test plays
the real one (tests/server/test_browser.py)."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trvendetta.server.club import pairing_code, pairing_key_message


def _page_key(seed: int):
    key = Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)
    return key, key.public_key().public_bytes_raw().hex()


def _offer(http, token, key, public, signer=None):
    proof = (signer or key).sign(pairing_key_message(token, public))
    return http.post(f"/api/pairings/{token}/key", json={"public": public, "proof": base64.b64encode(proof).decode()})


def _login(club, bob):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRV_")}
    env.update(TRV_HOME=str(bob.home), NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "trvendetta.cli.main", "login", club.url, "--browser", "--yes"],
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if "open this address in your browser: " in line:
            return proc, line.split("#", 1)[1].strip()
    raise AssertionError(proc.stderr.read())


def test_a_key_offered_first_by_another_page_is_not_certified_even_with_yes(club):
    bob = club.player("bob", login=False)
    proc, token = _login(club, bob)
    try:
        with httpx.Client(base_url=club.url, timeout=30) as http:
            thief, thief_public = _page_key(7)  # someone who read the address offers a key first
            assert _offer(http, token, thief, thief_public).status_code == 200
            page, page_public = _page_key(8)
            refused = _offer(http, token, page, page_public)  # bob's own page comes second
            assert refused.status_code == 409
            # bob types the code his page would show for its key: not the thief's key's
            out, err = proc.communicate(pairing_code(token, page_public) + "\n", timeout=120)
            assert proc.returncode == 1 and "is not the one of the key that reached the server" in err and \
                "nothing was certified" in err, (out, err)
            # nothing was certified: the thief's key collects no delegation and no session
            done = http.post(f"/api/pairings/{token}/finish", json={"public": thief_public})
            assert done.status_code == 200 and done.json() == {"ready": False}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_pages_own_key_with_its_code_is_certified_and_a_key_without_its_private_half_is_refused(club):
    bob = club.player("bob", login=False)
    proc, token = _login(club, bob)
    try:
        with httpx.Client(base_url=club.url, timeout=30) as http:
            other, _ = _page_key(9)
            _, someones_public = _page_key(10)  # a public key offered by one who does not hold its private half
            refused = _offer(http, token, None, someones_public, signer=other)
            assert refused.status_code == 403 and "not signed by the key offered" in refused.json()["error"]
            page, page_public = _page_key(8)
            assert _offer(http, token, page, page_public).status_code == 200
            out, err = proc.communicate(pairing_code(token, page_public) + "\n", timeout=120)
            assert proc.returncode == 0, err
            assert "the page's key is" in out and "may act for bob" in out
            done = http.post(f"/api/pairings/{token}/finish", json={"public": page_public}).json()
            assert done["ready"] and done["player"] == "bob" and done["delegation"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _paired_page(club, bob, seed):
    """A page key of bob's, paired by `trv login --browser` with its code: (key, what finish gave)."""
    proc, token = _login(club, bob)
    try:
        page, public = _page_key(seed)
        with httpx.Client(base_url=club.url, timeout=30) as http:
            assert _offer(http, token, page, public).status_code == 200
            out, err = proc.communicate(pairing_code(token, public) + "\n", timeout=120)
            assert proc.returncode == 0, err
            return page, http.post(f"/api/pairings/{token}/finish", json={"public": public}).json()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _page_act(club, page, done, auth=None):
    """The page signs bob's first legal option with its key under its delegation and posts it (with its
    own session, else ``auth``'s)."""
    from trvendetta.replays.signatures import message

    auth = auth or {"Authorization": f"Bearer {done['token']}"}
    with httpx.Client(base_url=club.url, timeout=30) as http:
        doc = http.get("/api/games/duel", headers=auth).json()
        action = doc["options"][0]["action"]
        signed = page.sign(message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
        signature = base64.b64encode(signed + base64.b64decode(done["delegation"])).decode()
        return http.post("/api/games/duel/act", headers=auth,
                         json={"action": action, "version": doc["version"], "signature": signature})


def _bobs_turn(ann):
    import json

    for _ in range(200):
        row = json.loads(ann("games", "--json").stdout)["games"][0]
        if row["waiting_on"] == "bob":
            return
        ann("act", json.dumps(json.loads(ann("legal", "--json").stdout)[0]))
    raise AssertionError("the game never waited on bob")


def test_a_revoked_browser_key_may_no_longer_act_and_a_new_pairing_may(club):
    """bob's laptop (its page paired) is lost: `trv login --revoke` signs a revocation the server keeps;
    the lost page's next move is refused.  The routes around: a revocation signed by another key; and
    the honest way on, a new pairing, whose key acts."""
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    lost, done = _paired_page(club, bob, 11)
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    _bobs_turn(ann)
    assert _page_act(club, lost, done).status_code == 200
    _bobs_turn(ann)
    # a revocation made with another key than bob's is refused, and changes nothing
    import time

    from trvendetta.server.club import revocation_message

    at = int(time.time())
    forged = base64.b64encode(_page_key(12)[0].sign(revocation_message("bob", club.public, at))).decode()
    with httpx.Client(base_url=club.url, timeout=30) as http:
        auth = {"Authorization": f"Bearer {done['token']}"}  # (the lost page's own session tries it)
        response = http.post("/api/me/revoke", headers=auth, json={"at": at, "signature": forged})
        assert response.status_code == 403 and "not signed by bob's key" in response.json()["error"]
    out = bob("login", club.url, "--revoke", server=False).stdout
    assert "revoked every browser key you let act for bob" in out
    before = club.club.export("duel", None)
    from tests.server.test_claims_on_server import _auth

    response = _page_act(club, lost, done, auth=_auth(bob))  # (the page's own session ended with its key)
    assert response.status_code == 403 and "bob revoked the browser keys" in response.json()["error"], response.text
    assert club.club.export("duel", None) == before
    # a new page, paired after the revocation, plays on
    page, fresh = _paired_page(club, bob, 13)
    assert _page_act(club, page, fresh).status_code == 200
