"""The routes around the set-up checks (docs/fair-play.md, "Every store rebuilds the set-up"), as a
cheating host or inviter takes them with the project's own code, each player with their own store
and home, records as files:

- a charter of a format no trv wrote (1, 3, ...), to skip the checks its format would carry, with a
  made-up offer id: refused by every store, `verify` and `trv store copy`; a format-0 charter with
  parts no trv wrote in that format: refused; the format-0 host charter of signed contributions that
  released trv wrote (the offer's id and every player's signature, no offer): still verified, its
  signatures checked, and marked for what it cannot prove;
- a stripped charter under a second host identity: each player's store finds its answer by the
  players' keys and the commitment, not by the host key or offer id the charter names;
- an offer reusing a commitment already answered (any host identity): `trv host join` refuses it,
  and the contribution depends on the offer's id, so a reused commitment gives nothing to precompute;
- another base64 spelling of a player's signature, or of the host's own offer signature: refused,
  naming the field (each spelling would be another game id, another set of draws)."""

import base64
import hashlib
import re
import shutil
from contextlib import contextmanager
from pathlib import Path

import msgspec
import pytest
from fairplay_helpers import host_game, rechain

from trvendetta import replays, rulesets
from trvendetta.app import GameService
from trvendetta.app.messages import Contribution, Invite, Join, Offer
from trvendetta.core.draws import commitment, draw_rng, host_game_seed, host_rng, reveal
from trvendetta.replays.charters import nonce_of
from trvendetta.store import Charter, GameStore, encode_charter

pytestmark = pytest.mark.usefixtures("seeded_entropy")

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def spellings(sig: str) -> list[str]:
    """The other base64 spellings of a 64-byte signature: its last character's 4 spare bits, which the
    decoder ignores."""
    i = B64.index(sig[85])
    return [sig[:85] + B64[(i & ~15) | k] + sig[86:] for k in range(16) if (i & ~15) | k != i]


def _read(path, kind):
    """A message as the cheater's own code reads it: no check of its spelling."""
    return msgspec.json.decode(path.read_bytes(), type=kind)


@contextmanager
def _checks_nothing():
    """The cheater's trv: it checks nothing of what the players signed."""
    from trvendetta.replays import setups
    from trvendetta.replays.signatures import SignatureCheck

    honest = SignatureCheck.contributions_problem, setups.position_problem
    SignatureCheck.contributions_problem = lambda self: None
    setups.position_problem = lambda *args: None
    try:
        yield
    finally:
        SignatureCheck.contributions_problem, setups.position_problem = honest


def forge(tmp_path, org, name, *, values=None, commit=None, v=2, offer_id=None, signed=True, offered=True,
          host_key=None, offer=None, answers=None):
    """A cheating host's record of the offer in ``tmp_path`` (or ``offer``): the charter as it likes,
    the game started from it, exported by a trv that checks nothing; its store stays as
    ``cheat-NAME.sqlite``.  Returns the record's path."""
    from trvendetta.cli.host import host_secret

    offer = offer or _read(tmp_path / "offer.json", Offer)
    answers = answers or {p.stem: _read(p, Contribution) for p in tmp_path.glob("*.json") if p.name != "offer.json"}
    setup = {s: a.value for s, a in answers.items()} | (values or {})
    seed_commit = commit or offer.commit
    ch = Charter(dict(offer.seats), "host", {}, setup, host_key or offer.host, seed_commit, {},
                 nonce=nonce_of(offer.id(), *(answers[s].id() for s in sorted(answers))),
                 offer=offer.id() if offer_id is None else offer_id,
                 signed={s: a.sig for s, a in answers.items()} if signed else {},
                 v=v, offered=msgspec.Raw(msgspec.json.encode(offer) if offered else b""))
    rules = rulesets.get(offer.ruleset)
    store = GameStore(tmp_path / f"cheat-{name}.sqlite")
    seed = host_game_seed(host_secret(seed_commit, org.home)[0], {s: bytes.fromhex(x) for s, x in setup.items()})
    GameService(store).new_game(rules, rules.default_position([tuple(t) for t in offer.players], 0), name,
                                charter=encode_charter(ch), rng=host_rng(seed, 1))
    with _checks_nothing():
        text = replays.export(store, name)
    path = tmp_path / f"{name}.trv"
    path.write_text(text)
    return path


