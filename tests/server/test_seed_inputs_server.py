"""A club server hosts its games: each player's `trv --server` checks the seed inputs it signed
(docs/fair-play.md, "Nobody chooses the seed"), and answers an offer once, with the same bytes, on
every route and every retry, as offline `trv host join` does.

The cheating server is the project's own club with one of its methods replaced (in the test
process: the server's threads run the cheat, the players' `trv` runs in the main thread)."""

from __future__ import annotations

import threading

import msgspec
import pytest

from trvendetta.app.messages import Contribution
from trvendetta.server.club import Refused


def test_a_server_that_answers_busy_gets_the_same_contribution_again(club, monkeypatch):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    real, got = club.club.join, []

    def busy(player, game, value, signature, *kind):  # "busy, join again": fishing for a second contribution
        got.append((value, signature))
        if len(got) == 1:
            raise Refused(503, "busy, join again")
        return real(player, game, value, signature, *kind)

    monkeypatch.setattr(club.club, "join", busy)
    assert "busy, join again" in bob("join", "duel", code=1).stderr
    out = bob("join", "duel").stdout
    assert "you contributed to duel before: sending the same contribution" in out
    assert len(got) == 2 and got[0] == got[1]  # the same value and the same signature
    assert "hosted by" in out  # the game started from it, and bob's store took it
    assert bob.local("verify").stdout.startswith("OK: ")


def test_a_server_that_starts_a_game_with_its_own_value_for_bob_is_refused(club, monkeypatch):
    from trvendetta.replays.signatures import SignatureCheck

    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    server = club.club
    honest = SignatureCheck.contributions_problem

    def checks_in_the_players_trv_only(self):  # the server's own trv checks nothing
        return honest(self) if threading.current_thread() is threading.main_thread() else None

    def own_value(offer, joined):
        given = Contribution.decode(joined["bob"].encode(), "bob")
        swapped = msgspec.structs.replace(given, value="ab" * 32)
        answers = [(seat, swapped if seat == "bob" else Contribution.decode(text.encode(), seat))
                   for seat, text in sorted(joined.items())]
        server.service.new_host_game(offer, offer.game, answers, offer.game, server.host, lambda answer, key: True)
        server.accounts.drop_offer(offer.game)
        return server.game_doc(offer.game, None)

    monkeypatch.setattr(SignatureCheck, "contributions_problem", checks_in_the_players_trv_only)
    monkeypatch.setattr(server, "_start", own_value)
    err = bob("join", "duel", code=1).stderr
    assert "the host (" in err and "as bob's contribution" in err and "nothing imported" in err
    assert "as bob's contribution" in bob("show", code=1).stderr  # every later sync refuses it too
    err = ann("show", code=1).stderr  # ann's store: bob's signature does not cover the server's value
    assert "event 1:" in err and "bob's contribution to the seed" in err and "the host (" in err
    for p in (ann, bob):
        assert "duel" not in p.local("games").stdout  # nothing written


def test_a_second_offer_to_the_same_players_is_named_on_the_server_route(club):
    ann, bob, cyd = club.player("ann"), club.player("bob"), club.player("cyd")
    players = ["--player", "ann:red:cars", "--player", "bob:blue:cars", "--player", "cyd:green:cars"]
    ann("new", *players, "--name", "first")
    bob("join", "first")  # the game waits for cyd: the server could offer again, and keep the one it likes
    ann("new", *players, "--name", "second")
    out = bob("join", "second").stdout
    assert "offered you a game before" in out and "never started that game (first)" in out


@pytest.mark.parametrize("again", [False, True])
def test_the_server_takes_one_contribution_per_player(club, again):
    """The same contribution again (a retry after a lost reply) is no error; another is refused."""
    ann, bob, cyd = club.player("ann"), club.player("bob"), club.player("cyd")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--player", "cyd:green:cars",
        "--name", "duel")
    bob("join", "duel")
    if again:
        assert "sending the same contribution" in bob("join", "duel").stdout
        return
    joined = club.on_store(club.club._offer, "duel")[1]
    given = Contribution.decode(joined["bob"].encode(), "bob")
    with pytest.raises(Refused, match="contributed to duel already, another value"):
        club.on_store(club.club.join, "bob", "duel", "cd" * 32, given.sig)


