"""Host mode (docs/fair-play.md): a host's committed secret seed and every player's contribution
decide the dice; the host resolves each draw, signs it, and reveals the seed at the end.

The host's store and two players' stores exchange packet files; all end in the same
state and verify once the seed is revealed; before, verify checks signatures and the
chain and says the rolls are not yet checkable."""

import base64
import random
import re

import pytest
from cryptography.hazmat.primitives import serialization
from fairplay_helpers import Mail, rechain, version
from test_signed import _forge

from trvendetta.replays.signatures import message

#: no real randomness: the host's seed, the contributions and the keys follow a counter, so every
#: run plays the same games (the players' choices follow seeded random.Random too)
pytestmark = pytest.mark.usefixtures("seeded_entropy")


def host_game(tmp_path, org, players):
    """The host offers, every player contributes, the host creates the game and sends the record."""
    args = ["host", "offer", "--name", "cup", "-o", tmp_path / "offer.json"]
    for p, color in zip(players, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    org(*args)
    joins = []
    for p in players:
        p("host", "join", tmp_path / "offer.json", "-o", tmp_path / f"{p.name}.json")
        joins += ["--join", tmp_path / f"{p.name}.json"]
    assert "host game" in org("host", "new", tmp_path / "offer.json", *joins).stdout
    org("export", "cup", "-o", tmp_path / "cup.trv")
    for p in players:
        p("import", tmp_path / "cup.trv")


def play(tmp_path, org, players, chooser, *, actions=None):
    """Whoever's decision it is plays a random legal option and mails the packet."""
    mail = Mail(tmp_path, [org, *players])
    by_name = {p.name: p for p in players}
    done = 0
    while actions is None or done < actions:
        legal = org("legal").stdout.splitlines()
        if legal[0].startswith("the game is over"):
            break
        p = by_name[legal[0].split(":")[0]]
        since = version(p)
        out = p("decide", chooser.choice(legal[1:]).strip()).stdout
        if "waits for the others' dice" in out:
            assert "waiting for the host's dice" in out and "waiting for the host's dice" in p("show").stdout
        done += 1
        packet = tmp_path / f"turn-{done}.trv"
        p("export", "--since", since, "-o", packet)
        mail.send(packet, p)
    return mail


def test_a_whole_host_game_ends_the_same_in_every_store_and_verifies_after_the_reveal(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    before = ann("verify").stdout  # a player's copy, the seed still secret
    assert before.startswith("OK: ") and "the rolls are not yet checkable" in before
    mail = play(tmp_path, org, [ann, bob], random.Random(11))
    assert org("legal").stdout.startswith("the game is over")
    shown = [p("show", "--json").stdout for p in (org, ann, bob)]
    assert shown[0] == shown[1] == shown[2]
    for p in (org, ann, bob):
        out = p("verify").stdout
        assert out.startswith("OK: ") and "every roll checked against the host's revealed seed" in out
    record = org("export", "cup").stdout
    assert '"type":"trv-host-reveal"' in record and '"type":"trv-intent"' in record
    assert re.search(r"^\+ @host:", record, re.M)  # the host signs each draw it resolves
    (tmp_path / "final.trv").write_text(record)
    assert "every roll checked" in ann("verify", tmp_path / "final.trv").stdout
    assert mail.packets > 0
    seed_file = next((org.home / "secrets").glob("*.host"))
    assert seed_file.stat().st_mode & 0o077 == 0
    # the seed reaches the record only in the reveal, never before
    reveal_at = record.index('"type":"trv-host-reveal"')
    for secret in seed_file.read_text().split():
        assert secret in record[reveal_at:] and secret not in record[:reveal_at]


def test_an_action_for_another_players_seat_is_refused_at_the_host(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    seat = ann("legal").stdout.splitlines()[0].split(":")[0]
    actor, other = (ann, bob) if seat == "ann" else (bob, ann)
    since = version(other)
    assert f"it is {seat}'s decision" in other("decide", other.first_legal(), code=1).stderr
    # the other player signs the actor's move with their own key: the host refuses it, naming both
    actor("decide", actor.first_legal())
    actor("export", "--since", since, "-o", tmp_path / "real.trv")
    packet = (tmp_path / "real.trv").read_text()
    game_id = re.search(r'\[GameId "([0-9a-f]{64})"\]', packet).group(1)
    key = serialization.load_pem_private_key((other.home / "identities" / f"{other.name}.key").read_bytes(), None)

    def by_other(number, previous, action, sig):
        return f"{seat}:".encode() + base64.b64encode(key.sign(message(game_id, number, previous, action)))

    (tmp_path / "forged.trv").write_text(_forge(packet, by_other))
    err = org("import", tmp_path / "forged.trv", code=1).stderr
    assert f"not signed by {seat}" in err and f"made with {other.name}'s key" in err
    assert version(org) == since  # nothing written
    org("import", tmp_path / "real.trv")  # the real packet applies
    assert version(org) > since




def test_a_changed_revealed_seed_fails_verify_at_the_reveal(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    play(tmp_path, org, [ann, bob], random.Random(12), actions=25)
    out = org("host", "reveal", "cup").stdout
    assert "reveals the game's secret seed" in out
    assert "every roll checked" in org("verify").stdout
    record = org("export", "cup").stdout
    m = re.search(r'^(\d+) [0-9a-f]{64} \{"type":"trv-host-reveal","seed":"([0-9a-f]{64})","salt":"([0-9a-f]{64})"\}$',
                  record, re.M)
    number = int(m.group(1))
    for field, old in (("seed", m.group(2)), ("salt", m.group(3))):
        forged = rechain(record, number, old, "1" * 64)
        (tmp_path / f"forged-{field}.trv").write_text(forged)
        err = ann("verify", tmp_path / f"forged-{field}.trv", code=1).stderr
        assert f"event {number}:" in err and "not the ones the host committed to" in err
    # after the reveal no more dice are rolled: the host refuses a second reveal
    assert "revealed at event" in org("host", "reveal", "cup", code=1).stderr


def test_a_changed_roll_of_the_host_fails_verify_once_the_seed_is_revealed(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    play(tmp_path, org, [ann, bob], random.Random(13))  # a whole game: the host reveals at its end
    record = ann("export", "cup").stdout
    # a die the host rolled (each round's movement dice come from a draw): the first event showing
    # dice after the host's first resolution
    after = record[re.search(r"^\+ @host:", record, re.M).start():]
    m = re.search(r'^(\d+) [0-9a-f]{64} (\{.*"dice":\[(\d).*\})$', after, re.M)
    assert m, "no dice rolled by the host in a whole game"
    number, payload, die = int(m.group(1)), m.group(2), m.group(3)
    changed = payload.replace(f'"dice":[{die}', f'"dice":[{1 if die != "1" else 2}', 1)
    (tmp_path / "forged.trv").write_text(rechain(record, number, payload, changed))
    err = ann("verify", tmp_path / "forged.trv", code=1, multiline=True).stderr
    assert f"event {number}" in err and "the rules give" in err


def test_the_host_cannot_create_the_game_before_every_player_contributed(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    org("host", "offer", "--name", "cup", "-o", tmp_path / "offer.json",
        "--player", "ann:red", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--player", "bob:blue", "--key", f"bob={tmp_path / 'bob.pub'}")
    ann("host", "join", tmp_path / "offer.json", "-o", tmp_path / "ann.json")
    err = org("host", "new", tmp_path / "offer.json", "--join", tmp_path / "ann.json", code=1).stderr
    assert "no contribution from bob yet" in err
    # only the host holding the committed seed creates it
    bob("host", "join", tmp_path / "offer.json", "-o", tmp_path / "bob.json")
    err = ann("host", "new", tmp_path / "offer.json", "--join", tmp_path / "ann.json", "--join",
              tmp_path / "bob.json", code=1).stderr
    assert "only the host who wrote the offer creates the game" in err


@pytest.mark.parametrize("damage", ["", "not hex at all\n", "\xff\xfe"])
def test_a_damaged_seed_file_is_named_not_a_traceback(players, tmp_path, damage):
    """A power loss can leave the host's seed file empty (or a disk, garbage): the host's import of a
    move keeps the player's signed move, names the file and what it must hold, and exits 1, answering
    nothing as the host; once the file is restored, importing the packet again answers."""
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    (secret,) = (org.home / "secrets").glob("*.host")
    kept = secret.read_bytes()
    secret.write_bytes(damage.encode("latin-1"))
    seat = org("legal").stdout.splitlines()[0].split(":")[0]
    p = {"ann": ann, "bob": bob}[seat]
    since = version(p)
    p("decide", p.first_legal())
    p("export", "--since", since, "-o", tmp_path / "move.trv")
    out = org("import", tmp_path / "move.trv", code=1)
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert f"{secret} is damaged" in out.stderr and "two hex words" in out.stderr
    assert version(org) == version(p)  # the move is the player's, signed: kept, its dice not rolled
    secret.write_bytes(kept)
    org("import", tmp_path / "move.trv")  # the store answers as the host again
    assert "Traceback" not in org("verify").stderr
