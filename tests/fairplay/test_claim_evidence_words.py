"""Evidence about a claim names the right record (docs/fair-play.md, "Disputes").

When one copy ends with ann's claim where the other holds bob's answer, `verify --against` and a
tournament's refusal must not say the claimant's copy "holds bob's action without his signature"
(it holds ann's claim, which is no action of bob's)."""

import pytest
from freezegun import freeze_time

from test_time_limits import START, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def test_a_copy_ending_with_a_claim_is_not_said_to_hold_the_seats_action(tmp_path, players):
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-01 13:00:00"):
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
    with freeze_time("2026-12-04 13:00:00"):
        ann("claim")
    for p in (ann, bob):
        p("export", "duel", "-o", tmp_path / f"{p.name}.trv")
    out = ann("verify", tmp_path / "ann.trv", "--against", tmp_path / "bob.trv", code=1, multiline=True)
    text = out.stdout + out.stderr
    assert "holds bob's action without it" not in text, text
    assert "ann.trv ends there with a claim or a resignation" in text and "bob.trv holds bob's signed action" in text, \
        text