def _refused_by_all(path, people, *words):
    for p in people:
        err = p("import", path, code=1).stderr
        assert all(w in err for w in words), (p.name, err)
        assert path.stem not in p("games").stdout  # nothing written


# ------------------------------------------------------------------ formats (rows 1, 6, 9)
@pytest.mark.parametrize("v", [1, 3, 7])
def test_a_format_no_trv_made_is_refused_everywhere_with_a_made_up_offer_id(players, tmp_path, v):
    """Row 1: the host writes its own value for bob and a commitment made after reading the
    contributions, in a charter of a format no trv made (no offer, no signatures, a made-up offer id)."""
    from trvendetta.cli.host import new_seed

    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    path = forge(tmp_path, org, f"dg{v}", values={"bob": "ab" * 32}, commit=new_seed(org.home), v=v,
                 offer_id="cd" * 32, signed=False, offered=False)
    words = "which no trv makes" if v == 1 else "made by a newer trv"
    _refused_by_all(path, [ann, bob], "the host (", "nothing imported")  # (their ledgers see it first)
    homeless = [type(p)(tmp_path, f"{p.name}-key-only") for p in (ann, bob)]  # the key, no ledger
    for p, q in zip((ann, bob), homeless):
        shutil.copytree(p.home / "identities", q.home / "identities")
    _refused_by_all(path, homeless, f"format {v}", words)
    assert words in org("verify", path, code=1).stderr
    # row 9: `trv store copy` of the cheater's store runs the same check, and copies nothing
    err = bob("--db", tmp_path / f"cheat-dg{v}.sqlite", "store", "copy", "--to",
              f"sqlite:{tmp_path / 'copy.sqlite'}", code=1).stderr
    assert f"format {v}" in err and "nothing was copied" in err
    assert not GameStore(tmp_path / "copy.sqlite").exists(f"dg{v}")


def test_an_exchange_charter_of_another_format_with_a_swapped_commitment_is_refused(players, tmp_path, monkeypatch):
    """Row 6: the inviter swaps bob's commitment and set-up reveal for a chain of its own, in a
    charter of format 1 (and, the next route, of format 0 with the made-up invitation id kept)."""
    ann, bob = players("ann", "bob")
    ann("invite", "--player", "ann:red", "--player", "bob:blue", "--key", "ann=ann", "--key",
        f"bob={tmp_path / 'bob.pub'}", "--name", "duel", "-o", tmp_path / "invite.json")
    bob("join", tmp_path / "invite.json", "-o", tmp_path / "bob.json")
    inv = _read(tmp_path / "invite.json", Invite)
    from trvendetta.cli.exchange import secret_of

    monkeypatch.setenv("TRV_HOME", str(ann.home))
    ann_secret = secret_of(inv.commit)
    monkeypatch.delenv("TRV_HOME")
    fake = hashlib.sha256(b"the inviter's chain for bob").digest()
    commits = {"ann": inv.commit, "bob": commitment(fake).hex()}
    setup = {"ann": reveal(ann_secret, 1).hex(), "bob": reveal(fake, 1).hex()}
    rules = rulesets.get(inv.ruleset)
    for i, (v, offer, signed) in enumerate([(1, "cd" * 32, {}), (0, "cd" * 32, {}), (0, "", {"bob": "AA=="})]):
        ch = Charter(dict(inv.seats), "exchange", commits, setup, order=[p[0] for p in inv.players],
                     nonce=hashlib.sha256(b"any").hexdigest(), offer=offer, signed=signed, v=v)
        store = GameStore(tmp_path / f"cheat{i}.sqlite")
        GameService(store).new_game(rules, rules.default_position([tuple(p) for p in inv.players], 0), f"duel{i}",
                                    charter=encode_charter(ch),
                                    rng=draw_rng(1, [bytes.fromhex(setup[s]) for s in sorted(inv.seats)]))
        with _checks_nothing():
            text = replays.export(store, f"duel{i}")
        path = tmp_path / f"duel{i}.trv"
        path.write_text(text)
        err = bob("import", path, code=1).stderr  # bob's ledger, by the players' keys (not the made-up id)
        assert "the inviter swapped your commitment" in err and "nothing imported" in err, err
        words = "format 1, which no trv makes" if v else "which no trv wrote"
        assert words in ann("verify", path, code=1).stderr  # every store, by the format
        keyed = type(bob)(tmp_path, f"bob-key-only{i}")  # bob's key in a home without his ledger
        shutil.copytree(bob.home / "identities", keyed.home / "identities")
        assert words in keyed("import", path, code=1).stderr


