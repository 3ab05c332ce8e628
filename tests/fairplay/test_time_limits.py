"""Time limits, claims on time and resignations (docs/fair-play.md, "Time limits").

Each player has their own store and identity; packets travel as files; the
wall clock is frozen (freezegun) and moved by the test: each store stamps
what it records or imports with its own clock, which is the reference for
that store's deadlines."""

import json
from datetime import timedelta

import pytest
from freezegun import freeze_time

from fairplay_helpers import Mail, version
from test_exchange import exchange_game, pick

import eventsourcing.application  # noqa: F401  (its transcoders must see the real datetime, not freezegun's)

START = "2026-12-01 12:00:00"
pytestmark = pytest.mark.usefixtures("seeded_entropy")  # the same keys, secrets and games every run


def signed_game(tmp_path, ann, bob, *extra):
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}", "--seed", "3", "--name", "duel", *extra)
    ann("export", "duel", "-o", tmp_path / "duel.trv")
    bob("import", tmp_path / "duel.trv")


def timed_exchange(tmp_path, players, time="3d", name="duel"):
    first, others = players[0], players[1:]
    args = ["invite", "--name", name, "-o", tmp_path / "invite.json", "--time", time]
    for p, color in zip(players, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    first(*args)
    joins = []
    for p in others:
        p("join", tmp_path / "invite.json", "-o", tmp_path / f"{p.name}.json")
        joins += ["--join", tmp_path / f"{p.name}.json"]
    assert "time limit: 3d an answer" in first("new", "--invite", tmp_path / "invite.json", *joins).stdout
    first("export", name, "-o", tmp_path / f"{name}.trv")
    for p in others:
        p("import", tmp_path / f"{name}.trv")


def test_a_time_control_round_trips_and_bad_ones_are_named():
    from trvendetta.app.clock import parse_time_control

    for text in ("3d", "12h", "1d12h", "90m", "7d+1d", "2d+0m", "1d1h1m+30m"):
        control = parse_time_control(text)
        assert parse_time_control(str(control)) == control
        assert eval(repr(control), {"parse_time_control": parse_time_control}) == control
    assert str(parse_time_control("36h")) == "1d12h"
    assert parse_time_control("7d+1d").describe() == "a reserve of 7d, plus 1d an answer"
    from trvendetta.core.errors import TrvError

    for bad, says in (("3", "not a duration"), ("3x", "not a duration"), ("1d1d", "not a duration"),
                      ("0m", "at least a minute"), ("+1d", "not a duration"), ("1d+1d+1d", "not a time control"),
                      ("400d", "longer than 365 days"), ("", "not a time control")):
        with pytest.raises(TrvError, match=says):
            parse_time_control(bad)


def test_time_needs_a_signed_game_and_a_legal_limit(tmp_path, players):
    (ann,) = players("ann")
    out = ann("new", "--player", "ann:red", "--player", "bob:blue", "--time", "3d", code=2)
    assert "--time needs a signed game" in out.stderr
    out = ann("new", "--player", "ann:red", "--player", "bob:blue", "--key", "ann=ann", "--time", "3 days", code=1)
    assert "'3 days' is not a duration" in out.stderr
    assert ann("games").stdout.strip().startswith("no games yet")  # nothing written


def test_show_and_games_say_whose_answer_since_when_and_the_deadline(tmp_path, players):
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    shown = json.loads(bob("show", "--json").stdout)
    assert shown["clock"] == {"seat": "bob", "unanswered": "decision", "after": shown["version"],
                              "since": "2026-12-01T12:00:00Z", "deadline": "2026-12-04T12:00:00Z", "time": "3d"}
    with freeze_time("2026-12-02 08:00:00"):
        text = bob("show").stdout
    assert "bob's move since 2026-12-01 12:00 UTC; deadline 2026-12-04 12:00 UTC (3d an answer)" in text
    assert "passed" not in text
    with freeze_time("2026-12-05 08:00:00"):
        assert "passed, the others may claim the game (trv claim)" in bob("show").stdout
    row = [r for r in bob("games").stdout.splitlines() if r.startswith("duel")][0]
    assert "bob since 12-01 12:00, by 12-04 12:00 UTC" in row
    assert json.loads(bob("games", "--json").stdout)[0]["clock"]["deadline"] == "2026-12-04T12:00:00Z"


def test_a_reserve_is_spent_by_each_answer_and_grows_by_the_increment(tmp_path, players):
    ann, bob = players("ann", "bob")  # (seed 3: bob moves first)
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "2d+1d")
    assert json.loads(ann("show", "--json").stdout)["clock"]["deadline"] == "2026-12-03T12:00:00Z"
    with freeze_time("2026-12-02 12:00:00"):  # bob takes a day to answer (by his store's clock)
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "p1.trv")
    with freeze_time("2026-12-02 18:00:00"):  # and the mail six hours more, by ann's
        ann("import", tmp_path / "p1.trv")
    clock = json.loads(ann("show", "--json").stdout)["clock"]
    assert clock["seat"] == "ann" and clock["deadline"] == "2026-12-04T18:00:00Z"  # her 2d, none used yet
    with freeze_time("2026-12-03 12:00:00"):
        while ann.pending() == "ann":
            ann("decide", ann.first_legal())
    clock = json.loads(ann("show", "--json").stdout)["clock"]
    # by ann's clock bob used 1d6h and gave one answer: 2d + 1d - 1d6h = 1d18h from ann's answer
    assert clock["seat"] == "bob" and clock["deadline"] == "2026-12-05T06:00:00Z"


