"""A key the club page made (a player who signed up in the browser, docs/server.md "Signing up
without Python") becomes a CLI identity with `trv id import FILE`: the page's export, PKCS#8 PEM
after a few lines naming the player and the public key.  The key here is made as the page makes
it (an Ed25519 key, exported as PKCS#8) and signed up as the page signs up."""

from __future__ import annotations

import base64
import json

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trvendetta.server.club import login_message
from .conftest import Player


def _pkcs8(key) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def page_export(key, player: str, server: str) -> str:
    """What the page's "Export it" writes (server/page/play.js, exportKey)."""
    public = key.public_key().public_bytes_raw().hex()
    return f"trv club identity\nplayer {player}\nserver {server}\npublic {public}\n{_pkcs8(key)}"


def sign_up_as_the_page(club, key, name: str) -> None:
    http = httpx.Client(base_url=club.url, timeout=30)
    got = http.get("/api/challenge").json()
    public = key.public_key().public_bytes_raw().hex()
    signature = base64.b64encode(key.sign(login_message(got["server"], got["challenge"]))).decode()
    assert http.post("/api/login", json={"name": name, "public": public, "challenge": got["challenge"],
                                         "signature": signature}).status_code == 200


def test_a_key_the_page_made_plays_from_the_cli(club, tmp_path):
    key = Ed25519PrivateKey.generate()
    sign_up_as_the_page(club, key, "bob")
    export = tmp_path / "bob-trv-club-key.pem"
    export.write_text(page_export(key, "bob", club.public))
    bob = Player(club.root, "bob", club.url)
    out = bob("id", "import", export, server=False).stdout
    public = key.public_key().public_bytes_raw().hex()
    assert "identity    bob" in out and public in out
    bob("login", club.url, server=False)  # the server's name bob is bound to this very key
    ann = club.player("ann")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    assert json.loads(bob("games", "--json").stdout)["games"][0]["game"] == "duel"


def test_a_file_that_is_not_an_ed25519_key_is_refused_and_nothing_is_kept(club, tmp_path):
    bob = Player(club.root, "bob", club.url)
    folder = bob.home / "identities"
    cases = {
        "nothing.pem": ("trv club identity\nplayer bob\n", "holds no private key"),
        "ec.pem": (_pkcs8(ec.generate_private_key(ec.SECP256R1())), "not an Ed25519 key"),
        "changed.pem": (page_export(Ed25519PrivateKey.generate(), "bob", club.public).replace(
            "\npublic ", "\npublic 00", 1), "the file was changed"),  # another public key named
    }
    for name, (text, said) in cases.items():
        (tmp_path / name).write_text(text)
        err = bob("id", "import", tmp_path / name, server=False, code=1).stderr
        assert said in err, err
        assert not folder.exists() or not list(folder.iterdir())
    key = Ed25519PrivateKey.generate()
    (tmp_path / "bob.pem").write_text(_pkcs8(key))
    bob("id", "import", tmp_path / "bob.pem", server=False)
    err = bob("id", "import", tmp_path / "bob.pem", "other", server=False, code=1).stderr
    assert "your identity 'bob' already" in err
    (tmp_path / "bob2.pem").write_text(_pkcs8(Ed25519PrivateKey.generate()))
    err = bob("id", "import", tmp_path / "bob2.pem", "bob", server=False, code=1).stderr
    assert "already an identity called 'bob'" in err
