"""``trv sim`` as a standalone click command (the lead registers it in cli/main.py)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from trvendetta.cli.sim import sim


def test_sim_prints_a_summary() -> None:
    result = CliRunner().invoke(sim, ["--games", "4", "--players", "2", "--seed", "3", "-q"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "vendetta: 4 games of 2 players, bots random, seeds 3..6"
    assert lines[1].startswith("wins by seat:")
    assert "games/s" in lines[-1]


def test_sim_json_matches_the_library_and_per_seat_bots() -> None:
    result = CliRunner().invoke(sim, ["--games", "3", "--players", "2", "--bot", "greedy,random", "--json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["bots"] == ["greedy", "random"] and data["games"] == 3
    assert sum(data["wins_by_seat"].values()) + data["no_winner"] == 3


def test_sim_stores_games(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRV_DB", str(tmp_path / "sim.sqlite"))
    result = CliRunner().invoke(sim, ["--games", "2", "--players", "2", "--store", "-q"])
    assert result.exit_code == 0, result.output
    from trvendetta.store import GameStore

    with GameStore(str(tmp_path / "sim.sqlite")) as store:
        game = store.load("sim-vendetta-2p-1")
        assert game.state.phase == "over"


def test_sim_refuses_bad_input_with_a_message() -> None:
    result = CliRunner().invoke(sim, ["--players", "7", "--games", "1", "-q"])
    assert result.exit_code == 2 and "2 to 4 players" in result.output
    result = CliRunner().invoke(sim, ["--bot", "wizard", "--games", "1", "-q"])
    assert result.exit_code == 1 and "unknown bot 'wizard'" in result.output
    result = CliRunner().invoke(sim, ["--ruleset", "chess", "--games", "1", "-q"])
    assert result.exit_code == 2 and "unknown ruleset" in result.output


def test_sim_with_mixed_crews_rotates_them_and_reports_win_rates() -> None:
    result = CliRunner().invoke(sim, ["--crews", "finalfive,cars", "--bot", "greedy", "--games", "4", "--json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"] == 2 and data["crews_played"] == {"cars": 4, "finalfive": 4}
    assert sum(data["wins_by_crew"].values()) + data["no_winner"] == 4
    text = CliRunner().invoke(sim, ["--crews", "finalfive,cars", "--games", "2", "-q"]).output
    assert "win rate by crew" in text


def test_every_crew_sits_in_every_seat_over_consecutive_seeds() -> None:
    from trvendetta.bots.sim import seat_crews

    seats = {seat_crews(("finalfive", "cars", "cars"), 3, seed) for seed in range(3)}
    assert {s.index("finalfive") for s in seats} == {0, 1, 2}
    assert seat_crews(("finalfive",), 2, 0, "cars") == ("finalfive", "cars")  # past the list: the default crew


def test_sim_refuses_bad_crews() -> None:
    result = CliRunner().invoke(sim, ["--crews", "finalfive,finalfive", "--games", "1", "-q"])
    assert result.exit_code == 1 and "at most one" in result.output
    result = CliRunner().invoke(sim, ["--crews", "pirates,cars", "--games", "1", "-q"])
    assert result.exit_code == 2 and "'pirates,cars': unknown crew 'pirates'; crews: cars" in result.output
    result = CliRunner().invoke(sim, ["--crews", "finalfve", "--games", "1", "-q", "--players", "2"])
    assert result.exit_code == 2 and "unknown crew 'finalfve' (did you mean 'finalfive'?)" in result.output
    result = CliRunner().invoke(sim, ["--ruleset", "classic", "--crews", "cars,cars", "--games", "1", "-q"])
    assert result.exit_code == 1 and "--crews is for Vendetta" in result.output
