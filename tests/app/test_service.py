"""GameService: the application layer every command goes through (no CLI here)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))

import toy_ruleset  # noqa: E402

from trvendetta import rulesets  # noqa: E402
from trvendetta.app import GameService  # noqa: E402
from trvendetta.core.errors import RuleViolation, TrvError  # noqa: E402
from trvendetta.store import GameStore  # noqa: E402

PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars")]


@pytest.fixture
def svc(tmp_path):
    with GameStore(tmp_path / "games.sqlite") as store:
        yield GameService(store)


def first(ruleset, state):
    yield ruleset.legal_actions(state())[0]


def test_new_then_play_saves_each_action_with_its_events(svc):
    toy = toy_ruleset.RULESET
    made = svc.new_game(toy, toy.default_position(PLAYERS, 3))
    assert made.loaded.game == "toy-1" and made.first == 2 and made.bots == []
    played = svc.play("toy-1", first)
    assert played.first == 2 and played.events and played.loaded.version == 1 + len(played.events)
    assert svc.load("toy-1").version == played.loaded.version


def test_bot_seats_answer_after_a_human_action_in_the_same_save(svc):
    vendetta = rulesets.get("vendetta")
    made = svc.new_game(vendetta, vendetta.default_position(PLAYERS, 5), "duel", bots={"bob": "greedy"})
    state = made.state
    assert vendetta.pending(state).player == "ann"

    def anns_turn(ruleset, state):
        while not ruleset.is_over(state()) and ruleset.pending(state()).player == "ann":
            yield ruleset.legal_actions(state())[0]

    played = svc.play("duel", anns_turn)
    assert played.bots and all(m.player == "bob" for m in played.bots)
    assert vendetta.pending(played.state).player == "ann" or vendetta.is_over(played.state)


def test_an_illegal_action_appends_nothing_and_wrong_player_is_refused(svc):
    toy = toy_ruleset.RULESET
    svc.new_game(toy, toy.default_position(PLAYERS, 3), "g")
    before = svc.load("g").version
    with pytest.raises(RuleViolation):
        svc.play("g", lambda rs, state: [toy_ruleset.Veto(True)])
    with pytest.raises(RuleViolation, match="not bob's"):
        svc.play("g", first, player="bob")
    assert svc.load("g").version == before


def test_undo_fork_export_and_import_round_trip(svc, tmp_path):
    toy = toy_ruleset.RULESET
    svc.new_game(toy, toy.default_position(PLAYERS, 3), "g")
    played = svc.play("g", first)
    undone = svc.undo("g", agreed=True)
    assert undone.first == played.loaded.version + 1 and len(undone.retractions) == 1
    assert undone.played.loaded.state == svc.load("g", at=1).state
    svc.play("g", first)
    loaded, _ = svc.fork("g", svc.load("g").version, "g2")
    assert loaded.state == svc.load("g").state
    text = svc.export("g")
    with GameStore(tmp_path / "other.sqlite") as other:
        gf, game, events, head = GameService(other).import_file(text.encode(), "g.trv")
        assert (game, head) == ("g", svc.load("g").head) and gf.kind != "packet"
    with pytest.raises(TrvError):
        svc.import_file(text.encode(), "g.trv")  # already here


def test_a_name_stem_takes_the_first_free_name_even_when_another_process_took_it_first(tmp_path):
    """``trv demo``'s names: the stem, then stem-2, stem-3...; a name taken
    between the look and the save (here: ``exists`` looks before the other
    process saved) is skipped, not an error."""

    class LooksTooEarly(GameStore):
        def exists(self, game):
            return False

    toy = toy_ruleset.RULESET
    with LooksTooEarly(tmp_path / "games.sqlite") as store:
        svc = GameService(store)
        names = [svc.new_game(toy, toy.default_position(PLAYERS, 5), stem="demo-5").loaded.game for _ in range(3)]
    assert names == ["demo-5", "demo-5-2", "demo-5-3"]


def test_play_after_the_game_as_saved_goes_on_without_a_load_and_refuses_a_stale_one(svc, tmp_path):
    """``play(after=...)`` (what `trv demo` does): no load when the game is as the caller saved it; when another
    store appended in between, the save refuses and nothing is written."""
    from trvendetta.store import GameMovedOn

    toy = toy_ruleset.RULESET
    made = svc.new_game(toy, toy.default_position(PLAYERS, 3), "race")
    loads = []
    svc.load = lambda game, at=None: loads.append(game) or GameService.load(svc, game, at)
    once = svc.play("race", first, after=made.loaded)
    twice = svc.play("race", first, after=once.loaded)
    assert loads == [] and twice.loaded.version == svc.store.version("race")
    with GameStore(tmp_path / "games.sqlite") as other:
        GameService(other).play("race", first)
    moved = svc.store.version("race")
    with pytest.raises(GameMovedOn):
        svc.play("race", first, after=twice.loaded)
    assert svc.store.version("race") == moved
