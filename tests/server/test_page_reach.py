"""The reach API lists the spaces a move meets chance on, too (docs/server.md, "The page"): a
step into a slam or onto a face-down hazard token is a space to click, labelled with what may
happen there, so no vehicle is left to the buttons only because every way of it meets chance.
The label says nothing chance decides: no roll, no hidden token's kind."""

from __future__ import annotations

import pytest

from trvendetta.core.rng import NeedDice, NoDice, Rng
from trvendetta.server import page_api
from trvendetta.vendetta import board as b
from vendetta.helpers import RS, game  # tests/ is on sys.path (rootdir conftest)


def _ann_moves_one(token_kind: str | None = None):
    """ann's red-medium at c3 with a 1: F slams bob's blue-large at c4, FR enters a face-down token
    at d3 (its kind ``token_kind``, or drawn from the pile when None), FL reaches b3 plainly."""
    token = {"at": "d3"} if token_kind is None else {"at": "d3", "kind": token_kind, "face_up": False}
    state, _ = game(vehicles=[{"id": "red-medium", "at": "c3"}, {"id": "blue-large", "at": "c4"}],
                    tokens=[token], road_die=1,
                    players=[{"name": "ann", "color": "red", "dice": [1]}, {"name": "bob", "color": "blue", "dice": [1]}])
    option = next(i for i, a in enumerate(RS.legal_actions(state)) if RS.describe_action(a) == "assign 1 to red-medium")
    return state, option


def test_a_slam_and_a_hidden_token_are_spaces_to_click_with_what_may_happen():
    state, option = _ann_moves_one()
    found = page_api.reach(RS, state, option)
    spaces = found["vehicles"]["red-medium"]
    assert "chance" not in spaces["b3"]  # a plain way stays plain
    assert spaces["c4"]["chance"] == ("red-medium slams blue-large at c4; red-medium stops: slammed; "
                                      "the slam dice are rolled")
    assert spaces["d3"]["chance"] == "a face-down hazard token is turned over"
    assert found["cut_by_chance"] == 2
    for at in ("c4", "d3"):
        way = spaces[at]
        assert way["passed"] == [at] and way["names"][-1] in ("F", "FR")
        now = state
        *first, last = [RS.decode_action(a.encode()) for a in way["actions"]]
        for action in first:
            now, _ = RS.apply(now, action, NoDice())
        with pytest.raises(NeedDice):  # the way's last action is where chance comes in
            RS.apply(now, last, NoDice())
        for seed in range(6):  # whatever chance decides, that action takes the car into the space first
            state_after = now
            for event in RS.decide(now, last, Rng(seed, 1)):
                state_after = RS.evolve(state_after, event)
                if b.vehicle(state_after, "red-medium").at != b.vehicle(now, "red-medium").at:
                    break
            assert b.nm(b.vehicle(state_after, "red-medium").at) == at


def test_the_label_tells_nothing_of_a_hidden_tokens_kind():
    """A face-down token whose kind the state holds: the way onto it reads the same whatever it is."""
    labels = {kind: page_api.reach(RS, *_ann_moves_one(kind))["vehicles"]["red-medium"]["d3"]["chance"]
              for kind in ("mine", "oil-slick", "wreckage", None)}
    assert set(labels.values()) == {"a face-down hazard token is turned over"}, labels


def test_a_plain_way_is_listed_rather_than_a_way_through_chance():
    """A space both reach (one way plain, another through chance) is listed by its plain way."""
    state, option = _ann_moves_one()
    found = page_api.reach(RS, state, option)
    for spaces in found["vehicles"].values():
        for way in spaces.values():
            if "chance" in way:
                continue
            now = state
            for action in way["actions"]:
                now, events = RS.apply(now, RS.decode_action(action.encode()), NoDice())
                assert not any(RS.reveals(e) for e in events)


@pytest.mark.parametrize("ruleset, crew", [("vendetta", "cars"), ("vendetta", "bigrig"), ("carnival", "cars")])
def test_every_way_through_chance_ends_where_its_last_action_first_takes_the_vehicle(ruleset, crew):
    """Over the first decisions of a game of each kind (the first player's option of each decision
    played, no magic seed: the assign decisions met are searched until five such ways are checked), each
    way's actions before its last play without chance, and its last one needs chance."""
    from trvendetta.game import Game

    game_ = Game.new(ruleset, [("ann", "red", "cars"), ("bob", "blue", crew)], seed=3)
    rules, state = game_.ruleset, game_.state
    met = 0
    for n in range(60):
        decision = rules.pending(state)
        if decision is None or met >= 5:
            break
        if decision.kind == "assign":
            for option in range(len(decision.options)):
                for spaces in page_api.reach(rules, state, option, seconds=1.0)["vehicles"].values():
                    for way in spaces.values():
                        if "chance" not in way:
                            continue
                        met += 1
                        now = state
                        *first, last = [rules.decode_action(a.encode()) for a in way["actions"]]
                        for action in first:
                            now, events = rules.apply(now, action, NoDice())
                            assert not any(rules.reveals(e) for e in events)
                        try:
                            _, events = rules.apply(now, last, NoDice())
                        except NeedDice:
                            continue
                        assert any(rules.reveals(e) for e in events)
        state, _ = rules.apply(state, rules.legal_actions(state)[n % len(rules.legal_actions(state))],
                               Rng(3, n))
    assert met, "no way through chance met: the search above should be given more decisions"
