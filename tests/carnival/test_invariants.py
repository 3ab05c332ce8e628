"""Invariants over random and greedy Carnival games, checked after every action.

On top of the conformance suite (which plays carnival like every ruleset):
every vehicle on the board stands on an arena or road-tile space (never off
the board, never on a raised pillar), faces one of the six directions, no
two cars share a space (motorcycles may: they drift through; so may a car
in the middle of a slam or a drift), scrap is what
the scrap events add up to and never negative, a collected token is gone
from the board, and the game ends by round 6 with a winner who is not out.
"""

import pytest

from trvendetta.bots import new_position
from trvendetta.bots.base import RandomBot
from trvendetta.bots.greedy import GreedyBot
from trvendetta.carnival import arena, spaces
from trvendetta.carnival import events as cev
from trvendetta.core import geometry
from trvendetta.core.rng import Rng

from .helpers import RS


def check(state, earned: dict) -> None:
    side = state.arena
    seen: dict = {}
    for v in state.vehicles:
        assert v.facing in geometry.DIRECTIONS
        if v.at is None:
            assert v.status == "eliminated"
            continue
        where = spaces.where(side, v.at)
        assert where == ("start" if v.start else where) and where != "off", (v, where)
        if v.start:
            continue
        assert v.at not in arena.impassable(side, state.raised)
        t = state.turn
        passing = state.slam is not None or (t is not None and t.phase == "move")  # a slam or a drift under way
        if v.kind != "motorcycle" and not passing:
            assert not any(o.kind != "motorcycle" for o in seen.get(v.at, [])), (v, seen.get(v.at))
        seen.setdefault(v.at, []).append(v)
    assert state.scrap == {p: earned.get(p, 0) for p in state.scrap} and min(state.scrap.values()) >= 0
    assert not set(state.favor_tokens) & set(state.weapon_tokens)
    assert state.round <= 7


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_every_step_of_random_and_greedy_games_keeps_the_invariants(players, bot):
    for seed in range(3):
        crews = ("finalfive",) + ("cars",) * (players - 1) if seed == 2 else "cars"
        state, events = RS.new_game(new_position(RS, players, seed, crews))
        earned: dict = {}
        agent = RandomBot() if bot == "random" else GreedyBot()
        rng = Rng(seed, 77)
        while state.phase != "over":
            for e in events:
                if isinstance(e, cev.ScrapGained):
                    earned[e.player] = earned.get(e.player, 0) + e.amount
            check(state, earned)
            state, events = RS.apply(state, agent.choose(RS, state, rng, RS.pending(state)))
        assert state.round <= 6 and state.winner is None or not next(p for p in state.players
                                                                     if p.name == state.winner).out
