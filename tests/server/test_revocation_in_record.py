"""A revocation carried into the record (docs/server.md, "Revoking"; docs/fair-play.md, threat model), as
a thief with a lost laptop's page and a server that helps them would try it: `trv login --revoke` signs
a revocation naming the browser keys bob's home certified; the server appends it to each of bob's open
games as a ``trv-revoke`` record, and `trv verify` of the exported record alone refuses, from that
record on, a move signed with a revoked key.  The routes around it: a server that forgets its tables
and takes the thief's move anyway (offline verify refuses it), a forged revocation (refused), a
revocation placed over moves made before it (they still verify), and a server that omits the
revocation from the game (bob's `trv --server` names the omission)."""

import base64

from cryptography.hazmat.primitives.serialization import load_pem_private_key

from tests.server.test_claims_on_server import _auth
from tests.server.test_pairing import _bobs_turn, _page_act, _paired_page
from trvendetta.replays.signatures import fingerprint, revocation_body
from trvendetta.store import REVOKE_KIND, RawRecord, Revoke, encode_draw


def _duel(club):
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    lost, done = _paired_page(club, bob, 11)
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    _bobs_turn(ann)
    assert _page_act(club, lost, done).status_code == 200  # the page's move, made before the revocation
    _bobs_turn(ann)
    return ann, bob, lost, done


def _forget_tables(club):
    """The server colludes with the thief (or lost its tables): its record of the revocation is gone."""
    acc = club.club.accounts
    club.on_store(acc.run, "UPDATE trv_server_delegations SET certified = 1 WHERE name = 'bob'")
    club.on_store(acc.run, "DELETE FROM trv_server_revocations WHERE name = 'bob'")


def _verify(club, player, tmp_path, code, monkeypatch=None):
    """``player`` verifies the record the server exports (``monkeypatch``: a server whose code ignores
    revocations, so that it exports what its tables let in)."""
    if monkeypatch is not None:
        from trvendetta.replays.signatures import SignatureCheck

        monkeypatch.setattr(SignatureCheck, "on_revocation", lambda self, record, found: None)
    path = tmp_path / "duel.trv"
    path.write_text(club.club.export("duel", None))
    if monkeypatch is not None:
        monkeypatch.undo()
    return player("verify", str(path), server=False, code=code)


def test_a_thiefs_move_after_the_revocation_record_is_refused_by_offline_verify(club, tmp_path, monkeypatch):
    ann, bob, lost, done = _duel(club)
    out = bob("login", club.url, "--revoke", server=False).stdout
    assert "names the 1 key(s)" in out and "in 1 game(s) of yours (duel at event" in out, out
    records = club.club.store.events("duel", decode=False)
    placed = [r.number for r in records if r.kind == REVOKE_KIND]
    assert len(placed) == 1 and placed[0] == len(records)
    # the record with the revocation and the page's earlier move verifies: a revocation retracts nothing
    assert "OK" in _verify(club, ann, tmp_path, 0).stdout
    # bob signs it again (a retry): the game holds it once
    again = bob("login", club.url, "--revoke", server=False).stdout
    assert "(duel at event" in again
    _forget_tables(club)
    moved = _page_act(club, lost, done, auth=_auth(bob))
    assert moved.status_code == 200, moved.text  # the server took it: only the record can refuse it now
    key = lost.public_key().public_bytes_raw().hex()
    err = _verify(club, ann, tmp_path, 1, monkeypatch).stderr
    assert f"key {fingerprint(key)}, delegated by bob" in err and f"which bob revoked at event {placed[0]}" in err, err
    assert [r.number for r in club.club.store.events("duel", decode=False) if r.kind == REVOKE_KIND][:1] == placed


def test_a_revocation_not_signed_by_the_seats_own_key_is_refused(club, tmp_path, monkeypatch):
    """A server (or anyone who forges the record) puts a revocation of bob's in the game signed by ann's key,
    or by the host's: verify refuses it, naming whose key made it."""
    ann, bob, lost, done = _duel(club)
    key = lost.public_key().public_bytes_raw().hex()
    ann_key = load_pem_private_key((ann.home / "identities" / "ann.key").read_bytes(), None)
    body = revocation_body("bob", club.public, 1, [key])
    forged = Revoke("bob", club.public, 1, [key], base64.b64encode(ann_key.sign(body)).decode())
    store = club.club.store
    version = club.on_store(store.version, "duel")
    club.on_store(lambda: store.append("duel", version,
                                       records=[RawRecord(REVOKE_KIND, 1, encode_draw(forged), b"", b"")]))
    err = _verify(club, ann, tmp_path, 1, monkeypatch).stderr
    assert f"event {version + 1}: the revocation of bob's browser keys is not signed by bob" in err, err
    assert "made with ann's key" in err and "only a seat's own key revokes" in err


def test_a_server_that_omits_the_revocation_is_named_by_bobs_client(club):
    """The server records the revocation in its tables but carries it into no game, then takes the thief's
    move: bob's `trv --server show` names the omission (his home keeps what he signed)."""
    ann, bob, lost, done = _duel(club)
    bob("show")  # bob's copy holds the game, open
    club.club._carry_revocation = lambda *args: 0  # the server omits it
    assert "in 0 game(s) of yours" in bob("login", club.url, "--revoke", server=False).stdout
    _forget_tables(club)
    assert _page_act(club, lost, done, auth=_auth(bob)).status_code == 200
    err = bob("show", code=1).stderr
    key = lost.public_key().public_bytes_raw().hex()
    assert f"signed with key {fingerprint(key)}, which you revoked" in err and "omitted it" in err, err


