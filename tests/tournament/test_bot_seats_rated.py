"""Bot seats in tournaments (docs/tournament.md, "Ratings"): a seat a bot played is marked in the
result, the standings, the seats table and `report`; ratings leave it out of a game that also had
a person in it, and a tournament of bots only rates its bots, as before."""

from __future__ import annotations

import json
import sqlite3

import msgspec

from trvendetta.app.tournament_read import rate
from trvendetta.store import GameStore
from trvendetta.store.tournament import TournamentLog
from trvendetta.tournament.standings import decided

from .test_report import _play_out


def _state(db, name: str):
    with GameStore(db) as store:
        return TournamentLog(store).load(name).state


def test_a_game_of_people_and_a_bot_rates_only_the_people(toy, tmp_path):
    toy("tournament", "new", "mix", "--ruleset", "toy", "--rounds", "1", "--pod-size", "3", "--seed", "1")
    toy("tournament", "register", "mix", "ann", "bob", "cyd")
    toy("tournament", "pair", "mix")
    toy("tournament", "start", "mix", "--bot=cyd=random")
    _play_out(toy, "mix-r1-t1")
    out = toy("tournament", "report", "mix", "--table", "1").stdout
    assert "played by a bot: cyd" in out, out
    result = _state(toy.db, "mix").rounds[0].tables[0].reported
    assert result.bots == ("cyd",)
    places = {p.player: p.place for p in result.places}
    rows = {r["player"]: r for r in toy.json("tournament", "standings", "mix")}
    # the bot's seat scores for its entrant, and is marked
    assert {p: rows[p]["bot_games"] for p in rows} == {"ann": 0, "bob": 0, "cyd": 1}
    assert "cyd (bot: 1)" in toy("tournament", "standings", "mix").stdout
    # ratings: ann and bob as if they alone had played; cyd is not rated by a bot's game
    alone = rate([("mix", [(p, places[p]) for p in ("ann", "bob")])])
    assert rows["cyd"]["rating"] is None and rows["cyd"]["mu"] is None
    for p in ("ann", "bob"):
        assert rows[p]["mu"] == round(alone[p].mu, 4), (p, rows[p], alone[p])
    with_bot = rate([("mix", sorted(places.items()))])
    assert any(rows[p]["mu"] != round(with_bot[p].mu, 4) for p in ("ann", "bob"))  # the bot's place mattered
    db = sqlite3.connect(toy.db)
    try:
        seats = dict(db.execute("SELECT player, bot FROM trv_tournament_seats WHERE tournament = 'mix'"))
        rated = dict(db.execute("SELECT player, games FROM trv_ratings"))
    finally:
        db.close()
    assert seats == {"ann": 0, "bob": 0, "cyd": 1}
    assert rated == {"ann": 1, "bob": 1, "cyd": 0}
    # the export carries the mark and checks it against the record
    path = tmp_path / "mix.trvt"
    toy("tournament", "export", "mix", "-o", path)
    assert "ok: tournament mix" in toy("tournament", "verify", path).stdout
    standings = [json.loads(line) for line in path.read_text().split("% standings\n")[1].split("\n% game")[0]
                 .splitlines()]
    assert {s["player"]: s.get("bot_games", 0) for s in standings} == {"ann": 0, "bob": 0, "cyd": 1}


def test_a_tournament_of_bots_only_rates_its_bots(toy):
    toy("tournament", "new", "sim", "--ruleset", "toy", "--rounds", "2", "--pod-size", "2", "--seed", "3")
    toy("tournament", "register", "sim", "ann", "bob", "cyd", "dee")
    for _ in range(2):
        toy("tournament", "pair", "sim")
        toy("tournament", "start", "sim", "--bots", "random")
        for t in (1, 2):
            toy("tournament", "report", "sim", "--table", t)
    state = _state(toy.db, "sim")
    games = decided(state)
    assert all(set(g.bots) == {p for p, _ in g.places} for g in games)  # every seat marked a bot
    # rated as before bot seats were marked: every seat of every game (the bots are the entrants)
    today = rate([("sim", list(g.places)) for g in games])
    rows = {r["player"]: r for r in toy.json("tournament", "standings", "sim")}
    assert {p: rows[p]["mu"] for p in rows} == {p: round(today[p].mu, 4) for p in today}
    assert all(rows[p]["bot_games"] == 2 for p in rows)


def test_a_result_counted_before_bot_seats_were_marked_keeps_its_bytes_and_rating(toy):
    """An old log's result has no ``bots``: it decodes, re-encodes byte for byte, and rates every seat."""
    toy("tournament", "new", "old", "--ruleset", "toy", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    toy("tournament", "register", "old", "ann", "bob")
    toy("tournament", "pair", "old")
    toy("tournament", "start", "old", "--bots", "random")
    toy("tournament", "report", "old", "--table", "1")
    with GameStore(toy.db) as store:
        payload = TournamentLog(store).records("old")[-1].payload
    doc = msgspec.json.decode(payload)
    assert doc["bots"] == ["ann", "bob"]
    from trvendetta.tournament import events as tev

    del doc["bots"]  # the event as a store made it before results named their bot seats
    old = msgspec.json.encode(doc)
    event = tev.decode(old)
    assert tev.encode(event) == old and isinstance(event.bots, msgspec.UnsetType)


def test_an_export_that_marks_a_person_as_a_bot_is_refused(toy, tmp_path):
    """The attack: an edited export (its chain recomputed) marks ann's seat a bot, so the ratings
    made from it would leave her loss out; the record of the game declares no such bot seat."""
    from trvendetta.store import GENESIS, chain

    toy("tournament", "new", "mix", "--ruleset", "toy", "--rounds", "1", "--pod-size", "3", "--seed", "1")
    toy("tournament", "register", "mix", "ann", "bob", "cyd")
    toy("tournament", "pair", "mix")
    toy("tournament", "start", "mix", "--bot=cyd=random")
    _play_out(toy, "mix-r1-t1")
    toy("tournament", "report", "mix", "--table", "1")
    path = tmp_path / "mix.trvt"
    toy("tournament", "export", "mix", "-o", path)
    head_part, rest = path.read_text().split("% tournament events\n")
    events, tail = rest.split("% standings\n")
    lines, prev = [], GENESIS
    for line in events.splitlines():
        number, _, payload = line.split(" ", 2)
        payload = payload.replace('"bots":["cyd"]', '"bots":["ann","cyd"]')
        prev = chain(prev, payload.encode())
        lines.append(f"{number} {prev} {payload}")
    assert '"bots":["ann","cyd"]' in "\n".join(lines)
    head_part = head_part.replace(head_part.split('[Head "')[1].split('"')[0], prev)
    forged = tmp_path / "forged.trvt"
    forged.write_text(head_part + "% tournament events\n" + "\n".join(lines) + "\n% standings\n" + tail)
    err = toy("tournament", "verify", forged, code=1).stderr
    assert "the result's bot seats (ann, cyd) are not the ones the record of game mix-r1-t1 declares (cyd)" in err, err
