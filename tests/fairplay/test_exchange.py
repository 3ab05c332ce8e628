"""Exchange games (docs/fair-play.md): dice from every player's reveals, no host.

Two and three stores exchange packet files; every store ends in the same
state and verifies; a fork before a draw waits for the others' reveals;
a changed reveal fails verify at its event."""

import random
import re

import pytest

from fairplay_helpers import Mail, rechain, version



def exchange_game(tmp_path, players):
    """The first player invites, the others join, the first creates the game and sends the record."""
    first, others = players[0], players[1:]
    args = ["invite", "--name", "duel", "-o", tmp_path / "invite.json"]
    for p, color in zip(players, ["red", "blue", "green", "yellow"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    first(*args)
    joins = []
    for p in others:
        p("join", tmp_path / "invite.json", "-o", tmp_path / f"{p.name}.json")
        joins += ["--join", tmp_path / f"{p.name}.json"]
    out = first("new", "--invite", tmp_path / "invite.json", *joins).stdout
    assert "exchange game" in out
    first("export", "duel", "-o", tmp_path / "duel.trv")
    for p in others:
        p("import", tmp_path / "duel.trv")
    return players


def pick(chooser, options):
    """A random legal option, avoiding those `trv legal` marks with a note (a step
    to certain elimination) where another exists: the dice of an exchange game
    come from fresh keys, so a random game that throws its cars away can end
    before the draw a test waits for."""
    safe = [o for o in options if not o.rstrip().endswith(")")]
    return chooser.choice(safe or options).strip()


def play(tmp_path, players, chooser, *, actions=None, draws=None):
    """Whoever's decision it is plays a random legal option and mails the packet."""
    mail = Mail(tmp_path, players)
    by_name = {p.name: p for p in players}
    done = opened = 0
    while actions is None or done < actions:
        legal = players[0]("legal").stdout.splitlines()
        if legal[0].startswith("the game is over"):
            break
        p = by_name[legal[0].split(":")[0]]
        since = version(p)
        out = p("decide", pick(chooser, legal[1:])).stdout
        done += 1
        packet = tmp_path / f"turn-{done}.trv"
        p("export", "--since", since, "-o", packet)
        if "waits for the others' dice" in out:
            opened += 1
        mail.send(packet, p)
        if draws is not None and opened >= draws:
            break
    return mail


def same_everywhere(players):
    shown = [p("show", "--json").stdout for p in players]
    assert all(s == shown[0] for s in shown)
    for p in players:
        out = p("verify").stdout
        assert out.startswith("OK: ") and "unsigned" not in out


def round_openings(record: str, seats: int) -> int:
    """Each round after the first opens inside the resolution of one draw, with every
    seat's movement dice and the road die in it: one exchange for everyone's opening dice."""
    groups, current, action = [], None, None
    for line in record.split("\n"):
        if line.startswith("> "):
            action = line
        m = re.match(r"^\d+ [0-9a-f]{64} \{\"type\":\"([a-z-]+)\"", line)
        if m:
            if action is not None:
                current, action = [], None
                groups.append(current)
            if current is not None:
                current.append(m.group(1))
    opened = 0
    for before, group in zip(groups, groups[1:]):
        if "round-started" in group:
            assert before[0] == "trv-intent", group  # the action that opened the round waited for a draw
            after = group[group.index("round-started"):]
            assert after.count("dice-rolled") == seats and "road-die-rolled" in after, group
            opened += 1
    return opened


def test_two_stores_play_a_whole_exchange_game(players, tmp_path):
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    mail = play(tmp_path, [ann, bob], random.Random(1))
    assert ann("legal").stdout.startswith("the game is over")
    same_everywhere([ann, bob])
    assert round_openings(ann("export", "duel").stdout, 2) >= 1
    text = (tmp_path / "turn-1.trv").read_text()
    assert '"type":"trv-intent"' in ann("export", "duel").stdout  # dice were drawn by intents and reveals
    assert mail.packets > 0 and "secret" not in text
    for p in (ann, bob):  # no secret reaches a record
        record = p("export", "duel").stdout
        for secret in (tmp_path / f"home-{q.name}" / "secrets" for q in (ann, bob)):
            for f in secret.glob("*.secret"):
                assert f.read_text().strip() not in record


def test_three_stores_draw_in_turn_and_agree(players, tmp_path):
    ann, bob, cyd = exchange_game(tmp_path, players("ann", "bob", "cyd"))
    play(tmp_path, [ann, bob, cyd], random.Random(2), draws=3)
    same_everywhere([ann, bob, cyd])
    log = ann("log").stdout
    assert len(re.findall(r"reveals dice for draw", log)) >= 6  # two others reveal for each draw


@pytest.mark.slow
def test_three_stores_play_a_whole_exchange_game(players, tmp_path):
    ann, bob, cyd = exchange_game(tmp_path, players("ann", "bob", "cyd"))
    play(tmp_path, [ann, bob, cyd], random.Random(3))
    assert ann("legal").stdout.startswith("the game is over")
    same_everywhere([ann, bob, cyd])
    assert round_openings(ann("export", "duel").stdout, 3) >= 1


def _until_intent(tmp_path, ann, bob):
    """Play until someone's action waits for dice, without mailing that packet."""
    chooser = random.Random(4)
    by_name = {"ann": ann, "bob": bob}
    n = 0
    while True:
        legal = ann("legal").stdout.splitlines()
        p = by_name[legal[0].split(":")[0]]
        since = version(p)
        out = p("decide", pick(chooser, legal[1:])).stdout
        n += 1
        if "waits for the others' dice" in out:
            return p, since, out
        packet = tmp_path / f"t{n}.trv"
        p("export", "--since", since, "-o", packet)
        Mail(tmp_path, [ann, bob]).send(packet, p)


def test_an_action_that_needs_dice_waits_for_the_other_players_reveal(players, tmp_path):
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    p, since, out = _until_intent(tmp_path, ann, bob)
    other = bob if p is ann else ann
    assert f"waiting for {other.name}'s dice" in out
    assert f"waiting for {other.name}'s dice" in p("show").stdout
    legal = p("legal").stdout.splitlines()
    err = p("decide", legal[1].strip(), code=1).stderr if len(legal) > 1 else ""
    assert not err or f"waiting for {other.name}'s dice" in err
    # a fork taken before the draw is for looking only: it records no intent, and nothing local yields the roll
    p("fork", "duel", "--at", since, "--name", "peek")
    action = re.search(r"waits for the others' dice for '([^']+)'", out).group(1)
    err = p("decide", "--game", "peek", action, code=1).stderr
    assert "peek is a fork of duel" in err and "for looking only" in err
    assert "waits for the others' dice" not in p("log", "--game", "peek").stdout  # the fork recorded no intent
    secrets = {f.name for f in (p.home / "secrets").glob("*.secret")}
    assert len(secrets) == 1  # only this player's own chain
    # the real packet is answered by the other store, and the draw resolves everywhere
    p("export", "duel", "--since", since, "-o", tmp_path / "intent.trv")
    reply = tmp_path / "reply.trv"
    answered = other("import", tmp_path / "intent.trv", "--reply", reply).stdout
    assert f"{other.name} reveals dice" in answered and "wrote the reply packet" in answered
    p("import", reply)
    same_everywhere([ann, bob])


def test_a_changed_reveal_fails_verify_at_that_event(players, tmp_path):
    ann, bob = exchange_game(tmp_path, players("ann", "bob"))
    play(tmp_path, [ann, bob], random.Random(5), draws=2)
    record = ann("export", "duel").stdout
    m = re.search(r'^(\d+) [0-9a-f]{64} (\{"type":"trv-reveal","seat":"(\w+)","draw":(\d+),"reveal":"([0-9a-f]{64})"\})$',
                  record, re.M)
    assert m
    number = int(m.group(1))
    forged = rechain(record, number, m.group(5), "0" * 64)
    (tmp_path / "forged.trv").write_text(forged)
    err = ann("verify", tmp_path / "forged.trv", code=1).stderr
    assert f"event {number}:" in err and f"{m.group(3)}'s reveal for draw {m.group(4)}" in err
    assert "commitment" in err


def test_the_others_reveal_in_turn_order_after_the_actor(players, tmp_path):
    """Turn order ann, cyd, bob: after ann cyd reveals, then bob (not bob, then
    cyd, as seat names would have it); the charter says the order."""
    ann, cyd, bob = exchange_game(tmp_path, players("ann", "cyd", "bob"))
    assert '\\"order\\":[\\"ann\\",\\"cyd\\",\\"bob\\"]' in ann("export", "duel").stdout
    play(tmp_path, [ann, cyd, bob], random.Random(6), draws=3)
    log = ann("log").stdout
    turns = ["ann", "cyd", "bob"]
    draws = re.findall(r"(\w+) waits for the others' dice \(draw (\d+)\)", log)
    assert len(draws) >= 3
    for actor, draw in draws:
        i = turns.index(actor)
        assert re.findall(rf"(\w+) reveals dice for draw {draw}\b", log) == turns[i + 1:] + turns[:i], (actor, draw)
    same_everywhere([ann, cyd, bob])
