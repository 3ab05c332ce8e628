"""A revocation is nobody's answer to a claim (docs/fair-play.md, "Time limits"; docs/server.md,
"Delegated keys").

bob, who stalls, appends to his own store a revocation of browser keys (a junk key, signed by his
own key: any seat may revoke at any time) while the game waits for his move, and keeps it.  ann
claims after his deadline.  Neither bob's store nor a tournament given both copies may take the
revocation for bob's answer in time: only the claimed seat's own actions and reveals answer."""

import base64
from datetime import timedelta

import pytest
from freezegun import freeze_time

from test_host_remote import send

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")
START = "2026-12-01 12:00:00"


def _revoke_junk(bob, host_key):
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    from trvendetta.replays.signatures import revocation_body
    from trvendetta.store import REVOKE_KIND, GameStore, RawRecord, Revoke, encode_draw

    key = load_pem_private_key((bob.home / "identities" / "bob.key").read_bytes(), None)
    junk, at = ["00" * 32], 1796000000
    rec = Revoke("bob", host_key, at, junk, base64.b64encode(key.sign(revocation_body("bob", host_key, at, junk))).decode())
    with GameStore(bob.db) as store:
        store.append("cup", store.version("cup"), records=[RawRecord(REVOKE_KIND, 1, encode_draw(rec), b"", b"")])


def _host_game_waiting_on_bob(tmp_path, org, ann, bob, clock):
    stores = [org, ann, bob]
    org("host", "offer", "--player", "ann:red", "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue",
        "--key", f"bob={tmp_path / 'bob.pub'}", "--name", "cup", "--time", "3d", "-o", tmp_path / "offer.json")
    for p in (ann, bob):
        p("host", "join", tmp_path / "offer.json", "-o", tmp_path / f"{p.name}.json")
    org("host", "new", tmp_path / "offer.json", "--join", tmp_path / "ann.json", "--join", tmp_path / "bob.json")
    send(tmp_path, org, stores)
    while ann.pending() != "bob":
        ann("decide", ann.first_legal())
        send(tmp_path, ann, stores)


def test_a_revocation_kept_back_is_no_answer_in_time(tmp_path, players):
    from trvendetta.cli.identity import identities

    org, ann, bob = players("org", "ann", "bob")
    with freeze_time(START) as clock:
        _host_game_waiting_on_bob(tmp_path, org, ann, bob, clock)
        clock.tick(timedelta(hours=2))
        _revoke_junk(bob, identities(org.home)[0].public)
        clock.tick(timedelta(days=3, hours=1))
        assert "bob lost on time" in ann("claim").stdout
        ann("send", "-o", tmp_path / "claim.trv")
        out = bob("import", tmp_path / "claim.trv").stdout
    assert "crossed an answer" not in out and "game over: bob lost on time" in out, out
    assert "bob lost on time" in bob("verify").stdout


def test_a_tournament_does_not_take_a_revocation_for_the_claimed_seats_answer(tmp_path, players):
    """bob's copy (the revocation after event 14, no claim) beside ann's (the claim after event 14):
    not "bob's answer"; the claim is against a seat that signed nothing, so the organiser rules."""
    from trvendetta.cli.identity import identities

    org, ann, bob = players("org", "ann", "bob")
    with freeze_time(START) as clock:
        _host_game_waiting_on_bob(tmp_path, org, ann, bob, clock)
        clock.tick(timedelta(hours=2))
        _revoke_junk(bob, identities(org.home)[0].public)
        clock.tick(timedelta(days=3, hours=1))
        ann("claim")
    for p in (ann, bob):
        p("export", "cup", "-o", tmp_path / f"{p.name}-end.trv")
    org("tournament", "new", "t", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "t", "ann", "bob")
    org("tournament", "pair", "t")
    copies = (tmp_path / "ann-end.trv", tmp_path / "bob-end.trv")
    err = org("tournament", "report", "t", "--table", "1", *copies, code=1, multiline=True).stderr
    assert "holds bob's answer" not in err and "no record of it is signed by bob" in err, err
    org("tournament", "rule", "t", "--table", "1", copies[0], "--uphold")
    assert "1. ann, 2. bob" in org("tournament", "report", "t", "--table", "1", *copies).stdout
