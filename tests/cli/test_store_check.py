"""`trv store check` scrubs a whole store, game by game, and names every damaged game (as SQLite's
``PRAGMA integrity_check`` does a file): exit 1 when it finds any, 0 on a sound store; both backends."""

import json
import re

import pytest

from store_sql import Sql, ok, trv
from trvendetta.store import GameStore

GAMES = ("a", "b", "c", "d", "e")


def _play(store, game, actions):
    from trvendetta.bots import get_bot
    from trvendetta.core.rng import Rng

    ok(store, "new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "5", "--name", game)
    bot = get_bot("random")
    with GameStore(store, snapshot_interval=10) as s:  # several snapshots
        for i in range(actions):
            loaded = s.load(game)
            rs = loaded.ruleset
            action = bot.choose(rs, loaded.state, Rng(3, i), rs.pending(loaded.state))
            state, events = rs.apply(loaded.state, action)
            s.append(game, loaded.version, steps=[(action, events)], state=state)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    where = f"sqlite:{tmp_path / 'trv.sqlite'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    for game in GAMES:
        _play(where, game, 30)
    return where


def test_a_sound_store_checks_clean(store):
    result = trv(store, "store", "check")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{len(GAMES)} games checked, 0 damaged\n"
    assert [c["problems"] for c in json.loads(ok(store, "store", "check", "--json").stdout)] == [[]] * len(GAMES)


def test_every_damaged_game_is_named(store):
    sql = Sql(store)
    rows = {g: sql("SELECT originator_version, state FROM COMMANDS WHERE originator_id = ? ORDER BY "
                   "originator_version", [sql.key(g)]) for g in GAMES}
    # a: a bit flipped in an early row (before every snapshot); b: its last row lost; c: its header lost;
    # d: its index row edited; e: untouched
    version, state = rows["a"][2]
    flipped = bytearray(state)
    flipped[len(flipped) // 2] ^= 4
    sql("UPDATE COMMANDS SET state = ? WHERE originator_id = ? AND originator_version = ?",
        [bytes(flipped), sql.key("a"), version])
    sql("DELETE FROM COMMANDS WHERE originator_id = ? AND originator_version = ?", [sql.key("b"), rows["b"][-1][0]])
    sql("DELETE FROM COMMANDS WHERE originator_id = ? AND originator_version = 0", [sql.key("c")])
    sql("UPDATE trv_games SET players = NULL WHERE id = ?", ["d"])
    result = trv(store, "store", "check")
    assert result.exit_code == 1, result.output
    named = re.findall(r"^damaged (\w+): ", result.stdout, re.M)
    assert sorted(set(named)) == ["a", "b", "c", "d"], result.stdout
    assert result.stdout.endswith(f"{len(GAMES)} games checked, 4 damaged\n")
    assert result.stderr.startswith("Error: damage found in ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("edit", ["round = round + 1", "players = 'bob,ann'", "status = 'over', winner = 'ann'"])
def test_every_index_field_the_events_decide_is_checked(store, edit):
    """An index row edited in a field `trv games` shows (its count and head kept): check names the game, as
    verify does (issue 42's red team, g_index_values)."""
    Sql(store)(f"UPDATE trv_games SET {edit} WHERE id = ?", ["d"])
    result = trv(store, "store", "check")
    assert result.exit_code == 1, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines()[:-1]] == ["damaged d"], result.stdout
    assert "the games index says" in result.stdout


@pytest.mark.parametrize("which", ["two latest snapshots", "the index's copy"])
def test_snapshots_and_the_index_copy_edited_with_their_heads_kept_are_named(tmp_path, which):
    """Snapshots edited alike (their heads kept), or the index's copy: each is folded from the checked
    records (no action re-executed) and compared (issue 42's red team, a_snapshot_alike)."""
    import sqlite3
    import zlib

    import msgspec

    from trvendetta.store.rows import pack

    where = f"sqlite:{tmp_path / 'trv.sqlite'}"
    _play(where, "d", 30)
    con = sqlite3.connect(tmp_path / "trv.sqlite")

    def edited(blob):
        snap = msgspec.msgpack.decode(zlib.decompress(blob))
        assert b'"seed":5' in snap[2]
        snap[2] = snap[2].replace(b'"seed":5', b'"seed":6', 1)
        return pack(snap)

    with con:
        if which == "the index's copy":
            (state,), = con.execute("SELECT state FROM trv_games WHERE id = 'd'").fetchall()
            con.execute("UPDATE trv_games SET state = ? WHERE id = 'd'", [edited(state)])
        else:
            key, = con.execute("SELECT originator_id FROM stored_events WHERE topic = 'g' AND state = ?",
                               [b"d"]).fetchone()
            for version, state in con.execute("SELECT originator_version, state FROM stored_events WHERE "
                                              "originator_id = ? AND topic = 's' ORDER BY originator_version DESC "
                                              "LIMIT 2", [key]).fetchall():
                con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                            [edited(state), key, version])
    con.close()
    result = trv(where, "store", "check")
    assert result.exit_code == 1, result.output
    assert "is not the fold of events 1-" in result.stdout and "it was edited" in result.stdout, result.stdout
