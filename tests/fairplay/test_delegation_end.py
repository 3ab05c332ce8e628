"""A delegation's end, checked where a delegated signature arrives (docs/server.md, "Delegated keys";
docs/fair-play.md, "Threat model").  bob once paired a browser page with a club server whose identity
also hosts offline host games; the page's key and its delegation (ended long ago) are stolen.  With his
copy of an offline game that identity hosts, where bob sits, the thief plays or resigns bob's seat with
that key and sends the result as a file.  Each store that receives it checks the delegation's end by
its own clock: `trv import` of the packet or of the whole record over the game it holds, `trv store copy`
bringing its game up to date.  A store new to the game cannot date the signatures, as verify cannot."""

import time

import pytest
from fairplay_helpers import host_game, version

ENDED = 1577836800  # 2020-01-01T00:00:00Z


def _delegation(bob, key: str, host: str, until: int) -> bytes:
    """The 104 bytes a delegated signature carries: ``key``, its end, bob's own signature of it."""
    from trvendetta.cli.identity import Keyring, identities
    from trvendetta.replays.signatures import delegation_body

    own = Keyring({"bob": identities(bob.home)[0].public}, "bob", bob.home)
    return bytes.fromhex(key) + until.to_bytes(8, "big") + own.sign("bob", delegation_body("bob", key, host, until))


def _stolen(tmp_path, players, monkeypatch, until: int, resign: bool = False):
    """org hosts cup for ann and bob; everyone mails packets until bob is to decide; the thief (whose
    identity key is bob's page key, delegated by bob for org's key until ``until``) copies his store
    to ``arch.sqlite`` (player ``arch``'s store), then plays bob's first legal action, or resigns bob's
    game, with that key: (players, the page key, the thief's packet)."""
    from trvendetta.cli import identity
    from trvendetta.cli.identity import Keyring, identities

    org, ann, bob, thief = players("org", "ann", "bob", "thief")
    host_game(tmp_path, org, [ann, bob])
    org("export", "cup", "-o", tmp_path / "cup.trv")
    for p in (ann, bob, thief):
        p("import", tmp_path / "cup.trv")
    page = identities(thief.home)[0].public
    deleg = _delegation(bob, page, identities(org.home)[0].public, until)
    n = 0
    while (who := org("legal").stdout.splitlines()[0].split(":")[0]) != "bob":
        p = {"ann": ann, "org": org}.get(who, ann)
        since = version(p)
        p("decide", p.first_legal())
        n += 1
        p("export", "--since", since, "-o", tmp_path / f"p{n}.trv")
        for q in (org, ann, bob, thief):
            if q is not p:
                q("import", tmp_path / f"p{n}.trv", "--reply", tmp_path / f"r{n}.trv")
    thief("store", "copy", "--to", f"sqlite:{tmp_path / 'arch.sqlite'}", "--game", "cup")
    thief_keys = Keyring({"browser": page}, "thief", thief.home)
    real_sign, real_init = identity.Keyring.sign, identity.Keyring.__init__

    def init(self, seats, acting=None, at=None):
        real_init(self, seats, acting, at)
        self.local = {s: None for s in seats}  # the thief's patched trv: "bob's key is mine"

    monkeypatch.setattr(identity.Keyring, "sign", lambda self, seat, msg: real_sign(thief_keys, "browser", msg) + deleg)
    monkeypatch.setattr(identity.Keyring, "refusal", lambda self, seat: None)
    monkeypatch.setattr(identity.Keyring, "can_sign", lambda self, seat: True)
    monkeypatch.setattr(identity.Keyring, "__init__", init)
    since = version(thief)
    if resign:
        thief("resign", "--as", "bob")
    else:
        thief("decide", thief.first_legal(), "--as", "bob")
    monkeypatch.undo()
    thief("export", "--since", since, "-o", tmp_path / "stolen.trv")
    return (org, ann, bob, thief), page, tmp_path / "stolen.trv"


