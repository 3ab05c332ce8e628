"""Evidence names the right party (docs/fair-play.md, "Disputes"): two signed resolutions of one
intent are the host's equivocation, shown with both host signatures by `trv verify A --against B`;
a move forged with the host's key names the host's key.  The cheating host is built from the
project's own code (``app.host``'s resolution, with another seed and no ledger); separate stores,
records and packets as files."""

import base64
import random
import re

import pytest
from cryptography.hazmat.primitives import serialization
from test_host import host_game
from test_host_remote import deliver, send, until_intent
from test_signed import _forge

from fairplay_helpers import version

from trvendetta import replays
from trvendetta.replays.signatures import message

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def _resolved_otherwise(tmp_path, org, before: str, intent_packet) -> str:
    """The cheating host's second resolution of the intent: the game as it stood, the intent, and
    the host's resolution rolled from another seed, signed with the host's key (its ledger skipped)."""
    from trvendetta.app.host import _As, _Game, _resolve
    from trvendetta.app.ledger import Ledger
    from trvendetta.cli.host import host_keys
    from trvendetta.replays.host import host_draws_at
    from trvendetta.store import GameStore, decode_charter

    store = GameStore(tmp_path / "cheat.sqlite")
    replays.import_file(store, replays.read_file(before.encode(), "before.trv"))
    replays.import_file(store, replays.read_file(intent_packet.read_bytes(), "intent.trv"))
    charter = decode_charter(store.header("cup").charter)
    keys = host_keys(org.home)
    game = _Game(store, "cup", charter, host_draws_at(store, "cup", charter), _As(keys.keyring(charter.host)),
                 Ledger(tmp_path / "no-ledger"))
    _resolve(game, bytes(32), [])
    return replays.export(store, "cup")


def test_two_resolutions_of_one_intent_are_the_hosts_equivocation_with_both_signatures(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    actor = until_intent(tmp_path, org, [ann, bob], random.Random(5))
    before = org("export", "cup").stdout
    actor("send", "-o", tmp_path / "intent.trv")
    other = bob if actor is ann else ann
    deliver(tmp_path, tmp_path / "intent.trv", actor, [org, other])  # the host's honest resolution
    (tmp_path / "A.trv").write_text(org("export", "cup").stdout)
    (tmp_path / "B.trv").write_text(_resolved_otherwise(tmp_path, org, before, tmp_path / "intent.trv"))
    for p in (ann, bob):
        out = p("verify", tmp_path / "A.trv", "--against", tmp_path / "B.trv", code=1)
        host = re.search(r"host ([0-9a-f]{16})", p("verify", tmp_path / "A.trv").stdout).group(1)
        assert f"the host ({host}) signed two different resolutions of" in out.stdout
        assert "that is equivocation by the host" in out.stdout
        sigs = re.findall(r"^  (\S+) event (\d+) .*, @host:(\S+)$", out.stdout, re.M)
        assert [s[0] for s in sigs] == [str(tmp_path / "A.trv"), str(tmp_path / "B.trv")]
        assert sigs[0][1] == sigs[1][1] and sigs[0][2] != sigs[1][2]
        for name, number, sig in sigs:  # each shown signature is in its file, on that event
            assert f"+ @host:{sig}" in (tmp_path / name.rsplit("/", 1)[-1]).read_text()
        assert "the host signed two different resolutions of one intent" in out.stderr
        assert "ann signed" not in out.stdout and "bob signed" not in out.stdout


def test_a_move_forged_with_the_hosts_key_names_the_hosts_key(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    seat = ann("legal").stdout.splitlines()[0].split(":")[0]
    actor, other = (ann, bob) if seat == "ann" else (bob, ann)
    since = version(other)
    actor("decide", actor.first_legal())
    actor("export", "--since", since, "-o", tmp_path / "real.trv")
    packet = (tmp_path / "real.trv").read_text()
    game_id = re.search(r'\[GameId "([0-9a-f]{64})"\]', packet).group(1)
    key = serialization.load_pem_private_key((org.home / "identities" / "org.key").read_bytes(), None)
    host = re.search(r"fingerprint (\w+)", org("id", "show", "org").stdout).group(1)

    def by_host(number, previous, action, sig):  # the host signs a move in the seat's name
        return f"{seat}:".encode() + base64.b64encode(key.sign(message(game_id, number, previous, action)))

    (tmp_path / "forged.trv").write_text(_forge(packet, by_host))
    for p in (org, other):
        err = p("import", tmp_path / "forged.trv", code=1).stderr
        assert f"not signed by {seat}" in err and f"made with the host's key ({host})" in err, err
        assert version(p) == since  # nothing written
