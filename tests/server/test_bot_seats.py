"""A bot seat on the club server: a person on the CLI plays a whole game against a bot the server
runs; the record verifies offline and names the bot seat, run by the server's key."""

from __future__ import annotations

import json

from trvendetta import replays


def play_alone(ann, game, limit=2000):
    """ann plays the first legal action whenever the game waits on her; the server plays the bot, so
    the game never waits on the bot seat when a command of hers ends."""
    for _ in range(limit):
        row = next(g for g in json.loads(ann("games", "--json").stdout)["games"] if g["game"] == game)
        if row["status"] == "over" or row["waiting_on"] is None:
            return row
        assert row["waiting_on"] == "ann", row
        action = json.loads(ann("legal", "--json", "--game", game).stdout)[0]
        ann("act", "--game", game, json.dumps(action))
    raise AssertionError("the game did not end")


def test_a_whole_game_against_a_server_bot_verifies_and_names_it(club, tmp_path):
    ann = club.player("ann")
    out = ann("new", "--player", "ann:red:cars", "--bot", "greedy:blue:cars:robo", "--name", "duel").stdout
    assert "duel" in out and "waiting on" in out
    row = play_alone(ann, "duel")
    assert row["status"] == "over"
    record = ann("export", "--game", "duel").stdout
    assert club.club.export("duel", None) == record
    path = tmp_path / "duel.trv"
    path.write_text(record)
    verified = ann("verify", str(path), server=False).stdout
    assert verified.startswith("OK:"), verified
    from trvendetta.replays.signatures import fingerprint

    # the bot seat, its kind and the key that runs it: the server's (the one `trv login` names)
    assert f"bot seats: robo (greedy, run by the host, key {fingerprint(club.public)})" in verified, verified
    result = replays.verify_file(replays.read_file(record.encode(), "duel.trv"))
    assert result.walker.signatures.seats["robo"] == club.public
    assert result.signed.get("robo", 0) > 0 and result.signed.get("ann", 0) > 0
