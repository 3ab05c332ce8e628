"""A 12-player, 4-round tournament simulated end to end with bots, through `trv`."""

from __future__ import annotations

import sqlite_utils

from trvendetta.store import GameStore
from trvendetta.store.tournament import TournamentLog
from trvendetta.tournament import events as tev
from trvendetta.tournament import model, pairing
from trvendetta.tournament.standings import standings

from .helpers import fewest_repeats, repeats

PLAYERS = [f"p{i:02d}" for i in range(1, 13)]
COMPARED = ("rank", "player", "points", "games", "opponents_points", "head_to_head", "cars", "lot", "why")


def _state(db) -> model.State:
    """The tournament folded from its stored events alone (not the read model)."""
    with GameStore(db) as store:
        return model.fold(tev.decode(r.payload) for r in TournamentLog(store).records("spring"))


def _play_round(trv, db, checks: list) -> None:
    before = _state(db)
    paired = trv.json("tournament", "pair", "spring")
    tables = [tuple(t["players"]) for t in paired["tables"]]
    history = pairing.history_of([(r.round, [t.players for t in r.tables]) for r in before.rounds], {})
    met, firsts = history.met, {p: c[0] for p, c in history.seats.items()}
    checks.append(([len(t) for t in tables], repeats(tables, met),
                   fewest_repeats([p for t in tables for p in t], [len(t) for t in tables], met, firsts)))
    trv("tournament", "start", "spring", "--bots", "random")
    for t in paired["tables"]:
        out = trv("tournament", "report", "spring", "--table", str(t["table"])).stdout
        assert "verified" in out


def test_a_twelve_player_four_round_tournament(trv, tmp_path):
    trv("tournament", "new", "spring", "--rounds", "4", "--pod-size", "3-4", "--seed", "7")
    trv("tournament", "register", "spring", *PLAYERS)
    checks: list = []
    _play_round(trv, trv.db, checks)
    trv("tournament", "drop", "spring", "p03", "--by", "p03")  # 11 left: tables of 4, 4 and 3
    _play_round(trv, trv.db, checks)
    assert "late entry: paired from round 3" in trv("tournament", "register", "spring", "late").stdout
    _play_round(trv, trv.db, checks)
    trv("tournament", "drop", "spring", "p07", "--by", "organiser")
    _play_round(trv, trv.db, checks)

    assert [sorted(c[0], reverse=True) for c in checks] == [[4, 4, 4], [4, 4, 3], [4, 4, 4], [4, 4, 3]]
    # every round has the fewest repeat meetings of any seating of that field that
    # keeps first seats within one (docs/tournament.md: first seats come first)
    assert all(got == best for _, got, best in checks), checks
    assert checks[0][1] == 0

    state = _state(trv.db)
    assert all(model.round_complete(r) for r in state.rounds) and len(state.rounds) == 4
    seats = pairing.history_of([(r.round, [t.players for t in r.tables]) for r in state.rounds], {}).seats
    firsts = [c[0] for c in seats.values()]
    assert max(firsts) - min(firsts) <= 1, seats  # seat-order balance: first seats within one

    # standings recomputed from the event log equal the read model, as sqlite-utils reads it
    recomputed = [{k: getattr(s, k) for k in COMPARED} for s in standings(state)]
    rows = list(sqlite_utils.Database(trv.db).query(
        "select * from trv_tournament_standings where tournament = 'spring' order by rank"))
    assert [{k: r[k] for k in COMPARED} for r in rows] == recomputed
    assert [{k: r[k] for k in COMPARED} for r in trv.json("tournament", "standings", "spring")] == recomputed
    assert {r["player"] for r in rows} == {*PLAYERS, "late"}
    assert all(r["rating"] is not None for r in rows)
    dropped = {r["player"] for r in rows if r["dropped"]}
    assert dropped == {"p03", "p07"}
    seat_rows = list(sqlite_utils.Database(trv.db).query(
        "select round, count(*) as n from trv_tournament_seats where tournament = 'spring' group by round"))
    assert [(r["round"], r["n"]) for r in seat_rows] == [(1, 12), (2, 11), (3, 12), (4, 11)]
    csv = trv("tournament", "standings", "spring", "--csv").stdout.splitlines()
    assert csv[0].startswith("rank,player,points") and len(csv) == 14
    body = "\n".join(csv[1:])
    assert "True" not in body and "False" not in body  # a flag is 1 or 0 in a spreadsheet
    import csv as csv_module

    fields = next(r for r in csv_module.DictReader(csv) if r["player"] == "p03")
    assert fields["dropped"] == "1" and fields["places"].replace(" ", "").isdigit()  # "1 2", no comma inside

    # the export verifies alone; an edited record does not
    out = tmp_path / "spring.trvt"
    trv("tournament", "export", "spring", "-o", str(out))
    said = trv("tournament", "verify", str(out)).stdout
    assert "ok: tournament spring, " in said and "16 events" not in said and "12 games re-executed" in said
    text = out.read_text()
    bad = tmp_path / "edited.trvt"

    def refused(edited: str) -> str:
        assert edited != text
        bad.write_text(edited)
        return trv("tournament", "verify", str(bad), code=1).stderr

    # a die in a game record, same length: the game's hash chain breaks
    at = text.index('"type":"die-assigned"')
    line = text[text.rindex("\n", 0, at) + 1:text.index("\n", at)]
    die = line.split('"die":')[1][0]
    other = "2" if die != "2" else "3"
    err = refused(text.replace(line, line.replace(f'"die":{die}', f'"die":{other}'), 1))
    assert "a game record does not verify" in err and "hash does not follow" in err
    # a result in the tournament's own events
    at = text.index('"type":"result-reported"')
    line = text[text.rindex("\n", 0, at) + 1:text.index("\n", at)]
    assert '"place":1' in line and '"place":2' in line
    swapped = line.replace('"place":1', '"place":9').replace('"place":2', '"place":1').replace('"place":9', '"place":2')
    assert "the hash does not follow" in refused(text.replace(line, swapped, 1))
    # the standings printed in the file
    first = text[text.index("% standings\n") + 12:]
    row = first[:first.index("\n")]
    assert "standings in the file are not the ones the events give" in refused(
        text.replace(row, row.replace('"points":', '"points":1', 1), 1))
