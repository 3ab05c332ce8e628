"""Signed records and stores written before the fair-play protocol changed keep verifying.

``fixtures/signed-*`` were written by main at 4f76667 (tests/fairplay's own
helpers, real keys and secrets, thrown away): a seeded signed game
(`signed-seeded`), exchange games of 2 and 3 players (`signed-exchange2`,
`signed-exchange3`: reveals then went in seat-name order after the actor;
the 3-player game's turn order is ann, cyd, bob, so after ann bob revealed
first, where a game made now has cyd reveal first),
a host game with its seed revealed (`signed-host`), and ann's store of the
3-player game.  Later protocols change what new games write, never how these
are read: each must verify, every signature checked, and a changed byte in a
signature must still fail at that event.
"""

import gzip
import re
from pathlib import Path

import pytest

from fairplay_helpers import rechain

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RECORDS = sorted(p.name for p in FIXTURES.glob("signed-*.trv"))


def test_the_fixtures_are_there():
    assert RECORDS == ["signed-exchange2.trv", "signed-exchange3.trv", "signed-host.trv", "signed-seeded.trv"]


@pytest.mark.parametrize("name", RECORDS)
def test_an_old_signed_record_verifies(players, name):
    ann, = players("ann")
    out = ann("verify", FIXTURES / name).stdout
    assert out.startswith("OK: ") and "signed by" in out and "unsigned" not in out, out


@pytest.mark.parametrize("name", ["signed-exchange3.trv", "signed-seeded.trv"])
def test_a_forged_signature_in_the_middle_of_an_old_record_fails_at_its_event(players, tmp_path, name):
    """Checking every signature: one changed signature between two good ones is named."""
    ann, = players("ann")
    text = (FIXTURES / name).read_text()
    sigs = [m for m in re.finditer(r"^\+ (\w+):([A-Za-z0-9+/]{86}==)$", text, re.M)]
    assert len(sigs) >= 3
    m = sigs[len(sigs) // 2]
    flipped = m.group(2)[:10] + ("A" if m.group(2)[10] != "A" else "B") + m.group(2)[11:]
    forged = text[:m.start(2)] + flipped + text[m.end(2):]
    # the chain no longer holds past the change, so re-chain from it (as a forger would)
    number = int(re.search(r"^(\d+) ", text[m.end():], re.M).group(1))
    (tmp_path / "forged.trv").write_text(rechain(forged))
    err = ann("verify", tmp_path / "forged.trv", code=1).stderr
    assert f"event {number}:" in err and "is not signed by" in err, err




def test_an_old_exchange_game_keeps_its_reveal_order():
    text = (FIXTURES / "signed-exchange3.trv").read_text()
    assert '[Players "ann, cyd, bob"]' in text and '\\"order\\"' not in text
    seats = re.findall(r'"type":"trv-(?:intent|reveal)","seat":"(\w+)","draw":3', text)
    assert seats == ["ann", "bob", "cyd"]  # name order after ann, not the turn order (cyd, then bob)


def test_an_old_exchange_store_verifies_and_shows(players, tmp_path):
    ann, = players("ann")
    from old_stores import upgraded  # tests/ is on sys.path (rootdir conftest)

    (tmp_path / "old.sqlite").write_bytes(gzip.decompress((FIXTURES / "signed-exchange3-ann.sqlite.gz").read_bytes()))
    ann.db = upgraded(tmp_path / "old.sqlite", tmp_path / "new.sqlite")
    out = ann("verify", "duel").stdout
    assert out.startswith("OK: ") and "signed by" in out
    record = ann("export", "duel").stdout
    assert record == (FIXTURES / "signed-exchange3.trv").read_text()


def test_signatures_made_by_cryptography_are_checked_by_libsodium_and_nothing_else_passes():
    """Keys and signing stay with `cryptography` (OpenSSL); checking is libsodium's."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from trvendetta.replays.signatures import valid

    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes_raw()
    msg = b"trvendetta signature 1\nGAME\n7\nPREVIOUS\n{}"
    sig = key.sign(msg)
    assert valid(public, sig, msg)
    assert not valid(public, sig, msg + b" ")
    assert not valid(public, other.sign(msg), msg)
    assert not valid(other.public_key().public_bytes_raw(), sig, msg)
    assert not valid(public, sig[:-1] + bytes([sig[-1] ^ 1]), msg)
    assert not valid(public, sig[:63], msg) and not valid(public[:31], sig, msg)  # wrong lengths: refused, not read
