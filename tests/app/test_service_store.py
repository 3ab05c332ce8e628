"""The application layer's other writers, driven without the CLI: a fork that
switches (or not), a copy between stores, and a whole tournament
(``trvendetta.app.stores``, ``trvendetta.app.tournament``)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))

import toy_ruleset  # noqa: E402

from trvendetta import replays, rulesets  # noqa: E402
from trvendetta.app import GameService  # noqa: E402
from trvendetta.app.simulated import store_simulated  # noqa: E402
from trvendetta.bots import simulate  # noqa: E402
from trvendetta.app.stores import SameStore, copy_store  # noqa: E402
from trvendetta.app.tournament import TournamentService, table_games  # noqa: E402
from trvendetta.core.errors import TrvError  # noqa: E402
from trvendetta.store import GameStore  # noqa: E402
from trvendetta.tournament import model  # noqa: E402

PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars")]


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite") as s:
        yield s


def first(ruleset, state):
    yield ruleset.legal_actions(state())[0]


@pytest.mark.parametrize("switch", [True, False])
def test_a_fork_is_current_only_when_it_switches(store, switch):
    svc = GameService(store)
    toy = toy_ruleset.RULESET
    svc.new_game(toy, toy.default_position(PLAYERS, 3), "g")
    svc.play("g", first)
    svc.fork("g", svc.load("g").version, "g2", switch=switch)
    assert store.latest_game() == ("g2" if switch else "g")
    assert svc.load("g2").state == svc.load("g").state


def test_a_copy_is_the_same_games_and_refuses_a_store_onto_itself(store, tmp_path):
    svc = GameService(store)
    toy = toy_ruleset.RULESET
    for game in ("a", "b"):
        svc.new_game(toy, toy.default_position(PLAYERS, 3), game)
        svc.play(game, first)
    store.close()
    source, target = f"sqlite:{tmp_path / 'games.sqlite'}", f"sqlite:{tmp_path / 'copy.sqlite'}"
    with pytest.raises(SameStore):
        copy_store(source, str(tmp_path / "games.sqlite"))
    assert [c.done for c in copy_store(source, target)] == ["copied", "copied"]
    assert [(c.game, c.done) for c in copy_store(source, target, ["b"])] == [("b", "already there")]
    with GameStore(tmp_path / "games.sqlite") as a, GameStore(tmp_path / "copy.sqlite") as b:
        assert [b.verify(g) for g in ("a", "b")] == [a.verify(g) for g in ("a", "b")]


def test_a_tournament_runs_through_the_service(store):
    toy_ruleset.register()
    svc = TournamentService(store)
    svc.new("cup", toy_ruleset.RULESET, 1, (2, 2), (1, 0), 7)
    assert svc.register("cup", ("ann", "bob", "cyd", "dee"), {}).from_round == 1
    paired = svc.pair("cup")
    loaded = svc.load("cup")
    r = model.check_start(loaded.state, paired.round)
    seen = []
    started = svc.start_round("cup", loaded, r, {p: "random" for t in r.tables for p in t.players}, {},
                              observe=seen.append)
    assert seen == started and [s.game for s in started] == table_games("cup", r) == ["cup-r1-t1", "cup-r1-t2"]
    assert all(s.ruleset.is_over(s.state) and store.version(s.game) == s.events for s in started)
    with pytest.raises(TrvError, match="already exist"):  # the same round again: nothing written
        svc.start_round("cup", svc.load("cup"), r, {}, {})
    for t in r.tables:
        reported = svc.report("cup", t.table, None, None, read=lambda source: None)
        assert reported.round == 1 and reported.result.game == f"cup-r1-t{t.table}"
        assert model.table_places(reported.state.rounds[0].tables[t.table - 1])
    rows = svc.standings("cup")
    assert sorted(row["player"] for row in rows) == ["ann", "bob", "cyd", "dee"]
    assert sum(row["points"] for row in rows) == 2  # one point for each table's winner
    assert svc.export("cup").startswith("% trvendetta tournament 1\n")
    assert svc.load("cup").version == 1 + 4 + 1 + 1 + 2  # created, players, paired, started, results


def test_a_simulated_game_is_stored_whole_and_verifies(store):
    vendetta = rulesets.get("vendetta")
    result = store_simulated(store, vendetta, 2, 5, ("random", "random"))
    assert result == simulate(vendetta, 2, 5, ("random", "random"))  # the same game as without a store
    loaded = store.load("sim-vendetta-2p-5")
    assert vendetta.is_over(loaded.state) and vendetta.winner(loaded.state) == result.winner
    assert replays.verify_game(store, "sim-vendetta-2p-5").events == loaded.version


def test_a_copy_takes_the_tournaments_and_brings_a_copied_game_up_to_date(store, tmp_path):
    from trvendetta.store.tournament import TournamentLog

    toy_ruleset.register()
    svc = GameService(store)
    toy = toy_ruleset.RULESET
    svc.new_game(toy, toy.default_position(PLAYERS, 3), "g")
    svc.play("g", first)
    TournamentService(store).new("cup", toy, 1, (2, 2), (1, 0), 7)
    source, target = f"sqlite:{tmp_path / 'games.sqlite'}", f"sqlite:{tmp_path / 'copy.sqlite'}"
    assert [(c.game, c.done) for c in copy_store(source, target)] == [("g", "copied"), ("tournament cup", "copied")]
    svc.play("g", first)  # the club plays on in the source, and registers players
    TournamentService(store).register("cup", ("ann", "bob"), {})
    again = [(c.game, c.done) for c in copy_store(source, target)]
    assert again == [("g", "brought up to date"), ("tournament cup", "brought up to date")]
    with GameStore(tmp_path / "copy.sqlite") as copy:
        assert copy.verify("g") == store.verify("g") and copy.version("g") == store.version("g")
        assert TournamentLog(copy).verify("cup") == TournamentLog(store).verify("cup")
    assert [c.done for c in copy_store(source, target)] == ["already there", "already there"]
    assert [c.game for c in copy_store(source, target, ["g"])] == ["g"]  # naming games: no tournaments


def test_a_copy_onto_another_history_writes_nothing(store, tmp_path):
    from trvendetta.store.errors import StoreError

    svc = GameService(store)
    toy = toy_ruleset.RULESET
    svc.new_game(toy, toy.default_position(PLAYERS, 3), "g")
    source, target = f"sqlite:{tmp_path / 'games.sqlite'}", f"sqlite:{tmp_path / 'copy.sqlite'}"
    assert [c.done for c in copy_store(source, target)] == ["copied"]
    with GameStore(tmp_path / "copy.sqlite") as copy:  # the copy is played on its own way
        GameService(copy).play("g", lambda rs, state: iter([rs.legal_actions(state())[-1]]))
        theirs = copy.verify("g")
    svc.play("g", first)
    svc.new_game(toy, toy.default_position(PLAYERS, 4), "h")
    with pytest.raises(StoreError, match="'g' is already in the target with another history"):
        list(copy_store(source, target))
    with GameStore(tmp_path / "copy.sqlite") as copy:
        assert copy.verify("g") == theirs and not copy.exists("h")  # nothing written, not even h
