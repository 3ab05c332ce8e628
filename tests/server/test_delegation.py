"""Delegated signatures in a record: a key a seat's own key let act for it in one host's games.

What `trv verify` accepts, and the routes around it a cheater would try: a delegation signed
by another seat, one for another host (server), a delegated key signing other bytes, and a
delegation in a game without a host."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trvendetta.replays.signatures import (DELEGATED_BYTES, SignatureCheck, delegation_body, entry, message,
                                           parse)
from trvendetta.replays.walker import Tampered
from trvendetta.store import Charter, encode_charter


def key(n: int) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes([n]) * 32)


def public(k: Ed25519PrivateKey) -> str:
    return k.public_key().public_bytes_raw().hex()


ANN, BOB, HOST, OTHER_HOST, BROWSER = key(1), key(2), key(3), key(4), key(5)
UNTIL = 2_000_000_000


def delegation(seat_key, seat: str, host: str, delegate=BROWSER, until=UNTIL) -> bytes:
    body = delegation_body(seat, public(delegate), host, until)
    return bytes.fromhex(public(delegate)) + until.to_bytes(8, "big") + seat_key.sign(body)


class Rec:
    def __init__(self, number, previous, action, sig):
        self.number, self.previous, self.action, self.sig = number, previous, action, sig


def check(host: str = public(HOST)) -> SignatureCheck:
    charter = encode_charter(Charter({"ann": public(ANN), "bob": public(BOB)}, "host", {}, {}, host, "00" * 32, {}))
    c = SignatureCheck(charter)
    c.game_id = "ab" * 32
    return c


def signed_action(signer, deleg: bytes, seat: str = "ann", body: bytes = b'{"type":"step"}', signs=None):
    msg = message("ab" * 32, 15, "cd" * 32, signs or body)
    return Rec(15, "cd" * 32, body, entry(seat, signer.sign(msg) + deleg))


def test_a_delegated_signature_verifies_and_is_counted():
    c = check()
    record = signed_action(BROWSER, delegation(ANN, "ann", public(HOST)))
    assert len(parse(record.sig)[0][1]) == DELEGATED_BYTES
    c.on_action(record, "ann", "step")
    assert c.checked == {"ann": 1} and c.delegated == {"ann": 1}


@pytest.mark.parametrize("how, deleg, expected", [
    ("bob delegated, for ann's seat", lambda: delegation(BOB, "ann", public(HOST)), "whose delegation no seat"),
    ("ann delegated bob's seat", lambda: delegation(ANN, "bob", public(HOST)), "whose delegation no seat"),
    ("for another server", lambda: delegation(ANN, "ann", public(OTHER_HOST)), "whose delegation no seat"),
])
def test_a_delegation_the_seat_did_not_sign_for_this_host_is_refused(how, deleg, expected):
    c = check()
    with pytest.raises(Tampered, match=expected):
        c.on_action(signed_action(BROWSER, deleg()), "ann", "step")


def test_a_delegated_key_over_other_bytes_is_refused():
    c = check()
    record = signed_action(BROWSER, delegation(ANN, "ann", public(HOST)), signs=b'{"type":"other"}')
    with pytest.raises(Tampered, match="delegated by ann .* over other bytes"):
        c.on_action(record, "ann", "step")


def test_the_delegation_cannot_be_moved_to_another_key():
    """The signature made with the cheater's own key, carrying ann's delegation of the browser's key."""
    c = check()
    with pytest.raises(Tampered, match="is not signed by ann"):
        c.on_action(signed_action(key(9), delegation(ANN, "ann", public(HOST))), "ann", "step")


def test_a_game_without_a_host_takes_no_delegation():
    c = SignatureCheck(encode_charter(Charter({"ann": public(ANN), "bob": public(BOB)})))
    c.game_id = "ab" * 32
    with pytest.raises(Tampered, match="this game has none"):
        c.on_action(signed_action(BROWSER, delegation(ANN, "ann", "")), "ann", "step")


# ------------------------------------------------------------- revocations in the record
NEW_PAGE = key(6)


def revocation(seat_key, seat: str = "ann", host: str = public(HOST), keys=(BROWSER,), at: int = 1_800_000_000):
    import base64

    from trvendetta.replays.signatures import revocation_body
    from trvendetta.store import Revoke

    names = sorted(public(k) for k in keys)
    return Revoke(seat, host, at, names, base64.b64encode(seat_key.sign(revocation_body(seat, host, at, names))).decode())


def test_a_revocation_refuses_its_keys_from_its_place_on_and_no_other_key():
    """ann's page moved before the revocation (it stays valid); after it, the revoked key is refused, naming
    the key and the revocation's record, and a page paired after it (another key) acts."""
    c = check()
    c.on_action(signed_action(BROWSER, delegation(ANN, "ann", public(HOST))), "ann", "step")
    c.on_revocation(Rec(16, "cd" * 32, b"", b""), revocation(ANN))
    with pytest.raises(Tampered, match=r"delegated by ann until \d+, which ann revoked at event 16"):
        c.on_action(signed_action(BROWSER, delegation(ANN, "ann", public(HOST))), "ann", "step")
    c.on_action(signed_action(NEW_PAGE, delegation(ANN, "ann", public(HOST), delegate=NEW_PAGE)), "ann", "step")
    assert c.delegated == {"ann": 2}


@pytest.mark.parametrize("how, made, expected", [
    ("signed by bob's key for ann", lambda: revocation(BOB), "is not signed by ann .* made with bob's key"),
    ("signed by the host's key", lambda: revocation(HOST), "made with the host's key"),
    ("signed by the revoked page itself", lambda: revocation(BROWSER), "made with a key of none"),
    ("for another server", lambda: revocation(ANN, host=public(OTHER_HOST)), "is for the server"),
    ("by a seat of no one", lambda: revocation(ANN, seat="cyd"), "cyd has no seat"),
])
def test_a_revocation_the_seat_did_not_sign_for_this_host_is_refused(how, made, expected):
    c = check()
    with pytest.raises(Tampered, match=expected):
        c.on_revocation(Rec(16, "cd" * 32, b"", b""), made())
    assert c.revoked == {}


def test_a_revocation_with_its_keys_out_of_order_is_refused():
    import msgspec

    found = revocation(ANN, keys=(BROWSER, NEW_PAGE))
    c = check()
    with pytest.raises(Tampered, match="out of order or twice"):
        c.on_revocation(Rec(16, "cd" * 32, b"", b""), msgspec.structs.replace(found, keys=found.keys[::-1]))
