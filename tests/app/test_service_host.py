"""Host games through GameService alone (no CLI, no files): the host's offer, the
players' contributions, the host's store resolving draws and playing its bot seats.

The host's seed and key are what the CLI hands the service (``app.host.HostKeys``:
$TRV_HOME/secrets and its identities): plain objects here."""

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trvendetta import replays, rulesets
from trvendetta.app import GameService
from trvendetta.app.host import HostKeys
from trvendetta.app.ledger import Ledger
from trvendetta.app.messages import Contribution, Offer
from trvendetta.core.draws import host_commitment
from trvendetta.core.errors import TrvError
from trvendetta.replays.audit import walker_for
from trvendetta.replays.host import host_draws_at
from trvendetta.replays.resume import walker_after
from trvendetta.store import GameStore, decode_charter


class HostKey:
    """The host's key: signs under any name it is asked to (``@host``, or a bot seat it runs)."""

    def __init__(self, key: Ed25519PrivateKey):
        self.key = key

    def sign(self, name, message):
        return self.key.sign(message)


def public(key):
    return key.public_key().public_bytes_raw().hex()


@pytest.fixture
def host(tmp_path):
    """A host's key, seed and salt, and the offer of a game of seats ann (a player) and two greedy bots."""
    rng = random.Random(5)
    host_key, ann_key = (Ed25519PrivateKey.from_private_bytes(rng.randbytes(32)) for _ in range(2))
    seed, salt = rng.randbytes(32), rng.randbytes(32)
    commit = host_commitment(seed, salt).hex()
    seats = {"ann": public(ann_key), "bot1": public(host_key), "bot2": public(host_key)}
    offer = Offer("trv-host-offer", "cup", "vendetta", [["ann", "red", "cars"], ["bot1", "blue", "cars"],
                                                        ["bot2", "green", "cars"]],
                  seats, public(host_key), commit, bots={"bot1": "greedy", "bot2": "greedy"})
    offer = offer.signed(host_key.sign)
    keys = HostKeys({commit: (seed, salt)}.get, lambda public_hex: HostKey(host_key), "the test's secrets",
                    Ledger(tmp_path / "host-secrets"))
    ann = Contribution("trv-host-join", offer.id(), "ann", rng.randbytes(32).hex(), commit=commit).signed(ann_key.sign)
    return offer, keys, ann, rng, AnnKeys(seats, ann_key)


def new_game(tmp_path, host, answers):
    offer, keys, _, rng, _ = host
    svc = GameService(GameStore(tmp_path / "host.sqlite"))
    return svc, svc.new_host_game(offer, "offer.json", answers, "cup", keys)


def test_a_contribution_not_signed_by_its_seat_is_refused_and_nothing_is_written(tmp_path, host):
    offer, _, ann, _, _ = host
    forged = Contribution(ann.type, ann.offer, ann.seat, "00" * 32, ann.sig, ann.commit)
    with pytest.raises(TrvError, match="ann.json is not signed by ann's key"):
        new_game(tmp_path, host, [("ann.json", forged)])
    with pytest.raises(TrvError, match="no contribution from ann yet for cup"):
        new_game(tmp_path, host, [])
    assert not GameStore(tmp_path / "host.sqlite").exists("cup")


def test_the_host_plays_its_bots_and_resolves_draws_from_the_stored_state(tmp_path, host):
    """The draws the host's store reads from its newest records (no walk of the game), and a walk resumed
    from the stored state (a packet's import or export), are the ones a walk of the whole game finds, at
    every cut; the record verifies once the host reveals its seed."""
    offer, keys, ann, rng, ann_keys = host
    svc, (played, answered) = new_game(tmp_path, host, [("ann.json", ann)])
    store = svc.store
    vendetta = rulesets.get("vendetta")
    chooser = random.Random(3)
    for _ in range(400):
        loaded = store.load("cup")
        if vendetta.is_over(loaded.state):
            break
        # ann plays in the host's store here (her intent, when she needs dice, as GameService.play makes it)
        assert vendetta.pending(loaded.state).player == "ann"
        svc.play("cup", lambda rs, current: [chooser.choice(rs.legal_actions(current()))],
                 keyring_for=lambda _: ann_keys, secrets=lambda commitment: None,
                 ledger=Ledger(tmp_path / "ann-secrets"))
        svc.answer_host("cup", keys)
    assert vendetta.is_over(store.load("cup").state)
    meta = store.header("cup")
    charter = decode_charter(meta.charter)
    records = store.events("cup", decode=False)
    intents = [r.number for r in records if r.kind == "trv-intent"]
    assert intents, "the game rolled no dice after its set-up"
    # the game cut where a walk may stop: before a record starting an action or a draw, or at its end
    cuts = {r.number - 1 for r in records if r.action or r.kind.startswith("trv-")} | {len(records)}
    near = {n for i in intents for n in (i - 1, i, i + 1)} | set(range(1, len(records), 97)) | {len(records)}
    points = sorted(n for n in cuts if n in near or n - 1 in near)
    assert len(points) > 2 * len(intents) and all(host_draws_at(store, "cup", charter, i).open for i in intents)
    for n in points:
        walked = walker_for(vendetta, meta.charter, meta.domain, start=meta.genesis).walk(records[:n]).draws
        read = host_draws_at(store, "cup", charter, n)
        assert (read.open, read.next_draw, read.revealed_at) == (walked.open, walked.next_draw, walked.revealed_at), n
        resumed = walker_after(store, "cup", n).draws  # what an import or export of a packet after n starts from
        assert (resumed.open, resumed.next_draw, resumed.revealed_at) == (read.open, read.next_draw, read.revealed_at)
    assert host_draws_at(store, "cup", charter).revealed_at == len(records)  # revealed at the end, by answer_host
    assert not replays.verify_game(store, "cup").rolls_unchecked
    with pytest.raises(TrvError, match="the seed was revealed at event"):
        svc.reveal_seed("cup", keys)
    store.close()


class AnnKeys:
    """Ann's keyring in the host's store (the CLI's ``identity.Keyring`` has the same face)."""

    def __init__(self, seats, key):
        self.seats, self.key, self.acting, self.local = seats, key, "ann", {"ann": key}

    def can_sign(self, seat):
        return seat == "ann"

    def sign(self, seat, message):
        return self.key.sign(message)

    def refusal(self, seat):
        return None if seat in (None, "ann") else f"not {seat}'s key"
