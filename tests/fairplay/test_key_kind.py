"""A key file trv did not write: signing with an identity whose .key holds another kind of key is
one clear error naming the file (found by the whole-tree type check: the key was taken for Ed25519)."""

import os

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def test_a_key_file_holding_another_kind_of_key_is_named_not_a_traceback(players, tmp_path):
    """An identity's .key holding an EC key (not Ed25519, edited outside trv): signing with it says
    the file does not hold the identity's key (it was an AttributeError: no public_bytes_raw)."""
    ann, bob = players("ann", "bob")
    for suffix in ("key", "pub"):  # one store holding both identities (a shared terminal)
        (ann.home / "identities" / f"bob.{suffix}").write_bytes((bob.home / "identities" / f"bob.{suffix}").read_bytes())
    os.chmod(ann.home / "identities" / "bob.key", 0o600)
    key_file = ann.home / "identities" / "ann.key"
    other = ec.generate_private_key(ec.SECP256R1())
    key_file.write_bytes(other.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                             serialization.NoEncryption()))
    os.chmod(key_file, 0o600)
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--key", "ann=ann",
        "--key", "bob=bob")
    while ann.pending() != "ann":
        ann("decide", ann.first_legal(), env={"TRV_AS": "bob"})
    err = ann("decide", ann.first_legal(), env={"TRV_AS": "ann"}, code=1).stderr
    assert "does not hold the key of" in err and "Traceback" not in err
