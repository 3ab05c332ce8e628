"""Every row a command reads is checked as it is read (issue 27).

One bit flipped in a stored row of a game (its header or a command's row: zlib's checksum
covers the stamp, which the chain does not) must not pass for a sound game: show, log, legal,
turn, act, import, export, undo and fork each stop with one line, ``game 'g' is damaged
at event N: run trv verify`` (exit 1), and nothing is appended.  The game has
no snapshot, so every command folds every row.  The same on SQLite and
PostgreSQL.  A flip that leaves what the row holds unchanged (a padding bit
of its compressed bytes) is no damage: ``trv verify``, the full check, is the
oracle for which flips changed the game.

On an SQLite file, show and legal read the header row and the game's last
row only: they start from the games index's copy of the game, whose head
that row stores (docs/store.md).  A flip in another row leaves what they print
as it was, the truth the index's copy holds; every command that appends
folds every row, as above.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli
from trvendetta.store import game_uuid
from trvendetta.store.store import PG_COMMANDS_TABLE

GAME = "g"
LINE = re.compile(r"Error: game 'g' is damaged at event (\d+): run trv verify\n")


def run(store: str, *args: str):
    env = {"TRV_STORE": store, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}
    return CliRunner().invoke(cli, ["--game", GAME, *args], env=env)


def ok(store: str, *args: str):
    result = run(store, *args)
    assert result.exit_code == 0, (args, result.output)
    return result


def next_action(store: str) -> str:
    return json.dumps(json.loads(ok(store, "legal", "--json").stdout)[0])


def play(store: str, actions: int) -> None:
    for _ in range(actions):
        ok(store, "act", next_action(store))


class Rows:
    """The game's stored rows, read and written behind the store's back (as a disk or an attacker would)."""

    def __init__(self, store: str):
        self.store = store
        if store.startswith("postgresql:"):
            import psycopg

            base, schema = store.split("?schema=")
            self.connect = lambda: psycopg.connect(base, autocommit=True)
            self.table, self.mark, self.oid = f'"{schema}".{PG_COMMANDS_TABLE}', "%s", game_uuid(GAME)
        else:
            self.connect = lambda: sqlite3.connect(store.removeprefix("sqlite:"), isolation_level=None)
            self.table, self.mark, self.oid = "stored_commands", "?", GAME

    def all(self) -> list[tuple[int, bytes]]:
        with self.connect() as con:
            found = con.execute(f"SELECT originator_version, state FROM {self.table} WHERE originator_id = "
                                f"{self.mark} ORDER BY originator_version", [self.oid]).fetchall()
        return [(v, bytes(s)) for v, s in found]

    def put(self, version: int, state: bytes) -> None:
        with self.connect() as con:
            con.execute(f"UPDATE {self.table} SET state = {self.mark} WHERE originator_id = {self.mark} "
                        f"AND originator_version = {self.mark}", [state, self.oid, version])


def flips(rows: list[tuple[int, bytes]], per_row: int) -> list[tuple[int, int, int]]:
    """(version, byte, bit) of ``per_row`` flips spread over each row."""
    out = []
    for version, state in rows:
        places = list(range(len(state)))
        step = max(1, len(places) // per_row)
        out += [(version, places[i], i % 8) for i in range(0, len(places), step)]
    return out


def damage_everywhere(store: str, packet: str, per_row: int) -> int:
    """Flip each bit of ``flips`` in turn, run every reading command, restore the row; the number of
    flips that damaged the game."""
    rows = Rows(store)
    pristine = rows.all()
    action = next_action(store)
    turn = _turn_flags(json.loads(action))
    last = str(json.loads(ok(store, "show", "--json").stdout)["version"])
    quick = store.startswith("sqlite:")  # show and legal read the header and the rows from the index's copy on
    if quick:
        with rows.connect() as con:
            (copy_at,), = con.execute("SELECT COALESCE(state_at, version) FROM trv_games WHERE id = ?",
                                      [GAME]).fetchall()
        read_from = max(v for v, _ in pristine if v <= copy_at)  # the row ending at the copy's record
    printed = {args: ok(store, *args).stdout for args in QUICK}
    damaged = 0
    for version, byte, bit in flips(pristine, per_row):
        state = dict(pristine)[version]
        flipped = bytearray(state)
        flipped[byte] ^= 1 << bit
        rows.put(version, bytes(flipped))
        try:
            if run(store, "verify").exit_code == 0:
                continue  # the row still holds the same game (a padding bit)
            damaged += 1
            for args in (["show"], ["show", "--json"], ["log"], ["legal"], ["act", action], ["turn", *turn],
                         ["export", GAME], ["import", packet], ["undo", "--agreed"],
                         ["fork", "--at", last, "--name", "f"]):
                result = run(store, *args)
                where = (version, byte, bit, args)
                if quick and tuple(args) in QUICK and 0 < version < read_from:
                    assert result.exit_code == 0 and result.stdout == printed[tuple(args)], where
                    continue  # a row the command does not read
                assert result.exit_code == 1, (where, result.output)
                assert LINE.fullmatch(result.stderr), (where, result.stderr)
                assert rows.all()[-1][0] == pristine[-1][0], where  # nothing appended on top
                assert run(store, "--game", "f", "show").exit_code == 1, where  # no fork made of it
        finally:
            rows.put(version, state)
    assert run(store, "verify").exit_code == 0
    return damaged


#: the commands that read a game's header and its rows from the games index's copy on (on an SQLite file)
QUICK = (("show",), ("show", "--json"), ("legal",))


def _turn_flags(action: dict) -> list[str]:
    """``trv turn`` flags for the next action (an assign of a die to a car at this point of the game)."""
    assert action["type"] == "assign", action
    return ["--car", action["car"].split("-", 1)[1], "--assign", str(action["die"])]


def _game(store: str) -> str:
    ok(store, "new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", GAME)
    play(store, 6)
    return store


def _packet(source: str, tmp_path) -> str:
    """A turn packet of the game's next action, made in a copy (``source``, a SQLite store) of the game."""
    start = int(json.loads(ok(source, "show", "--json").stdout)["version"])
    ok(source, "act", next_action(source))
    packet = tmp_path / "turn.trv"
    ok(source, "export", GAME, "--since", str(start), "-o", str(packet))
    return str(packet)


