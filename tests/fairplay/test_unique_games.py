"""Unique games (docs/fair-play.md): event 1 of every signed game carries a nonce, so no two games
share a GameId and a signature made in one never verifies in another; one key bound to two seats
is refused, or with --allow-shared-key marked in `verify` and refused by tournaments.  Records
made before keep verifying, marked."""

import json
import re
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def game_id(p, game):
    return re.search(r'\[GameId "([0-9a-f]{64})"\]', p("export", game).stdout).group(1)


def test_two_signed_games_with_the_same_seed_seats_and_keys_differ_and_moves_do_not_replay(players, tmp_path):
    ann, bob = players("ann", "bob")
    keys = ["--key", f"ann={tmp_path / 'ann.pub'}", "--key", f"bob={tmp_path / 'bob.pub'}"]
    for name in ("one", "two"):
        ann("new", "--player", "ann:red", "--player", "bob:blue", *keys, "--seed", "7", "--name", name)
        ann("export", name, "-o", tmp_path / f"{name}.trv")
        bob("import", tmp_path / f"{name}.trv")
    assert game_id(ann, "one") != game_id(ann, "two")
    charter = re.search(r'\[Charter "(.*)"\]', ann("export", "one").stdout).group(1).replace('\\"', '"')
    assert re.fullmatch(r"[0-9a-f]{64}", json.loads(charter)["nonce"])
    # the first mover's signed move in game one, renamed for game two (the same position): refused there
    seat = ann("legal", "--game", "one").stdout.splitlines()[0].split(":")[0]
    mover, receiver = (ann, bob) if seat == "ann" else (bob, ann)
    since = version_of(mover, "one")
    mover("decide", "--game", "one", mover("legal", "--game", "one").stdout.splitlines()[1].strip())
    mover("export", "one", "--since", since, "-o", tmp_path / "move.trv")
    renamed = (tmp_path / "move.trv").read_text().replace('[Game "one"]', '[Game "two"]')
    (tmp_path / "renamed.trv").write_text(renamed)
    before = version_of(receiver, "two")
    err = receiver("import", tmp_path / "renamed.trv", code=1).stderr
    assert "packet refused" in err and "nothing was written" in err
    assert version_of(receiver, "two") == before


def version_of(p, game):
    return json.loads(p("show", "--game", game, "--json").stdout)["version"]


def test_one_key_for_two_seats_is_refused(players, tmp_path):
    ann, = players("ann")
    err = ann("new", "--player", "ann:red", "--player", "bob:blue", "--key", "ann=ann", "--key", "bob=ann",
              code=2).stderr
    assert "is bound to ann and bob" in err and "--allow-shared-key" in err
    assert "no games" in ann("games").stdout.lower() or ann("games").stdout.strip() == ""


def test_an_invitation_binding_one_key_to_two_seats_is_refused(players, tmp_path):
    ann, = players("ann")
    err = ann("invite", "--player", "ann:red", "--player", "bob:blue", "--key", "ann=ann", "--key", "bob=ann",
              "--name", "duel", "-o", tmp_path / "invite.json", code=2).stderr
    assert "is bound to ann and bob" in err
    assert not (tmp_path / "invite.json").exists()


def test_a_host_playing_a_seat_is_refused(players, tmp_path):
    org, = players("org")
    err = org("host", "offer", "--player", "org:red", "--key", f"org={tmp_path / 'org.pub'}", "--bot",
              "greedy:blue:cars", "--name", "cup", "-o", tmp_path / "offer.json", code=2).stderr
    assert "is bound to org and the host" in err
    assert not (tmp_path / "offer.json").exists()


def test_a_shared_key_with_the_flag_is_marked_in_verify_and_refused_by_a_tournament(players, tmp_path):
    ann, = players("ann")
    out = ann("new", "--player", "ann:red", "--player", "bob:blue", "--key", "ann=ann", "--key", "bob=ann",
              "--allow-shared-key", "--name", "solo").stdout
    assert "shared key: one key" in out and "tournaments refuse this game" in out
    verified = ann("verify").stdout
    assert "shared key: one key" in verified and "is bound to ann and bob" in verified
    from trvendetta.replays import tournament
    from trvendetta.store import GameStore

    record = ann("export", "solo").stdout.encode()
    with GameStore(tmp_path / "organiser.sqlite") as store, \
            pytest.raises(tournament.ResultRefused, match="one person signed as two players"):
        tournament.result_of_file(store, record, "solo.trv", 1, 1)


@pytest.mark.parametrize("name, mark", [
    ("signed-exchange2.trv", "made before one-reveal-per-draw: fork fishing was possible"),
    ("signed-host.trv", "made before one-reveal-per-draw: fork fishing was possible"),
    ("signed-seeded.trv", "made before unique games"),
])
def test_a_record_made_before_is_marked_not_refused(players, name, mark):
    ann, = players("ann")
    out = ann("verify", FIXTURES / name).stdout
    assert out.startswith("OK: ") and mark in out


def test_a_game_of_today_is_not_marked(players, tmp_path):
    ann, bob = players("ann", "bob")
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--key", "ann=ann", "--key",
        f"bob={tmp_path / 'bob.pub'}")
    out = ann("verify").stdout
    assert out.startswith("OK: ") and "made before" not in out and "shared key" not in out
