"""An overturned claim signed again, a renamed copy, a fork stripped of its tags (docs/fair-play.md,
"Time limits", "Unique games").

Each attack is ann, the claimant, with her own stores, copies as files and frozen clocks: after the
organiser overturns her claim she signs another from a copy made before it; she renames a copy;
she forks before bob's answer, claims in the fork and drops ``[Parent]``/``[ParentAt]`` (keeping
``[Domain]``, without which the fork's signatures fail).  The tournament compares any record whose
GameId its store holds with that copy, whatever its name; an overturn covers the game, the seat and
the record named; a ``[Domain]`` naming a fork is a fork; and one GameId is one game per store."""

import pytest
from freezegun import freeze_time

from fairplay_helpers import version
from test_time_limits import START, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _cup(tmp_path, org):
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}")
    org("tournament", "pair", "cup")


def _overturned_then_signed_again(tmp_path, org, ann, bob):
    """bob answers in time (ann "never gets it"); ann claims; the organiser overturns it; ann signs
    claim B in a second store made from her copy before claim A.  Returns claim B's record."""
    _cup(tmp_path, org)
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-01 13:00:00"):
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
    ann("export", "duel", "-o", tmp_path / "before.trv")
    with freeze_time("2026-12-04 13:00:00"):
        ann("claim")
    ann("export", "duel", "-o", tmp_path / "ann.trv")
    org("tournament", "rule", "cup", "--table", "1", tmp_path / "ann.trv", "--overturn", "--reason", "bob in time")
    ann2 = type(ann)(tmp_path, "ann")
    ann2.db = tmp_path / "ann-second.sqlite"
    with freeze_time(START):
        ann2("import", tmp_path / "before.trv")
    with freeze_time("2026-12-04 13:00:01"):
        ann2("claim")
    ann2("export", "duel", "-o", tmp_path / "ann-B.trv")
    return tmp_path / "ann-B.trv"


def test_a_claim_signed_again_after_an_overturn_is_refused_under_any_name(tmp_path, players):
    org, ann, bob = players("org", "ann", "bob")
    claim_b = _overturned_then_signed_again(tmp_path, org, ann, bob)
    err = org("tournament", "report", "cup", "--table", "1", claim_b, code=1).stderr
    assert "this store's duel and" in err and "split at event 15" in err, err
    renamed = tmp_path / "friendly.trv"
    renamed.write_text(claim_b.read_text().replace('[Game "duel"]', '[Game "friendly"]', 1))
    err = org("tournament", "report", "cup", "--table", "1", renamed, code=1).stderr
    assert "held here as duel" in err and "split at event 15" in err, err
    assert "friendly" not in org("games").stdout  # not imported as a second game


def test_an_overturn_covers_the_claim_signed_again_at_the_same_point(tmp_path, players):
    """Where the organiser's store cannot compare (it is given claim B's copy and holds no other): the
    overturn names the game, the seat and the record, so claim B is refused by the ruling itself."""
    from trvendetta.app.tournament import TournamentService, check_ruling
    from trvendetta.core.errors import TrvError
    from trvendetta.replays.tournament import result_of_file
    from trvendetta.store import GameStore
    from trvendetta.tournament import model

    org, ann, bob = players("org", "ann", "bob")
    claim_b = _overturned_then_signed_again(tmp_path, org, ann, bob)
    fresh = type(org)(tmp_path, "org")
    fresh.db = tmp_path / "fresh.sqlite"
    with GameStore(org.db) as store:
        state = TournamentService(store).load("cup").state
    t = model.table_of(state, 1, 1)
    assert t.ruling is not None and t.ruling.seat == "bob" and t.ruling.after == 14
    with GameStore(fresh.db) as other:
        checked = result_of_file(other, claim_b.read_bytes(), str(claim_b), 1, 1)
    assert checked.claim != t.ruling.claim and (checked.claim_seat, checked.claim_after) == ("bob", 14)
    with pytest.raises(TrvError, match="another claim against bob at event 14 .signed again., which the overturn "
                                       "covers"):
        check_ruling("cup", state, t, checked)


def _stripped_fork(tmp_path, ann, bob):
    """ann forks before bob's answer reaches her, claims in the fork after the deadline, drops the
    Parent tags and renames it ``final`` (``[Domain]`` kept: without it the signatures fail)."""
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    n = version(ann)
    with freeze_time("2026-12-01 12:30:00"):
        ann("fork", "duel", "--at", n, "--name", "peek")
    with freeze_time("2026-12-01 13:00:00"):
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "b1.trv")
        ann("import", tmp_path / "b1.trv")
    with freeze_time("2026-12-04 12:31:00"):
        ann("claim", "--game", "peek")
        ann("export", "peek", "-o", tmp_path / "peek.trv")
    text = (tmp_path / "peek.trv").read_text()
    assert "[Domain " in text and "[Parent " in text
    final = tmp_path / "final.trv"
    final.write_text("\n".join(line for line in text.split("\n") if not line.startswith("[Parent"))
                     .replace('[Game "peek"]', '[Game "final"]'))
    return final


def test_a_fork_stripped_of_its_parent_tags_is_no_result_and_no_second_game(tmp_path, players):
    org, ann, bob = players("org", "ann", "bob")
    _cup(tmp_path, org)
    final = _stripped_fork(tmp_path, ann, bob)
    assert org("verify", final).stdout.startswith("OK")  # the record alone is sound: it is a fork
    err = org("tournament", "report", "cup", "--table", "1", final, code=1).stderr
    assert "game final is a fork: its [Domain]" in err and "cannot count" in err, err
    assert "final" not in org("games").stdout
    err = bob("import", final, code=1).stderr
    assert "this store holds game duel with the same GameId" in err, err
    assert "a fork of it with its Parent tags dropped" in err and "nothing was written" in err, err
    assert "final" not in bob("games").stdout
    # a fork that says so ([Parent] kept) is not refused as a second game; its claim, new here, is
    err = bob("import", tmp_path / "peek.trv", code=1).stderr
    assert "same GameId" not in err and "did not hold the game and received it whole" in err, err


def test_a_copy_renamed_is_not_a_second_game_in_a_players_store(tmp_path, players):
    """The next route: the very game, renamed (no fork): bob's store refuses it as a copy."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
        text = (tmp_path / "duel.trv").read_text().replace('[Game "duel"]', '[Game "again"]', 1)
    (tmp_path / "again.trv").write_text(text)
    err = bob("import", tmp_path / "again.trv", code=1).stderr
    assert "a copy of it under another name" in err, err
    err = bob("import", tmp_path / "duel.trv", "--name", "other", code=1).stderr
    assert "a copy of it under another name" in err, err