def _signed_format0_game(tmp_path, org, humans, monkeypatch):
    """The host game released trv (main before format 2) made: a charter of format 0 holding the
    offer's id and each player's signature over a random contribution, the offer's id and the
    host's commitment; no offer kept.  Made with the project's code (the players' own keys)."""
    from trvendetta.cli.identity import Keyring
    from trvendetta.replays.setups import CONTRIBUTION_1

    offer = _read(tmp_path / "offer.json", Offer)
    answers = {}
    for i, p in enumerate(humans):
        monkeypatch.setenv("TRV_HOME", str(p.home))
        value = hashlib.sha256(b"random contribution %d" % i).hexdigest()
        answer = Contribution(CONTRIBUTION_1, offer.id(), p.name, value, commit=offer.commit)
        answers[p.name] = answer.signed(lambda body, s=p.name: Keyring(offer.seats, s).sign(s, body))
    monkeypatch.delenv("TRV_HOME")
    return offer, answers


def test_the_released_format_0_of_signed_contributions_still_verifies_checked_and_marked(
        players, tmp_path, monkeypatch):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    offer, answers = _signed_format0_game(tmp_path, org, [ann, bob], monkeypatch)
    path = forge(tmp_path, org, "old", v=0, offered=False, offer=offer, answers=answers)
    out = ann("verify", path).stdout
    assert out.startswith("OK: ")
    assert "made before the set-up was kept (format 0)" in out and "are checked" in out
    assert "made before signed contributions" not in out  # it has them: marked by its format, not a field
    # its signatures are checked: bob's value changed, or the commitment, is refused
    swapped = forge(tmp_path, org, "old2", v=0, offered=False, offer=offer, answers=answers,
                    values={"bob": "ab" * 32})
    err = ann("verify", swapped, code=1).stderr
    assert "bob's contribution to the seed" in err and "not what bob" in err
    # the signatures kept without the offer's id: no trv wrote that
    bare = forge(tmp_path, org, "old3", v=0, offered=False, offer=offer, answers=answers, offer_id="")
    assert "without the offer they answered, which no trv wrote" in ann("verify", bare, code=1).stderr


# ------------------------------------------------------------------ a second host identity (row 2)
def test_a_stripped_game_under_a_second_host_identity_is_refused_by_the_players_ledgers(players, tmp_path):
    from trvendetta.cli.host import new_seed

    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    org("id", "new", "org2")
    key2 = re.search(r"[0-9a-f]{64}", org("id", "show", "org2").stdout).group(0)
    for i, host_key in enumerate([None, key2]):  # the offer's host key, then another of the host's
        path = forge(tmp_path, org, f"cup{i}", values={"bob": "ab" * 32}, commit=new_seed(org.home), v=0,
                     offer_id="", signed=False, offered=False, host_key=host_key)
        _refused_by_all(path, [ann, bob], "not the one of the offer you", "which never started", "nothing imported")
        # a third party cannot tell it from a record made before: marked
        assert "made before signed contributions: the host could choose the seed" in \
            org("verify", path).stdout
    # the next route: another set of players (a seat of the host's own added), so that no answer has
    # the same keys: each player's answers are found by its own key
    offer = _read(tmp_path / "offer.json", Offer)
    more = msgspec.structs.replace(offer, players=[*offer.players, ["cyd", "green", "cars"]],
                                   seats=dict(offer.seats, cyd=key2))
    answers = {p.stem: _read(p, Contribution) for p in tmp_path.glob("*.json") if p.name != "offer.json"}
    answers["cyd"] = Contribution("trv-host-join", more.id(), "cyd", "cd" * 32)
    path = forge(tmp_path, org, "cup3", values={"bob": "ab" * 32}, commit=new_seed(org.home), v=0, offer_id="",
                 signed=False, offered=False, offer=more, answers=answers)
    _refused_by_all(path, [ann, bob], "not the one of the offer you", "which never started", "nothing imported")


