"""Every party checks what it signed (docs/fair-play.md, "Nobody chooses the seed"): a host game's
charter keeps every player's signature over its contribution, the offer and the host's commitment,
and each player's store compares the game with the answer it gave.

Attacks, each by a cheating host built from the project's own code (``cheat``: what `trv host new`
does, with its own charter), separate stores, the record as a file: a host that tries 32 values in
place of bob's contribution, one that commits to a fresh seed after reading the contributions, each
with the players' signatures kept and with them stripped (passing the game off as one made before
signed contributions); a second game of one offer."""

import hashlib

import msgspec
import pytest
from fairplay_helpers import host_game

from trvendetta import replays, rulesets
from trvendetta.app import GameService
from trvendetta.app.messages import Contribution, Offer
from trvendetta.core.draws import host_game_seed, host_rng
from trvendetta.replays.charters import nonce_of
from trvendetta.store import Charter, GameStore, decode_charter, encode_charter

pytestmark = pytest.mark.usefixtures("seeded_entropy")


def cheat(tmp_path, org, name: str, *, values: dict | None = None, commit: str | None = None,
          keep_signatures: bool = True, reorder: bool = False) -> str:
    """What a cheating host makes of its offer and the players' contributions: the game's record
    (as a file's text), with ``values`` in place of some contributions, another commitment
    (``commit``, to a seed it made after reading them), the players' signatures left out, or the
    seats in another order (``reorder``: another set-up from the same seed inputs)."""
    from trvendetta.cli.host import host_secret, new_seed

    offer = Offer.decode((tmp_path / "offer.json").read_bytes(), "offer.json")
    answers = {p.stem: Contribution.decode(p.read_bytes(), p.name) for p in tmp_path.glob("*.json")
               if p.name != "offer.json"}
    setup = {seat: a.value for seat, a in answers.items()}
    setup.update(values or {})
    seed_commit = commit or offer.commit
    secret = host_secret(seed_commit, org.home)
    charter = Charter(dict(offer.seats), "host", {}, setup, offer.host, seed_commit, {},
                      nonce=nonce_of(offer.id(), *(answers[s].id() for s in sorted(answers))),
                      offer=offer.id() if keep_signatures else "",
                      signed={s: a.sig for s, a in answers.items()} if keep_signatures else {},
                      v=2 if keep_signatures else 0,
                      offered=msgspec.Raw(msgspec.json.encode(offer) if keep_signatures else b""))
    rules = rulesets.get(offer.ruleset)
    store = GameStore(tmp_path / f"cheat-{name}.sqlite")
    game_seed = host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in setup.items()})
    seats = [tuple(t) for t in offer.players][::-1 if reorder else 1]
    GameService(store).new_game(rules, rules.default_position(seats, 0), name,
                                charter=encode_charter(charter), rng=host_rng(game_seed, 1))
    from trvendetta.replays.signatures import SignatureCheck

    from trvendetta.replays import setups

    honest, rebuilt = SignatureCheck.contributions_problem, setups.position_problem
    SignatureCheck.contributions_problem = lambda self: None  # the cheater's trv checks nothing
    setups.position_problem = lambda *args: None
    try:
        return replays.export(store, name)
    finally:
        SignatureCheck.contributions_problem, setups.position_problem = honest, rebuilt


def _set_up(tmp_path, players, names):
    people = players("org", *names)
    org, humans = people[0], people[1:]
    host_game(tmp_path, org, humans)
    return org, humans


def _refused_everywhere(tmp_path, record: str, humans, game: str, *words_of) -> None:
    """Every player's store refuses the record (nothing written), each with words naming the host."""
    path = tmp_path / f"{game}.trv"
    path.write_text(record)
    assert len(words_of) == len(humans)
    for p, words in zip(humans, words_of):
        err = p("import", path, code=1).stderr
        assert all(w in err for w in words), (p.name, err)
        assert game not in p("games").stdout  # nothing written


def _setup_events(record: str) -> tuple:
    """The payloads of a record's events before its first action (its set-up)."""
    import re

    return tuple(re.findall(r"^\d+ [0-9a-f]{64} (\{.*\})$", record.split("\n> ")[0], re.M))


