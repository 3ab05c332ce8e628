"""Sealed favors hide their length (docs/fair-play.md, "Private favors"): every kind's box has one
size, still opens to its commitment's opening with the owner's key, and a box sealed before the
padding (an older record's) opens the same way."""

import base64
import json
import random

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trvendetta.app.sealing import SEALED_SIZE, open_box, openings, seal, sealer
from trvendetta.carnival.favors import TIMING, commit


class _Favors:
    """The two rules' hooks ``openings`` asks: the dealt pieces, and whether an opening fits."""

    def __init__(self, dealt):
        self.dealt = dealt

    def sealed_pieces(self, events):
        return self.dealt

    def opens(self, commitment, kind, nonce):
        return commit(kind, nonce) == commitment


def test_every_favor_kind_seals_to_one_size_and_opens_to_its_commitment():
    rng = random.Random(3)
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    public = key.public_key().public_bytes_raw()
    seal_for = sealer({"bob": public.hex()})
    sizes, dealt = set(), []
    for kind in TIMING:
        nonce = rng.randbytes(16).hex()
        box = seal_for("bob", kind, nonce)["bob"]
        sizes.add(len(base64.b64decode(box)))
        dealt.append(("bob", commit(kind, nonce), box))
    assert sizes == {SEALED_SIZE + 48}  # the kinds' names differ in length (4 to 18 letters); the boxes do not
    # an older box, sealed without padding, beside them
    nonce = rng.randbytes(16).hex()
    old = seal(public.hex(), json.dumps(["precision", nonce]).encode())
    assert len(base64.b64decode(old)) < SEALED_SIZE + 48
    dealt.append(("bob", commit("precision", nonce), old))
    seed = key.private_bytes_raw()
    found = openings(_Favors(dealt), [], lambda seat, box: open_box(seed, public, box))
    assert sorted(kind for kind, _ in found.values()) == sorted([*TIMING, "precision"])