# ------------------------------------------------------------------ a commitment answered once (row 3)
def test_a_second_offer_reusing_an_answered_commitment_is_refused_and_gives_nothing_known(
        players, tmp_path, monkeypatch):
    from trvendetta.cli.host import _host_keyring
    from trvendetta.replays.signatures import HOST

    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    first = _read(tmp_path / "offer.json", Offer)
    values = {s: _read(tmp_path / f"{s}.json", Contribution).value for s in ("ann", "bob")}
    org("id", "new", "org2")
    key2 = re.search(r"[0-9a-f]{64}", org("id", "show", "org2").stdout).group(0)
    monkeypatch.setenv("TRV_HOME", str(org.home))
    (tmp_path / "B").mkdir()
    for i, host in enumerate([first.host, key2]):  # the same identity, then a second one
        players_b = [list(first.players[1]), list(first.players[0])][:: 1 if i else -1]
        second = Offer("trv-host-offer", f"cup{i}", first.ruleset, players_b, dict(first.seats), host,
                       first.commit, rules=first.rules).signed(lambda body, h=host: _host_keyring(h).sign(HOST, body))
        (tmp_path / "B" / f"offer{i}.json").write_bytes(second.file_bytes())
        for p in (ann, bob):
            err = p("host", "join", tmp_path / "B" / f"offer{i}.json", "-o", tmp_path / "B" / f"{p.name}{i}.json",
                    code=1).stderr
            assert "this offer's commitment" in err and "one you answered already" in err and "cup" in err
            assert "nothing answered" in err and not (tmp_path / "B" / f"{p.name}{i}.json").exists()
    monkeypatch.delenv("TRV_HOME")
    # the next route: a home without the ledger (bob's key alone) answers it, but with a value the host
    # could not know: the contribution is derived from the offer's id too
    bob2 = type(bob)(tmp_path, "bob2")
    shutil.copytree(bob.home / "identities", bob2.home / "identities")
    bob2("host", "join", tmp_path / "B" / "offer1.json", "-o", tmp_path / "B" / "bob2.json")
    again = _read(tmp_path / "B" / "bob2.json", Contribution)
    assert again.value != values["bob"]
    # another home gives the first offer the same bytes as bob's own (one contribution per offer); bob2,
    # having answered the second offer, refuses the first one: one of its commitment's offers is answered
    bob3 = type(bob)(tmp_path, "bob3")
    shutil.copytree(bob.home / "identities", bob3.home / "identities")
    bob3("host", "join", tmp_path / "offer.json", "-o", tmp_path / "B" / "bob3-first.json")
    assert _read(tmp_path / "B" / "bob3-first.json", Contribution).value == values["bob"]
    assert "one you answered already" in bob2("host", "join", tmp_path / "offer.json", "-o",
                                              tmp_path / "B" / "bob2-first.json", code=1).stderr


