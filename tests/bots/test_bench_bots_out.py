"""``python -m bench.bots --out FILE``: each game kept as it ends, a cut run resumed, not replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import bots

ARGS = ["duel", "--games", "2", "--against", "greedy", "--seed", "5", "--steps", "5"]


def test_a_finished_file_prints_its_tables_without_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "duel.jsonl"
    bots.main([*ARGS, "--out", str(out)])
    first = capsys.readouterr().out
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in lines) == [5, 6]
    assert {tuple(r["bots"]) for r in lines} == {("search", "greedy"), ("greedy", "search")}
    assert "search against greedy" in first

    def refuse(job: tuple) -> dict:
        raise AssertionError(f"played {job} again")

    monkeypatch.setattr(bots, "_run", refuse)
    bots.main([*ARGS, "--out", str(out)])
    assert capsys.readouterr().out == first
    assert len(out.read_text().splitlines()) == 2  # nothing appended


def test_a_cut_run_plays_only_the_games_its_file_lacks(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "duel.jsonl"
    bots.main([*ARGS, "--out", str(out)])
    whole = capsys.readouterr().out
    kept = out.read_text().splitlines()
    out.write_text(kept[0] + "\n")  # as if the run was cut after its first game
    played: list[int] = []
    run = bots._run

    def counted(job: tuple) -> dict:
        played.append(job[1])
        return run(job)

    monkeypatch.setattr(bots, "_run", counted)
    bots.main([*ARGS, "--out", str(out)])
    assert played == [json.loads(kept[1])["seed"]]
    assert capsys.readouterr().out == whole  # the same tables: a game is a function of its seed
    assert len(out.read_text().splitlines()) == 2


def test_another_budget_is_another_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "duel.jsonl"
    bots.main([*ARGS, "--out", str(out)])
    played: list[int] = []
    run = bots._run
    monkeypatch.setattr(bots, "_run", lambda job: played.append(job[4]) or run(job))
    bots.main([*ARGS[:-1], "6", "--out", str(out)])
    assert played == [6, 6] and len(out.read_text().splitlines()) == 4


def test_report_prints_the_tables_of_a_file_as_far_as_it_got(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    duel, balance = tmp_path / "duel.jsonl", tmp_path / "balance.jsonl"
    bots.main([*ARGS, "--out", str(duel)])
    table = capsys.readouterr().out.split("\n\n", 1)[1]  # the run's table, after its header line
    bots.main(["balance", "--bot", "greedy", "--players", "3", "--games", "6", "--out", str(balance)])
    shares = capsys.readouterr().out.split("\n\n", 1)[1]

    monkeypatch.setattr(bots, "_run", lambda job: pytest.fail("report plays nothing"))
    bots.main(["report", str(duel), str(balance)])
    out = capsys.readouterr().out
    assert "== vendetta, crews cars, search steps 5: 2 games, seeds 5..6\n\n" + table in out
    assert "== vendetta: bot greedy against itself: seeds 1..6\n\n" + shares in out

    duel.write_text(duel.read_text().splitlines()[1] + "\n")  # a run cut after one game
    bots.main(["report", str(duel)])
    out = capsys.readouterr().out
    assert "1 game, seeds 6..6" in out and "all seats                " in out
