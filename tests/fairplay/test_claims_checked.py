"""Claims on time checked against every clock (docs/fair-play.md, "Time limits", "Threat model").

A claim is the claimant's word about times; each attack below is a cheating claimant (a forged claim
is made with the project's own code and signed with the claimant's real key), with separate stores,
packets as files and frozen clocks moved by the test.  The record alone refuses a deadline the time
control cannot give; the receiving store refuses a claim its own stamps contradict, naming both times,
and writes nothing; a tournament refuses a claim a seat's copy contradicts, a fork and a copy."""

from datetime import timedelta

import pytest
from freezegun import freeze_time

from fairplay_helpers import version
from test_time_limits import START, _forge, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _claim(w, **fields):
    from trvendetta.store import Claim

    return Claim(**{"seat": w.seat, "by": "ann", "after": w.after, "after_hash": w.after_hash,
                    "unanswered": "decision", "control": str(w.control), **fields})


def _bob_moves(tmp_path, ann, bob, at, name="b1"):
    """bob (who moves first, seed 3) plays his turn at ``at`` and ann imports it then."""
    with freeze_time(at):
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / f"{name}.trv")
        ann("import", tmp_path / f"{name}.trv")


def _ann_moves(tmp_path, ann, at, name="a1"):
    with freeze_time(at):
        since = version(ann)
        while ann.pending() == "ann":
            ann("decide", ann.first_legal())
        ann("export", "--since", since, "-o", tmp_path / f"{name}.trv")
    return tmp_path / f"{name}.trv"


