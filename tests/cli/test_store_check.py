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