def test_a_second_game_of_one_offer_is_refused_on_the_server_route(club, monkeypatch):
    """The server starts the offer's game, then another from the same contributions under a new
    name (the seats in another order: another set-up), to show the one it likes."""
    from trvendetta import rulesets
    from trvendetta.store import decode_charter

    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    server = club.club

    def again():
        loaded = server.service.load("duel")
        rules = rulesets.get(loaded.ruleset.name)
        seats = [(p.name, p.color, p.crew) for p in rules.seats(loaded.state)][::-1]
        from trvendetta.core.draws import host_game_seed, host_rng

        charter = decode_charter(loaded.charter)
        seed = host_game_seed(server.host.secret(charter.seed_commit)[0],
                              {s: bytes.fromhex(v) for s, v in charter.setup.items()})
        server.service.new_game(rules, rules.default_position(seats, 0), "duel2", charter=loaded.charter,
                                 rng=host_rng(seed, 1))

    club.on_store(again)
    from trvendetta.replays import setups

    honest = setups.position_problem

    def in_the_players_trv_only(*args):  # the server's own trv serves the game it made, unchecked
        return honest(*args) if threading.current_thread() is threading.main_thread() else None

    monkeypatch.setattr(setups, "position_problem", in_the_players_trv_only)
    # bob's store met duel (his join synced it): a second game of its offer
    err = bob("--game", "duel2", "show", code=1).stderr
    assert "another game from the offer of game duel" in err and "one offer makes one game" in err
    # ann's never did: duel2 is the first game of that offer it meets, and it is not the offer's game
    err = ann("--game", "duel2", "show", code=1).stderr
    assert "started another game than the offer you (ann) answered (duel)" in err
    assert "its players (their order or colours) differ" in err

    assert "duel2" not in ann.local("games").stdout and "duel2" not in bob.local("games").stdout


@pytest.mark.parametrize("three", [False, True])
def test_a_server_that_starts_another_set_up_than_its_offer_is_refused_by_every_store(club, monkeypatch, three):
    """The server starts the game from the players' own contributions, but with other colours (another
    set-up, other dice from the same seed inputs): the charter keeps the offer, so every store, a
    third party's `verify` of the record included, rebuilds the set-up from it and names the host."""
    from trvendetta import replays, rulesets

    names = ["ann", "bob", "cyd"] if three else ["ann", "bob"]
    people = [club.player(n) for n in names]
    players = [a for n, c in zip(names, ["red", "blue", "green"]) for a in ("--player", f"{n}:{c}:cars")]
    people[0]("new", *players, "--name", "duel")
    for p in people[1:-1]:
        p("join", "duel")
    server = club.club
    honest_start, records = server._start, []

    def other_colours(offer, joined):
        rules = rulesets.get(offer.ruleset)
        real = type(rules).default_position

        def painted(self, triples, seed):
            return real(self, [(n, "yellow" if i == 0 else c, crew) for i, (n, c, crew) in enumerate(triples)], seed)

        with monkeypatch.context() as m:
            m.setattr(type(rules), "default_position", painted)
            from trvendetta.replays import setups

            m.setattr(setups, "position_problem", lambda *args: None)  # the server's trv checks nothing
            out = honest_start(offer, joined)
            records.append(replays.export(server.service.store, "duel"))
        return out

    monkeypatch.setattr(server, "_start", other_colours)
    err = people[-1]("join", "duel", code=1).stderr
    assert "the host (" in err and "another game" in err, err
    for p in people:
        err = p("show", code=1).stderr
        assert "the host (" in err and "another game" in err, (p, err)
        assert "duel" not in p.local("games").stdout  # nothing written
    [record] = records
    with pytest.raises(replays.Tampered, match="event 1: the set-up .* is not the one the offer .* gives: the host"):
        replays.verify_file(replays.read_file(record.encode(), "duel.trv"))