# ------------------------------------------------------------------ canonical base64 (rows 4, 10)
def test_another_spelling_of_a_players_signature_is_refused_naming_the_field(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    answers = {s: _read(tmp_path / f"{s}.json", Contribution) for s in ("ann", "bob")}
    variants = spellings(answers["bob"].sig)
    assert len(variants) == 15
    assert all(base64.b64decode(v) == base64.b64decode(answers["bob"].sig) for v in variants)
    heads = set()
    for k, var in enumerate(variants[:3]):
        got = dict(answers, bob=msgspec.structs.replace(answers["bob"], sig=var))
        path = forge(tmp_path, org, f"v{k}", answers=got)
        heads.add(replays.read_file(path.read_bytes(), "v.trv").records[0].hash)
        with pytest.raises(replays.Tampered, match="field signed.bob is not base64 in its canonical spelling"):
            replays.verify_file(replays.read_file(path.read_bytes(), "v.trv"))
        fresh = type(bob)(tmp_path, f"bob{k}")
        shutil.copytree(bob.home, fresh.home)  # bob's home (ledger, key) as it was before the game
        _refused_by_all(path, [fresh], "signed.bob", "canonical spelling")
    assert len(heads) == 3  # each spelling would have been another game id, other draws
    # the contribution file itself, in another spelling: refused by the host's `trv host new`
    (tmp_path / "bob-odd.json").write_bytes(msgspec.structs.replace(answers["bob"], sig=variants[0]).file_bytes())
    err = org("host", "new", tmp_path / "offer.json", "--name", "odd", "--join", tmp_path / "ann.json", "--join",
              tmp_path / "bob-odd.json", code=1).stderr
    assert "field sig is not base64 in its canonical spelling" in err


def test_another_spelling_of_the_hosts_offer_signature_is_refused(players, tmp_path):
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    offer = _read(tmp_path / "offer.json", Offer)
    for k, sig in enumerate(spellings(offer.sig)[:2]):
        path = forge(tmp_path, org, f"o{k}", offer=msgspec.structs.replace(offer, sig=sig))
        with pytest.raises(replays.Tampered, match="offer the charter keeps has its field sig in another base64"):
            replays.verify_file(replays.read_file(path.read_bytes(), "o.trv"))
        fresh = type(bob)(tmp_path, f"bob{k}")
        shutil.copytree(bob.home, fresh.home)
        _refused_by_all(path, [fresh], "field sig", "base64 spelling")
    # the offer file in another spelling: a player's `trv host join` refuses it, naming the field
    (tmp_path / "odd.json").write_bytes(msgspec.structs.replace(offer, sig=spellings(offer.sig)[0]).file_bytes())
    err = bob("host", "join", tmp_path / "odd.json", "-o", tmp_path / "x.json", code=1).stderr
    assert "field sig is not base64 in its canonical spelling" in err


def test_another_spelling_of_a_records_signature_is_refused(players, tmp_path):
    """The next route: a record's own signature line (every action's), respelt."""
    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    org("export", "cup", "-o", tmp_path / "cup.trv")
    ann("import", tmp_path / "cup.trv")
    mover = ann if ann.pending() == "ann" else None
    if mover is None:
        bob("import", tmp_path / "cup.trv")
        mover = bob
    mover("decide", mover.first_legal())
    mover("export", "cup", "-o", tmp_path / "moved.trv")
    text = (tmp_path / "moved.trv").read_text()
    found = re.search(rf"{mover.name}:([A-Za-z0-9+/]{{86}}==)", text)
    assert found, text[-400:]
    respelt = rechain(text.replace(found.group(1), spellings(found.group(1))[0]))  # the chain recomputed
    with pytest.raises(replays.Tampered, match="canonical spelling"):
        replays.verify_file(replays.read_file(respelt.encode(), "r.trv"))


def test_the_honest_game_and_the_old_fixtures_still_verify(players, tmp_path):
    fixtures = Path(__file__).resolve().parent / "fixtures"  # (not ``from conftest``: another folder's)

    org, ann, bob = players("org", "ann", "bob")
    host_game(tmp_path, org, [ann, bob])
    org("export", "cup", "-o", tmp_path / "cup.trv")
    for p in (ann, bob):
        p("import", tmp_path / "cup.trv")
        out = p("verify").stdout
        assert out.startswith("OK: ") and "made before" not in out
    for name in ("signed-host.trv", "signed-exchange2.trv", "signed-exchange3.trv", "signed-seeded.trv"):
        assert ann("verify", fixtures / name).stdout.startswith("OK: ")