def test_a_game_that_went_on_without_the_revocation_is_named(club):
    """No thief's move this time: the server left the revocation out and the game went on (bob's own move):
    the copy, open when bob revoked, holds records past that point and no revocation of his."""
    import json

    ann, bob, lost, done = _duel(club)
    bob("show")
    club.club._carry_revocation = lambda *args: 0
    bob("login", club.url, "--revoke", server=False)
    bob("act", json.dumps(json.loads(bob("legal", "--json").stdout)[0]))
    err = bob("show", code=1).stderr
    assert "duel went on past event" in err and "without your revocation: the server omitted it" in err, err


def test_a_revocation_placed_after_a_revoked_keys_move_is_noted(club, monkeypatch):
    """The server holds the revocation back, takes the thief's move, then places it: the record verifies
    (the move comes before the revocation), and bob's client says which move came after his copy's point
    and before the revocation: the server's clock alone says whether it was made before."""
    from trvendetta.app.revocations import kept_revocation

    ann, bob, lost, done = _duel(club)
    bob("show")
    carry = club.club._carry_revocation
    club.club._carry_revocation = lambda *args: 0
    bob("login", club.url, "--revoke", server=False)
    _forget_tables(club)
    assert _page_act(club, lost, done, auth=_auth(bob)).status_code == 200
    record = kept_revocation(bob.home, club.public, "bob")
    known = club.on_store(club.club.accounts.player, "bob")
    placed = club.on_store(carry, "duel", "bob", known[1], record)
    shown = bob("show")
    assert f"placed your revocation at event {placed}, after it" in shown.stderr, shown.stderr


def test_a_revocation_starts_no_clock(club):
    """bob, whose time runs in a 1d-a-move game, revokes his browser keys two days into his turn (or has
    the server carry an old revocation in): his deadline, and his time used, stay where his turn began;
    and it is nobody's answer, so the server can still claim against him."""
    from datetime import timedelta

    from trvendetta.app.clock import clock_stamps, waiting

    ann = club.player("ann")
    bob = club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1d")
    bob("join", "duel")
    _bobs_turn(ann)
    store = club.club.store
    before = club.on_store(waiting, store, "duel")
    key = load_pem_private_key((bob.home / "identities" / "bob.key").read_bytes(), None)
    body = revocation_body("bob", club.public, 1, [])
    record = Revoke("bob", club.public, 1, [], base64.b64encode(key.sign(body)).decode())
    version = club.on_store(store.version, "duel")
    later = before.since + timedelta(days=2)
    club.on_store(lambda: store.append("duel", version, records=[
        RawRecord(REVOKE_KIND, 1, encode_draw(record), b"", b"", later)]))
    after = club.on_store(waiting, store, "duel")
    assert (after.seat, after.since, after.deadline) == ("bob", before.since, before.deadline)
    assert after.after == version + 1  # a claim follows the revocation, the record the game ends at
    records = club.on_store(lambda: list(store.events("duel", decode=False)))
    assert clock_stamps(records, records[0].recorded_at)[-1] == before.since


def test_another_players_store_refuses_the_thiefs_move_after_a_revocation_it_holds(club, tmp_path, monkeypatch):
    """ann's copy already holds bob's revocation; the colluding server then takes the thief's move and
    sends it to ann as a packet (its code ignores revocations): ann's store, which walks a packet from
    the state it stored, still refuses it and writes nothing."""
    from trvendetta.replays.signatures import SignatureCheck

    ann, bob, lost, done = _duel(club)
    bob("login", club.url, "--revoke", server=False)
    ann("show")  # ann's copy takes the revocation
    _forget_tables(club)
    assert _page_act(club, lost, done, auth=_auth(bob)).status_code == 200
    export = club.club.export

    def colluding(game, since):
        with monkeypatch.context() as m:
            m.setattr(SignatureCheck, "_note_revocation", lambda self, record, found: None)
            return export(game, since)

    club.club.export = colluding
    mine = tmp_path / "ann-before.trv"
    ann.local("export", "--game", "duel", "-o", str(mine))
    err = ann("show", code=1).stderr
    key = lost.public_key().public_bytes_raw().hex()
    assert f"key {fingerprint(key)}, delegated by bob" in err and "which bob revoked at event" in err, err
    after = tmp_path / "ann-after.trv"
    ann.local("export", "--game", "duel", "-o", str(after))
    assert after.read_text() == mine.read_text()


def test_a_key_certified_elsewhere_that_acted_in_bobs_copy_is_revoked_too(club):
    """bob's page was paired from another home (this one's list of certified keys lacks it); its move is in
    bob's copy, so the revocation he signs names it all the same."""
    import shutil

    from trvendetta.store import decode_revoke

    ann, bob, lost, done = _duel(club)
    shutil.rmtree(bob.home / "delegations")
    bob("show")  # bob's copy, with the page's move
    assert "names the 1 key(s)" in bob("login", club.url, "--revoke", server=False).stdout
    found = [decode_revoke(r.payload) for r in club.club.store.events("duel", decode=False) if r.kind == REVOKE_KIND]
    assert found[0].keys == [lost.public_key().public_bytes_raw().hex()]
