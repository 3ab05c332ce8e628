"""A claim on time in a host game, end to end (docs/fair-play.md, "Time limits"): the host and two
players, each with their own store; packets as files; the wall clock frozen and moved by the test."""

import random
from datetime import timedelta

import pytest
from freezegun import freeze_time

from test_host_remote import send

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def test_a_silent_player_of_a_host_game_loses_on_a_claim_every_store_verifies(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    stores = [org, ann, bob]
    with freeze_time("2026-12-01 12:00:00") as clock:
        org("host", "offer", "--player", "ann:red", "--key", f"ann={tmp_path / 'ann.pub'}", "--player", "bob:blue",
            "--key", f"bob={tmp_path / 'bob.pub'}", "--name", "cup", "--time", "3d", "-o", tmp_path / "offer.json")
        for p in (ann, bob):
            p("host", "join", tmp_path / "offer.json", "-o", tmp_path / f"{p.name}.json")
        org("host", "new", tmp_path / "offer.json", "--join", tmp_path / "ann.json", "--join", tmp_path / "bob.json")
        send(tmp_path, org, stores)
        chooser = random.Random(7)
        for _ in range(12):  # a few answers, then the game waits on bob
            p = ann if ann.pending() == "ann" else bob
            p("decide", chooser.choice(p("legal").stdout.splitlines()[1:]).strip())
            send(tmp_path, p, stores)
            clock.tick(timedelta(hours=1))
        while ann.pending() != "bob":
            ann("decide", ann.first_legal())
            send(tmp_path, ann, stores)
        clock.tick(timedelta(days=2))
        assert "not passed yet" in ann("claim", code=1).stderr
        clock.tick(timedelta(days=1, minutes=1))
        assert "game over: bob lost on time (claimed by ann" in ann("claim").stdout
        send(tmp_path, ann, stores)
    assert "bob lost on time" in bob("decide", "anything", code=1).stderr
    # the host's store revealed its seed when it met the claim: every roll becomes checkable
    assert "the host reveals the game's secret seed" in org("log").stdout.splitlines()[-1]
    send(tmp_path, org, stores)
    for p in stores:
        out = p("verify").stdout
        assert out.startswith("OK: ") and "bob lost on time, claimed by ann" in out
        assert "every roll checked against the host's revealed seed" in out