def test_every_damaged_row_stops_every_reading_command_on_sqlite(tmp_path):
    store = _game(f"sqlite:{tmp_path / 'trv.sqlite'}")
    shutil.copy(tmp_path / "trv.sqlite", tmp_path / "ahead.sqlite")
    packet = _packet(f"sqlite:{tmp_path / 'ahead.sqlite'}", tmp_path)
    assert damage_everywhere(store, packet, per_row=5) >= 25


def test_every_damaged_row_stops_every_reading_command_on_postgresql(pg_url, tmp_path):
    source = _game(f"sqlite:{tmp_path / 'trv.sqlite'}")
    ok(source, "store", "copy", "--to", pg_url)
    packet = _packet(source, tmp_path)
    assert damage_everywhere(pg_url, packet, per_row=3) >= 15


def _snapshotted_game(store: str, interval: int = 8) -> int:
    """The game, played on through the store with a snapshot every ``interval`` records (several): the
    version of the witness, the second latest snapshot (a load used to read no row before it)."""
    from trvendetta.bots import get_bot
    from trvendetta.core.rng import Rng
    from trvendetta.store import GameStore

    _game(store)
    bot = get_bot("random")
    with GameStore(store, snapshot_interval=interval) as s:
        for i in range(40):
            game = s.load(GAME)
            rs = game.ruleset
            action = bot.choose(rs, game.state, Rng(5, i), rs.pending(game.state))
            state, events = rs.apply(game.state, action)
            s.append(GAME, game.version, steps=[(action, events)], state=state)
        numbers = [n.number for n in s.snapshots(GAME)]
    assert len(numbers) >= 3
    return numbers[-2]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_damage_before_the_snapshots_stops_every_append(tmp_path, request, backend):
    """A row damaged before the two latest snapshots (which a load starts from) stops turn, act, import,
    undo and fork with one line, and nothing is appended (issue 42: they appended to such games)."""
    store = f"sqlite:{tmp_path / 'trv.sqlite'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    witness = _snapshotted_game(store)
    for _ in range(30):  # on to a die's assignment (`trv turn --assign`)
        if json.loads(next_action(store))["type"] == "assign":
            break
        ok(store, "act", next_action(store))
    source = f"sqlite:{tmp_path / 'ahead.sqlite'}"
    ok(store, "store", "copy", "--to", source)
    packet = _packet(source, tmp_path)
    rows = Rows(store)
    pristine = rows.all()
    action = next_action(store)
    turn = _turn_flags(json.loads(action))
    last = str(json.loads(ok(store, "show", "--json").stdout)["version"])
    early = [(v, s) for v, s in pristine if 0 < v and v + 2 < witness]
    damaged = 0
    for version, state in early[::2]:
        flipped = bytearray(state)
        flipped[len(state) // 2] ^= 0x10
        rows.put(version, bytes(flipped))
        try:
            if run(store, "verify").exit_code == 0:
                continue
            damaged += 1
            for args in (["act", action], ["turn", *turn], ["import", packet], ["undo", "--agreed"],
                         ["fork", "--at", last, "--name", "f"]):
                result = run(store, *args)
                assert result.exit_code == 1 and LINE.fullmatch(result.stderr), (version, args, result.output)
                assert rows.all()[-1][0] == pristine[-1][0], (version, args)
                assert run(store, "--game", "f", "show").exit_code == 1, (version, args)
        finally:
            rows.put(version, state)
    assert damaged >= 3
