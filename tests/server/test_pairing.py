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
