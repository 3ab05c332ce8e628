"""Host games at a distance (docs/fair-play.md): the host's signature covers every event of a
draw it resolved, so a changed roll is refused before the seed is revealed; undo in a host game;
packets travel by `trv send`.  Secret randomness is seeded (``seeded_entropy``): every run plays
the same game."""

import random
import re

import pytest

from fairplay_helpers import version
from test_host import host_game
from trvendetta.store import chain

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def deliver(tmp_path, packet, sender, stores):
    """``packet`` to every other store; the replies `trv import` writes go on the same way."""
    queue = [(packet, sender)]
    while queue:
        packet, sender = queue.pop(0)
        for p in stores:
            if p is not sender:
                reply = tmp_path / f"reply-{p.name}-{len(list(tmp_path.iterdir()))}.trv"
                if "wrote the reply packet" in p("import", packet, "--reply", reply).stdout:
                    queue.append((reply, p))


def send(tmp_path, p, stores):
    packet = tmp_path / f"sent-{len(list(tmp_path.iterdir()))}.trv"
    p("send", "-o", packet)
    deliver(tmp_path, packet, p, stores)


class GameOver(AssertionError):
    """The game ended before the situation a test looks for (random play)."""


def until_intent(tmp_path, org, players, chooser):
    """Whoever's decision it is plays a random option and sends it, until an action waits for the
    host's dice: returns that player (the intent not sent yet)."""
    by_name = {p.name: p for p in players}
    for _ in range(300):
        legal = org("legal").stdout.splitlines()
        if legal[0].startswith("the game is over"):
            raise GameOver("the game is over")
        p = by_name[legal[0].split(":")[0]]
        out = p("decide", chooser.choice(legal[1:]).strip()).stdout
        if "waiting for the host's dice" in out:
            return p
        send(tmp_path, p, [org, *players])
    raise AssertionError("no action needed dice in 300 decisions")


def same_everywhere(stores, checked=False):
    shown = {p("show", "--json").stdout for p in stores}
    assert len(shown) == 1
    for p in stores:
        out = p("verify").stdout
        assert out.startswith("OK: ")
        assert ("every roll checked" in out) if checked else ("the rolls are not yet checkable" in out)


def _alter(packet: str, number: int, old: str, new: str) -> str:
    """The plain packet with ``old`` replaced by ``new`` in event ``number``, every hash re-chained
    (anyone can recompute the unkeyed chain); signatures kept."""
    previous = re.search(r'\[SinceHash "([0-9a-f]{64})"\]', packet).group(1)
    out, action, sig = [], b"", b""
    for line in packet.split("\n"):
        if line.startswith("> "):
            action = line[2:].encode()
        elif line.startswith("+ "):
            sig = line[2:].encode()
        else:
            m = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
            if m:
                payload = m.group(3)
                if int(m.group(1)) == number:
                    payload = payload.replace(old, new, 1)
                previous = chain(previous, payload.encode(), action, sig)
                line = f"{m.group(1)} {previous} {payload}"
                action, sig = b"", b""
        out.append(line)
    return re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{previous}"]', "\n".join(out))


def _a_rolled_resolution(tmp_path, org, ann, bob, chooser):
    """Random play until the host resolves a draw that rolls a die: (the intent's player, the other,
    the other's version before the resolution, the resolution packet, the rolled event's match)."""
    for _ in range(20):
        p = until_intent(tmp_path, org, [ann, bob], chooser)
        other = bob if p is ann else ann
        intent = tmp_path / f"intent-{version(p)}.trv"
        p("send", "-o", intent)
        org("import", intent, "--reply", tmp_path / "unused.trv")  # the host resolves and signs the draw
        other("import", intent)
        since = version(other)
        org("send", "--plain", "--since", since, "-o", tmp_path / "resolution.trv")
        packet = (tmp_path / "resolution.trv").read_text()
        rolled = re.search(r'^(\d+) [0-9a-f]{64} (\{.*?"(?:dice|die|roll)":\[?(\d))', packet, re.M)
        if rolled:
            return p, other, since, packet, rolled
        deliver(tmp_path, tmp_path / "resolution.trv", org, [ann, bob])
    raise GameOver("no resolution rolled a die in 20 draws")


