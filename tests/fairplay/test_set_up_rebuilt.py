"""Every store rebuilds the set-up from what the players signed (docs/fair-play.md, "Every store
rebuilds the set-up"): attacks by a cheating host or inviter built from the project's own code,
each player with their own store and home, records and packets as files, 2 and 3 players.

- a charter stripped of the offer, the signatures or its format, to pass as a record made before;
- a nonce the host chose;
- a host re-signing its bot's intents (and its resolutions) with other valid signatures, to fish
  for other dice;
- an inviter swapping a joiner's commitment;
- a lost ledger, or a second home: the same contribution (a stripped charter there: marked, as made before);
- `trv store copy` of a cheated game."""

import hashlib
import json
import random
import re

import msgspec
import pytest
from fairplay_helpers import counter_entropy, host_game, version

from trvendetta import replays, rulesets
from trvendetta.app import GameService
from trvendetta.app.messages import Contribution, Invite, Join, Offer
from trvendetta.core.draws import host_game_seed, host_rng
from trvendetta.replays.charters import nonce_of
from trvendetta.store import Charter, GameStore, decode_charter, encode_charter

pytestmark = pytest.mark.usefixtures("seeded_entropy")

NAMES = [("ann", "bob"), ("ann", "bob", "cyd")]


def _people(players, names):
    people = players("org", *names)
    return people[0], people[1:]


def _answers(tmp_path, names):
    return {n: Contribution.decode((tmp_path / f"{n}.json").read_bytes(), n) for n in names}


def _cheat_host(tmp_path, org, name: str, edit, text_edit=None) -> str:
    """A cheating host's game of its offer: the honest charter (format 2) as a dict, changed by
    ``edit(charter_dict, offer, answers)``; the game exported by a trv that checks nothing."""
    from trvendetta.cli.host import host_secret
    from trvendetta.replays import setups
    from trvendetta.replays.signatures import SignatureCheck

    offer = Offer.decode((tmp_path / "offer.json").read_bytes(), "offer.json")
    answers = {p.stem: Contribution.decode(p.read_bytes(), p.name) for p in tmp_path.glob("*.json")
               if p.name != "offer.json"}
    honest = Charter(dict(offer.seats), "host", {}, {s: a.value for s, a in answers.items()}, offer.host,
                     offer.commit, {}, nonce=nonce_of(offer.id(), *(answers[s].id() for s in sorted(answers))),
                     offer=offer.id(), signed={s: a.sig for s, a in answers.items()}, v=2,
                     offered=msgspec.Raw(msgspec.json.encode(offer)))
    data = json.loads(encode_charter(honest))
    edit(data, offer, answers)
    charter = encode_charter(msgspec.json.decode(json.dumps(data, separators=(",", ":")).encode(), type=Charter))
    if text_edit is not None:
        charter = text_edit(charter)
    secret = host_secret(offer.commit, org.home)
    found = decode_charter(charter)
    game_seed = host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in found.setup.items()})
    rules = rulesets.get(offer.ruleset)
    store = GameStore(tmp_path / f"cheat-{name}.sqlite")
    GameService(store).new_game(rules, rules.default_position([tuple(t) for t in offer.players], 0), name,
                                charter=charter, rng=host_rng(game_seed, 1))
    checks = SignatureCheck.contributions_problem, setups.position_problem
    SignatureCheck.contributions_problem = lambda self: None  # the cheater's trv checks nothing
    setups.position_problem = lambda *args: None
    try:
        return replays.export(store, name)
    finally:
        SignatureCheck.contributions_problem, setups.position_problem = checks


def _refused(tmp_path, record: str, people, game: str, *words) -> None:
    path = tmp_path / f"{game}-sent.trv"
    path.write_text(record)
    for p in people:
        err = p("import", path, code=1).stderr
        assert all(w in err for w in words), (p.name, err)
        assert game not in p("games").stdout  # nothing written


