"""Results come only from verified, finished records of the table's players;
concessions and no-shows are their own events; bad input is one line."""

from __future__ import annotations

import click
import msgspec
import pytest

from trvendetta.cli.tournament import tournament
from tamper import edit_record  # tests/ is on sys.path (rootdir conftest)
from trvendetta.store import GameStore, chain
from trvendetta.store.tournament import TournamentLog


def _versions(db) -> int:
    with GameStore(db) as store:
        return TournamentLog(store).load("cup").version


@pytest.fixture
def cup(trv):
    """4 players, tables of 2: table 1 all bots (finished), table 2 humans (waiting)."""
    trv("tournament", "new", "cup", "--rounds", "2", "--pod-size", "2", "--seed", "3")
    trv("tournament", "register", "cup", "ann", "bob", "cyd", "dee")
    tables = trv.json("tournament", "pair", "cup")["tables"]
    bots = [f"--bot={p}=random" for p in tables[0]["players"]]
    trv("tournament", "start", "cup", *bots)
    return trv, tables


def test_an_unfinished_game_is_refused(cup):
    trv, tables = cup
    before = _versions(trv.db)
    err = trv("tournament", "report", "cup", "--table", "2", code=1).stderr
    assert "has not finished" in err and "cup-r1-t2" in err
    assert _versions(trv.db) == before


def test_a_game_of_other_players_is_refused(cup):
    trv, tables = cup
    err = trv("tournament", "report", "cup", "--table", "2", "cup-r1-t1", code=1).stderr
    assert f"was played by {', '.join(sorted(tables[0]['players']))}, but round 1 table 2 seats" in err


def test_a_record_edited_in_the_store_is_refused(cup):
    trv, _ = cup
    before = _versions(trv.db)
    with GameStore(trv.db) as store:
        wanted = store.events("cup-r1-t1")[-1]

    def forge(doc: dict) -> None:
        doc["payload"] = doc["payload"].replace('"winner":"', '"winner":"x', 1)

    assert edit_record(trv.db, wanted.hash, forge) == 1  # an attacker edits the file behind the store's back
    err = trv("tournament", "report", "cup", "--table", "1", code=1).stderr
    assert "does not verify" in err and "hash does not follow" in err
    assert _versions(trv.db) == before


def _rechain(text: str) -> str:
    """Recompute every hash of a record file (and its header) after an edit, as a forger would."""
    lines = text.split("\n")
    out, head, first, action = [], "0" * 64, None, b""
    for line in lines:
        if line.startswith("> "):
            action = line[2:].encode()
            out.append(line)
            continue
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[0].isdigit() and len(parts[1]) == 64:
            head = chain(head, parts[2].encode(), action)
            first = first or head
            action = b""
            out.append(f"{parts[0]} {head} {parts[2]}")
        else:
            out.append(line)
    text = "\n".join(out)
    import re

    text = re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{head}"]', text)
    return re.sub(r'\[GameId "[0-9a-f]{64}"\]', f'[GameId "{first}"]', text)


def test_a_forged_record_file_is_refused_by_re_execution(cup, tmp_path):
    trv, tables = cup
    record = trv("export", "cup-r1-t1").stdout
    loser = next(p for p in tables[0]["players"] if f'"winner":"{p}"' not in record)
    winner = next(p for p in tables[0]["players"] if p != loser)
    forged = _rechain(record.replace(f'"winner":"{winner}"', f'"winner":"{loser}"')
                      .replace(f'[Result "{winner} wins"]', f'[Result "{loser} wins"]'))
    path = tmp_path / "forged.trv"
    path.write_text(forged)
    # the forger's copy under another name, so the store's honest game does not stand in for it
    path.write_text(forged.replace('[Game "cup-r1-t1"]', '[Game "forged"]'))
    err = trv("tournament", "report", "cup", "--table", "1", str(path), code=1).stderr
    assert "does not verify" in err and "differs from the rules' result" in err
    # the honest record file is accepted (a game is its events: the name is only a label), as the game
    # this store holds under its own name (one GameId is one game per store)
    honest = tmp_path / "honest.trv"
    honest.write_text(record.replace('[Game "cup-r1-t1"]', '[Game "honest"]'))
    out = trv("tournament", "report", "cup", "--table", "1", str(honest)).stdout
    assert "cup-r1-t1 verified" in out and f"1. {winner}" in out
    assert "honest" not in trv("games").stdout
    assert "already has its result" in trv("tournament", "report", "cup", "--table", "1", code=1).stderr
    # and the same game cannot count a second time under another name
    trv("tournament", "concede", "cup", tables[1]["players"][0], "--table", "2", "--by", "organiser")
    trv("tournament", "pair", "cup")
    err = trv("tournament", "report", "cup", "--table", "1", "cup-r1-t1", code=1).stderr
    assert "game cup-r1-t1 is already the result of round 1 table 1" in err


def test_report_from_a_record_file_played_elsewhere(cup, tmp_path):
    trv, tables = cup
    record = trv("export", "cup-r1-t1").stdout
    other = tmp_path / "elsewhere.sqlite"
    from .conftest import Trv

    there = Trv(other)
    path = tmp_path / "t1.trv"
    path.write_text(record)
    there("import", str(path))  # the game exists only in the other store...
    exported = there("export", "cup-r1-t1").stdout
    # ...and is reported here from its file: same game id, so the store's copy is the same game
    path.write_text(exported)
    out = trv("tournament", "report", "cup", "--table", "1", str(path)).stdout
    assert "cup-r1-t1 verified" in out


