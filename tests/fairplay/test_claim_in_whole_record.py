"""A claim on time inside a game imported whole (docs/fair-play.md, "Time limits", "Threat model").

``trv new --key bob=bob.pub --time 3d`` needs nothing from bob, and an exchange game bob joined is
started by another player: the first bob sees of the game can be the whole record, already ended
by a claim against him.  Each attack is a cheating claimant with separate stores and the record
as a file: bob's store did not hold the game, so every record of it reaches it at the import and
his time starts then; the claim is refused, naming both times, and nothing is written."""

import pytest
from freezegun import freeze_time

from test_claims_checked import _claim
from fairplay_helpers import version
from test_time_limits import START, _forge, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _new_with_bobs_key(tmp_path, ann, time="3d"):
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}", "--seed", "3", "--name", "duel", "--time", time)


def _refused_whole(bob, path, *extra):
    out = bob("import", path, *extra, code=1, multiline=True).stderr
    assert "did not hold the game and received it whole" in out, out
    assert "nothing was written" in out, out
    assert bob("games").stdout.strip().startswith("no games yet")  # nothing written
    return out


def test_a_claim_kept_back_with_the_game_it_ends_is_refused_by_the_store_that_never_held_it(tmp_path, players):
    """ann never sends the game, claims when bob's deadline passes by her clock, sends the whole record."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        _new_with_bobs_key(tmp_path, ann)  # (seed 3: bob moves first)
    with freeze_time("2026-12-04 12:00:01"):
        assert "bob lost on time" in ann("claim").stdout
        ann("export", "duel", "-o", tmp_path / "duel.trv")
        out = _refused_whole(bob, tmp_path / "duel.trv")
    assert "so by its clock bob's deadline is 2026-12-07T12:00:01Z" in out, out
    # under another name it is the same game, as new here
    with freeze_time("2026-12-04 12:00:01"):
        _refused_whole(bob, tmp_path / "duel.trv", "--name", "other")


def test_a_claim_with_made_up_times_appended_at_once_is_refused(tmp_path, players, monkeypatch):
    """ann's own trv signs a claim 5 s after the game, its times a month back (the record alone
    cannot tell: the times are consistent with each other)."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        _new_with_bobs_key(tmp_path, ann)
    with freeze_time("2026-12-01 12:00:05"):
        _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-11-01T12:00:00Z",
                                                          deadline="2026-11-04T12:00:00Z", at="2026-12-01T12:00:05Z"))
        monkeypatch.undo()
        ann("export", "duel", "-o", tmp_path / "duel.trv")
    with freeze_time("2026-12-01 12:00:10"):
        out = _refused_whole(bob, tmp_path / "duel.trv")
    assert "by 2026-11-04T12:00:00Z" in out and "deadline is 2026-12-04T12:00:10Z" in out, out


def test_a_claim_dated_in_the_future_to_match_the_import_is_refused_as_a_fast_clock(tmp_path, players, monkeypatch):
    """The next route: times that start at the import, so the deadline is the one bob's store would
    give; the claim must then be made three days ahead of bob's clock."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        _new_with_bobs_key(tmp_path, ann)
        _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-12-01T12:00:10Z",
                                                          deadline="2026-12-04T12:00:10Z", at="2026-12-04T12:00:10Z"))
        monkeypatch.undo()
        ann("export", "duel", "-o", tmp_path / "duel.trv")
    with freeze_time("2026-12-01 12:00:10"):
        out = bob("import", tmp_path / "duel.trv", code=1, multiline=True).stderr
    assert "ann's clock is fast" in out, out
    assert bob("games").stdout.strip().startswith("no games yet")


def test_an_exchange_game_started_and_claimed_before_bob_saw_it_is_refused(tmp_path, players, monkeypatch):
    """bob joined; ann starts the game, keeps it back and claims with times before bob's own join."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        args = ["invite", "--name", "duel", "-o", tmp_path / "invite.json", "--time", "3d"]
        for p, color in ((ann, "red"), (bob, "blue")):
            args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
        ann(*args)
        bob("join", tmp_path / "invite.json", "-o", tmp_path / "bob.json")
        ann("new", "--invite", tmp_path / "invite.json", "--join", tmp_path / "bob.json")
        while ann.pending() == "ann":
            ann("decide", ann.first_legal())
        _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-11-01T12:00:00Z",
                                                          deadline="2026-11-04T12:00:00Z", at="2026-12-01T12:00:05Z"))
        monkeypatch.undo()
        ann("export", "duel", "-o", tmp_path / "duel.trv")
    with freeze_time("2026-12-01 12:00:10"):
        _refused_whole(bob, tmp_path / "duel.trv")


def test_a_whole_game_that_reached_the_store_in_time_still_takes_a_fair_claim(tmp_path, players):
    """The check does not stop what is fair: bob imports the game when it is made, and ann's claim
    after his deadline (by both clocks) ends his copy."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-04 12:00:01"):
        since = version(ann)
        assert "lost on time" in ann("claim").stdout
        ann("export", "duel", "--since", since, "-o", tmp_path / "claim.trv")
        assert "lost on time" in bob("import", tmp_path / "claim.trv").stdout


def _cup_with_keys(tmp_path, org):
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}")
    org("tournament", "pair", "cup")


def test_a_tournament_does_not_count_a_claim_against_a_seat_that_signed_nothing_unless_ruled(tmp_path, players):
    """ann's record alone (bob's store refused it, so there is no copy of his): bob made no signature
    in the game, so nothing shows it reached him; the organiser's upheld ruling makes it count."""
    org, ann, bob = players("org", "ann", "bob")
    _cup_with_keys(tmp_path, org)
    with freeze_time(START):
        _new_with_bobs_key(tmp_path, ann)
    with freeze_time("2026-12-04 12:00:01"):
        ann("claim")
        ann("export", "duel", "-o", tmp_path / "duel.trv")
    err = org("tournament", "report", "cup", "--table", "1", tmp_path / "duel.trv", code=1, multiline=True).stderr
    assert "no record of it is signed by bob (no move, no reveal)" in err, err
    assert "trv tournament rule NAME --table 1" in err, err
    org("tournament", "rule", "cup", "--table", "1", tmp_path / "duel.trv", "--uphold", "--reason", "bob agreed")
    assert "1. ann, 2. bob" in org("tournament", "report", "cup", "--table", "1", tmp_path / "duel.trv").stdout


def test_a_tournament_still_counts_a_claim_against_a_seat_that_answered_before(tmp_path, players):
    """The seat signed moves, then fell silent: its claim counts as before, without a ruling."""
    org, ann, bob = players("org", "ann", "bob")
    _cup_with_keys(tmp_path, org)
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "b1.trv")
        ann("import", tmp_path / "b1.trv")
        while ann.pending() == "ann":
            ann("decide", ann.first_legal())
    with freeze_time("2026-12-04 12:00:01"):
        ann("claim")
        ann("export", "duel", "-o", tmp_path / "duel.trv")
    assert "1. ann, 2. bob" in org("tournament", "report", "cup", "--table", "1", tmp_path / "duel.trv").stdout
