"""A claim kept back ("in the pocket") until it suits its claimant, and the tolerance spent twice
(docs/fair-play.md, "Time limits, claims and resignation").  Each test is the attack, with separate
stores and packets as files, the claim made in a copy of the claimant's store (a plain `cp`)."""

import random
import shutil
from datetime import timedelta

import pytest
from freezegun import freeze_time

from fairplay_helpers import version
from test_claims_checked import _ann_moves, _bob_moves, _claim
from test_host_remote import send
from test_time_limits import START, _copies, _cup, _forge, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)


def _pocket(tmp_path, p):
    """``p``'s store as copied now, run with ``p``'s home (a claim kept for later is made in it)."""
    shutil.copy(p.db, tmp_path / f"pocket-{p.name}.sqlite")
    pocket = type(p)(tmp_path, p.name)
    pocket.db = tmp_path / f"pocket-{p.name}.sqlite"
    return pocket


def _bob_answers(tmp_path, bob, at, name="b1"):
    with freeze_time(at):
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / f"{name}.trv")
    return tmp_path / f"{name}.trv"


def test_a_claim_kept_back_while_the_game_went_on_is_refused_by_every_store(tmp_path, players):
    """bob answers an hour late by every clock; ann imports his move and plays on (so does bob); days
    later she sends the claim she made in a copy of her store from before his move.  Neither store
    appends it after the moves that followed (ann's own among them), and the game goes on."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    n = version(ann)
    late = _bob_answers(tmp_path, bob, "2026-12-04 13:00:00")
    with freeze_time("2026-12-04 13:00:00"):
        pocket = _pocket(tmp_path, ann)
        ann("import", late)
    packet = _ann_moves(tmp_path, ann, "2026-12-05 10:00:00")
    with freeze_time("2026-12-05 10:05:00"):
        bob("import", packet)
    _bob_moves(tmp_path, ann, bob, "2026-12-05 11:00:00", name="b2")
    assert not bob("legal").stdout.startswith("the game is over")
    later = version(bob)
    with freeze_time("2026-12-08 09:00:00"):
        pocket("claim")
        pocket("export", "--since", n, "-o", tmp_path / "pocket-claim.trv")
        for p in (bob, ann):
            err = p("import", tmp_path / "pocket-claim.trv", code=1, multiline=True).stderr
            assert "but ann's action (event" in err, err
            assert "a late claim follows only the claimed seat's own answer (bob's)" in err, err
            assert version(p) == later
            assert "lost on time" not in p("verify").stdout


def test_a_claim_kept_back_past_the_games_end_is_refused(tmp_path, players):
    """The same pocket claim, sent after the game ended by the rules."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    n = version(ann)
    late = _bob_answers(tmp_path, bob, "2026-12-04 13:00:00")
    with freeze_time("2026-12-04 13:00:00"):
        pocket = _pocket(tmp_path, ann)
        ann("import", late)
    for i, day in enumerate(["05", "06", "07"]):
        packet = _ann_moves(tmp_path, ann, f"2026-12-{day} 10:00:00", name=f"a{i}")
        with freeze_time(f"2026-12-{day} 10:05:00"):
            bob("import", packet)
        _bob_moves(tmp_path, ann, bob, f"2026-12-{day} 11:00:00", name=f"b{i + 2}")
    assert bob("legal").stdout.startswith("the game is over")
    later = version(bob)
    with freeze_time("2026-12-08 09:00:00"):
        pocket("claim")
        pocket("export", "--since", n, "-o", tmp_path / "pocket-claim.trv")
        err = bob("import", tmp_path / "pocket-claim.trv", code=1, multiline=True).stderr
        assert "follows the game's end" in err, err
        assert version(bob) == later


