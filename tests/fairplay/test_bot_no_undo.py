"""A bot seat's action is never taken back (docs/fair-play.md, "Host mode"): a bot seat's key is the
host's, and a format-2 draw covers its intent's record number, so each take-back of a bot's action
would move its next intent on to another roll the host computes in advance.  The attack: a host
grinding its bot's rolls by assign-then-undo, each party with its own store and home, records as
files; then a cheating host whose trv does not refuse (and the next route around: an agreed undo)."""

import pytest
from fairplay_helpers import host_game, version

pytestmark = pytest.mark.usefixtures("seeded_entropy")

GAMES = 6


def _robo_to_act(players, tmp_path, monkeypatch):
    """A 3-seat host game (ann, bob, and robo, a bot org runs) whose first decision is robo's, its
    store not playing the bot yet; found among up to GAMES fresh games (no seed chosen for luck)."""
    from trvendetta.app import host

    for n in range(GAMES):
        root = tmp_path / f"game-{n}"
        org, ann, bob = players("org", "ann", "bob", root=root)
        with monkeypatch.context() as m:
            m.setattr(host, "_bot_turn", lambda g: None)
            out = host_game(root, org, [ann, bob], [("robo", "greedy")])
        if "waiting on robo" in out:
            return root, org, ann, bob
    raise AssertionError(f"robo moved first in none of {GAMES} games")


def _bot_plays_once(org):
    """The host's store plays robo's decision (an action that rolls nothing)."""
    from trvendetta.app.host import bot_turn, play_bot
    from trvendetta.cli.host import host_keys
    from trvendetta.store import GameStore

    keys = host_keys(org.home)
    with GameStore(org.db) as store:
        turn = bot_turn(store, "cup", keys)
        play_bot(store, "cup", keys, turn, turn.choose())


def test_the_host_cannot_take_back_its_bots_action(players, tmp_path, monkeypatch):
    root, org, ann, bob = _robo_to_act(players, tmp_path, monkeypatch)
    _bot_plays_once(org)
    before = version(org)
    for args in (("undo",), ("undo", "--agreed")):
        err = org(*args, code=1).stderr
        assert "robo is a bot seat the host (" in err and "a bot's action is never taken back" in err, err
        assert version(org) == before  # nothing written


def test_a_cheating_hosts_bot_retraction_is_refused_by_every_store(players, tmp_path, monkeypatch):
    from trvendetta.replays import setups

    root, org, ann, bob = _robo_to_act(players, tmp_path, monkeypatch)
    _bot_plays_once(org)
    with monkeypatch.context() as m:  # the cheater's trv checks nothing
        m.setattr(setups, "bot_retraction_problem", lambda *args: None, raising=False)
        org("undo")
        record = org("export", "cup").stdout
    assert "trv-retraction" in record
    path = root / "cup-sent.trv"
    path.write_text(record)
    for p in (ann, bob):
        err = p("import", path, code=1).stderr
        assert "a retraction: robo is a bot seat the host (" in err, err
        assert "cup" not in p("games").stdout
        err = p("verify", path, code=1).stderr
        assert "robo is a bot seat the host (" in err
