"""Tournaments on either store, and ratings carried from one tournament to the next."""

from __future__ import annotations

import sys
from pathlib import Path

import sqlite_utils

from trvendetta.store import GameStore
from trvendetta.store.tournament import TournamentLog
from trvendetta.tournament import events as tev
from trvendetta.tournament import model
from trvendetta.tournament.standings import standings

from .conftest import Trv


def _run(t, name: str, players: list[str], seed: int) -> None:
    t("tournament", "new", name, "--ruleset", "toy", "--rounds", "2", "--pod-size", "2", "--seed", seed)
    t("tournament", "register", name, *players)
    for _ in range(2):
        tables = t.json("tournament", "pair", name)["tables"]
        t("tournament", "start", name, "--bots", "random")
        for table in tables:
            t("tournament", "report", name, "--table", table["table"])


def test_ratings_are_carried_across_tournaments_in_the_read_model(toy):
    _run(toy, "first", ["ann", "bob", "cyd", "dee"], 1)
    after_first = {r["player"]: r["rating"] for r in toy.json("tournament", "standings", "first")}
    _run(toy, "second", ["ann", "bob", "cyd", "eve"], 2)
    second = {r["player"]: r for r in toy.json("tournament", "standings", "second")}
    for p in ("ann", "bob", "cyd"):
        assert second[p]["rating_before"] == after_first[p]
    assert second["eve"]["rating_before"] is None  # new in the second tournament
    db = sqlite_utils.Database(toy.db)
    ratings = {r["player"]: r for r in db.query("select * from trv_ratings")}
    assert ratings["ann"]["games"] == 4 and ratings["ann"]["tournaments"] == 2
    assert ratings["dee"]["tournaments"] == 1 and ratings["dee"]["last_tournament"] == "first"
    assert all(ratings[p]["rating"] == second[p]["rating"] for p in second)
    names = [r["name"] for r in db.query("select name from trv_tournaments order by name")]
    assert names == ["first", "second"]
    # the first tournament's rows still say what they said (its own end), not today's ratings
    again = {r["player"]: r["rating"] for r in toy.json("tournament", "standings", "first")}
    assert again == after_first


def test_a_tournament_on_postgresql(pg_url, tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))
    import toy_ruleset

    t = Trv(tmp_path / "unused.sqlite")
    t.db = pg_url  # --db takes a store location
    toy_ruleset.register()
    _run(t, "pg", ["ann", "bob", "cyd", "dee"], 3)
    with GameStore(pg_url) as store:
        log = TournamentLog(store)
        assert log.names() == ["pg"]
        state = model.fold(tev.decode(r.payload) for r in log.records("pg"))
        log.verify("pg")
    shown = t.json("tournament", "standings", "pg")
    assert [r["player"] for r in shown] == [s.player for s in standings(state)]
    out = tmp_path / "pg.trvt"
    t("tournament", "export", "pg", "-o", out)
    assert "4 games re-executed" in t("tournament", "verify", out).stdout


def test_a_damaged_export_is_one_line_and_exit_1(toy, tmp_path):
    _run(toy, "cup", ["ann", "bob", "cyd", "dee"], 5)
    good = tmp_path / "cup.trvt"
    toy("tournament", "export", "cup", "-o", good)
    data = good.read_bytes()
    assert "4 games re-executed" in toy("tournament", "verify", good).stdout
    game = data.index(b"% game ")
    cases = {
        "empty": b"",
        "noise": bytes(range(256)) * 3,
        "cut": data[: len(data) // 2],
        "huge length": data[:game] + b"% game 99999999999\n" + data[game:],
        "bad escape": b'% trvendetta tournament 1\n[Tournament "\\q"]\n\n',
        "wrong length": data[:game] + b"% game 10\n0123456789% end tournament\n",
        "a game dropped": data[:game] + b"% end tournament\n",
        "trailing text": data + b"more\n",
    }
    for what, bad in cases.items():
        path = tmp_path / f"{what}.trvt"
        path.write_bytes(bad)
        err = toy("tournament", "verify", path, code=1).stderr
        assert err.startswith(f"Error: {path}: "), (what, err)
    assert "the record of game cup-r1-t1 is not in the file" in toy("tournament", "verify", tmp_path / "a game dropped.trvt",
                                                         code=1).stderr
    assert ["cup"] == [t["name"] for t in toy.json("tournament", "list")]
