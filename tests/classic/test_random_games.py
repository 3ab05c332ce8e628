"""Random seeded games finish without an exception, and folding their events again
gives the same state (OpenSpiel-style conformance playouts)."""

from collections import Counter

import pytest

from trvendetta.core.rng import Rng

from .helpers import RS

COLORS = ("red", "blue", "green", "yellow")
MAX_ACTIONS = 20_000


def playout(players: int, seed: int):
    pos = RS.default_position([(f"p{i}", COLORS[i], "cars") for i in range(players)], seed)
    state, events = RS.new_game(pos)
    events = list(events)
    chooser = Rng(seed, 10**9)
    actions = 0
    while not RS.is_over(state):
        options = RS.legal_actions(state)
        assert options, "a game that is not over has a decision"
        state, new = RS.apply(state, chooser.pick(options))
        events += new
        actions += 1
        assert actions < MAX_ACTIONS
        check_invariants(state)
    assert RS.legal_actions(state) == [] and RS.pending(state) is None
    assert state.version == len(events)
    assert RS.fold(events) == state
    assert RS.decode_state(RS.encode(state)) == state
    return state, events, actions


def check_invariants(state):
    count = Counter(c.at for c in state.cars if c.at is not None)
    count.update(state.wrecks)
    assert max(count.values(), default=0) <= 2
    first, last = state.boards[0].first, state.boards[-1].last
    from trvendetta.core.geometry import number

    assert all(first <= number(sp) <= last for sp in count)


def run(players: int, games: int):
    winners = Counter()
    total = 0
    for seed in range(games):
        state, _, actions = playout(players, seed)
        winners[state.winner is not None] += 1
        total += actions
    return winners, total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_sample(players):
    winners, _ = run(players, 30)
    assert winners[True] == 30


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_full(players):
    winners, _ = run(players, 500)
    assert sum(winners.values()) == 500
