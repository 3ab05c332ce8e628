"""The search bot: legal, reproducible, and blind to what its seat may not see (tiny budgets)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from trvendetta import rulesets
from trvendetta.bots import GreedyBot, get_bot, new_position
from trvendetta.bots.search import SearchBot
from trvendetta.bots.seats import bot_moves
from trvendetta.core.errors import TrvError
from trvendetta.core.rng import Rng

STEPS = 60


def _states(name: str, players: int, seed: int, crew="cars"):
    """Every state of a greedy game, with its pending decision."""
    rs = rulesets.get(name)
    state, _ = rs.new_game(new_position(rs, players, seed, crew))
    greedy, rng = GreedyBot(), Rng(seed, 5)
    while not rs.is_over(state):
        d = rs.pending(state)
        yield state, d
        state, _ = rs.apply(state, greedy.choose(rs, state, rng, d))


def test_search_is_registered_and_refuses_a_bad_budget() -> None:
    assert isinstance(get_bot("search"), SearchBot)
    with pytest.raises(TrvError, match="at least one step"):
        SearchBot(0)


@pytest.mark.parametrize("name", rulesets.names())
def test_search_chooses_legal_options_and_the_same_for_the_same_seed(name: str) -> None:
    rs = rulesets.get(name)
    choices = [(state, d) for state, d in _states(name, 2, 3) if len(d.options) > 1]
    assert choices
    for i, (state, d) in enumerate(choices[:: max(1, len(choices) // 4)][:4]):
        one = SearchBot(STEPS).choose(rs, state, Rng(9, i), d)
        two = SearchBot(STEPS).choose(rs, state, Rng(9, i))
        assert one in d.options and one == two


def _differ_in_hidden(rs, state, d):
    """``state`` and a copy whose hidden parts differ: another seed (so other coming dice), the road
    pieces under the top of the pile in another order and on their other sides, and, in the Carnival,
    every favor another player holds of another kind (the mix left changed to match)."""
    pile = state.tile_pile
    if len(pile) > 2:
        c = state.components
        other = {side: next(s for s in c.tiles()[c.sides[side].tile] if s != side) for side in pile[1:]}
        pile = pile[:1] + tuple(other[s] for s in reversed(pile[1:]))
    twin = replace(state, seed=state.seed + 12345, tile_pile=pile)
    if hasattr(state, "favors"):
        mix = dict(state.favor_pile)
        favors = {}
        for p, held in state.favors.items():
            if p == d.player:
                favors[p] = held
                continue
            new = []
            for kind in held:
                swap = next((k for k in sorted(mix) if k != kind and mix[k] > 0), None)
                if swap is None:
                    new.append(kind)
                    continue
                mix[swap] -= 1
                mix[kind] = mix.get(kind, 0) + 1
                new.append(swap)
            favors[p] = tuple(new)
        twin = replace(twin, favors=favors, favor_pile=mix)
    return twin


@pytest.mark.parametrize("name, crew", [("vendetta", "cars"), ("carnival", "cars")])
def test_search_never_reads_what_its_seat_may_not_see(name: str, crew: str) -> None:
    """Two states that differ only in what the deciding seat may not see give the same
    determinizations and the same choices for the same seed."""
    rs = rulesets.get(name)
    hidden_favors = 0
    compared = 0
    for i, (state, d) in enumerate(_states(name, 2, 4, crew)):
        if len(d.options) < 2:
            continue
        twin = _differ_in_hidden(rs, state, d)
        if twin == state:
            continue
        others = [k for p, held in getattr(state, "favors", {}).items() if p != d.player for k in held]
        if others and twin.favors != state.favors:
            hidden_favors += 1
        elif i % 5:
            continue
        assert rs.determinize(state, d.player, Rng(1, i)) == rs.determinize(twin, d.player, Rng(1, i))
        assert SearchBot(STEPS).choose(rs, state, Rng(2, i), d) == SearchBot(STEPS).choose(rs, twin, Rng(2, i))
        compared += 1
        if compared >= 6 and (hidden_favors >= 2 or name != "carnival"):
            break
    assert compared >= 6
    if name == "carnival":
        assert hidden_favors >= 2  # the Carnival's case really hid something besides the seed


def test_the_seats_own_favors_are_not_redrawn() -> None:
    rs = rulesets.get("carnival")
    for state, d in _states("carnival", 2, 4):
        mine = state.favors.get(d.player, ())
        theirs = [k for p, held in state.favors.items() if p != d.player for k in held]
        if mine and theirs:
            break
    else:
        raise AssertionError("no state where both players hold favors")
    seen = {rs.determinize(state, d.player, Rng(7, n)).favors[d.player] for n in range(20)}
    assert seen == {mine}
    drawn = {rs.determinize(state, d.player, Rng(7, n)).favors[p] for n in range(40)
             for p in state.favors if p != d.player}
    assert len(drawn) > 1  # the others' favors are drawn again, not copied


def test_a_bot_seat_plays_search_and_replays_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot seats (``trv new --bot search:...``) answer through ``bot_moves``; the same game
    and seed give the same moves."""
    from trvendetta.bots import registry

    monkeypatch.setitem(registry.BOTS, "search", lambda: SearchBot(STEPS))
    rs = rulesets.get("vendetta")
    start, events = rs.new_game(new_position(rs, 2, 8))
    runs = []
    for _ in range(2):
        state, moves = start, []
        count = len(events)
        for _ in range(40):
            state, more = bot_moves(rs, state, {"p1": "search", "p2": "greedy"}, count)
            moves += [(m.player, m.action) for m in more]
            count += sum(len(m.events) for m in more)
            if rs.is_over(state) or not more:
                break
        runs.append(moves)
    assert runs[0] == runs[1] and any(p == "p1" for p, _ in runs[0])


def test_an_unknown_rollout_is_refused() -> None:
    with pytest.raises(TrvError, match="unknown rollout 'clever'; known: front, greedy, random"):
        SearchBot(10, rollout="clever")


def test_the_search_never_weighs_a_disaster_while_something_else_is_legal() -> None:
    """Progressive widening drops the options the heuristic scores as disasters (driving off the
    road): a step decision with one never gets it chosen, whatever the budget finds."""
    rs = rulesets.get("vendetta")
    from trvendetta.bots.search import DISASTER

    seen = 0
    for seed in range(6):
        for state, d in _states("vendetta", 2, seed):
            scores = rs.score_options(state, d)
            if scores is None or len(d.options) < 2 or min(scores) > DISASTER or max(scores) <= DISASTER:
                continue
            bad = {a for a, s in zip(d.options, scores) if s <= DISASTER}
            assert SearchBot(STEPS).choose(rs, state, Rng(seed, seen), d) not in bad
            seen += 1
            if seen >= 4:
                return
    raise AssertionError(f"only {seen} step decisions with a disaster among the options")
