"""`trv store copy` checks a claim on time as `trv import` does (docs/fair-play.md, "Time limits").

A copy of another player's store into one's own appends, to a game the target holds, the records
it lacks: a claim among them is checked against the target's own stamps (the new records received
now), so the copy cannot carry a claim `trv import` refuses.  Separate stores, frozen clocks."""

import pytest
from freezegun import freeze_time

from fairplay_helpers import version
from test_claims_checked import _claim
from test_time_limits import START, _forge, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _copy(p, source, code=0):
    return p("store", "copy", "--from", f"sqlite:{source.db}", "--to", f"sqlite:{p.db}", code=code, multiline=True)


def test_a_claim_made_three_seconds_into_a_reserve_is_not_copied(tmp_path, players, monkeypatch):
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "7d+1d")  # (seed 3: bob moves first)
        _forge(ann, monkeypatch, lambda w, loaded: _claim(w, since="2026-11-24T12:00:00Z",
                                                          deadline="2026-12-01T12:00:00Z", at="2026-12-01T12:00:03Z"))
        monkeypatch.undo()
    before = version(bob)
    with freeze_time("2026-12-01 12:00:04"):
        err = _copy(bob, ann, code=1).stderr
    assert "game 'duel': the claim says bob had to answer event 14 by 2026-12-01T12:00:00Z" in err, err
    assert err.rstrip().endswith("nothing was copied"), err
    assert version(bob) == before and "lost on time" not in bob("show").stdout


def test_a_claim_from_a_fast_clock_is_not_copied(tmp_path, players, monkeypatch):
    """The next route: a claim at the right point whose times come from a clock two days fast."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-04 12:00:01"):
        ann("claim")
    with freeze_time("2026-12-02 12:00:01"):  # bob's clock: two days earlier than ann's
        err = _copy(bob, ann, code=1).stderr
    assert "ann's clock is fast" in err and "nothing was copied" in err, err
    assert "lost on time" not in bob("show").stdout


def test_a_fair_claim_is_copied(tmp_path, players):
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-04 12:00:01"):
        ann("claim")
        assert "brought up to date duel" in _copy(bob, ann).stdout
    assert "bob lost on time" in bob("show").stdout