@pytest.mark.parametrize("names", [("ann", "bob"), ("ann", "bob", "cyd")])
def test_a_host_that_tries_32_values_for_bobs_contribution_is_refused_by_every_store(players, tmp_path, names):
    org, humans = _set_up(tmp_path, players, names)
    bob = humans[1]
    given = Contribution.decode((tmp_path / "bob.json").read_bytes(), "bob.json").value
    assert decode_charter(replays.read_file(cheat(tmp_path, org, "honest").encode(), "x").header.charter) \
        .setup["bob"] == given
    firsts = set()
    for i in range(32):
        value = hashlib.sha256(b"try %d" % i).hexdigest()
        record = cheat(tmp_path, org, f"try{i}", values={"bob": value})
        firsts.add(_setup_events(record))
        gf = replays.read_file(record.encode(), "try.trv")
        with pytest.raises(replays.Tampered, match="bob's contribution to the seed .* is not what bob .* signed"):
            replays.verify_file(gf)
        if i < 2:  # every store: bob's by its ledger, the others' by bob's signature in the charter
            signature = ["event 1:", "bob's contribution to the seed", "not what bob (", "the host ("]
            _refused_everywhere(tmp_path, record, humans, f"try{i}", signature,
                                ["the host (", "as bob's contribution", given[:16], "nothing imported"],
                                *[signature for _ in humans[2:]])
    assert len(firsts) > 1  # the values do give other set-ups: the host had something to choose from
    # the same swap with the signatures stripped (a game passed off as made before): bob's store still
    # compares it with the contribution it gave; verify marks what it cannot prove
    record = cheat(tmp_path, org, "stripped", values={"bob": "ab" * 32}, keep_signatures=False)
    (tmp_path / "stripped.trv").write_text(record)
    err = bob("import", tmp_path / "stripped.trv", code=1).stderr
    assert "the host (" in err and "as bob's contribution" in err and "nothing imported" in err
    out = humans[0]("verify", tmp_path / "stripped.trv").stdout
    assert "made before signed contributions: the host could choose the seed" in out


@pytest.mark.parametrize("names", [("ann", "bob"), ("ann", "bob", "cyd")])
def test_a_host_that_commits_after_reading_the_contributions_is_refused(players, tmp_path, names):
    from trvendetta.cli.host import new_seed

    org, humans = _set_up(tmp_path, players, names)
    later = new_seed(org.home)  # a fresh seed, made once every contribution is in
    record = cheat(tmp_path, org, "late", commit=later)
    _refused_everywhere(tmp_path, record, humans, "late",
                        *[["the host (", "commitment", later[:16], "after reading"] for _ in humans])
    # with the signatures stripped: each player's store finds its answer to that host unstarted
    record = cheat(tmp_path, org, "late2", commit=new_seed(org.home), keep_signatures=False)
    _refused_everywhere(tmp_path, record, humans, "late2",
                        *[["the host (", "not the one of the offer you", "commits after reading"] for _ in humans])


def test_the_honest_game_imports_everywhere_and_a_second_game_of_one_offer_is_refused(players, tmp_path):
    org, humans = _set_up(tmp_path, players, ("ann", "bob"))
    org("export", "cup", "-o", tmp_path / "cup.trv")
    for p in humans:
        p("import", tmp_path / "cup.trv")
        out = p("verify").stdout
        assert out.startswith("OK: ") and "made before signed contributions" not in out
    # the host makes another game of the same offer (the seats in another order: another set-up from
    # the same seed inputs), and sends the one it likes: the charter keeps the offer, so every store
    # rebuilds the set-up from it and refuses the other one, naming the host
    record = cheat(tmp_path, org, "cup2", reorder=True)
    assert _setup_events(record) != _setup_events((tmp_path / "cup.trv").read_text())
    (tmp_path / "cup2.trv").write_text(record)
    for p in humans:
        err = p("import", tmp_path / "cup2.trv", code=1).stderr
        assert "one offer makes one game" in err and "the host (" in err, err
    # the same game again under another name is the same game (its id): nothing new, and no second game
    # of one offer can verify anywhere, since the offer, the contributions and the nonce fix it
    with pytest.raises(replays.Tampered, match="the host .* started another game"):
        replays.verify_file(replays.read_file(record.encode(), "cup2.trv"))


@pytest.mark.parametrize("names", [("ann", "bob"), ("ann", "bob", "cyd")])
def test_another_game_from_the_same_contributions_is_refused_as_the_first_game_met(players, tmp_path, names):
    """The host starts the game it likes among several from one set of contributions (the seats in
    another order: another set-up), and sends only that one: each player's store compares it with
    the offer it answered, kept beside its answer."""
    org, humans = _set_up(tmp_path, players, names)
    record = cheat(tmp_path, org, "cup", reorder=True)
    with pytest.raises(replays.Tampered, match="event 1: the set-up .* is not the one the offer"):
        replays.verify_file(replays.read_file(record.encode(), "cup.trv"))  # every store rebuilds it
    _refused_everywhere(tmp_path, record, humans, "cup",
                        *[["the host (", "started another game"] for p in humans])
    # the same attack with the charter stripped to pass as a record made before signed contributions:
    # each player's store compares the game with the offer it answered, kept beside its answer
    (tmp_path / "cheat-cup.sqlite").unlink()
    record = cheat(tmp_path, org, "cup", reorder=True, keep_signatures=False)
    _refused_everywhere(tmp_path, record, humans, "cup",
                        *[["the host (", "nothing imported"] for p in humans])
