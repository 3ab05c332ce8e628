"""The front-die bot: the greedy bot but for where a car crew's biggest die goes."""

from __future__ import annotations

from trvendetta import rulesets
from trvendetta.bots import GreedyBot, new_position
from trvendetta.bots.front import FrontBot
from trvendetta.core.rng import Rng


def _assigns(players: int, crew: str, games: int = 6):
    """Assign decisions of car crews (two cars or more on the road at different places, two
    different dice), from greedy games."""
    rs = rulesets.get("vendetta")
    for seed in range(games):
        state, _ = rs.new_game(new_position(rs, players, seed, crew))
        bot, rng = GreedyBot(), Rng(seed, 3)
        while not rs.is_over(state):
            d = rs.pending(state)
            crews = {s.name: s.crew for s in rs.seats(state)}
            if d.kind == "assign" and crews[d.player] == "cars":
                ys = {v.id: v.at[1] for v in state.vehicles
                      if v.owner == d.player and v.at is not None and not v.start and v.status == "operational"}
                dice = {a.die for a in d.options if hasattr(a, "car") and not a.momentum}
                cars = {a.car for a in d.options if hasattr(a, "car")}
                if len(dice) > 1 and len(set(ys[c] for c in cars if c in ys)) > 1 and cars <= set(ys):
                    yield rs, state, d, ys
            state, _ = rs.apply(state, bot.choose(rs, state, rng, d))


def test_the_biggest_die_goes_to_the_frontmost_car_where_greedy_gives_it_to_the_rearmost() -> None:
    seen = 0
    for rs, state, d, ys in _assigns(2, "cars"):
        plain = [a for a in d.options if hasattr(a, "car") and not a.momentum]
        if len(plain) != len(d.options) or any(a.die == 6 for a in plain):
            continue  # a 6 may be kept back for a repair; Pass and momentum score otherwise
        front = FrontBot().choose(rs, state, Rng(1, seen), d)
        greedy = GreedyBot().choose(rs, state, Rng(1, seen), d)
        assert ys[front.car] == max(ys[a.car] for a in plain)
        assert front.die == max(a.die for a in plain if a.car == front.car)
        assert ys[greedy.car] == min(ys[a.car] for a in plain)
        assert greedy.die == max(a.die for a in plain if a.car == greedy.car)
        seen += 1
        if seen >= 5:
            break
    assert seen >= 5


def test_other_crews_and_decisions_are_the_greedy_bots() -> None:
    rs = rulesets.get("vendetta")
    compared = 0
    for crew in ("finalfive", "bigrig"):
        state, _ = rs.new_game(new_position(rs, 2, 4, [crew, "cars"]))
        rng = Rng(4, 1)
        while not rs.is_over(state) and compared < 400:
            d = rs.pending(state)
            crews = {s.name: s.crew for s in rs.seats(state)}
            if crews[d.player] != "cars" or d.kind != "assign":
                assert FrontBot().scores(rs, state, d) == rs.score_options(state, d)
                compared += 1
            state, _ = rs.apply(state, GreedyBot().choose(rs, state, rng, d))
    assert compared >= 100
