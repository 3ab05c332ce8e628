"""A claim or a resignation racing moves (docs/fair-play.md, "Time limits"; docs/server.md).

Two processes on one store (two `trv serve`, or `trv claim` beside `trv import`): the claim reads
whose answer the game waits for, another process appends the claimed player's answer and more, then
the claim is appended.  It must land right after the record it read or not at all (``GameMovedOn``:
the server's 409), never after moves it did not see (a record every store would refuse)."""

import pytest
from freezegun import freeze_time

from fairplay_helpers import version
from test_time_limits import START, signed_game

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _bobs_turn_unsent(tmp_path, ann, bob):
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-01 13:00:00"):
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "b1.trv")
    return tmp_path / "b1.trv"


def _racing(monkeypatch, other):
    """Run ``other()`` (another process's append) once, between the claim's (or resignation's) read
    of the game and its append."""
    from trvendetta.app import outcome

    real, done = outcome._append, []

    def append(*args, **kwargs):
        if not done:
            done.append(other())
        return real(*args, **kwargs)
    monkeypatch.setattr(outcome, "_append", append)
    return done


def test_a_claim_racing_the_claimed_players_answer_is_not_appended(tmp_path, players, monkeypatch):
    from trvendetta.app import outcome
    from trvendetta.cli.identity import Keyring
    from trvendetta.store import GameMovedOn, GameStore, decode_charter

    ann, bob = players("ann", "bob")
    packet = _bobs_turn_unsent(tmp_path, ann, bob)
    monkeypatch.setenv("TRV_HOME", str(ann.home))
    with freeze_time("2026-12-04 12:00:01"):
        before = version(ann)
        done = _racing(monkeypatch, lambda: ann("import", packet))  # ann's other process takes bob's answer
        with GameStore(ann.db) as store:
            keyring = Keyring(dict(decode_charter(store.header("duel").charter).seats), "ann")
            from datetime import datetime, timezone

            with pytest.raises(GameMovedOn):
                outcome.claim(store, "duel", keyring, datetime.now(timezone.utc))
    assert done and version(ann) > before
    monkeypatch.undo()
    text = ann("verify").stdout
    assert text.startswith("OK: ") and "lost on time" not in text, text
    ann("export", "duel", "-o", tmp_path / "ann.trv")  # (the game still exports: nothing was broken)


def test_a_resignation_racing_a_move_is_not_appended_after_it(tmp_path, players, monkeypatch):
    """The next route: a resignation read at one version, a move landing before its append."""
    from datetime import datetime, timezone

    from trvendetta.app import outcome
    from trvendetta.cli.identity import Keyring
    from trvendetta.store import GameMovedOn, GameStore, decode_charter

    ann, bob = players("ann", "bob")
    packet = _bobs_turn_unsent(tmp_path, ann, bob)
    monkeypatch.setenv("TRV_HOME", str(ann.home))
    done = _racing(monkeypatch, lambda: ann("import", packet))
    with GameStore(ann.db) as store:
        keyring = Keyring(dict(decode_charter(store.header("duel").charter).seats), "ann")
        with pytest.raises(GameMovedOn):
            outcome.resign(store, "duel", keyring, datetime.now(timezone.utc), "ann")
    assert done
    monkeypatch.undo()
    assert "resigned" not in ann("verify").stdout