def _names_the_end(stderr: str, page: str) -> None:
    from trvendetta.replays.signatures import fingerprint

    assert "bob's signature was made with the delegated key " + fingerprint(page) in stderr, stderr
    assert "whose delegation ended at 2020-01-01T00:00:00Z" in stderr and "this store received it at " in stderr
    assert "nothing was written" in stderr


@pytest.mark.parametrize("resign", [False, True], ids=["move", "resignation"])
def test_a_packet_signed_after_its_delegation_ended_is_refused_by_the_host(tmp_path, players, monkeypatch, resign):
    (org, _, _, _), page, stolen = _stolen(tmp_path, players, monkeypatch, ENDED, resign)
    before = version(org)
    refused = org("import", stolen, code=1)
    _names_the_end(refused.stderr, page)
    assert version(org) == before
    assert org("legal").stdout.startswith("bob:")  # still bob's to decide: nothing was taken
    assert "OK: " in org("verify").stdout


def test_the_record_whole_is_refused_over_the_game_and_by_a_store_copy_bringing_it_up_to_date(
        tmp_path, players, monkeypatch):
    (org, ann, _, thief), page, _ = _stolen(tmp_path, players, monkeypatch, ENDED)
    thief("export", "cup", "-o", tmp_path / "whole.trv")
    _names_the_end(org("import", tmp_path / "whole.trv", code=1).stderr, page)  # over the game it holds
    _names_the_end(ann("import", tmp_path / "whole.trv", code=1).stderr, page)
    # the thief's store, copied into one holding the game as it was (brought up to date)
    (arch,) = players("arch")
    copied = arch("store", "copy", "--from", f"sqlite:{thief.db}", "--to", f"sqlite:{arch.db}", "--game", "cup", code=1)
    _names_the_end(copied.stderr.replace("nothing was copied", "nothing was written"), page)
    assert arch("legal", "--game", "cup").stdout.startswith("bob:")  # the archive's copy did not move on


def test_a_store_new_to_the_game_cannot_date_its_signatures_and_takes_it_as_verify_does(tmp_path, players,
                                                                                        monkeypatch):
    """A store that did not follow the game cannot tell when its records were signed, no more than
    `verify` can: a whole record imported as a new game, or copied into a store without it, is taken
    (an archive of a club game made after its pages' delegations ended must still import), and verify
    says how many signatures were made by a delegated key; the stores that held the game refused it."""
    (org, _, _, thief), _, _ = _stolen(tmp_path, players, monkeypatch, ENDED)
    thief("export", "cup", "-o", tmp_path / "whole.trv")
    (eve,) = players("eve")
    eve("import", tmp_path / "whole.trv")
    assert "1 by a delegated key" in eve("verify").stdout
    fresh = tmp_path / "fresh.sqlite"
    org("store", "copy", "--from", f"sqlite:{thief.db}", "--to", f"sqlite:{fresh}", "--game", "cup")


@pytest.mark.parametrize("ended", [0, 600], ids=["still-valid", "ended-within-the-tolerance"])
def test_a_delegation_not_ended_at_receipt_is_taken_and_verify_counts_it(tmp_path, players, monkeypatch, ended):
    (org, _, _, thief), _, stolen = _stolen(tmp_path, players, monkeypatch,
                                            int(time.time()) + (86400 if not ended else -ended))
    before = version(org)
    org("import", stolen)
    assert version(org) > before  # taken
    out = org("verify").stdout
    assert "OK: " in out and "1 by a delegated key" in out, out
    thief("export", "cup", "-o", tmp_path / "whole.trv")
    (eve,) = players("eve")
    eve("import", tmp_path / "whole.trv")
    org("store", "copy", "--from", f"sqlite:{thief.db}", "--to", f"sqlite:{tmp_path / 'fresh.sqlite'}", "--game", "cup")
