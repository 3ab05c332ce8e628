"""Bots, simulation and the summary: legal, reproducible, pure."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest

import trvendetta.bots as bots_pkg
from trvendetta import rulesets
from trvendetta.bots import (
    GameResult,
    GreedyBot,
    RandomBot,
    SimSummary,
    bot_names,
    get_bot,
    new_position,
    run_many,
    sim_summary_text,
    simulate,
)
from trvendetta.bots.sim import bucket
from trvendetta.core.errors import TrvError
from trvendetta.core.rng import Rng

NAMES = rulesets.names()


def test_registry_names_and_unknown_bot() -> None:
    assert bot_names() == ["random", "greedy", "front", "search"]
    assert isinstance(get_bot("random"), RandomBot)
    assert isinstance(get_bot("greedy"), GreedyBot)
    with pytest.raises(TrvError, match="unknown bot 'clever'; known: random, greedy, front, search"):
        get_bot("clever")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bot", ["random", "greedy", "front"])
def test_bots_choose_legal_actions_until_the_end(name: str, bot: str) -> None:
    rs = rulesets.get(name)
    state, _ = rs.new_game(new_position(rs, 3, 5))
    agent, rng = get_bot(bot), Rng(5, 1000)
    steps = 0
    while not rs.is_over(state):
        action = agent.choose(rs, state, rng)
        assert action in rs.legal_actions(state)
        state, _ = rs.apply(state, action)
        steps += 1
        assert steps < 20_000
    with pytest.raises(TrvError):
        RandomBot().choose(rs, state, rng)


@pytest.mark.parametrize("name", NAMES)
def test_simulate_is_reproducible(name: str) -> None:
    one = simulate(name, 4, 11, ["random"])
    two = simulate(rulesets.get(name), 4, 11, ["random"])
    assert one == two
    assert one.finished and one.events > 0 and one.actions > 0
    assert one.winner is None or one.winner == f"p{one.winner_seat}"
    assert msgspec.json.decode(msgspec.json.encode(one), type=GameResult) == one


def test_simulate_records_eliminations_without_names() -> None:
    result = simulate("vendetta", 4, 3, ["random"])
    assert sum(result.eliminations.values()) > 0
    for cause in result.eliminations:
        assert "p1" not in cause and "red-" not in cause


def test_bucket_strips_ids_names_and_spaces() -> None:
    ids = ["red-small", "red-medium"]
    assert bucket("ended the turn under p2's chopper", ids, ["p1", "p2"]) == "ended the turn under a player's chopper"
    assert bucket("drove into impassable terrain at c17", ids, ["p1"]) == "drove into impassable terrain"
    assert bucket("red-medium crossed the Finish Line", ids, ["p1"]) == "a vehicle crossed the Finish Line"
    assert bucket("left the road at d-1", ids, []) == "left the road"


@pytest.mark.parametrize("name", NAMES)
def test_greedy_beats_random(name: str) -> None:
    """The greedy bot in seat 2 against random bots wins most games."""
    summary = run_many(name, 3, 20, seed=1, bots=["random", "greedy", "random"])
    assert summary.wins_by_seat["p2"] >= 14


def test_run_many_summary_and_text() -> None:
    results: list = []
    summary = run_many("vendetta", 2, 6, seed=40, bots=["random"], results=results, clock=iter(range(0, 100, 3)).__next__)
    assert [r.seed for r in results] == list(range(40, 46))
    assert summary.games == 6 and sum(summary.wins_by_seat.values()) + summary.no_winner == 6
    assert summary.events.max == max(r.events for r in results)
    assert summary.seconds == 3 and summary.games_per_second == 2.0
    assert msgspec.json.decode(msgspec.json.encode(summary), type=SimSummary) == summary
    text = sim_summary_text(summary)
    assert text.splitlines()[0] == "vendetta: 6 games of 2 players, bots random, seeds 40..45"
    assert "wins by seat:" in text and "6 games in 3.00 s: 2 games/s" in text


def test_run_many_in_parallel_gives_the_same_summary() -> None:
    one = run_many("vendetta", 3, 8, seed=7, bots=["random"], jobs=1)
    two = run_many("vendetta", 3, 8, seed=7, bots=["random"], jobs=2)
    assert msgspec.structs.replace(two, jobs=1) == one


def test_run_many_refuses_bad_arguments() -> None:
    with pytest.raises(TrvError, match="2 to 4 players"):
        run_many("vendetta", 5, 1)
    with pytest.raises(TrvError, match="3 bots for 2 players"):
        run_many("vendetta", 2, 1, bots=["random", "random", "greedy"])
    with pytest.raises(TrvError, match="unknown bot"):
        run_many("vendetta", 2, 1, bots=["nobody"])


def test_bots_package_is_pure() -> None:
    """Only the standard library, msgspec and trvendetta; no clock, no global random."""
    forbidden = {"click", "eventsourcing", "sqlite_utils", "random", "time", "datetime"}
    for path in Path(bots_pkg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                mods = [(node.module or "").split(".")[0]]
            else:
                continue
            assert not set(mods) & forbidden, f"{path.name} imports {mods}"