def test_a_made_up_deadline_three_seconds_into_a_reserve_is_refused_by_every_store(tmp_path, players, monkeypatch):
    """7d+1d: bob has answered nothing, so his whole reserve is left; ann's trv signs a claim 3 s in."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "7d+1d")  # (seed 3: bob moves first)
    _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-12-01T12:00:00Z",
                                                      deadline="2026-12-01T12:00:03Z", at="2026-12-01T12:00:03Z"))
    out = ann("verify", code=1, multiline=True).stderr
    assert "is not what '7d+1d' gives" in out and "bob has not answered before, so its whole reserve is left: 7d" \
        in out, out
    # (`trv export` walks the game too: the claim cannot even leave ann's store; `import` walks the same way)
    assert "whole reserve is left" in ann("export", "--since", version(ann) - 1, code=1, multiline=True).stderr


def test_a_made_up_start_as_well_is_refused_by_the_receivers_clock(tmp_path, players, monkeypatch):
    """The route around: the claim says bob's time started seven days earlier, so its deadline is what the
    control gives; the record alone cannot tell, bob's store (which got the game at 12:00) can."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "7d+1d")
    _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-11-24T12:00:00Z",
                                                      deadline="2026-12-01T12:00:00Z", at="2026-12-01T12:00:03Z"))
    assert ann("verify").stdout.startswith("OK: ")  # the claimant's word: nothing in the record says otherwise
    ann("export", "--since", version(ann) - 1, "-o", tmp_path / "claim.trv")
    before = version(bob)
    with freeze_time("2026-12-01 12:00:04"):
        out = bob("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    assert f"this store stamped event {before} at 2026-12-01T12:00:00Z, so by its clock bob's deadline is " \
           "2026-12-08T12:00:00Z, 7d later" in out, out
    assert version(bob) == before and "bob's move" in bob("show").stdout


def test_a_claim_from_a_clock_two_days_fast_is_refused(tmp_path, players):
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-04 12:30:00"):  # ann's clock; the real time is two days earlier
        ann("claim")
        ann("send", "-o", tmp_path / "claim.trv")
    before = version(bob)
    with freeze_time("2026-12-02 12:31:00"):
        out = bob("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    assert "made at 2026-12-04T12:30:00Z by ann's clock, 1d23h59m after this store's clock" in out and \
        "ann's clock is fast" in out, out
    assert version(bob) == before


def test_a_move_stamped_two_days_back_carries_no_claim(tmp_path, players):
    """ann's clock runs two days slow while she moves (her store stamps her move two days back), then
    right again: by her store bob's three days are up a day after her move reached him."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    _bob_moves(tmp_path, ann, bob, "2026-11-29 13:00:00")  # ann's store: two days back
    packet = _ann_moves(tmp_path, ann, "2026-11-29 13:05:00")
    with freeze_time("2026-12-01 13:06:00"):
        bob("import", packet)
    with freeze_time("2026-12-02 13:10:00"):
        assert "game over: bob lost on time" in ann("claim").stdout
        ann("send", "-o", tmp_path / "claim.trv")
        before = version(bob)
        out = bob("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    assert "the claim says bob had to answer event" in out and "by 2026-12-02T13:05:00Z" in out and \
        "this store received" not in out and "at 2026-12-01T13:06:00Z, so by its clock bob's deadline is " \
        "2026-12-04T13:06:00Z" in out, out
    assert version(bob) == before


def test_the_claimants_own_late_move_cannot_carry_its_claim(tmp_path, players):
    """ann keeps her move three days, then `trv claim` and `trv send`: one packet, her move and her claim;
    the next route, her move and a minute later the claim, is refused the same way."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    _bob_moves(tmp_path, ann, bob, "2026-12-01 13:00:00")
    move = _ann_moves(tmp_path, ann, "2026-12-01 14:00:00")  # kept, not sent
    before = version(bob)
    with freeze_time("2026-12-04 14:01:00"):
        ann("claim")
        ann("send", "-o", tmp_path / "both.trv")
        out = bob("import", tmp_path / "both.trv", code=1, multiline=True).stderr
        assert "this store received event" in out and "at 2026-12-04T14:01:00Z, so by its clock bob's deadline " \
            "is 2026-12-07T14:01:00Z" in out, out
        assert version(bob) == before
        bob("import", move)  # the move alone, then the claim
    with freeze_time("2026-12-04 14:02:00"):
        out = bob("import", tmp_path / "both.trv", code=1, multiline=True).stderr
    assert "this store stamped event" in out and "at 2026-12-04T14:01:00Z, so by its clock bob's deadline is " \
        "2026-12-07T14:01:00Z" in out, out
    assert "bob's move since 2026-12-04 14:01 UTC" in bob("show").stdout


def test_a_claim_crossing_an_answer_in_time_is_refused_with_both_stamps(tmp_path, players):
    """bob answered within the hour; ann cut a copy of the game before his answer (a second store),
    waited, and claimed in it.  bob's store refuses the claim, naming his answer's stamp and the claim's
    deadline; a tournament given both copies refuses the result until the organiser rules."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    _bob_moves(tmp_path, ann, bob, "2026-12-01 12:30:00")
    packet = _ann_moves(tmp_path, ann, "2026-12-01 13:00:00")
    with freeze_time("2026-12-01 13:00:00"):
        ann("export", "duel", "-o", tmp_path / "cut.trv")
        cut = type(ann)(tmp_path, "ann")
        cut.db = tmp_path / "ann-cut.sqlite"
        cut("import", tmp_path / "cut.trv")
        bob("import", packet)
    since = version(bob)
    with freeze_time("2026-12-01 14:00:00"):  # bob's answer, an hour in
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "b2.trv")
        ann("import", tmp_path / "b2.trv")
    with freeze_time("2026-12-04 13:01:00"):
        assert "game over: bob lost on time" in cut("claim").stdout
        cut("send", "-o", tmp_path / "claim.trv")
        before = version(bob)
        out = bob("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    assert f"bob answered event {since} here at 2026-12-01T14:00:00Z (event {since + 1}), before the deadline " \
           "(the claim's 2026-12-04T13:00:00Z" in out and "crossed an answer in time" in out, out
    assert version(bob) == before
    # ann's own store, which has bob's answer, refuses her cut copy's claim the same way
    assert "crossed an answer in time" in ann("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    # the tournament: the cut copy's claim against bob's copy holding his answer
    org = type(ann)(tmp_path, "org")
    org("id", "new", "org")
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}")
    org("tournament", "pair", "cup")
    cut("export", "duel", "-o", tmp_path / "cut-end.trv")
    bob("export", "duel", "-o", tmp_path / "bob-now.trv")
    err = org("tournament", "report", "cup", "--table", "1", tmp_path / "cut-end.trv", tmp_path / "bob-now.trv",
              code=1, multiline=True).stderr
    assert "holds bob's answer to event" in err and "a seat's copy contradicts the claim" in err, err
    org("tournament", "rule", "cup", "--table", "1", tmp_path / "cut-end.trv", "--overturn", "--reason", "bob answered")
    err = org("tournament", "report", "cup", "--table", "1", tmp_path / "cut-end.trv", tmp_path / "bob-now.trv",
              code=1, multiline=True).stderr
    assert "the organiser overturned ann's claim on time against bob" in err and "does not count" in err, err


def test_a_fork_ended_by_a_claim_is_no_tournament_result(tmp_path, players):
    """ann forks the game where bob is to answer (a fork is hers to look at), waits and claims in it."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
        ann("fork", "duel", "--at", str(version(ann)), "--name", "peek")
    with freeze_time("2026-12-04 12:01:00"):
        assert "game over: bob lost on time" in ann("claim", "--game", "peek").stdout
    ann("export", "peek", "-o", tmp_path / "peek.trv")
    assert ann("verify", tmp_path / "peek.trv").stdout.startswith("OK: ")
    org = type(ann)(tmp_path, "org")
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob")
    org("tournament", "pair", "cup")
    err = org("tournament", "report", "cup", "--table", "1", tmp_path / "peek.trv", code=1).stderr
    assert "peek is a fork of duel (after event" in err and "its result (a claim or a resignation in it " \
        "included) cannot count" in err, err
    # the next route: the fork's tags stripped and the game renamed as the original
    import re

    text = (tmp_path / "peek.trv").read_text()
    stripped = re.sub(r'\[(Parent|ParentAt|Domain) "[^"]*"\]\n', "", text).replace('[Game "peek"]', '[Game "duel"]')
    assert stripped != text and "Parent" not in stripped
    (tmp_path / "renamed.trv").write_text(stripped)
    err = org("tournament", "report", "cup", "--table", "1", tmp_path / "renamed.trv", code=1).stderr
    assert "does not verify" in err and "the claim is not signed by ann" in err, err


def test_three_players_each_store_refuses_a_claim_carried_by_the_claimants_late_move(tmp_path, players):
    """Three stores: the seat to move keeps its move three days and sends it with its claim against the
    next seat; both other stores refuse the packet and stay as they were.  The next route, the move
    mailed on time to one store only: that store takes the claim (its stamps agree), the other, which
    got the move with the claim, refuses it."""
    people = players("ann", "bob", "cyd")
    by = {p.name: p for p in people}
    ann = by["ann"]
    args = ["new", "--seed", "3", "--name", "duel", "--time", "3d"]
    for p, color in zip(people, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    with freeze_time(START):
        ann(*args)
        ann("export", "duel", "-o", tmp_path / "duel.trv")
        for p in people[1:]:
            p("import", tmp_path / "duel.trv")
        mover = by[ann.pending()]
        since = version(mover)
        while mover.pending() == mover.name:
            mover("decide", mover.first_legal())
        mover("export", "--since", since, "-o", tmp_path / "move.trv")
    silent = mover.pending()
    others = [p for p in people if p is not mover]
    with freeze_time("2026-12-04 12:01:00"):
        assert f"game over: {silent} lost on time" in mover("claim").stdout
        mover("send", "-o", tmp_path / "both.trv")
        for p in others:
            before = version(p)
            out = p("import", tmp_path / "both.trv", code=1, multiline=True).stderr
            assert f"so by its clock {silent}'s deadline is 2026-12-07T12:01:00Z" in out, out
            assert version(p) == before
    # the next route: the move reached one store on time (stamped 12:00 on the 1st)
    on_time, late = others
    with freeze_time(START):
        on_time("import", tmp_path / "move.trv")
    with freeze_time("2026-12-04 12:02:00"):
        assert f"{silent} loses on time" in on_time("import", tmp_path / "both.trv").stdout
        assert f"game over: {silent} lost on time" in on_time("show").stdout
        assert "so by its clock" in late("import", tmp_path / "both.trv", code=1, multiline=True).stderr
