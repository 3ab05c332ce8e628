"""Identities and signed actions (docs/fair-play.md): seats bound to keys at
`trv new`, every action covered by its seat's signature, refusals at import,
verify and undo."""

import base64
import json
import os
import re
import stat

from cryptography.hazmat.primitives import serialization

from trvendetta.replays.signatures import message
from trvendetta.store import chain

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def bound_game(tmp_path, ann, bob, *more):
    """ann creates a game binding every seat to its player's key; the others import it."""
    seats = [ann, bob, *more]
    colors = ["red", "blue", "green", "yellow"]
    args = ["new", "--seed", "7", "--name", "duel"]
    for p, color in zip(seats, colors):
        args += ["--player", f"{p.name}:{color}:cars", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    ann(*args)
    ann("export", "duel", "-o", tmp_path / "duel.trv")
    for p in seats[1:]:
        p("import", tmp_path / "duel.trv")
    return seats


def events(p) -> int:
    return json.loads(p("show", "--json").stdout)["version"]


def exchange(tmp_path, seats, actions):
    """Whoever's decision it is plays the first legal option in their own store
    and sends a packet to every other store; ``actions`` times."""
    by_name = {p.name: p for p in seats}
    for n in range(actions):
        who = seats[0].pending()
        if who is None:
            return
        p = by_name[who]
        since = events(p)
        p("decide", p.first_legal())
        packet = tmp_path / f"p{n}.trv"
        p("export", "--since", since, "-o", packet)
        for other in seats:
            if other is not p:
                other("import", packet)


def test_an_identity_is_a_key_pair_whose_private_half_is_private(players, tmp_path):
    ann, = players("ann")
    key = ann.home / "identities" / "ann.key"
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    shown = ann("id", "show").stdout
    public = re.search(r"public key  ([0-9a-f]{64})", shown).group(1)
    private = serialization.load_pem_private_key(key.read_bytes(), password=None)
    assert private.public_key().public_bytes_raw().hex() == public
    assert "fingerprint" in shown
    ann("id", "new", "ann", code=1)  # never overwritten


def test_two_stores_play_a_signed_game_and_stay_identical(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    exchange(tmp_path, [ann, bob], 12)
    a, b = ann("show", "--json").stdout, bob("show", "--json").stdout
    assert a == b
    for p in (ann, bob):
        out = p("verify").stdout
        assert out.startswith("OK: ") and "signed by ann (" in out and "bob (" in out
        assert "unsigned" not in out
    ann("export", "duel", "-o", tmp_path / "final.trv")
    text = (tmp_path / "final.trv").read_text()
    assert "+ ann:" in text and "+ bob:" in text
    assert "PRIVATE" not in text and "BEGIN" not in text  # keys never reach a record
    for p in (ann, bob):
        for name in ("ann", "bob"):
            assert (p.home / "identities" / f"{name}.key").read_bytes() not in text.encode() \
                if (p.home / "identities" / f"{name}.key").exists() else True


def test_a_player_cannot_act_for_another_seat(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    assert ann.pending() == "bob"
    err = ann("decide", ann.first_legal(), code=1).stderr
    assert "bob's decision" in err and "bob can sign" in err
    err = ann("decide", ann.first_legal(), "--as", "bob", code=1).stderr
    assert "bob" in err


def _forge(packet: str, replace) -> str:
    """Rewrite a packet's records with ``replace(number, previous, action, sig) -> sig``, re-chaining
    every hash (a forger can always recompute the unkeyed chain)."""
    lines = packet.split("\n")
    since_hash = re.search(r'\[SinceHash "([0-9a-f]{64})"\]', packet).group(1)
    out, action, sig, previous = [], b"", None, since_hash
    for line in lines:
        if line.startswith("> "):
            action = line[2:].encode()
            out.append(line)
            continue
        if line.startswith("+ "):
            sig = line[2:].encode()
            continue
        m = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
        if m:
            number, payload = int(m.group(1)), m.group(3).encode()
            new_sig = replace(number, previous, action, sig or b"") if action else b""
            if new_sig:
                out.append("+ " + new_sig.decode())
            previous = chain(previous, payload, action, new_sig)
            out.append(f"{number} {previous} {payload.decode()}")
            action, sig = b"", None
            continue
        out.append(line)
    text = "\n".join(out)
    text = re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{previous}"]', text)
    return text


def test_a_packet_with_a_missing_or_foreign_signature_is_refused(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    game_id = re.search(r'\[GameId "([0-9a-f]{64})"\]', (tmp_path / "duel.trv").read_text()).group(1)
    since = events(bob)
    bob("decide", bob.first_legal())
    bob("export", "--since", since, "-o", tmp_path / "turn.trv")
    packet = (tmp_path / "turn.trv").read_text()

    stripped = tmp_path / "stripped.trv"
    stripped.write_text(_forge(packet, lambda n, prev, action, sig: b""))
    err = ann("import", stripped, code=1).stderr
    assert "tampered" in err and f"event {since + 1}" in err and "bob" in err and "did not sign" in err

    ann_key = serialization.load_pem_private_key((ann.home / "identities" / "ann.key").read_bytes(), None)

    def by_ann(number, previous, action, sig):
        return b"bob:" + base64.b64encode(ann_key.sign(message(game_id, number, previous, action)))

    foreign = tmp_path / "foreign.trv"
    foreign.write_text(_forge(packet, by_ann))
    err = ann("import", foreign, code=1).stderr
    assert f"event {since + 1}" in err and "not signed by bob" in err and "made with ann's key" in err
    ann("import", tmp_path / "turn.trv")  # the real one still applies
    assert ann("show", "--json").stdout == bob("show", "--json").stdout


def test_verify_says_which_seats_are_unsigned(players, tmp_path):
    ann, = players("ann")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3", "--key",
        f"ann={tmp_path / 'ann.pub'}")
    out = ann("verify").stdout
    assert "unsigned seats: bob" in out and "signed by ann" in out
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3", "--name", "hot")
    assert "unsigned seats: ann, bob" in ann("verify", "hot").stdout
    # in a hot-seat game anyone at the store plays any seat, as before
    ann("decide", "--game", "hot", ann("legal", "--game", "hot").stdout.splitlines()[1].strip())


def test_bad_keys_are_refused_at_new(players, tmp_path):
    ann, = players("ann")
    base = ["new", "--player", "ann:red:cars", "--player", "bob:blue:cars"]
    assert "no seat called 'cyd'" in ann(*base, "--key", "cyd=ann", code=2).stderr
    assert "SEAT=" in ann(*base, "--key", "ann", code=2).stderr
    assert "no public key" in ann(*base, "--key", "bob=0123456789abcdef", code=2).stderr
    assert "given twice" in ann(*base, "--key", "ann=ann", "--key", "ann=ann", code=2).stderr
    assert "trv games" and ann("games").stdout.startswith("no games")


def test_an_undo_across_players_needs_the_other_players_signature(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    since = events(bob)
    bob("decide", bob.first_legal())
    while bob.pending() == "bob":
        bob("decide", bob.first_legal())
    # the game now waits on ann: taking bob's last action back crosses her
    err = bob("undo", "--agreed", code=1).stderr
    assert "needs the signature of ann" in err
    err = bob("undo", code=1).stderr
    assert "--agreed" in err
    assert int(events(bob)) > since


def test_a_hot_seat_store_holding_both_keys_signs_each_seat_and_undoes_with_both(players, tmp_path):
    ann, bob = players("ann", "bob")
    # one store, both identities (a shared terminal): --as says who is playing
    (ann.home / "identities").joinpath("bob.key").write_bytes((bob.home / "identities" / "bob.key").read_bytes())
    os.chmod(ann.home / "identities" / "bob.key", 0o600)
    (ann.home / "identities").joinpath("bob.pub").write_bytes((bob.home / "identities" / "bob.pub").read_bytes())
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--key", "ann=ann",
        "--key", "bob=bob")
    assert "say which seat you play" in ann("decide", ann.first_legal(), code=1).stderr
    ann("decide", ann.first_legal(), env={"TRV_AS": "bob"})
    out = ann("undo", "--agreed", env={"TRV_AS": "bob"}).stdout
    assert "retracted (agreed)" in out
    verified = ann("verify").stdout
    assert verified.startswith("OK: ") and "bob (" in verified


def test_a_fork_of_a_signed_game_does_not_pass_as_the_original(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    exchange(tmp_path, [ann, bob], 3)
    at = events(bob)
    bob("fork", "duel", "--at", at, "--name", "peek")
    bob("decide", "--game", "peek", bob("legal", "--game", "peek").stdout.splitlines()[1].strip())
    bob("export", "peek", "-o", tmp_path / "peek.trv")
    assert bob("verify", tmp_path / "peek.trv").stdout.startswith("OK: ")
    text = (tmp_path / "peek.trv").read_text()
    stripped = re.sub(r'\[(Parent|ParentAt|Domain) "[^"]*"\]\n', "", text).replace('[Game "peek"]', '[Game "duel"]')
    (tmp_path / "stripped.trv").write_text(stripped)
    err = bob("verify", tmp_path / "stripped.trv", code=1).stderr
    assert f"event {at + 1}" in err and "not signed by bob" in err


def test_records_and_stores_of_before_keep_verifying(players, tmp_path):
    import gzip

    ann, = players("ann")
    for record in sorted(FIXTURES.glob("main-*.trv")):
        if "packet" in record.name:
            continue
        out = ann("verify", record).stdout
        assert out.startswith("OK: ") and "unsigned seats" in out, record
    from old_stores import upgraded  # tests/ is on sys.path (rootdir conftest)

    (tmp_path / "old.sqlite").write_bytes(gzip.decompress((FIXTURES / "main-store.sqlite.gz").read_bytes()))
    ann.db = upgraded(tmp_path / "old.sqlite", tmp_path / "new.sqlite")
    for game in ("duel", "what-if"):
        assert ann("verify", game).stdout.startswith("OK: ")
    # and the old packet still applies to the old game's fork point
    ann("fork", "duel", "--at", 24, "--name", "again")
    assert "already applied" in ann("import", FIXTURES / "main-vendetta-packet-24.trv").stdout


def test_a_claim_with_no_recognised_field_is_refused(players, tmp_path):
    ann, = players("ann")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3")
    for claim in ("{}", '{"version": 3}', '{"vehicels": []}'):
        (tmp_path / "claim.json").write_text(claim)
        err = ann("verify", "--claim", tmp_path / "claim.json", code=1).stderr
        assert "names no field of the board" in err
    (tmp_path / "claim.json").write_text(ann("show", "--json").stdout)
    assert "claim matches" in ann("verify", "--claim", tmp_path / "claim.json").stdout


def test_equivocation_is_shown_with_both_signatures(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    exchange(tmp_path, [ann, bob], 2)
    # bob keeps a second store of the game and plays another move in each
    bob("export", "duel", "-o", tmp_path / "before.trv")
    bob2 = type(bob)(tmp_path, "bob")
    bob2.db = tmp_path / "bob-second.sqlite"
    bob2("import", tmp_path / "before.trv")
    assert bob.pending() == "bob"
    split = events(bob) + 1
    options = bob("legal").stdout.splitlines()[1:]
    bob("decide", options[0].strip())
    bob2("decide", options[1].strip())
    bob("export", "duel", "-o", tmp_path / "a.trv")
    bob2("export", "duel", "-o", tmp_path / "b.trv")
    result = ann("verify", tmp_path / "a.trv", "--against", tmp_path / "b.trv", code=1)
    out = result.stdout
    assert f"agree up to event {split - 1}" in out and f"split at event {split}" in out
    assert options[0].strip() in out and options[1].strip() in out
    sigs = re.findall(r"event \d+ \(after [0-9a-f]{16}\.\.\.\): (bob:\S+)", out)
    assert len(sigs) == 2 and sigs[0] != sigs[1]
    assert sigs[0][4:] in (tmp_path / "a.trv").read_text() and sigs[1][4:] in (tmp_path / "b.trv").read_text()
    assert "equivocation" in out and "bob signed two different games" in result.stderr
    # the same record twice, or a record and its continuation, is no dispute
    ann("verify", tmp_path / "a.trv", "--against", tmp_path / "a.trv")
    assert "extends" in ann("verify", tmp_path / "a.trv", "--against", tmp_path / "before.trv").stdout


def test_a_divergent_event_is_explained_in_the_games_words(players, tmp_path):
    ann, = players("ann")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "3", "--name", "g")
    ann("export", "g", "-o", tmp_path / "g.trv")
    text = (tmp_path / "g.trv").read_text()
    m = re.search(r'^(\d+) ([0-9a-f]{64}) (\{"type":"dice-rolled","player":"(\w+)","dice":\[([0-9,]+)\].*)$', text,
                  re.M)
    assert m
    forged_dice = ",".join("6" for _ in m.group(5).split(","))
    number = int(m.group(1))
    lines = text.split("\n")
    previous = "0" * 64
    out = []
    for line in lines:
        mm = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
        if mm:
            payload = mm.group(3)
            if int(mm.group(1)) == number:
                payload = payload.replace(f'"dice":[{m.group(5)}]', f'"dice":[{forged_dice}]')
            previous = chain(previous, payload.encode())
            line = f"{mm.group(1)} {previous} {payload}"
        out.append(line)
    forged = "\n".join(out)
    forged = re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{previous}"]', forged)
    (tmp_path / "forged.trv").write_text(forged)
    err = ann("verify", tmp_path / "forged.trv", code=1, multiline=True).stderr
    said, rolled = " ".join(forged_dice.split(",")), " ".join(m.group(5).split(","))
    assert f"the record says \"{m.group(4)} rolls movement dice: {said}\"" in err
    assert f"the rules give \"{m.group(4)} rolls movement dice: {rolled}\"" in err


def test_a_packet_survives_mail_quoted_with_text_around_it(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    since = events(bob)
    bob("decide", bob.first_legal())
    armoured = bob("export", "--since", since, "--mail").stdout
    lines = armoured.splitlines()
    assert "-----BEGIN TRVENDETTA PACKET-----" in lines and all(len(line) <= 76 for line in lines)
    mail = ("Hi Ann,\r\nmy move below.\r\n\r\nOn Monday, Bob wrote:\r\n"
            + "".join(f"> {line}\r\n" for line in lines) + "> \r\n-- \r\nBob\r\n")
    (tmp_path / "mail.txt").write_text(mail)
    out = ann("import", tmp_path / "mail.txt").stdout
    assert "imported packet" in out
    assert bob("log").stdout.splitlines()[-1] in out  # the added events, as `trv log` prints them
    again = ann("import", tmp_path / "mail.txt").stdout  # the same mail twice: exit 0
    assert "already applied" in again
    assert ann("show", "--json").stdout == bob("show", "--json").stdout
    cut = "".join(f"> {line}\r\n" for line in lines[:-3])
    (tmp_path / "cut.txt").write_text(cut)
    assert "cut off" in ann("import", tmp_path / "cut.txt", code=1).stderr


def test_an_agreed_undo_at_a_distance_carries_the_other_players_signature(players, tmp_path):
    ann, bob = bound_game(tmp_path, *players("ann", "bob"))
    since = events(bob)
    while bob.pending() == "bob":
        bob("decide", bob.first_legal())
    bob("export", "--since", since, "-o", tmp_path / "turn.trv")
    ann("import", tmp_path / "turn.trv")
    assert "needs the signature of ann" in bob("undo", "--agreed", code=1).stderr
    bob("undo", "--agreed", "--ask", "-o", tmp_path / "undo.json")
    ann("undo", "--sign", tmp_path / "undo.json", "-o", tmp_path / "undo-ann.json")
    forged = json.loads((tmp_path / "undo-ann.json").read_text())
    forged["payload"] = forged["payload"].replace('"agreed":true', '"agreed":false')
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    assert "not ann's over this retraction" in bob("undo", "--agreed", "--with", tmp_path / "forged.json",
                                                   code=1).stderr
    out = bob("undo", "--agreed", "--with", tmp_path / "undo-ann.json").stdout
    assert "retracted (agreed)" in out
    verified = bob("verify").stdout
    assert verified.startswith("OK: ") and "ann (" in verified
    record = bob("export", "duel").stdout
    assert re.search(r"^\+ ann:\S+ bob:\S+$", record, re.M)  # the retraction carries both signatures
    # the signature is good for that retraction only: asked again later, it does not fit
    err = bob("undo", "--agreed", "--with", tmp_path / "undo-ann.json", code=1).stderr
    assert "another retraction" in err


def test_a_seat_named_exchange_plays_a_signed_game_with_seeded_dice(players, tmp_path):
    # The kind of dice is the charter's `dice` field, never a substring of its text.
    ann, exchange_seat = players("ann", "exchange")
    seats = bound_game(tmp_path, ann, exchange_seat)
    exchange(tmp_path, seats, 6)
    out = ann("show").stdout
    assert "waiting for" not in out
    assert ann("show", "--json").stdout == exchange_seat("show", "--json").stdout
    assert ann("verify").stdout.startswith("OK: ")