def test_a_late_claim_is_contradicted_by_the_copy_that_holds_the_answer_without_it(tmp_path, players):
    """bob answers two hours before his deadline; the mail makes it late at ann's.  Her store appends
    her claim (made in a copy from before his move) after his answer; his store refuses it.  His copy
    is a prefix of hers, yet it holds his answer: the tournament counts nothing until the organiser
    rules."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    n = version(ann)
    answer = _bob_answers(tmp_path, bob, "2026-12-04 10:00:00")
    with freeze_time("2026-12-04 14:00:00"):
        pocket = _pocket(tmp_path, ann)
        pocket("claim")
        pocket("export", "--since", n, "-o", tmp_path / "claim.trv")
        ann("import", answer)
        assert "the claim is appended after events" in ann("import", tmp_path / "claim.trv").stdout
        assert "crossed an answer in time" in bob("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    org = players("org")[0]
    _cup(tmp_path, org, rounds=1)
    copies = _copies(tmp_path, [ann, bob], "r1")
    err = org("tournament", "report", "cup", "--table", "1", *copies, code=1, multiline=True).stderr
    assert "holds bob's answer to event" in err and "a seat's copy contradicts the claim" in err, err
    org("tournament", "rule", "cup", "--table", "1", copies[0], "--uphold", "--reason", "the mail was bob's")
    assert "1. ann, 2. bob" in org("tournament", "report", "cup", "--table", "1", *copies).stdout


def _host_game(tmp_path, org, ann, bob, clock):
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
    clock.tick(timedelta(days=3, hours=1))  # bob is an hour late, by every clock
    return stores


def test_a_host_game_refuses_a_pocket_claim_and_reveals_after_a_late_one(players, tmp_path):
    """A host game: a claim kept back while everyone played on is refused by the host's store and
    bob's; a claim that crossed bob's late answer alone is appended by the host's store, which then
    reveals its seed, as after any end."""
    org, ann, bob = players("org", "ann", "bob")
    with freeze_time("2026-12-01 12:00:00") as clock:
        stores = _host_game(tmp_path, org, ann, bob, clock)
        n = version(ann)
        pocket = _pocket(tmp_path, ann)
        pocket("claim")
        pocket("export", "--since", n, "-o", tmp_path / "pocket.trv")
        bob("decide", bob.first_legal())  # bob's late answer (the rest of his turn later)
        send(tmp_path, bob, stores)
        shutil.copy(org.db, tmp_path / "org-then.sqlite")
        chooser = random.Random(7)
        while True:  # everyone plays on, until ann has acted
            legal = org("legal").stdout.splitlines()
            p = ann if legal[0].startswith("ann") else bob
            p("decide", chooser.choice(legal[1:]).strip())
            send(tmp_path, p, stores)
            if p is ann:
                break
        later = version(org)
        clock.tick(timedelta(days=2))
        for p in (org, bob):
            err = p("import", tmp_path / "pocket.trv", code=1, multiline=True).stderr
            assert "follows it: a late claim follows only the claimed seat's own answer" in err, err
        assert version(org) == later
        # the same claim at the host's store as it stood right after bob's late answer: taken, and revealed
        org.db = tmp_path / "org-then.sqlite"
        out = org("import", tmp_path / "pocket.trv").stdout
        assert "the claim is appended after events" in out, out
    assert "the host reveals the game's secret seed" in org("log").stdout.splitlines()[-1]
    out = org("verify").stdout
    assert "bob lost on time" in out and "every roll checked against the host's revealed seed" in out, out


@pytest.mark.parametrize("now,taken", [("2026-12-04 10:00:00", False), ("2026-12-04 10:59:59", False),
                                       ("2026-12-04 11:00:00", True)])
def test_the_tolerance_is_spent_once(tmp_path, players, monkeypatch, now, taken):
    """ann's claim gives a deadline an hour before bob's (the tolerance) and is dated an hour ahead of
    bob's clock (the tolerance again): bob's store takes it no earlier than an hour before its own
    deadline (12:00), whatever the claim says."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # bob's store got event N at 12:00: deadline 12-04 12:00
    _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-12-01T11:00:00Z",
                                                      deadline="2026-12-04T11:00:00Z", at="2026-12-04T11:00:00Z"))
    ann("export", "--since", version(ann) - 1, "-o", tmp_path / "claim.trv")
    before = version(bob)
    with freeze_time(now):
        r = bob("import", tmp_path / "claim.trv", code=0 if taken else 1, multiline=True)
    assert version(bob) == before + taken
    if not taken:
        assert "before bob's deadline by this store's clock (2026-12-04T12:00:00Z" in r.stderr, r.stderr
        assert "it allows 1h)" in r.stderr and ("2h" if now.endswith("10:00:00") else "1h1s") in r.stderr, r.stderr


def test_a_late_claim_sent_on_as_a_packet_is_walked_from_the_start_and_taken(tmp_path, players):
    """bob's store appends ann's claim after his own late answer; a store holding that answer (his own,
    as copied before) takes the claim as a plain packet after it: the walk resumed after his answer
    cannot tell who made the records the claim follows, so it walks the game whole, and takes it."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-04 12:30:00"):
        ann("claim")
        ann("send", "-o", tmp_path / "claim.trv")
    _bob_answers(tmp_path, bob, "2026-12-05 12:00:00")
    with freeze_time("2026-12-05 13:00:00"):
        answered = version(bob)
        other = _pocket(tmp_path, bob)  # a store holding bob's late answer (bob's, copied)
        assert "the claim is appended after events" in bob("import", tmp_path / "claim.trv").stdout
        bob("export", "--since", answered, "-o", tmp_path / "late-claim.trv")
        assert "imported packet" in other("import", tmp_path / "late-claim.trv").stdout
    assert version(other) == answered + 1 and "bob lost on time, claimed by ann" in other("verify").stdout
