"""`trv send` (docs/fair-play.md): after a command that changes a shared game, the packet the
other players lack is written, mail-safe, from what the record says about who made each event.

Stores exchange only the files `trv send` (and `trv import`'s replies) write."""

import random
import re

from fairplay_helpers import Mail, version
from test_exchange import pick, same_everywhere


def sent(p, tmp_path, n, *args):
    """``p`` runs `trv send`; returns the file written and what trv said."""
    target = tmp_path / f"sent-{p.name}-{n}.trv"
    out = p("send", "-o", target, *args).stdout
    return target, out


def exchange_by_send(tmp_path, players, *extra):
    """As test_exchange.exchange_game, but the record travels by `trv send`; ``extra``: more
    `trv invite` options."""
    first, others = players[0], players[1:]
    args = ["invite", "--name", "duel", "-o", tmp_path / "invite.json", *extra]
    for p, color in zip(players, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    first(*args)
    joins = []
    for p in others:
        p("join", tmp_path / "invite.json", "-o", tmp_path / f"{p.name}.json")
        joins += ["--join", tmp_path / f"{p.name}.json"]
    assert "trv send duel" in first("new", "--invite", tmp_path / "invite.json", *joins).stdout
    record, out = sent(first, tmp_path, 0)
    assert "the whole record of duel" in out and ", ".join(p.name for p in others) in out
    text = record.read_text()
    words, _, block = text.partition("-----BEGIN TRVENDETTA PACKET-----\n")  # mail-safe by default
    assert block.endswith("-----END TRVENDETTA PACKET-----\n") and words.startswith("1. ")  # the moves in words first
    assert max(len(line) for line in text.splitlines()) <= 76
    for p in others:
        p("import", record)


def play_by_send(tmp_path, players, chooser, *, actions):
    """Whoever's decision it is plays a random option, then mails what `trv send` writes."""
    mail = Mail(tmp_path, players)
    by_name = {p.name: p for p in players}
    for n in range(1, actions + 1):
        legal = players[0]("legal").stdout.splitlines()
        if legal[0].startswith("the game is over"):
            break
        p = by_name[legal[0].split(":")[0]]
        since = version(p)
        out = p("decide", pick(chooser, legal[1:])).stdout
        assert "trv send" in out  # trv says what to send
        packet, said = sent(p, tmp_path, n)
        text = packet.read_text()
        # what this command added (and this player's earlier commands since the others' last
        # event), or the whole record while nothing was made elsewhere yet
        m = re.search(r"events (\d+)-(\d+)", said)
        assert "the whole record" in said or (int(m.group(1)) <= since + 1 and int(m.group(2)) == version(p))
        assert "-----BEGIN TRVENDETTA PACKET-----" in text
        mail.send(packet, p)
    return mail


def test_two_stores_play_an_exchange_game_with_trv_send(players, tmp_path):
    ann, bob = players("ann", "bob")
    exchange_by_send(tmp_path, [ann, bob])
    play_by_send(tmp_path, [ann, bob], random.Random(21), actions=30)
    same_everywhere([ann, bob])


def test_three_stores_play_an_exchange_game_with_trv_send(players, tmp_path):
    ann, bob, cyd = players("ann", "bob", "cyd")
    exchange_by_send(tmp_path, [ann, bob, cyd])
    play_by_send(tmp_path, [ann, bob, cyd], random.Random(22), actions=30)
    same_everywhere([ann, bob, cyd])
    assert re.search(r"reveals dice for draw", ann("log").stdout)


def test_send_says_when_there_is_nothing_to_send_and_sends_again_on_request(players, tmp_path):
    ann, bob = players("ann", "bob")
    exchange_by_send(tmp_path, [ann, bob])
    # bob has made nothing yet: the whole record again, which ann's store already has
    p, other = (ann, bob) if ann.pending() == "ann" else (bob, ann)
    p("decide", p.first_legal())
    packet, out = sent(p, tmp_path, 1)
    other("import", packet)
    assert version(other) == version(p)
    # the receiver made nothing since: nothing to send, nothing written
    out = other("send", "-o", tmp_path / "none.trv").stdout
    assert out.startswith("nothing to send") and not (tmp_path / "none.trv").exists()
    # the same packet twice is no error
    assert "already applied" in other("import", packet).stdout
    # --since sends again what was sent
    again, out = sent(p, tmp_path, 2, "--since", 1)
    assert f"events 2-{version(p)}" in out
    assert "already applied" in other("import", again).stdout
    # --plain: the packet's text, not armoured
    plain, _ = sent(p, tmp_path, 3, "--plain", "--since", 1)
    assert plain.read_text().startswith("% trvendetta packet 1\n")
    assert f"game 'duel' has only {version(p)} events" in p("send", "--since", 999, code=1).stderr


def test_send_refuses_a_game_with_nobody_to_send_to(players, tmp_path):
    ann, = players("ann")
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--name", "hot")
    err = ann("send", code=1).stderr
    assert "no seats bound to keys" in err and "trv export hot --since N --mail" in err
    ann("id", "new", "bob")
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--name", "both", "--key", "ann=ann", "--key",
        "bob=bob")
    err = ann("send", "both", code=1).stderr
    assert "every seat of game 'both' is yours here" in err


def test_a_whole_record_sent_over_the_same_game_applies_its_new_part(players, tmp_path):
    from test_signed import bound_game

    ann, bob = bound_game(tmp_path, *players("ann", "bob"))  # ann created it; bob imported it
    assert bob.pending() == "bob"
    before = version(bob)
    bob("decide", bob.first_legal())
    record, out = sent(bob, tmp_path, 1)
    assert "the whole record of duel" in out  # nothing in the game was made by ann's seat yet
    out = ann("import", record).stdout
    assert f"imported the record's new part into duel: {version(bob)} events" in out and f"{before + 1}." in out
    assert ann("show", "--json").stdout == bob("show", "--json").stdout
    assert "already applied" in ann("import", record).stdout
    # a record of another game with the same name is still refused, nothing written
    cyd, = players("cyd")
    cyd("new", "--player", "cyd:red", "--player", "dan:blue", "--name", "duel", "--seed", "3")
    cyd("export", "duel", "-o", tmp_path / "other.trv")
    assert "already" in ann("import", tmp_path / "other.trv", code=1).stderr
    assert version(ann) == version(bob)