def test_a_changed_roll_in_the_hosts_resolution_is_refused_before_the_reveal(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    for attempt in range(12):  # a game random play ends before a roll is played again, fresh (bounded)
        if attempt:
            tmp_path = tmp_path / f"again-{attempt}"
            tmp_path.mkdir()
            org, ann, bob = (type(org)(tmp_path, n) for n in ("org", "ann", "bob"))
            for q in (org, ann, bob):
                q("id", "new", q.name)
                (tmp_path / f"{q.name}.pub").write_text(q("id", "show", q.name).stdout)
        host_game(tmp_path, org, [ann, bob])
        try:
            p, other, since, packet, rolled = _a_rolled_resolution(tmp_path, org, ann, bob, random.Random(31 + attempt))
            break
        except GameOver:
            continue
    else:
        raise AssertionError("no game of 12 rolled a die in a resolution")
    number, head, die = int(rolled.group(1)), rolled.group(2), rolled.group(3)
    changed = head[:-1] + ("1" if die != "1" else "2")
    (tmp_path / "forged.trv").write_text(_alter(packet, number, head, changed))
    err = other("import", tmp_path / "forged.trv", code=1).stderr
    first = int(re.search(r'\[Since "(\d+)"\]', packet).group(1)) + 1
    assert f"event {first}: the resolution of {p.name}'s" in err and "is not what the host" in err
    assert "a roll" in err and version(other) == since  # nothing written
    other("import", tmp_path / "resolution.trv")  # the host's own packet applies
    p("import", tmp_path / "resolution.trv")
    same_everywhere([org, ann, bob])


def test_undo_in_a_host_game(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    stores = [org, ann, bob]
    host_game(tmp_path, org, [ann, bob])
    by_name = {"ann": ann, "bob": bob}
    # a player takes back an action that rolled nothing: the retraction, signed, travels by trv send
    p = by_name[org.pending()]
    before = version(p)
    p("decide", p.first_legal())
    send(tmp_path, p, stores)
    assert "takes back" in p("undo").stdout
    send(tmp_path, p, stores)
    same_everywhere(stores)
    assert version(org) == before + 2 or version(org) > before + 1
    # no undo while a draw waits for the host's dice
    p = until_intent(tmp_path, org, [ann, bob], random.Random(32))
    other = bob if p is ann else ann
    assert "waiting for the host's dice" in p("undo", code=1).stderr
    send(tmp_path, p, stores)  # the host resolves it; its reply reaches both players
    resolved = version(p)
    # past the host's dice: an agreed undo, the other player's signature fetched at a distance
    p("undo", code=1)
    p("undo", "--agreed", "--ask", "-o", tmp_path / "ask.json")
    other("undo", "--sign", tmp_path / "ask.json", "-o", tmp_path / "signed.json")
    assert "agreed" in p("undo", "--agreed", "--with", tmp_path / "signed.json").stdout
    send(tmp_path, p, stores)
    same_everywhere(stores)
    assert version(org) == resolved + 1
    # the decision is played again: a new draw, resolved by the host with other dice
    legal = p("legal").stdout.splitlines()
    assert legal[0].startswith(f"{p.name}:")
    out = p("decide", random.Random(33).choice(legal[1:]).strip()).stdout
    if "waiting for the host's dice" in out:
        assert re.search(r"draw (\d+)", out)
    send(tmp_path, p, stores)
    same_everywhere(stores)
    # once the host revealed its seed nothing is taken back (every later roll would be known)
    org("host", "reveal", "cup")
    send(tmp_path, org, stores)
    same_everywhere(stores, checked=True)
    err = p("undo", "--agreed", code=1).stderr
    assert "revealed the game's secret seed" in err


def test_a_host_record_whose_signatures_cover_actions_only_still_verifies_and_says_so(players, tmp_path,
                                                                                      monkeypatch):
    """Records of a trv whose host signed a resolution's action but not its events keep verifying."""
    from trvendetta.replays import signatures

    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    # what the older trv signed (and checked): the resolution's action alone
    monkeypatch.setattr(signatures, "resolution_body", lambda action, payloads: action)
    until_intent(tmp_path, org, [ann, bob], random.Random(34))
    p = ann if ann("show").stdout.count("waiting for the host's dice") else bob
    send(tmp_path, p, [org, ann, bob])
    monkeypatch.undo()
    out = org("verify").stdout
    assert out.startswith("OK: ") and "1 of them (made by an older trv) cover a draw's action but not its events" in out
    same_everywhere([org, ann, bob])
