"""Play by email: two databases kept identical by turn packets only; every refusal."""

import random

import msgspec
import pytest

from trvendetta import replays
from trvendetta.store import GameStore
from replay_helpers import new_game, play


def _records(store, game):
    return [(r.number, r.payload, r.action, r.hash) for r in store.events(game)]


def _packet(store, game, since):
    return replays.read_file(replays.export(store, game, since=since).encode())


@pytest.mark.parametrize("ruleset, seed", [("vendetta", 11), ("classic", 12)])
def test_a_whole_game_by_alternating_packets_keeps_two_databases_identical(tmp_path, trv, ruleset, seed):
    ann_db, bob_db = tmp_path / "ann.sqlite", tmp_path / "bob.sqlite"
    with GameStore(ann_db) as ann, GameStore(bob_db) as bob:
        new_game(ann, "duel", ruleset, seed=seed)
        (tmp_path / "start.trv").write_text(replays.export(ann, "duel"), "utf-8")
        trv(bob_db, "import", tmp_path / "start.trv")
        stores = {"ann": ann, "bob": bob}
        chooser = random.Random(seed)
        packets = 0
        while True:
            game = ann.load("duel")
            if game.ruleset.is_over(game.state):
                break
            player = game.ruleset.pending(game.state).player
            mine = stores[player]
            other = bob if mine is ann else ann
            since = mine.version("duel")
            # the player plays until the decision is someone else's (or the game ends)
            play(mine, "duel", chooser, until=lambda rs, st: rs.pending(st).player != player)
            packet = replays.export(mine, "duel", since=since)
            if packets % 10 == 0:  # now and then through the command line, as a mail would go
                path = tmp_path / "turn.trv"
                path.write_text(packet, "utf-8")
                trv(bob_db if other is bob else ann_db, "import", path)
            else:
                replays.import_file(other, replays.read_file(packet.encode()))
            packets += 1
            assert other.load("duel").head == mine.load("duel").head
        assert packets >= 8
        assert _records(ann, "duel") == _records(bob, "duel")
        assert ann.load("duel").state == bob.load("duel").state
    assert trv(ann_db, "verify", "duel").stdout == trv(bob_db, "verify", "duel").stdout


@pytest.fixture
def pair(tmp_path, toy):
    """Two databases holding the same toy game after its set-up and four actions."""
    a, b = GameStore(tmp_path / "a.sqlite"), GameStore(tmp_path / "b.sqlite")
    new_game(a, "duel", "toy", seed=7)
    play(a, "duel", random.Random(7), actions=4)
    replays.import_file(b, replays.read_file(replays.export(a, "duel").encode()))
    yield a, b
    a.close()
    b.close()


def _refused(trv, tmp_path, db, packet_text, reason):
    path = tmp_path / "p.trv"
    path.write_text(packet_text, "utf-8")
    with GameStore(db) as s:
        before = _records(s, "duel") if s.exists("duel") else None
    err = trv(db, "import", path, code=1).stderr
    assert f"packet refused ({reason})" in err and "nothing was written" in err, err
    with GameStore(db) as s:
        assert (_records(s, "duel") if s.exists("duel") else None) == before
    return err


def test_the_same_packet_twice_is_already_applied(tmp_path, trv, pair):
    a, b = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=2)
    text = replays.export(a, "duel", since=since)
    replays.import_file(b, replays.read_file(text.encode()))
    path = tmp_path / "p.trv"
    path.write_text(text, "utf-8")
    before = _records(b, "duel")
    out = trv(tmp_path / "b.sqlite", "import", path).stdout  # exit 0: not an error
    assert "already applied" in out and "nothing was written" in out
    assert _records(b, "duel") == before


def test_an_overlapping_packet_applies_its_new_part(tmp_path, trv, pair):
    a, b = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=1)
    replays.import_file(b, replays.read_file(replays.export(a, "duel", since=since).encode()))
    play(a, "duel", random.Random(2), actions=2)
    path = tmp_path / "p.trv"
    text = replays.export(a, "duel", since=since)  # from the same point: it overlaps what b has
    path.write_text(text, "utf-8")
    b.close()
    out = trv(tmp_path / "b.sqlite", "import", path).stdout
    assert "imported packet" in out
    with GameStore(tmp_path / "b.sqlite") as again:
        assert _records(a, "duel") == _records(again, "duel")
    # the overlap is checked byte for byte: a changed old event is refused, nothing written
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith(f"{since + 1} "))
    lines[first] = lines[first][:-1] + ' }'
    _refused(trv, tmp_path, tmp_path / "b.sqlite", "\n".join(lines), "tampered")


def test_a_forked_packet_is_refused(tmp_path, trv, pair):
    a, b = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=1)
    game = b.load("duel")
    rs = game.ruleset
    taken = next(r.decoded_action for r in reversed(a.events("duel")) if r.action)
    other = next(x for x in rs.legal_actions(game.state) if x != taken)  # b plays something else
    _, events = rs.apply(game.state, other)
    b.append("duel", game.version, steps=[(other, events)])
    err = _refused(trv, tmp_path, tmp_path / "b.sqlite", replays.export(a, "duel", since=since), "forked")
    assert f"event {since + 1}" in err