# ------------------------------------------------------------------ stripped charters (item 2)
@pytest.mark.parametrize("names", NAMES)
def test_a_charter_stripped_of_what_the_players_signed_is_refused_not_taken_as_old(players, tmp_path, names):
    org, humans = _people(players, names)
    host_game(tmp_path, org, humans)

    def strip(*fields):
        def edit(data, offer, answers):
            for f in fields:
                data.pop(f, None)
        return edit

    # the format kept, the offer or the signatures stripped: refused by every store, and by verify
    for i, fields in enumerate([("offered",), ("signed",), ("offered", "offer", "signed")]):
        record = _cheat_host(tmp_path, org, f"s{i}", strip(*fields))
        with pytest.raises(replays.Tampered, match="a charter stripped of what the players signed is refused"):
            replays.verify_file(replays.read_file(record.encode(), "s.trv"))
        _refused(tmp_path, record, humans, f"s{i}", "stripped")
    # the format stripped, the offer and the signatures kept: the signatures say format 2
    record = _cheat_host(tmp_path, org, "s3", strip("v"))
    with pytest.raises(replays.Tampered, match="stripped of its format"):
        replays.verify_file(replays.read_file(record.encode(), "s.trv"))
    record = _cheat_host(tmp_path, org, "s4", strip("v", "offered"))
    with pytest.raises(replays.Tampered, match="was signed by .* for a charter of format 2"):
        replays.verify_file(replays.read_file(record.encode(), "s.trv"))
    # a format no trv makes (to skip the checks of the signed contributions): refused
    record = _cheat_host(tmp_path, org, "s6", lambda d, o, a: d.update(v=1))
    with pytest.raises(replays.Tampered, match="format 1, which no trv makes"):
        replays.verify_file(replays.read_file(record.encode(), "s.trv"))
    # everything stripped: to a third party, a record made before (marked); to each player's store, in
    # its own home, its answer to that commitment (a contribution of format 2): refused
    record = _cheat_host(tmp_path, org, "s5", strip("v", "offered", "offer", "signed"))
    verified = replays.verify_file(replays.read_file(record.encode(), "s.trv"))
    assert verified.events
    _refused(tmp_path, record, humans, "s5", "the host (", "stripped its charter", "nothing imported")
    # in a home without the ledger nothing tells it from a record made before (a contribution is derived
    # from the offer's id too, which the stripped record does not keep): it is marked, never passed as clean
    for p in humans:
        (p.home / "secrets" / "answers.jsonl").unlink()  # a lost ledger (or a second home with the key)
    (tmp_path / "s5-sent.trv").write_text(record)
    out = humans[0]("verify", tmp_path / "s5-sent.trv").stdout
    assert "made before signed contributions: the host could choose the seed" in out


# ------------------------------------------------------------------ a nonce the host chose (item 6)
@pytest.mark.parametrize("names", NAMES)
def test_a_nonce_the_host_chose_is_refused_by_every_store(players, tmp_path, names):
    org, humans = _people(players, names)
    host_game(tmp_path, org, humans)
    ids = set()
    for i in range(3):  # the host grinds the nonce (so the game's id, so every later draw)
        def edit(data, offer, answers, i=i):
            data["nonce"] = hashlib.sha256(b"chosen %d" % i).hexdigest()
        record = _cheat_host(tmp_path, org, f"n{i}", edit)
        ids.add(replays.read_file(record.encode(), "n.trv").header.game_id)
        with pytest.raises(replays.Tampered, match=r"the game's nonce .* is not the one its offer and "
                                                   r"contributions give .*: the host \(.*\) chose it"):
            replays.verify_file(replays.read_file(record.encode(), "n.trv"))
        _refused(tmp_path, record, humans, f"n{i}", "nonce", "the host (")
    assert len(ids) == 3


