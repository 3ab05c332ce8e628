"""Which crews the arena takes and how they enter it are what each crew declares
(``Crew.arena_refusal``, ``Crew.enters_tiles_again``; 002 "Using Other Expansions"), read
through the registry: a crew the Carnival never heard of is seated or refused by its own word."""

import pytest

from trvendetta.core.errors import PositionError
from trvendetta.vendetta import components as comp
from trvendetta.vendetta import crew
from trvendetta.vendetta.actions import AssignDie
from trvendetta.vendetta.cars import Cars
from trvendetta.vendetta.crews.finalfive.rules import FinalFive

from .helpers import RS, game

NAME = "stilt-walkers"


class StiltWalkers(Cars):
    """A toy crew of three cars."""


@pytest.fixture
def stilts(monkeypatch):
    """The toy crew, registered for the Carnival (and taken out again after the test)."""
    walkers = StiltWalkers()
    monkeypatch.setitem(comp._EXTRA, NAME, (comp.Crew(NAME, ("small", "medium", "large"), 4), (), ("carnival",)))
    monkeypatch.setitem(crew.CREWS, NAME, walkers)
    return walkers


def test_a_crew_that_declares_no_refusal_plays_in_the_arena(stilts):
    assert NAME in RS.crews() and "finalfive" in RS.crews() and "bigrig" not in RS.crews()
    state, _ = RS.new_game(RS.default_position([("ann", "red", NAME), ("bob", "blue", "cars")], 1))
    assert [p.crew for p in state.players] == [NAME, "cars"]


def test_a_crew_that_declares_a_refusal_is_left_out_and_refused_in_its_own_words(stilts):
    stilts.arena_refusal = "Stilts topple in the arena."
    assert NAME not in RS.crews() and "cars" in RS.crews()
    with pytest.raises(PositionError, match="players.1..crew: Stilts topple in the arena."):
        RS.default_position([("ann", "red", "cars"), ("bob", "blue", NAME)], 1)


@pytest.mark.parametrize("again", [True, False])
def test_entering_tiles_again_is_the_crews_word(monkeypatch, again):
    """The Final Five's fifth motorcycle after entries on tiles 2, 3, 1 and 3: only tiles 1 and 2 are
    open to a crew that enters tiles again (bike5, behind tile 3, may not take the die); to one that
    does not no tile is left, and the rule that cannot be kept lets every motorcycle take it."""
    monkeypatch.setattr(FinalFive, "enters_tiles_again", again)
    players = [{"name": "ann", "color": "red", "crew": "finalfive", "dice": [4, 2, 3, 1, 5, 6], "turns": 1},
               {"name": "bob", "color": "blue", "dice": [3, 3, 5, 6], "turns": 1}]
    starts = {"red-bike1": 1, "red-bike2": 2, "red-bike3": 3, "red-bike4": 2, "red-bike5": 3}
    state, _ = game(round=1, entered={"ann": [2, 3, 1, 3]}, starts=starts, players=players, turn=2)
    cars = {o.car for o in RS.pending(state).options if isinstance(o, AssignDie)}
    assert ("red-bike5" in cars) is not again and "red-bike4" in cars
