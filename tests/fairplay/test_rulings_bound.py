"""Rulings on claims bound to the organiser's key (docs/fair-play.md, "Time limits", "Threat model").

`trv tournament new` fixes the organiser's public key in the tournament's first event; only that
key's signed rulings count.  Each attack is a claimant writing a ruling into the organiser's log
(what a cheater's trv with access to the log could do), with separate stores and copies as files:
`tournament report` and `tournament verify` refuse it, naming the key that rules."""

import base64

import pytest
from freezegun import freeze_time

from test_time_limits import START, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _split_claim(tmp_path, org, ann, bob):
    """bob answers in time, ann "never gets it" and claims: the two copies split at the claim."""
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}")
    org("tournament", "pair", "cup")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-01 13:00:00"):
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
    with freeze_time("2026-12-04 13:00:00"):
        ann("claim")
    for p in (ann, bob):
        p("export", "duel", "-o", tmp_path / f"{p.name}.trv")
    return tmp_path / "ann.trv", tmp_path / "bob.trv"


def _write_ruling(tmp_path, org, signer, by=None, ruling="upheld"):
    """A ruling on ann's claim signed with ``signer``'s own key (naming ``by``, default that key),
    appended to org's tournament log past `tournament rule`'s checks."""
    from msgspec.structs import replace

    from trvendetta.app.tournament import TournamentService
    from trvendetta.cli.identity import _private, identities
    from trvendetta.replays.tournament import result_of_file
    from trvendetta.store import GameStore
    from trvendetta.tournament import events as tev

    me = [i for i in identities(signer.home) if i.name == signer.name][0]
    with GameStore(org.db) as store:
        svc = TournamentService(store)
        loaded = svc.log.load("cup")
        checked = result_of_file(store, (tmp_path / "ann.trv").read_bytes(), str(tmp_path / "ann.trv"), 1, 1)
        ruled = tev.ClaimRuled(1, 1, checked.result.game_id, checked.claim, ruling, by or me.public, "", "I win")
        ruled = replace(ruled, sig=base64.b64encode(_private(me).sign(tev.ruling_message("cup", ruled))).decode())
        svc.commit("cup", [ruled], loaded.version)
    return me


def test_tournament_new_fixes_the_organisers_key(tmp_path, players):
    (org,) = players("org")
    out = org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1").stdout
    assert "organiser: " in out and "(org): only its signed rulings count" in out, out
    org("id", "new", "second")
    err = org("tournament", "new", "cup2", "--rounds", "1", "--pod-size", "2", code=1).stderr
    assert "say which of your identities organises cup2" in err and "nothing was created" in err, err


def test_a_ruling_signed_by_the_claimants_own_key_is_refused_by_report_and_verify(tmp_path, players, monkeypatch):
    org, ann, bob = players("org", "ann", "bob")
    copies = _split_claim(tmp_path, org, ann, bob)
    assert "contradicts the claim" in org("tournament", "report", "cup", "--table", "1", *copies, code=1,
                                          multiline=True).stderr
    me = _write_ruling(tmp_path, org, ann)
    err = org("tournament", "report", "cup", "--table", "1", *copies, code=1, multiline=True).stderr
    assert f"signed by key {me.public[:16]}..., not its organiser's key, fixed at `tournament new`," in err, err
    assert "forged" in err, err
    org("tournament", "export", "cup", "-o", tmp_path / "cup.trvt")
    err = org("tournament", "verify", tmp_path / "cup.trvt", code=1, multiline=True).stderr
    assert "tournament event" in err and f"signed by key {me.public[:16]}" in err and "forged" in err, err


def test_a_ruling_naming_the_organisers_key_but_signed_by_another_is_refused(tmp_path, players):
    """The next route: the ruling names the organiser's key; the claimant's key made the signature."""
    org, ann, bob = players("org", "ann", "bob")
    copies = _split_claim(tmp_path, org, ann, bob)
    from trvendetta.cli.identity import identities

    organiser = [i for i in identities(org.home) if i.name == "org"][0]
    _write_ruling(tmp_path, org, ann, by=organiser.public)
    err = org("tournament", "report", "cup", "--table", "1", *copies, code=1, multiline=True).stderr
    assert "is not signed by the key it names" in err, err
    org("tournament", "export", "cup", "-o", tmp_path / "cup.trvt")
    assert "is not signed by the key it names" in org("tournament", "verify", tmp_path / "cup.trvt", code=1,
                                                      multiline=True).stderr


def test_only_the_organiser_can_rule_through_the_command(tmp_path, players):
    """`trv tournament rule --as ann` in the organiser's store (ann's key there) is refused, and the
    organiser's own ruling counts."""
    org, ann, bob = players("org", "ann", "bob")
    copies = _split_claim(tmp_path, org, ann, bob)
    env = {"TRV_HOME": str(ann.home)}
    err = org("tournament", "rule", "cup", "--table", "1", copies[0], "--uphold", env=env, code=1,
              multiline=True).stderr
    assert "not its organiser's key, fixed at `tournament new`" in err, err
    org("tournament", "rule", "cup", "--table", "1", copies[0], "--uphold")
    assert "1. ann, 2. bob" in org("tournament", "report", "cup", "--table", "1", *copies).stdout
    org("tournament", "export", "cup", "-o", tmp_path / "cup.trvt")
    org("tournament", "verify", tmp_path / "cup.trvt")