def test_concession_and_no_show_are_events_with_who_declared_them(cup):
    trv, tables = cup
    a, b = tables[1]["players"]
    trv("tournament", "concede", "cup", a, "--table", "2", "--by", a)
    out = trv("tournament", "no-show", "cup", b, "--table", "2", "--by", "organiser", code=1).stderr
    assert "already has its result" in out  # the table was decided when one player was left
    with GameStore(trv.db) as store:
        kinds = [r.kind for r in TournamentLog(store).records("cup")]
        last = TournamentLog(store).records("cup")[-1].payload
    assert kinds[-1] == "player-conceded"
    assert msgspec.json.decode(last) == {"type": "player-conceded", "round": 1, "table": 2, "player": a,
                                         "declared_by": a}
    rows = {r["player"]: r for r in trv.json("tournament", "standings", "cup")}
    assert rows[b]["points"] == 4 and rows[a]["points"] == 2  # 1st and 2nd of the default 4,2,1,0


@pytest.mark.parametrize("args, said", [
    (("new", "x", "--rounds", "3", "--pod-size", "3-5"), "--pod-size 3-5"),
    (("new", "x", "--rounds", "3", "--scoring", "1,x"), "is not points per place"),
    (("new", "x", "--rounds", "3", "--ruleset", "chess"), "unknown ruleset 'chess'"),
    (("register", "nope", "ann"), "so no tournament there; create one with `trv tournament new"),
    (("pair", "nope"), "so no tournament there"),
])
def test_bad_input_is_one_line(trv, args, said):
    code = 2 if "is not points" in said or "unknown ruleset" in said else 1
    result = trv("tournament", *args, code=code)
    assert said in result.stderr


def test_pairing_needs_enough_players_and_results(trv):
    trv("tournament", "new", "t", "--rounds", "2", "--pod-size", "3-4", "--seed", "1")
    trv("tournament", "register", "t", "ann", "bob")
    assert "2 active players; a table needs at least 3" in trv("tournament", "pair", "t", code=1).stderr
    trv("tournament", "register", "t", "cyd")
    trv("tournament", "pair", "t")
    assert "round 1 still has tables without a result (1)" in trv("tournament", "pair", "t", code=1).stderr


def _play_out(toy, game: str) -> None:
    """Whoever's decision it is plays the first legal option, signing as their seat."""
    for _ in range(200):
        lines = toy("legal", "--game", game).stdout.splitlines()
        if lines[0].startswith("the game is over"):
            return
        toy("decide", lines[1].strip(), "--game", game, env={"TRV_AS": lines[0].split(":")[0]})
    raise AssertionError("the toy game did not end")


def test_a_keyed_players_result_counts_only_signed_by_them(toy):
    # (created before the store has identities: no organiser key; with two, `new` asks which organises)
    toy("tournament", "new", "k", "--ruleset", "toy", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    toy("id", "new", "ann")
    toy("id", "new", "bob")
    toy("tournament", "register", "k", "ann", "bob", "--key", "ann=ann", "--key", "bob=bob")
    toy("tournament", "pair", "k")
    err = toy("tournament", "start", "k", "--bots", "random", code=2).stderr
    assert "ann, bob registered with a key; a bot cannot sign for them" in err
    toy("tournament", "start", "k")  # the game's charter binds both seats to the registered keys
    _play_out(toy, "k-r1-t1")
    assert "signed by ann (" in toy("verify", "k-r1-t1").stdout
    out = toy("tournament", "report", "k", "--table", "1").stdout
    assert "k-r1-t1 verified" in out and "signed by ann, bob" in out
    with GameStore(toy.db) as store:
        last = TournamentLog(store).records("k")[-1]
    assert msgspec.json.decode(last.payload)["signed"] is True


def test_an_unsigned_record_of_a_keyed_player_is_refused(toy):
    toy("id", "new", "ann")
    toy("tournament", "new", "k", "--ruleset", "toy", "--rounds", "1", "--pod-size", "2", "--seed", "1")
    toy("tournament", "register", "k", "ann", "bob", "--key", "ann=ann")
    toy("tournament", "pair", "k")
    # a game the same players played without keys (bots here, so it is over at once)
    toy("new", "--ruleset", "toy", "--bot", "random:red:cars:ann", "--bot", "random:blue:cars:bob", "--name", "plain")
    before = _versions_of(toy.db, "k")
    err = toy("tournament", "report", "k", "--table", "1", "plain", code=1).stderr
    assert "ann registered with key" in err and "does not bind ann's seat to a key" in err
    assert _versions_of(toy.db, "k") == before


def _versions_of(db, name: str) -> int:
    with GameStore(db) as store:
        return TournamentLog(store).load(name).version


def test_every_tournament_command_has_help_with_examples():
    ctx = click.Context(tournament)
    for name, command in tournament.commands.items():
        assert command.help and "Examples:" in command.get_help(ctx), name


def test_report_names_a_missing_round_or_table(cup):
    trv, _ = cup
    assert "round 1 has tables 1 to 2, not 9" in trv("tournament", "report", "cup", "--table", "9", code=1).stderr
    assert "round 5 is not paired; paired rounds: 1 to 1" in trv("tournament", "report", "cup", "--table", "1",
                                                                 "--round", "5", code=1).stderr
    assert "no game 'nope' in this store" in trv("tournament", "report", "cup", "--table", "1", "nope",
                                                 code=1).stderr