def test_a_packet_following_another_history_is_refused_as_forked(tmp_path, trv, pair):
    a, b = pair
    # b takes a different action at event 2's place: its event 3 differs from a's
    play(b, "duel", random.Random(99), actions=3)
    play(a, "duel", random.Random(98), actions=3)
    since = b.version("duel")
    if a.events_head("duel", since) == b.events_head("duel", since):
        pytest.skip("the two random continuations happened to agree")
    play(a, "duel", random.Random(97), actions=1)
    err = _refused(trv, tmp_path, tmp_path / "b.sqlite", replays.export(a, "duel", since=since), "forked")
    assert "different event" in err


def test_an_out_of_order_packet_is_refused(tmp_path, trv, pair):
    a, _ = pair
    play(a, "duel", random.Random(1), actions=1)
    since = a.version("duel")
    play(a, "duel", random.Random(2), actions=1)
    err = _refused(trv, tmp_path, tmp_path / "b.sqlite", replays.export(a, "duel", since=since), "out of order")
    assert "import the packets before it first" in err


def test_a_packet_of_another_game_is_refused(tmp_path, trv, pair):
    a, b = pair
    other = GameStore(":memory:")
    new_game(other, "duel", "toy", seed=8)  # same name, another game
    play(other, "duel", random.Random(8), actions=5)
    err = _refused(trv, tmp_path, tmp_path / "b.sqlite", replays.export(other, "duel", since=4), "other game")
    assert "another game called 'duel'" in err
    new_game(other, "solo", "toy", seed=8)
    play(other, "solo", random.Random(8), actions=2)
    text = replays.export(other, "solo", since=1)
    path = tmp_path / "solo.trv"
    path.write_text(text, "utf-8")
    assert "packet refused (other game)" in trv(tmp_path / "b.sqlite", "import", path, code=1).stderr


def test_a_tampered_packet_is_refused(tmp_path, trv, pair):
    a, _ = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=2)
    text = replays.export(a, "duel", since=since)
    line = next(l for l in text.splitlines() if l.startswith(f"{since + 2} "))
    forged = text.replace(line, line.replace('"n":', '"n": '))
    err = _refused(trv, tmp_path, tmp_path / "b.sqlite", forged, "tampered")
    assert f"event {since + 2}" in err


def test_a_packet_that_breaks_the_rules_is_refused_as_tampered(tmp_path, trv, pair):
    """A packet whose hash chain holds but whose events the rules do not give (a changed bonus roll)."""
    from trvendetta.store import chain
    from trvendetta.replays.record import write

    a, _ = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=2)
    gf = _packet(a, "duel", since)
    flip = {b'"bonus":0': b'"bonus":1', b'"bonus":1': b'"bonus":0'}
    head, forged, done = gf.header.since_hash, [], False
    for r in gf.records:
        payload = r.payload
        for old, new in flip.items():
            if not done and old in payload:
                payload, done = payload.replace(old, new), True
        head = chain(head, payload, r.action)
        forged.append(r._replace(payload=payload, hash=head))
    header = msgspec.structs.replace(gf.header, head=head)
    err = _refused(trv, tmp_path, tmp_path / "b.sqlite", write("packet", header, gf.moves, forged), "tampered")
    assert "differs from the rules' result" in err and "bonus" in err


def test_an_undo_travels_in_a_packet(tmp_path, pair):
    a, b = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=1)
    replays.undo(a, "duel", agreed=True)
    play(a, "duel", random.Random(2), actions=2)
    replays.import_file(b, _packet(a, "duel", since))
    assert _records(a, "duel") == _records(b, "duel")
    assert b.retracted("duel") == a.retracted("duel") != set()
    assert b.load("duel").state == a.load("duel").state


def test_an_undo_of_an_action_from_before_the_packet_travels_too(tmp_path, pair):
    """Export and import start from the stored state after the packet's first
    event (replays/resume.py); a retraction reaching further back walks the whole game."""
    a, b = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=2)
    replays.import_file(b, _packet(a, "duel", since))
    middle = a.version("duel")
    replays.undo(a, "duel", agreed=True)  # takes back the action before ``middle``
    play(a, "duel", random.Random(3), actions=1)
    packet = _packet(a, "duel", middle)
    assert "trv-retraction" in replays.export(a, "duel", since=middle)
    replays.import_file(b, packet)
    assert _records(a, "duel") == _records(b, "duel")
    assert b.load("duel").state == a.load("duel").state and b.retracted("duel") != set()


def test_a_packet_with_edited_move_text_is_refused(tmp_path, trv, pair):
    a, _ = pair
    since = a.version("duel")
    play(a, "duel", random.Random(1), actions=2)
    text = replays.export(a, "duel", since=since)
    edited = text.replace(": add ", ": add  ", 1)
    assert edited != text
    assert "move text" in _refused(trv, tmp_path, tmp_path / "b.sqlite", edited, "tampered")