def test_the_stall_is_answered_by_a_claim_and_the_game_verifies_everywhere(tmp_path, players):
    """The last revealer keeps the reply: after the deadline the actor claims; the claim ends the game
    in both stores, both verify, and nothing more can be played."""
    import random

    ann, bob = players("ann", "bob")
    with freeze_time(START) as clock:
        timed_exchange(tmp_path, [ann, bob])
        mail = Mail(tmp_path, [ann, bob])
        chooser, n = random.Random(5), 0
        while True:  # play until ann's action waits for bob's dice
            p = ann if ann.pending() == "ann" else bob
            since = version(p)
            out = p("decide", pick(chooser, p("legal").stdout.splitlines()[1:])).stdout
            n += 1
            p("export", "--since", since, "-o", tmp_path / f"t{n}.trv")
            if p is ann and "waits for the others' dice" in out:
                break
            mail.send(tmp_path / f"t{n}.trv", p)
        clock.tick(timedelta(hours=1))
        bob("import", tmp_path / f"t{n}.trv", "--reply", tmp_path / "kept.trv")  # bob resolves, keeps the reply
        waits = json.loads(ann("show", "--json").stdout)["clock"]
        assert waits["seat"] == "bob" and waits["unanswered"] == "reveal"
        out = ann("claim", code=1)
        assert "not passed yet" in out.stderr and "3d" in out.stderr
        # not bob against himself... nor against ann before her time is out (whether the game waits on
        # her in his store, after his resolution, is the dice's: three days on, each store would see its
        # own deadline pass, the split copies an organiser settles, below)
        assert "not passed yet" in bob("claim", code=1).stderr
        clock.tick(timedelta(days=3))
        out = ann("claim").stdout
        assert "game over: bob lost on time (claimed by ann" in out
        ann("send", "-o", tmp_path / "claim.trv")
    out = ann("decide", "anything", code=1).stderr
    assert "bob lost on time" in out and "nothing more can be played" in out
    # bob's reply crosses ann's claim in the mail: in ann's store it is evidence, and the game stays over
    before = version(ann)
    out = ann("import", tmp_path / "kept.trv").stdout
    assert "kept as evidence in" in out and "the game is not reopened" in out
    assert version(ann) == before and list((ann.home / "evidence").iterdir())
    # bob's store stamped his answer an hour in, long before the deadline: the claim crossed it (his
    # store cannot tell a kept reply from a lost one), so it is refused there, naming both times
    before = version(bob)
    out = bob("import", tmp_path / "claim.trv", code=1, multiline=True).stderr
    assert "bob answered event" in out and "at 2026-12-01T13:00:00Z" in out and "before the deadline (the claim's " \
        "2026-12-04T12:00:00Z" in out and "crossed an answer in time" in out, out
    assert version(bob) == before
    text = ann("verify").stdout
    assert text.startswith("OK: ") and "bob lost on time, claimed by ann" in text
    assert "game over: bob lost on time" in ann("show").stdout
    for p in (ann, bob):
        p("export", "duel", "-o", tmp_path / f"{p.name}-end.trv")
    # the copies contradict each other at the claim: no result counts until the organiser rules
    org = type(ann)(tmp_path, "org")
    org("id", "new", "org")
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob")
    org("tournament", "pair", "cup")
    copies = (tmp_path / "bob-end.trv", tmp_path / "ann-end.trv")
    err = org("tournament", "report", "cup", "--table", "1", *copies, code=1, multiline=True).stderr
    assert "holds bob's answer to event" in err and "a seat's copy contradicts the claim" in err, err
    org("tournament", "rule", "cup", "--table", "1", tmp_path / "ann-end.trv", "--uphold", "--reason", "bob stalled")
    out = org("tournament", "report", "cup", "--table", "1", *copies).stdout
    assert "1. ann, 2. bob" in out


