"""Exchange games through GameService alone (no CLI, no files): two stores, each
holding one player's key and secret, play until a draw, answer it and agree.

The keyrings and secrets here are what the CLI hands the service (its
identities and $TRV_HOME/secrets): plain objects, so these tests show the
application layer needs nothing else."""

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from trvendetta import replays, rulesets
from trvendetta.app import GameService
from trvendetta.app.ledger import Ledger
from trvendetta.core.draws import commitment, draw_rng, reveal
from trvendetta.core.errors import TrvError
from trvendetta.store import Charter, GameStore, encode_charter

TURN_ORDER = ["ann", "cyd", "bob"]


class Keys:
    """A keyring holding one seat's key (the CLI's ``identity.Keyring`` has the same face)."""

    def __init__(self, seats: dict[str, str], mine: dict[str, Ed25519PrivateKey]):
        self.seats, self.mine, self.acting = seats, mine, next(iter(mine))
        self.local = mine  # the seats whose keys this store holds

    def can_sign(self, seat):
        return seat in self.mine

    def sign(self, seat, message):
        return self.mine[seat].sign(message)

    def refusal(self, seat):
        return None if seat is None or seat not in self.seats or seat in self.mine else f"not {seat}'s key"


@pytest.fixture
def table(tmp_path):
    """Three stores of one exchange game (turn order ann, cyd, bob), each with one player's key and secret."""
    rng = random.Random(8)
    keys = {s: Ed25519PrivateKey.from_private_bytes(rng.randbytes(32)) for s in TURN_ORDER}
    secrets = {s: rng.randbytes(32) for s in TURN_ORDER}
    seats = {s: k.public_key().public_bytes_raw().hex() for s, k in keys.items()}
    charter = Charter(seats, "exchange", {s: commitment(secrets[s]).hex() for s in TURN_ORDER},
                      {s: reveal(secrets[s], 1).hex() for s in TURN_ORDER}, order=TURN_ORDER)
    vendetta = rulesets.get("vendetta")
    players = [(s, c, "cars") for s, c in zip(TURN_ORDER, ["red", "green", "blue"])]
    out = {}
    for seat in TURN_ORDER:
        svc = GameService(GameStore(tmp_path / f"{seat}.sqlite"))
        mine = {commitment(secrets[seat]).hex(): secrets[seat]}
        out[seat] = (svc, Keys(seats, {seat: keys[seat]}), mine.get, Ledger(tmp_path / f"secrets-{seat}"))
    first, keyring, _, _ = out["ann"]
    first.new_game(vendetta, vendetta.default_position(players, 0), "duel", charter=encode_charter(charter),
                   rng=draw_rng(1, [reveal(secrets[s], 1) for s in sorted(TURN_ORDER)]))
    record = first.export("duel")
    for seat in TURN_ORDER[1:]:
        out[seat][0].import_file(record.encode(), "duel.trv")
    yield out
    for svc, _, _, _ in out.values():
        svc.store.close()


def mail(table, sender, since):
    """The sender's packet to every other store; each answers the draw it waits for; replies go on the same way."""
    queue = [(sender, since)]
    while queue:
        sender, since = queue.pop(0)
        packet = table[sender][0].export("duel", since=since).encode()
        for seat, (svc, keyring, secrets, ledger) in table.items():
            if seat == sender:
                continue
            try:
                svc.import_file(packet, "packet.trv")
            except replays.AlreadyApplied:
                continue
            answered = svc.answer_draws("duel", keyring, secrets, ledger)
            if answered.added:
                queue.append((seat, answered.before))


def play_until_draws(table, draws: int):
    """Whoever's decision it is plays its first legal action, until ``draws`` draws were opened."""
    svc = table["ann"][0]
    opened = []
    while len(opened) < draws:
        state = svc.load("duel").state
        ruleset = svc.load("duel").ruleset
        seat = ruleset.pending(state).player
        mine, keyring, secrets, ledger = table[seat]
        since = mine.load("duel").version
        played = mine.play("duel", lambda rs, now: [rs.legal_actions(now())[0]], keyring_for=lambda _: keyring,
                           secrets=secrets, ledger=ledger)
        if "waits for the others' dice" in played.note:
            opened.append(seat)
            waiting = mine.waiting("duel")
            assert waiting.startswith(f"waiting for {TURN_ORDER[(TURN_ORDER.index(seat) + 1) % 3]}'s dice")
        mail(table, seat, since)
        assert mine.waiting("duel") is None
    return opened


def test_three_stores_draw_through_the_service_and_agree(table):
    opened = play_until_draws(table, 2)
    heads = {svc.load("duel").head for svc, _, _, _ in table.values()}
    assert len(heads) == 1 and len(opened) == 2
    for svc, _, _, _ in table.values():
        verified = replays.verify_game(svc.store, "duel")
        assert set(verified.signed) == set(TURN_ORDER)
    log = [e for e in table["ann"][0].events("duel") if e.kind == "trv-reveal"]
    for actor in opened:  # the others revealed in turn order after the actor
        i = TURN_ORDER.index(actor)
        assert [e.event.seat for e in log[:2]] == TURN_ORDER[i + 1:] + TURN_ORDER[:i]
        log = log[2:]


def test_answering_without_an_open_draw_adds_nothing_and_playing_waits_for_the_draw(table):
    svc, keyring, secrets, ledger = table["bob"]
    answered = svc.answer_draws("duel", keyring, secrets, ledger)
    assert answered.added == [] and answered.before == svc.load("duel").version
    # play until someone's action waits, without mailing it: that store refuses to play on
    ann = table["ann"][0]
    while True:
        seat = ann.load("duel").ruleset.pending(ann.load("duel").state).player
        mine, keys, secret, ledger = table[seat]
        since = mine.load("duel").version
        played = mine.play("duel", lambda rs, now: [rs.legal_actions(now())[0]], keyring_for=lambda _: keys,
                           secrets=secret, ledger=ledger)
        if played.note and "waits" in played.note:
            break
        mail(table, seat, since)
    with pytest.raises(TrvError, match="waiting for .*'s dice"):
        mine.play("duel", lambda rs, now: [rs.legal_actions(now())[0]], keyring_for=lambda _: keys, secrets=secret,
                  ledger=ledger)


def test_an_intent_needs_the_players_own_secret(table):
    """Without its secret a store cannot draw for its seat: nothing is written."""
    ann = table["ann"][0]
    while True:
        seat = ann.load("duel").ruleset.pending(ann.load("duel").state).player
        mine, keys, secret, ledger = table[seat]
        since = mine.load("duel").version
        try:
            played = mine.play("duel", lambda rs, now: [rs.legal_actions(now())[0]], keyring_for=lambda _: keys,
                               secrets=lambda commitment: None, ledger=ledger)
        except TrvError as exc:
            assert f"{seat}'s secret for this game" in str(exc)
            assert mine.load("duel").version == since
            return
        mail(table, seat, since)
        assert not played.note or "waits" not in played.note