# ------------------------------------------------------------------ another set-up than the offer (item 1)
@pytest.mark.parametrize("names", NAMES)
def test_a_set_up_other_than_the_offers_is_refused_by_every_store(players, tmp_path, names):
    org, humans = _people(players, names)
    host_game(tmp_path, org, humans)
    # another time control, another host key, a bot seat added: the charter is not the offer's
    for i, edit in enumerate([lambda d, o, a: d.update(time="1d"),
                              lambda d, o, a: d["seats"].update(zed="ab" * 32) or d["setup"].update(zed="00" * 32)]):
        record = _cheat_host(tmp_path, org, f"o{i}", edit)
        with pytest.raises(replays.Tampered, match=r"the game is not the offer's \(cup\).*the host \("):
            replays.verify_file(replays.read_file(record.encode(), "o.trv"))
        _refused(tmp_path, record, humans, f"o{i}", "the host (")
    # another offer (the host's own, other colours) put in the charter: its id is not the one answered
    def other_offer(data, offer, answers):
        data["offered"] = json.loads(msgspec.json.encode(msgspec.structs.replace(
            offer, players=[[p[0], "yellow", p[2]] for p in offer.players])))
    record = _cheat_host(tmp_path, org, "o9", other_offer)
    with pytest.raises(replays.Tampered, match="the offer the charter keeps is not the one it names"):
        replays.verify_file(replays.read_file(record.encode(), "o.trv"))
    # the offer kept in another form (a space: other bytes of the same offer, another game id to fish
    # with), or the charter itself written with a space
    record = _cheat_host(tmp_path, org, "o8", lambda d, o, a: None,
                         lambda text: text.replace('"offered":{"type":', '"offered":{"type": ', 1))
    with pytest.raises(replays.Tampered, match="an offer in another form than the one signed"):
        replays.verify_file(replays.read_file(record.encode(), "o.trv"))
    record = _cheat_host(tmp_path, org, "o7", lambda d, o, a: None,
                         lambda text: text.replace('"offered":{', '"offered": {', 1))
    with pytest.raises(replays.Tampered, match="not in its canonical form"):
        replays.verify_file(replays.read_file(record.encode(), "o.trv"))


