"""The five hazard tokens, revealed (drawn) when a car enters the space."""

from trvendetta.vendetta.actions import SlamReroll

from .helpers import RS, AssignDie, NoCommand, Step, at, car, ev, game, kinds, play

ME = {"id": "red-medium", "at": "c3"}


def enter_c4(token, die=4, **extra):
    state, _ = game(vehicles=[ME] + extra.pop("vehicles", []), tokens=[{"at": "c4"}], script={"hazard": [token], **extra.pop("script", {})}, **extra)
    return play(state, AssignDie("red-medium", die), NoCommand(), Step("F"))


def test_face_down_until_entered_then_drawn_from_the_pile():
    state, _ = game(vehicles=[ME], tokens=[{"at": "c4"}])
    assert RS.view(state)["tokens"] == [{"at": "c4", "kind": None}]
    before = dict(state.hazard_pile)
    state, evs = play(state, AssignDie("red-medium", 4), NoCommand(), Step("F"))
    revealed = kinds(evs, ev.TokenRevealed)[0]
    assert revealed.at == "c4" and revealed.scripted is False
    assert state.hazard_pile[revealed.kind] == before[revealed.kind] - 1 or revealed.kind in ("mine", "wreckage")


def test_road_token_makes_the_space_road_and_stays():
    state, evs = enter_c4("road")
    assert kinds(evs, ev.TokenRevealed) == [ev.TokenRevealed("c4", "road", True)]
    assert RS.view(state)["tokens"] == [{"at": "c4", "kind": "road"}]
    assert state.turn.moves_left == 3


def test_mud_token_makes_the_space_mud_costing_two():
    state, evs = enter_c4("mud")
    assert kinds(evs, ev.VehicleMoved)[0].cost == 2 and state.turn.moves_left == 2
    assert RS.view(state)["tokens"] == [{"at": "c4", "kind": "mud"}]


def test_oil_slick_slides_one_space_free_then_the_car_keeps_moving():
    state, evs = enter_c4("oil-slick", script={"direction": ["FR"]})
    moves = [(e.how, e.to) for e in kinds(evs, ev.VehicleMoved)]
    assert moves == [("step", "c4"), ("slide", "d4")]
    assert state.turn.moves_left == 3 and RS.pending(state).kind == "step"
    assert RS.view(state)["tokens"] == [{"at": "c4", "kind": "oil-slick"}]


def test_mine_deals_one_damage_ends_the_move_and_is_removed():
    state, evs = enter_c4("mine", script={"damage": ["dent"]})
    assert kinds(evs, ev.DamageDrawn) == [ev.DamageDrawn("red-medium", "dent", True)]
    assert kinds(evs, ev.TokenReturned) == [ev.TokenReturned("c4", "mine")]
    assert state.tokens == () and state.turn.player == "bob"
    assert car(state, "red-medium").damage == ("dent",) and at(state, "red-medium") == "c4"


def test_wreckage_places_a_wreck_and_the_car_slams_it():
    state, evs = enter_c4("wreckage", script={"slam": ["TOP"], "direction": ["FL"]})
    assert kinds(evs, ev.WreckPlaced) == [ev.WreckPlaced("wreck-1", "c4")]
    assert kinds(evs, ev.SlamStarted) == [ev.SlamStarted("red-medium", "wreck-1", "c4")]
    # a wreck is Large: the medium car's owner has no reroll; the slam resolves at once
    assert at(state, "red-medium") == "b4" and RS.view(state)["wrecks"] == ["c4"]
    assert state.turn.player == "bob"


def test_hazard_pile_is_conserved():
    state, evs = enter_c4("mine", script={"damage": ["dent"]})
    assert sum(state.hazard_pile.values()) == 26


def test_a_hazard_in_an_occupied_space_does_not_trigger_after_the_slam():
    """Re-read: entering an occupied space is a slam; the slam is the entry's
    effect and ends the car's movement, so a token under the slammed vehicle is
    neither revealed nor resolved, even when the mover stays on that space."""
    from .helpers import game, play, at, kinds, ev, AssignDie, NoCommand, Step
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-medium", "at": "c4"}],
                    tokens=[{"at": "c4", "kind": "mine"}], script={"slam": ["BOTTOM"], "direction": ["FR"]})
    state, evs = play(state, AssignDie("red-medium", 1), NoCommand(), Step("F"))
    assert kinds(evs, ev.SlamStarted) and at(state, "red-medium") == "c4" and at(state, "blue-medium") == "d4"
    assert not kinds(evs, ev.TokenRevealed) and not kinds(evs, ev.DamageDrawn)
    assert state.tokens[0].face_up is False