@pytest.mark.parametrize("v", [1, 0])
def test_a_server_that_writes_another_charter_format_with_its_own_value_for_bob_is_refused(club, monkeypatch, v):
    """Red team row 5: the club server starts the game with its own value for bob, its charter written in
    a format no trv made (1), or in format 0 with the signatures and the offer dropped (a game passed off
    as made before), naming a made-up offer id; the server's own trv checks nothing."""
    import trvendetta.store as store_mod
    from trvendetta.replays.signatures import SignatureCheck

    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    server = club.club
    honest, real_encode = SignatureCheck.contributions_problem, store_mod.encode_charter

    def checks_in_the_players_trv_only(self):
        return honest(self) if threading.current_thread() is threading.main_thread() else None

    def another_format(ch):
        if threading.current_thread() is not threading.main_thread() and ch is not None and ch.dice == "host":
            ch = msgspec.structs.replace(ch, v=v, offer="cd" * 32 if v else "", signed={}, offered=msgspec.Raw(b""))
        return real_encode(ch)

    def own_value(offer, joined):
        given = Contribution.decode(joined["bob"].encode(), "bob")
        answers = [(seat, msgspec.structs.replace(given, value="ab" * 32) if seat == "bob"
                    else Contribution.decode(text.encode(), seat)) for seat, text in sorted(joined.items())]
        monkeypatch.setattr(store_mod, "encode_charter", another_format)
        try:
            server.service.new_host_game(offer, offer.game, answers, offer.game, server.host, lambda a, k: True)
        finally:
            monkeypatch.setattr(store_mod, "encode_charter", real_encode)
        server.accounts.drop_offer(offer.game)
        return server.game_doc(offer.game, None)

    monkeypatch.setattr(SignatureCheck, "contributions_problem", checks_in_the_players_trv_only)
    monkeypatch.setattr(server, "_start", own_value)
    err = bob("join", "duel", code=1).stderr
    assert "nothing imported" in err and "the host (" in err, err
    assert "as bob's contribution" in err or "format 1, which no trv makes" in err, err
    assert "nothing imported" in bob("show", code=1).stderr  # every later sync refuses it too
    err = ann("show", code=1).stderr  # ann's store: her own answer, by the players' keys and the commitment
    assert "nothing imported" in err or "format 1, which no trv makes" in err, err
    for p in (ann, bob):
        assert "duel" not in p.local("games").stdout  # nothing written


def test_a_server_that_offers_again_with_an_answered_commitment_is_refused(club, monkeypatch):
    """Red team row 12: the server offers ann, bob and cyd a game; bob answers, cyd not yet; the server
    offers again under a new name with the same commitment and the seats in another order (bob's
    answer to the first told it bob's part of the seed): every player's `trv --server join` refuses."""
    ann, bob, cyd = club.player("ann"), club.player("bob"), club.player("cyd")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--player", "cyd:green:cars", "--name", "first")
    bob("join", "first")
    server = club.club
    first, _ = club.on_store(server._offer, "first")
    monkeypatch.setattr(server, "new_seed", lambda: first.commit)  # the same commitment again
    err = ann("new", "--player", "bob:blue:cars", "--player", "ann:red:cars", "--player", "cyd:green:cars",
              "--name", "second", code=1).stderr  # (the offer is made; ann's own answer is refused)
    assert "this offer's commitment" in err and "one you answered already" in err and "first" in err
    for p in (bob, ann):
        err = p("join", "second", code=1).stderr
        assert "one you answered already, in an offer of game first" in err and "nothing answered" in err
    assert "bob" not in club.on_store(server._offer, "second")[1]  # the server got nothing from bob