# ------------------------------------------------------------------ one contribution per key (item 7)
def test_a_contribution_is_the_same_bytes_from_every_home_and_every_offer_of_one_commitment(players, tmp_path):
    org, (ann, bob) = _people(players, ("ann", "bob"))
    host_game(tmp_path, org, [ann, bob])
    first = (tmp_path / "bob.json").read_bytes()
    assert Contribution.decode(first, "bob.json").type == "trv-host-join-2"
    # the ledger lost: the same bytes again
    (bob.home / "secrets" / "answers.jsonl").unlink()
    bob("host", "join", tmp_path / "offer.json", "-o", tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == first
    # a second home with bob's key: the same bytes
    (other,) = players("bob2")
    for f in (bob.home / "identities").iterdir():
        (other.home / "identities" / f.name).write_bytes(f.read_bytes())
        (other.home / "identities" / f.name).chmod(0o600)
    other("host", "join", tmp_path / "offer.json", "-o", tmp_path / "home2.json")
    assert (tmp_path / "home2.json").read_bytes() == first
    # a second offer with the same commitment (another game name): the same value, whatever it names
    offer = Offer.decode((tmp_path / "offer.json").read_bytes(), "offer.json")
    assert Contribution.decode((tmp_path / "home2.json").read_bytes(), "x").value == \
        Contribution.decode(first, "x").value
    assert offer.commit in (tmp_path / "home2.json").read_text()


# ------------------------------------------------------------------ bot dice and signatures (item 3)
def _resign(private_seed: bytes, message: bytes, nonce: bytes) -> bytes:
    """Another valid Ed25519 signature of ``message`` by the key of ``private_seed``: the same key,
    another nonce (what a cheating signer can make as many of as it likes)."""
    from nacl import bindings as b

    h = hashlib.sha512(private_seed).digest()
    a = bytearray(h[:32])
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    public = b.crypto_scalarmult_ed25519_base(bytes(a))
    scalar = b.crypto_core_ed25519_scalar_reduce(bytes(a) + bytes(32))
    r = b.crypto_core_ed25519_scalar_reduce(hashlib.sha512(b"cheat" + nonce + message).digest())
    big_r = b.crypto_scalarmult_ed25519_base_noclamp(r)
    k = b.crypto_core_ed25519_scalar_reduce(hashlib.sha512(big_r + public + message).digest())
    s = b.crypto_core_ed25519_scalar_add(r, b.crypto_core_ed25519_scalar_mul(k, scalar))
    return big_r + s


def _bot_game(base, monkeypatch, Player, *, cheat: bool) -> tuple[str, int]:
    """ann against the host's greedy bot, ann's choices from one chooser: the host's record and how
    many of the bot's intents the host resolved.  ``cheat``: the host signs everything (its
    resolutions and its bot's actions and intents) with other valid signatures than trv makes."""
    from trvendetta.cli.identity import Keyring
    from trvendetta.replays.signatures import HOST

    counter_entropy(monkeypatch)  # the same keys, seeds and contributions in both runs
    base.mkdir()
    org, ann = Player(base, "org"), Player(base, "ann")
    for p in (org, ann):
        p("id", "new", p.name)
        (base / f"{p.name}.pub").write_text(p("id", "show", p.name).stdout)
    honest_sign = Keyring.sign

    def cheating_sign(self, seat, message):
        signature = honest_sign(self, seat, message)
        if seat != HOST:
            return signature
        from cryptography.hazmat.primitives import serialization

        from trvendetta.cli.identity import _private

        key = self._keys.get(seat) or _private(self.local[seat])
        raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
        other = _resign(raw, message, signature)
        assert other != signature
        return other

    # (the offer's own signature is made before any contribution, so before anyone can compute a
    # roll: the cheating starts once the game exists, with the first record the host signs)
    host_game(base, org, [ann], [("robo", "greedy")])
    if cheat:
        monkeypatch.setattr(Keyring, "sign", cheating_sign)
    try:
        org("export", "cup", "-o", base / "cup.trv")
        ann("import", base / "cup.trv")
        chooser = random.Random(11)
        for i in range(40):
            legal = ann("legal").stdout.splitlines()
            if legal[0].startswith("the game is over"):
                break
            out = ann("decide", chooser.choice(legal[1:]).strip()).stdout
            ann("send", "-o", base / f"a{i}.trv")
            if "wrote the reply packet" in org("import", base / f"a{i}.trv", "--reply", base / f"r{i}.trv").stdout:
                ann("import", base / f"r{i}.trv")
            assert version(ann) == version(org), out
    finally:
        monkeypatch.setattr(Keyring, "sign", honest_sign)
    record = org("export", "cup").stdout
    return record, record.count('"type":"trv-intent","seat":"robo"')


def test_a_host_resigning_its_bots_intents_gets_no_other_dice(players, tmp_path, monkeypatch):
    Player = type(players("nobody")[0])  # (each run below makes its own homes, from the same entropy)
    honest, intents = _bot_game(tmp_path / "honest", monkeypatch, Player, cheat=False)
    cheated, _ = _bot_game(tmp_path / "cheat", monkeypatch, Player, cheat=True)
    assert intents >= 1  # the bot's intents were resolved by the host

    def events(record):
        return re.findall(r"^\d+ [0-9a-f]{64} (\{.*\})$", record, re.M)

    def signatures(record):
        return re.findall(r"^\+ (.*)$", record, re.M)

    assert signatures(honest) != signatures(cheated)  # the cheater's signatures are other bytes
    assert events(honest) == events(cheated)  # and give the very same dice, every draw
    for record in (honest, cheated):
        assert replays.verify_file(replays.read_file(record.encode(), "cup.trv")).events


# ------------------------------------------------------------------ exchange: a swapped commitment (item 4)
def _exchange(tmp_path, people):
    ann, others = people[0], people[1:]
    args = ["invite", "--name", "duel", "-o", tmp_path / "invite.json"]
    for p, color in zip(people, ["red", "blue", "green"]):
        args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    ann(*args)
    joins = []
    for p in others:
        p("join", tmp_path / "invite.json", "-o", tmp_path / f"{p.name}-join.json")
        joins += ["--join", tmp_path / f"{p.name}-join.json"]
    ann("new", "--invite", tmp_path / "invite.json", *joins)
    ann("export", "duel", "-o", tmp_path / "duel.trv")
    return (tmp_path / "duel.trv").read_text()


@pytest.mark.parametrize("names", NAMES)
def test_an_inviter_swapping_a_joiners_commitment_is_refused_by_every_store(players, tmp_path, names):
    people = players(*names)
    ann, bob = people[0], people[1]
    honest = _exchange(tmp_path, people)
    charter = decode_charter(replays.read_file(honest.encode(), "duel.trv").header.charter)
    assert charter.v == 2 and set(charter.signed) == set(names[1:])
    for p in people[1:]:
        p("import", tmp_path / "duel.trv")
        assert p("verify").stdout.startswith("OK: ")
    # the inviter swaps bob's commitment and set-up reveal for a chain of her own (she would know
    # "his" reveals): his signed join no longer matches
    from trvendetta.core.draws import commitment, reveal

    mine = b"\x07" * 32
    data = json.loads(charter_text := replays.read_file(honest.encode(), "duel.trv").header.charter)
    data["commits"]["bob"], data["setup"]["bob"] = commitment(mine).hex(), reveal(mine, 1).hex()
    for stripped in (False, True):
        if stripped:  # and passes it off as a game made before the invitation was kept
            for f in ("v", "offered", "offer", "signed"):
                data.pop(f, None)
        swapped = encode_charter(msgspec.json.decode(json.dumps(data, separators=(",", ":")).encode(),
                                                     type=Charter))
        invite = Invite.decode((tmp_path / "invite.json").read_bytes(), "invite.json")
        rules = rulesets.get(invite.ruleset)
        from trvendetta.core.draws import draw_rng

        store = GameStore(tmp_path / f"swap-{stripped}.sqlite")
        setup = decode_charter(swapped).setup
        GameService(store).new_game(rules, rules.default_position([tuple(t) for t in invite.players], 0), "duel",
                                    charter=swapped,
                                    rng=draw_rng(1, [bytes.fromhex(setup[s]) for s in sorted(setup)]))
        from trvendetta.replays.signatures import SignatureCheck

        check = SignatureCheck.contributions_problem
        SignatureCheck.contributions_problem = lambda self: None
        try:
            record = replays.export(store, "duel")
        finally:
            SignatureCheck.contributions_problem = check
        path = tmp_path / f"swapped-{stripped}.trv"
        path.write_text(record)
        if not stripped:
            with pytest.raises(replays.Tampered, match="bob's commitment and set-up reveal .* are not what bob .* "
                                                       "signed in its answer to the invitation"):
                replays.verify_file(replays.read_file(record.encode(), "duel.trv"))
        # every store refuses it; stripped (no join kept), bob's own store still does, from its ledger:
        # the others cannot tell it from a game made before (what remains open, docs/fair-play.md)
        for p in people[1:] if not stripped else [bob]:
            fresh = type(p)(tmp_path, f"{p.name}-fresh-{stripped}")
            fresh.home = p.home  # the same home (its secrets, its ledger), a store without the honest game
            err = fresh("import", path, code=1).stderr
            assert "bob" in err and ("swapped" in err or "signed" in err), err
    assert charter_text  # (the honest charter, for the record)


# ------------------------------------------------------------------ trv store copy (item 5)
def test_store_copy_runs_the_checks_an_import_runs(players, tmp_path):
    org, (ann, bob) = _people(players, ("ann", "bob"))
    host_game(tmp_path, org, [ann, bob])
    # a cheated game (a nonce the host chose) in a store a player is handed
    record = _cheat_host(tmp_path, org, "cheat", lambda d, o, a: d.update(nonce="ab" * 32))
    assert "nonce" in record
    cheated = tmp_path / "cheat-cheat.sqlite"
    err = bob("--db", cheated, "store", "copy", "--to", f"sqlite:{tmp_path / 'bob-copy.sqlite'}", code=1).stderr
    assert "game 'cheat': event 1: the game's nonce" in err and "nothing was copied" in err
    assert not GameStore(tmp_path / "bob-copy.sqlite").exists("cheat")
    # everything stripped: a third party's store copy takes it (a record made before, marked); bob's
    # own refuses it (his answer to that commitment, of format 2), as his import does
    stripped = _cheat_host(tmp_path, org, "bare", lambda d, o, a: [d.pop(f) for f in ("v", "offered", "offer",
                                                                                        "signed")])
    assert stripped
    bare = tmp_path / "cheat-bare.sqlite"
    err = bob("--db", bare, "store", "copy", "--to", f"sqlite:{tmp_path / 'bob-copy2.sqlite'}", code=1).stderr
    assert "stripped its charter" in err and "the host (" in err
    assert not GameStore(tmp_path / "bob-copy2.sqlite").exists("bare")
    # the honest game copies
    org("store", "copy", "--to", f"sqlite:{tmp_path / 'org-copy.sqlite'}")
