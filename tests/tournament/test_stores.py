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


def test_the_read_model_links_its_tables_with_foreign_keys(toy):
    """datasette links a standings or seat row to its tournament and its player's rating, and a
    rating to its last tournament: the foreign keys exist, every reference resolves, and the
    joins give one row per standing; places are a list, not the text "1,2"."""
    import json

    _run(toy, "first", ["ann", "bob", "cyd", "dee"], 1)
    toy("tournament", "new", "later", "--ruleset", "toy", "--rounds", "1", "--pod-size", "2", "--seed", 3)
    toy("tournament", "register", "later", "ann", "eve")  # eve has no decided table yet: no rating
    db = sqlite_utils.Database(toy.db)
    links = {(fk.table, fk.column, fk.other_table, fk.other_column)
             for t in ("trv_tournament_standings", "trv_tournament_seats", "trv_ratings")
             for fk in db[t].foreign_keys}
    assert links == {
        ("trv_tournament_standings", "tournament", "trv_tournaments", "name"),
        ("trv_tournament_standings", "player", "trv_ratings", "player"),
        ("trv_tournament_seats", "tournament", "trv_tournaments", "name"),
        ("trv_tournament_seats", "player", "trv_ratings", "player"),
        ("trv_ratings", "last_tournament", "trv_tournaments", "name"),
    }
    assert list(db.query("PRAGMA foreign_key_check")) == []  # every reference names a row
    joined = list(db.query(
        "select s.tournament, s.player, s.places, t.status, r.games from trv_tournament_standings s"
        " join trv_tournaments t on t.name = s.tournament join trv_ratings r on r.player = s.player"))
    assert len(joined) == db["trv_tournament_standings"].count == 6
    eve = next(r for r in joined if r["player"] == "eve")
    assert eve["games"] == 0 and eve["status"] == "registering" and json.loads(eve["places"]) == []
    ann = next(r for r in joined if r["player"] == "ann" and r["tournament"] == "first")
    places = json.loads(ann["places"])
    assert len(places) == 2 and all(isinstance(p, int) for p in places)
    assert [r["places"] for r in toy.json("tournament", "standings", "first") if r["player"] == "ann"] == [places]
    seat_places = [r["place"] for r in db.query(
        "select place from trv_tournament_seats where tournament = 'first' and player = 'ann' order by round")]
    assert seat_places == places
    # a store whose read model was written before the foreign keys gets them at the next command
    for table in ("trv_tournament_standings", "trv_tournament_seats", "trv_ratings"):
        db[table].transform(drop_foreign_keys=[fk.column for fk in db[table].foreign_keys])
    assert not db["trv_tournament_seats"].foreign_keys
    toy("tournament", "standings", "first")
    assert len({fk.column for fk in sqlite_utils.Database(toy.db)["trv_tournament_seats"].foreign_keys}) == 2
