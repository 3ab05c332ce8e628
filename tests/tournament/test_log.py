"""The tournament log has the games' guarantees: append-only, hash-chained,
optimistic concurrency, one transaction per command."""

from __future__ import annotations

import sqlite3
import zlib

import msgspec
import pytest

from trvendetta.core.errors import TrvError
from trvendetta.store import GENESIS, ChainBroken, GameStore, chain
from trvendetta.store.tournament import TournamentExists, TournamentLog, TournamentMovedOn
from trvendetta.tournament import events as tev
from trvendetta.tournament import model


def _new(log: TournamentLog, name: str = "t"):
    return log.create(name, model.check_new(name, "vendetta", 2, 2, 4, (3, 1, 0), 5))


@pytest.mark.parametrize("where", ["file", "memory"])
def test_create_append_load_and_the_chain(tmp_path, where):
    with GameStore(tmp_path / "s.sqlite" if where == "file" else ":memory:") as store:
        log = TournamentLog(store)
        loaded = _new(log)
        loaded = log.append("t", loaded.version, model.check_register(loaded.state, ["ann", "bob", "cyd"]))
        assert loaded.version == 4 and [e.name for e in loaded.state.entrants] == ["ann", "bob", "cyd"]
        records = log.records("t")
        head = GENESIS
        for r in records:
            assert r.previous == head and r.hash == chain(head, r.payload)
            assert tev.encode(tev.decode(r.payload)) == r.payload
            head = r.hash
        assert log.verify("t") == head == loaded.head
        assert log.load("t") == loaded
        # a game of the same name is another aggregate
        assert not store.exists("t")


def test_a_name_twice_and_a_stale_command_are_refused(tmp_path):
    with GameStore(tmp_path / "s.sqlite") as store:
        log = TournamentLog(store)
        first = _new(log)
        with pytest.raises(TournamentExists):
            _new(log)
        log.append("t", first.version, model.check_register(first.state, ["ann"]))
        with pytest.raises(TournamentMovedOn, match="run the command again"):
            log.append("t", first.version, model.check_register(first.state, ["bob"]))
        assert [e.name for e in log.load("t").state.entrants] == ["ann"]
        assert log.names() == ["t"]
        _new(log, "u")
        assert log.names() == ["t", "u"]


def test_an_edited_stored_event_breaks_the_chain(tmp_path, trv):
    db = tmp_path / "s.sqlite"
    with GameStore(db) as store:
        log = TournamentLog(store)
        loaded = _new(log)
        stored = log.append("t", loaded.version, model.check_register(loaded.state, ["ann", "bob"])).version
    con = sqlite3.connect(db)
    rows = con.execute("SELECT rowid, state FROM stored_events WHERE topic = 'trvendetta:tournament:recorded'")
    for rowid, blob in rows.fetchall():
        doc = msgspec.json.decode(zlib.decompress(blob))  # the library's JSON, zlib-compressed (docs/store.md)
        if '"player":"bob"' in doc["payload"]:
            doc["payload"] = doc["payload"].replace('"player":"bob"', '"player":"eve"')
            with con:  # an attacker edits the file behind the store's back
                con.execute("UPDATE stored_events SET state = ? WHERE rowid = ?",
                            [zlib.compress(msgspec.json.encode(doc)), rowid])
    con.close()
    with GameStore(db) as store, pytest.raises(ChainBroken, match="tournament 't': hash chain broken at event 3"):
        TournamentLog(store).verify("t")
    with GameStore(db) as store:  # folded only once checked: nothing loads or appends on top of it
        with pytest.raises(ChainBroken, match="broken at event 3"):
            TournamentLog(store).load("t")
        with pytest.raises(ChainBroken, match="broken at event 3"):
            TournamentLog(store).append("t", stored, model.check_register(loaded.state, ["cyd"]))
    trv.db = db
    assert "hash chain broken at event 3" in trv("tournament", "export", "t", code=1).stderr
    assert "hash chain broken at event 3" in trv("tournament", "standings", "t", code=1).stderr
    with GameStore(db) as store:
        assert len(TournamentLog(store).records("t")) == stored


def test_unknown_tournament_names_the_known_ones(tmp_path):
    with GameStore(tmp_path / "s.sqlite") as store:
        log = TournamentLog(store)
        _new(log, "spring")
        with pytest.raises(TrvError, match="no tournament 'fall' in this store; tournaments: spring"):
            log.load("fall")
