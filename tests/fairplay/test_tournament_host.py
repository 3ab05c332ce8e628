"""Tournament rounds in host mode (docs/fair-play.md, docs/tournament.md): the organiser hosts
every table's game; a result of such a round counts only from the host's own game, verified with
every roll checked against its revealed seed."""

import pytest

from test_host_remote import deliver, send
from test_one_reveal import cheating_trv  # noqa: F401  (a fixture)

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _cup(org, tmp_path, *keyed):
    org("tournament", "new", "cup", "--ruleset", "toy", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    keys = [a for p in keyed for a in ("--key", f"{p}={tmp_path / (p + '.pub')}")]
    org("tournament", "register", "cup", "ann", "bob", *keys)
    org("tournament", "pair", "cup")


def _started(org, tmp_path, ann, bob):
    """The cup's round 1 in host mode: offered, joined by both players and started."""
    _cup(org, tmp_path, "ann", "bob")
    org("tournament", "offer", "cup", "-o", tmp_path / "offers")
    for p in (ann, bob):
        p("host", "join", tmp_path / "offers" / "cup-r1-t1.offer.json", "-o", tmp_path / f"{p.name}.json")
    org("tournament", "start", "cup", "--host", tmp_path / "offers", "--join", tmp_path / "ann.json",
        "--join", tmp_path / "bob.json")


def test_a_host_round_is_offered_joined_played_at_a_distance_and_reported(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    _cup(org, tmp_path, "ann", "bob")
    out = org("tournament", "offer", "cup", "-o", tmp_path / "offers").stdout
    offer = tmp_path / "offers" / "cup-r1-t1.offer.json"
    assert str(offer) in out
    for p in (ann, bob):
        p("host", "join", offer, "-o", tmp_path / f"{p.name}.json")
    # a player's contribution is required for every table
    err = org("tournament", "start", "cup", "--host", tmp_path / "offers", "--join", tmp_path / "ann.json",
              code=1).stderr
    assert "no contribution from bob" in err
    out = org("tournament", "start", "cup", "--host", tmp_path / "offers", "--join", tmp_path / "ann.json",
              "--join", tmp_path / "bob.json").stdout
    assert "table 1: cup-r1-t1 (ann, bob; host game" in out
    send(tmp_path, org, [org, ann, bob])
    stores, by_name = [org, ann, bob], {"ann": ann, "bob": bob}
    err = org("tournament", "report", "cup", "--table", "1", code=1).stderr
    assert "has not finished" in err
    for _ in range(200):
        legal = org("legal", "--game", "cup-r1-t1").stdout.splitlines()
        if legal[0].startswith("the game is over"):
            break
        p = by_name[legal[0].split(":")[0]]
        p("decide", legal[1].strip())
        send(tmp_path, p, stores)
    out = org("tournament", "report", "cup", "--table", "1").stdout
    assert "cup-r1-t1 verified" in out and "every roll checked against the host's seed" in out


def test_a_host_round_refuses_a_record_the_host_did_not_run(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    _started(org, tmp_path, ann, bob)
    # the same players' game, played anywhere but the host's table game
    org("new", "--ruleset", "toy", "--bot", "random:red:cars:ann", "--bot", "random:blue:cars:bob", "--name", "plain")
    err = org("tournament", "report", "cup", "--table", "1", "plain", code=1).stderr
    assert "round 1 is played in host mode" in err and "plain is not" in err


def test_a_host_round_needs_every_player_registered_with_a_key(players, tmp_path):
    org, ann = players("org", "ann")
    _cup(org, tmp_path, "ann")
    err = org("tournament", "offer", "cup", "-o", tmp_path / "offers", code=1).stderr
    assert "bob registered without a key" in err
    assert not (tmp_path / "offers").exists()


def test_a_result_is_refused_when_the_evidence_shows_a_player_signed_two_intents_for_a_draw(players, tmp_path,
                                                                                            cheating_trv):
    """The fork-fishing cheat, caught after the game: a fork with a candidate intent (made by a
    cheater's trv; the host rolled nothing for it) is the evidence that refuses the table's result."""
    import json
    import re

    from test_one_reveal import other_option

    org, ann, bob = players("org", "ann", "bob")
    _started(org, tmp_path, ann, bob)
    game = "cup-r1-t1"
    send(tmp_path, org, [org, ann, bob])
    stores, by_name, peek = [org, ann, bob], {"ann": ann, "bob": bob}, None
    for _ in range(200):
        legal = org("legal", "--game", game).stdout.splitlines()
        if legal[0].startswith("the game is over"):
            break
        p = by_name[legal[0].split(":")[0]]
        since = json.loads(p("show", "--game", game, "--json").stdout)["version"]
        out = p("decide", "--game", game, legal[1].strip()).stdout
        found = re.search(r"waits for the others' dice for '([^']+)'", out)
        if peek is None and found and len(legal) > 2:
            candidate = other_option(p, since, found.group(1), game)
            p("fork", game, "--at", since, "--name", "peek")
            with cheating_trv():
                assert "waits for the others' dice" in p("decide", "--game", "peek", candidate).stdout
            peek = tmp_path / "peek.trv"
            p("export", "peek", "-o", peek)
        packet = tmp_path / f"sent-{len(list(tmp_path.iterdir()))}.trv"
        p("send", game, "-o", packet)
        deliver(tmp_path, packet, p, stores)
    assert peek is not None
    err = org("tournament", "report", "cup", "--table", "1", "--evidence", peek, code=1).stderr
    assert "signed two different histories of cup-r1-t1" in err and "the result cannot count" in err
    # without the evidence the game is as good as any
    assert "cup-r1-t1 verified" in org("tournament", "report", "cup", "--table", "1").stdout