def test_an_answer_late_by_its_own_stores_clock_takes_the_claim_after_it(tmp_path, players):
    """bob answers a day after his deadline by his own clock, while ann's claim is in the mail: his
    store appends the claim after his late answer, and a tournament counts the claim from both copies."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-04 12:30:00"):
        ann("claim")
        ann("send", "-o", tmp_path / "claim.trv")
    with freeze_time("2026-12-05 12:00:00"):
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "late.trv")
    with freeze_time("2026-12-05 13:00:00"):
        out = bob("import", tmp_path / "claim.trv").stdout
        assert "the claim is appended after events" in out and "game over: bob lost on time" in out
        assert "already applied: this database has its claim" in bob("import", tmp_path / "claim.trv").stdout
        assert "kept as evidence" in ann("import", tmp_path / "late.trv").stdout
    for p in (ann, bob):
        text = p("verify").stdout
        assert text.startswith("OK: ") and "bob lost on time, claimed by ann" in text
        p("export", "duel", "-o", tmp_path / f"{p.name}-end.trv")
    org = type(ann)(tmp_path, "org")
    org("tournament", "new", "cup", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob")
    org("tournament", "pair", "cup")
    out = org("tournament", "report", "cup", "--table", "1", tmp_path / "bob-end.trv", tmp_path / "ann-end.trv").stdout
    assert "1. ann, 2. bob" in out


def _play_until_anns_intent(tmp_path, ann, bob, clock, seed=5):
    """Both play random moves, every packet mailed, until ann's action waits for bob's dice; that
    packet is returned unsent."""
    import random

    mail = Mail(tmp_path, [ann, bob])
    chooser, n = random.Random(seed), 0
    while True:
        p = ann if ann.pending() == "ann" else bob
        since = version(p)
        out = p("decide", pick(chooser, p("legal").stdout.splitlines()[1:])).stdout
        n += 1
        packet = tmp_path / f"t{n}.trv"
        p("export", "--since", since, "-o", packet)
        if p is ann and "waits for the others' dice" in out:
            return packet
        mail.send(packet, p)
        clock.tick(timedelta(minutes=5))


def _until_bobs_decision(tmp_path, ann, bob, clock):
    """Both play (every packet mailed, bob answering ann's draws) until the game waits for bob's decision."""
    packet = _play_until_anns_intent(tmp_path, ann, bob, clock)
    Mail(tmp_path, [ann, bob]).send(packet, ann)
    n = 0
    while bob.pending() != "bob":
        n += 1
        since = version(ann)
        ann("decide", ann.first_legal())
        ann("export", "--since", since, "-o", tmp_path / f"until-{n}.trv")
        Mail(tmp_path, [ann, bob]).send(tmp_path / f"until-{n}.trv", ann)
    assert ann.pending() == "bob"


def test_a_resignation_ends_an_exchange_game_in_both_stores(tmp_path, players):
    ann, bob = players("ann", "bob")
    with freeze_time(START) as clock:
        timed_exchange(tmp_path, [ann, bob])
        packet = _play_until_anns_intent(tmp_path, ann, bob, clock)
        Mail(tmp_path, [ann, bob]).send(packet, ann)  # bob reveals; the reply resolves it in ann's store
        assert bob.pending() == ann.pending()
        loser = "bob" if ann.pending() == "ann" else "ann"  # resigns out of turn
        quitter = ann if loser == "ann" else bob
        other = bob if quitter is ann else ann
        assert f"game over: {loser} resigned (at 2026-12-01" in quitter("resign").stdout
        quitter("send", "-o", tmp_path / "resign.trv")
        other("import", tmp_path / "resign.trv")
    for p in (ann, bob):
        assert f"game over: {loser} resigned" in p("show").stdout
        assert json.loads(p("show", "--json").stdout)["ended"]["loser"] == loser
        text = p("verify").stdout
        assert text.startswith("OK: ") and f"ended at event {version(p)}: {loser} resigned" in text
        assert p("decide", "x", code=1).stderr.count("nothing more can be played") == 1
        assert "is over already" in p("resign", code=1).stderr or "nothing more" in p("resign", code=1).stderr
    row = [r for r in ann("games").stdout.splitlines() if r.startswith("duel")][0]
    assert f"{loser} resigned" in row
    ann("export", "duel", "-o", tmp_path / "a.trv")
    assert ann("verify", tmp_path / "a.trv").stdout.startswith("OK: ")


def test_a_hot_seat_game_has_no_resignation(tmp_path, players):
    (ann,) = players("ann")
    ann("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "3")
    out = ann("resign", "--as", "bob", code=1).stderr
    assert "hot-seat game" in out and "a resignation is a signed event" in out
    assert "OK: " in ann("verify").stdout


# ------------------------------------------------------------------ attacks on a claim
def _forge(p, monkeypatch, record_of):
    """Append, with ``p``'s own key, a claim or resignation ``record_of(waiting, loaded)`` makes: what a
    cheater's modified trv could write, signed as the real one signs."""
    from trvendetta.app import outcome
    from trvendetta.app.clock import waiting
    from trvendetta.cli.identity import Keyring
    from trvendetta.store import CLAIM_KIND, GameStore, decode_charter

    monkeypatch.setenv("TRV_HOME", str(p.home))
    with GameStore(p.db) as store:
        loaded = store.load("duel")
        own = Keyring(dict(decode_charter(loaded.charter).seats), p.name)

        class Keys:  # the forger's own key, under whatever name the record gives
            def sign(self, seat, message):
                return own.sign(p.name, message)

        keyring = Keys()
        w = waiting(store, "duel")
        record = record_of(w, loaded)
        kind = CLAIM_KIND if type(record).__name__ == "Claim" else "trv-resign"
        outcome._append(store, "duel", kind, record, record.by if kind == CLAIM_KIND else record.seat, keyring,
                        record.after, record.after_hash, at=loaded.version)


def _head_at(p, number):
    from trvendetta.store import GameStore

    with GameStore(p.db) as store:
        return store.events_head("duel", number)


def _stamp(text):
    return text.replace(" ", "T") + "Z"


HONEST = dict(unanswered="decision", control="3d", since="2026-12-01T13:00:00Z", deadline="2026-12-04T13:00:00Z",
              at="2026-12-04T13:00:00Z")


@pytest.mark.parametrize("forger, fields, refusal", [
    # ann claims while it is her own move, naming bob as the silent seat
    ("ann", dict(seat="bob", by="ann"), "it waited for ann's decision"),
    # bob claims against ann (whose move it is) with an earlier deadline than 3d gives
    ("bob", dict(seat="ann", by="bob", deadline="2026-12-01T14:00:00Z"), "is not what '3d' gives"),
    # bob's claim says it was made before the deadline passed
    ("bob", dict(seat="ann", by="bob", at="2026-12-02T13:00:00Z"), "a claim comes after the deadline"),
    # bob names a shorter time control than the charter's
    ("bob", dict(seat="ann", by="bob", control="1h", deadline="2026-12-01T14:00:00Z"), "the game's is '3d'"),
    # bob's key signs a claim that says ann claims against herself
    ("bob", dict(seat="ann", by="ann"), "only another bound seat claims"),
    # a claim against the right seat, but naming an earlier point of the game with the last one's hash
    # (a late claim follows only the claimed seat's own answer: here bob's moves follow that point)
    ("bob", dict(seat="ann", by="bob", after=3), "but bob's action (event 15) follows it: a late claim follows only "
                                                 "the claimed seat's own answer (ann's)"),
    # a late claim (after records it does not name) whose point was not the claimed seat's to answer
    ("bob", dict(seat="ann", by="bob", late=True), "but bob's action (event 15) follows it"),
])
def test_a_forged_claim_is_refused(tmp_path, players, monkeypatch, forger, fields, refusal):
    """What a cheater's own trv could write and sign: verify refuses it at its event, naming why."""
    from trvendetta.store import Claim

    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-01 13:00:00"):
        since = version(bob)
        while bob.pending() == "bob":
            bob("decide", bob.first_legal())
        bob("export", "--since", since, "-o", tmp_path / "b1.trv")
        ann("import", tmp_path / "b1.trv")
    assert ann.pending() == "ann"
    who = ann if forger == "ann" else bob
    if fields.pop("late", False):  # named: the point before bob's move, when bob was to answer
        fields.update(after=since, after_hash=_head_at(bob, since))
    _forge(who, monkeypatch, lambda w, loaded: Claim(**{**HONEST, "after": w.after, "after_hash": w.after_hash,
                                                        **fields}))
    out = who("verify", code=1, multiline=True).stderr
    assert f"event {version(who)}: " in out and refusal in out, out


def test_a_claim_changed_in_a_packet_is_refused_at_import(tmp_path, players):
    """bob edits ann's claim packet (his time started a day later, so he would still be in time): the
    claim's signature no longer fits; the packet as ann signed it ends the game."""
    import re

    from fairplay_helpers import rechain

    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-05 12:00:00"):
        ann("claim")
        ann("send", "-o", tmp_path / "claim.trv", "--plain")
    text = (tmp_path / "claim.trv").read_text()
    number = version(ann)
    edited = rechain(text, number, '"since":"2026-12-01T12:00:00Z","deadline":"2026-12-04T12:00:00Z"',
                     '"since":"2026-12-02T12:00:00Z","deadline":"2026-12-05T12:00:00Z"')
    (tmp_path / "edited.trv").write_text(edited)
    before = version(bob)
    out = bob("import", tmp_path / "edited.trv", code=1).stderr
    assert "the claim is not signed by ann" in out
    assert version(bob) == before
    bob("import", tmp_path / "claim.trv")
    assert "game over: bob lost on time (claimed by ann at 2026-12-05T12:00:00Z" in bob("show").stdout
    assert re.search(r"ended at event \d+: bob lost on time, claimed by ann", bob("verify").stdout)


def test_nothing_follows_a_claim(tmp_path, players):
    """bob's late move spliced after ann's claim (renumbered, the chain recomputed, as anyone can):
    verify refuses the record at the move, naming the claim."""
    import re

    from fairplay_helpers import rechain
    from trvendetta.replays import read_file, verify_file
    from trvendetta.replays.walker import Tampered

    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")
    with freeze_time("2026-12-05 12:00:00"):
        ann("claim")
    claimed = ann("export", "duel").stdout
    since = version(bob)
    with freeze_time("2026-12-05 13:00:00"):
        bob("decide", bob.first_legal())
    late = bob("export", "--since", since).stdout
    moves = []
    for line in late.split("\n"):
        found = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
        if found:
            line = f"{int(found.group(1)) + 1} {found.group(2)} {found.group(3)}"
        if found or line.startswith(("> ", "+ ")):
            moves.append(line)
    head, tail = claimed.split("\n% end", 1) if "\n% end" in claimed else (claimed.rstrip("\n"), "")
    spliced = rechain(head + "\n" + "\n".join(moves) + "\n% end" + tail)
    events = int(re.search(r'\[Events "(\d+)"\]', spliced).group(1))
    spliced = spliced.replace(f'[Events "{events}"]', f'[Events "{events + len([m for m in moves if m[0].isdigit()])}"]')
    with pytest.raises(Tampered, match=f"event {since + 2}: a record after the game ended at event {since + 1} "
                                       r"\(bob lost on time, claimed by ann\)"):
        verify_file(read_file(spliced.encode(), "spliced.trv"))


def test_an_exchange_game_of_carnival_is_refused_pointing_to_host_mode(tmp_path, players):
    """Nobody could deal the face-down party favors in secret without a host: refused, and nothing written."""
    ann, bob = players("ann", "bob")
    out = ann("invite", "--ruleset", "carnival", "--player", "ann:red", "--player", "bob:blue",
              "--key", f"ann={tmp_path / 'ann.pub'}", "--key", f"bob={tmp_path / 'bob.pub'}", "--name", "fair",
              "-o", tmp_path / "inv.json", code=1).stderr
    assert "face-down party favors" in out and "trv host offer --ruleset carnival" in out
    assert not (tmp_path / "inv.json").exists()


# ------------------------------------------------------------------ tournaments
def _cup(tmp_path, org, rounds):
    """org's tournament ``cup`` of ann and bob (their keys registered), its first round paired."""
    org("tournament", "new", "cup", "--rounds", str(rounds), "--pod-size", "2", "--seed", "1")
    org("tournament", "register", "cup", "ann", "bob", "--key", f"ann={tmp_path / 'ann.pub'}",
        "--key", f"bob={tmp_path / 'bob.pub'}")
    org("tournament", "pair", "cup")


def _copies(tmp_path, stores, tag, game="duel"):
    out = []
    for p in stores:
        path = tmp_path / f"{p.name}-{tag}.trv"
        p("export", game, "-o", path)
        out.append(path)
    return out


def test_a_tournament_counts_a_claim_and_a_resignation_from_every_seats_copy(tmp_path, players):
    """Two whole exchange games between ann and bob, played at a distance: one ends on ann's claim
    (bob never answered her draw), one on bob's resignation.  The organiser takes both seats' copies
    of each: they agree, and each counts as ann first, bob second."""
    org, ann, bob = players("org", "ann", "bob")
    _cup(tmp_path, org, rounds=2)
    with freeze_time(START) as clock:
        timed_exchange(tmp_path, [ann, bob])
        _until_bobs_decision(tmp_path, ann, bob, clock)  # and bob never makes it
        clock.tick(timedelta(days=3, minutes=1))
        ann("claim")
        ann("send", "-o", tmp_path / "claim.trv")
        bob("import", tmp_path / "claim.trv")
    copies = _copies(tmp_path, [ann, bob], "r1")
    for path in copies:
        assert "ended at event" in ann("verify", path).stdout
    out = org("tournament", "report", "cup", "--table", "1", *copies).stdout
    assert "1. ann, 2. bob" in out
    org("tournament", "pair", "cup")
    with freeze_time("2026-12-10 12:00:00") as clock:
        timed_exchange(tmp_path, [ann, bob], name="rematch")
        packet = _play_until_anns_intent(tmp_path, ann, bob, clock, seed=8)
        Mail(tmp_path, [ann, bob]).send(packet, ann)
        bob("resign")
        bob("send", "-o", tmp_path / "resign.trv")
        ann("import", tmp_path / "resign.trv")
    copies = _copies(tmp_path, [ann, bob], "r2", "rematch")
    out = org("tournament", "report", "cup", "--round", "2", "--table", "1", *copies).stdout
    assert "1. ann, 2. bob" in out
    standings = org("tournament", "standings", "cup").stdout
    assert standings.index("ann") < standings.index("bob")


def test_a_tournament_refuses_two_copies_that_split_naming_who_signed_both(tmp_path, players):
    """bob keeps a second store: in one he resigns to ann, in the other he plays on (a copy he could hand
    the organiser as 'the game').  Each record alone verifies; both together show bob signed two
    histories, and no result counts."""
    org, ann, bob = players("org", "ann", "bob")
    _cup(tmp_path, org, rounds=1)
    with freeze_time(START) as clock:
        timed_exchange(tmp_path, [ann, bob])
        packet = _play_until_anns_intent(tmp_path, ann, bob, clock)
        Mail(tmp_path, [ann, bob]).send(packet, ann)
        n = 0
        while bob.pending() != "bob":  # ann plays on (bob answering any draw) until it is bob's decision
            n += 1
            since = version(ann)
            ann("decide", ann.first_legal())
            ann("export", "--since", since, "-o", tmp_path / f"a{n}.trv")
            Mail(tmp_path, [ann, bob]).send(tmp_path / f"a{n}.trv", ann)
        bob("export", "duel", "-o", tmp_path / "before.trv")
        bob2 = type(bob)(tmp_path, "bob")
        bob2.db = tmp_path / "bob-second.sqlite"
        bob2("import", tmp_path / "before.trv")
        bob("resign")
        bob2("decide", bob2.first_legal())
    copies = [tmp_path / "ann.trv", tmp_path / "bob.trv"]
    bob("send", "-o", tmp_path / "resign.trv")
    ann("import", tmp_path / "resign.trv")
    ann("export", "duel", "-o", copies[0])
    bob2("export", "duel", "-o", copies[1])
    for path in copies:
        assert org("verify", path).stdout.startswith("OK: ")
    err = org("tournament", "report", "cup", "--table", "1", *copies, code=1, multiline=True).stderr
    assert "the copies of the game differ (bob signed two different games)" in err
    assert "that is equivocation, and these two signatures are the proof" in err


def _claimed_game_in_a_tournament(tmp_path, players):
    """A tournament of ann and bob whose table's exchange game ended on ann's claim; the record file."""
    org, ann, bob = players("org", "ann", "bob")
    _cup(tmp_path, org, rounds=1)
    with freeze_time(START) as clock:
        timed_exchange(tmp_path, [ann, bob])
        _play_until_anns_intent(tmp_path, ann, bob, clock)
        clock.tick(timedelta(days=3, minutes=1))
        ann("claim")
    ann("export", "duel", "-o", tmp_path / "duel-end.trv")
    return org, ann, bob, tmp_path / "duel-end.trv"


def test_the_organiser_overturns_a_claim_with_a_signed_ruling_and_the_report_refuses_it(tmp_path, players):
    org, ann, bob, record = _claimed_game_in_a_tournament(tmp_path, players)
    out = org("tournament", "rule", "cup", "--table", "1", record, "--overturn", "--reason", "mail lost").stdout
    assert "the claim is overturned (signed by" in out
    refused = org("tournament", "report", "cup", "--table", "1", record, code=1).stderr
    assert "overturned the claim that ended it (bob lost on time, claimed by ann; mail lost)" in refused
    assert "trv tournament concede / no-show" in refused
    # the table's result is then recorded another way
    org("tournament", "concede", "cup", "--table", "1", "bob", "--by", "bob")
    assert "ann" in org("tournament", "standings", "cup").stdout
    # one ruling per claim, and none on a game that did not end on a claim
    assert "was overturned already" in org("tournament", "rule", "cup", "--table", "1", record, "--uphold",
                                           code=1).stderr


def test_an_upheld_claim_counts(tmp_path, players):
    org, ann, bob, record = _claimed_game_in_a_tournament(tmp_path, players)
    assert "the claim is upheld" in org("tournament", "rule", "cup", "--table", "1", record, "--uphold").stdout
    assert "1. ann, 2. bob" in org("tournament", "report", "cup", "--table", "1", record).stdout
    assert "has its result already" in org("tournament", "rule", "cup", "--table", "1", record, "--overturn",
                                           code=1).stderr


def test_a_forged_ruling_is_refused_by_the_report(tmp_path, players):
    """A ruling appended to the log by a cheater's trv, naming the organiser's key with a signature
    that is not the organiser's over it (the organiser signed "upheld"), does not overturn the
    claim: the report refuses it as forged."""
    from msgspec.structs import replace

    from trvendetta.app.tournament import TournamentService
    from trvendetta.store import GameStore
    from trvendetta.tournament import model

    org, ann, bob, record = _claimed_game_in_a_tournament(tmp_path, players)
    org("tournament", "rule", "cup", "--table", "1", record, "--uphold", "--reason", "the claim stands")
    with GameStore(org.db) as store:
        svc = TournamentService(store)
        loaded = svc.log.load("cup")
        ruled = model.table_of(loaded.state, 1, 1).ruling
        svc.commit("cup", [replace(ruled, ruling="overturned")], loaded.version)  # the "upheld" signature
    refused = org("tournament", "report", "cup", "--table", "1", record, code=1).stderr
    assert "the ruling on the claim is not signed by the key it names" in refused


def test_an_imported_claim_says_the_game_is_over_not_whose_move_it_is(tmp_path, players):
    """The import that brings a claim ends the game in the receiving store: its output (and --json)
    says so, as `show` does, and no longer names the silent seat's decision as still awaited."""
    ann, bob = players("ann", "bob")
    with freeze_time(START):
        signed_game(tmp_path, ann, bob, "--time", "3d")  # (seed 3: bob moves first)
    with freeze_time("2026-12-04 12:30:00"):
        ann("claim")
        ann("send", "-o", tmp_path / "claim.trv")
    with freeze_time("2026-12-04 13:00:00"):
        out = bob("import", tmp_path / "claim.trv").stdout
        assert "game over: bob lost on time (claimed by ann" in out and "waiting on" not in out, out
        assert "game over: bob lost on time" in bob("show").stdout
    carol = type(ann)(tmp_path, "carol")  # a third store, as --json reports it
    with freeze_time(START):
        carol("import", tmp_path / "duel.trv")  # the game as ann sent it, when she did
    with freeze_time("2026-12-04 13:00:00"):
        doc = json.loads(carol("import", tmp_path / "claim.trv", "--json").stdout)
    assert doc["over"] is True and doc["pending"] is None and doc["waiting"].startswith("game over: bob lost on time")
