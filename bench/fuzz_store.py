"""Random row and page mutations of an SQLite store, and what trv's commands do with them (issue 42).

``python -m bench.fuzz_store [--trials 300] [--seed 1]`` (a few minutes; not a timed test)

A template store holds games with several snapshots and games with none.  Each trial copies it and makes
one random mutation behind trv's back: a bit flipped in a command row, a row deleted (a cut-off tail or a
hole), a row's bytes cut short, a header row lost, a snapshot edited, a games-index value made NULL or
wrong, or bytes flipped in a random page of the file.  Then it runs, in process, ``show --json``,
``act`` (the game's next action) and ``undo --agreed`` on the mutated game (on every game for a page
mutation) and ``trv store check`` on the store, and counts:

- appends to damaged games: ``act`` or ``undo`` exit 0 on a game whose stored history (its header and
  command rows, read with plain sqlite3 and inflated) is not the template's;
- tracebacks: any command that ends in an exception other than its one-line error;
- wrong boards: ``show --json`` exit 0 printing anything but the template's board;
- check misses: a game whose history is damaged that ``trv store check`` does not name (or exit 0).

Every count but the mutations' should be 0.  The figures are in docs/store.md.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import tempfile
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

#: the games of the template store: (name, bot actions, snapshot interval (0: none))
GAMES = (("long1", 60, 10), ("long2", 45, 12), ("short1", 6, 0), ("short2", 9, 0))
KINDS = ("flip", "delete-row", "cut-tail", "truncate", "lose-header", "snapshot", "index", "page")


def build(path: Path) -> None:
    from trvendetta import rulesets
    from trvendetta.bots import get_bot
    from trvendetta.core.rng import Rng
    from trvendetta.store import GameStore

    rs, bot = rulesets.get("vendetta"), get_bot("random")
    for n, (game, actions, interval) in enumerate(GAMES):
        with GameStore(path, snapshot_interval=interval) as store:
            state, first = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], n + 3))
            version = store.create_game(game, rs.name, first).version
            for i in range(actions):
                if rs.is_over(state):
                    break
                action = bot.choose(rs, state, Rng(n, i), rs.pending(state))
                state, new = rs.apply(state, action)
                version = store.append(game, version, steps=[(action, new)], state=state).version
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def history(path: Path) -> dict[str, Any]:
    """Each game's header and command rows, inflated, read with plain sqlite3 (the oracle: not trv's
    reader); a game whose rows cannot be read maps to None."""
    out: dict[str, Any] = {}
    for game, _, _ in GAMES:
        try:
            con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
            try:
                rows = con.execute("SELECT originator_version, topic, state FROM stored_commands WHERE "
                                   "originator_id = ? ORDER BY originator_version", [game]).fetchall()
            finally:
                con.close()
            out[game] = [(v, t, zlib.decompress(s)) for v, t, s in rows]
        except (sqlite3.Error, zlib.error):
            out[game] = None
    return out


def mutate(path: Path, kind: str, rnd: random.Random) -> str | None:
    """Apply one mutation of ``kind``; the game it hit (None: a page of the file)."""
    game = rnd.choice(GAMES)[0]
    con = sqlite3.connect(path, isolation_level=None)
    try:
        rows = con.execute("SELECT originator_version, state FROM stored_commands WHERE originator_id = ? "
                           "ORDER BY originator_version", [game]).fetchall()
        key = con.execute("SELECT originator_id FROM stored_events WHERE topic = 'g' AND state = ?",
                          [game.encode()]).fetchone()[0]
        where = "UPDATE stored_commands SET state = ? WHERE originator_id = ? AND originator_version = ?"
        version, state = rnd.choice(rows[1:] or rows)
        if kind == "flip":
            flipped = bytearray(state)
            flipped[rnd.randrange(len(flipped))] ^= 1 << rnd.randrange(8)
            con.execute(where, [bytes(flipped), game, version])
        elif kind == "delete-row":
            con.execute("DELETE FROM stored_commands WHERE originator_id = ? AND originator_version = ?",
                        [game, version])
        elif kind == "cut-tail":
            cut = rnd.randrange(1, len(rows))
            con.execute("DELETE FROM stored_commands WHERE originator_id = ? AND originator_version >= ?",
                        [game, rows[cut][0]])
        elif kind == "truncate":
            con.execute(where, [state[:rnd.randrange(len(state))], game, version])
        elif kind == "lose-header":
            con.execute("DELETE FROM stored_commands WHERE originator_id = ? AND originator_version = 0", [game])
        elif kind == "snapshot":
            snaps = con.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                                "AND topic = 's'", [key]).fetchall()
            if not snaps:
                return game
            version, state = rnd.choice(snaps)
            flipped = bytearray(state)
            flipped[rnd.randrange(len(flipped))] ^= 1 << rnd.randrange(8)
            con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                        [bytes(flipped), key, version])
        elif kind == "index":
            column, value = rnd.choice([("version", None), ("version", "x"), ("version", 10 ** 6), ("round", "r"),
                                        ("round", 99), ("players", None), ("head", None), ("head", "ab" * 32),
                                        ("status", None), ("status", "over"), ("state_at", "q"), ("state", b"\0")])
            con.execute(f"UPDATE trv_games SET {column} = ? WHERE id = ?", [value, game])
        else:  # bytes of one page of the file, past the schema's first
            con.close()
            size = path.stat().st_size
            with open(path, "r+b") as f:
                page = rnd.randrange(1, size // 4096)
                for _ in range(rnd.randrange(1, 4)):
                    f.seek(page * 4096 + rnd.randrange(4096))
                    f.write(bytes([rnd.randrange(256)]))
            return None
        return game
    finally:
        con.close()


def run(db: Path, *args: str) -> Any:
    from click.testing import CliRunner

    from trvendetta.cli.main import cli

    env = {"TRV_DB": None, "TRV_STORE": None, "TRV_GAME": None, "NO_COLOR": "1"}
    return CliRunner().invoke(cli, ["--db", str(db), *args], env=env)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.fuzz_store", description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rnd, counts, seen = random.Random(args.seed), Counter(), Counter()
    with tempfile.TemporaryDirectory(prefix="trv-fuzz-") as tmp:
        template = Path(tmp) / "template.sqlite"
        build(template)
        truth = history(template)
        boards = {g: run(template, "--game", g, "show", "--json").stdout for g, _, _ in GAMES}
        nexts = {g: json.dumps(json.loads(run(template, "--game", g, "legal", "--json").stdout)[0])
                 for g, _, _ in GAMES}
        for trial in range(args.trials):
            db = Path(tmp) / f"t{trial}.sqlite"
            shutil.copy(template, db)
            kind = KINDS[trial % len(KINDS)]
            hit = mutate(db, kind, rnd)
            seen[kind] += 1
            now = history(db)
            damaged = {g for g in truth if now[g] != truth[g]}
            counts["games with damaged history"] += len(damaged)
            check = run(db, "store", "check")
            if check.exception is not None and not isinstance(check.exception, SystemExit):
                counts["tracebacks"] += 1
            named = {line.split()[1].rstrip(":") for line in check.stdout.splitlines() if line.startswith("damaged ")}
            counts["check misses"] += len(damaged - named) if check.exit_code else len(damaged)
            for game in [hit] if hit else [g for g, _, _ in GAMES]:
                for command in (["show", "--json"], ["act", nexts[game]], ["undo", "--agreed"]):
                    result = run(db, "--game", game, *command)
                    if result.exception is not None and not isinstance(result.exception, SystemExit):
                        counts["tracebacks"] += 1
                        print(f"trial {trial} ({kind}, {game}) {command[0]}: {result.exception!r}")
                    elif result.exit_code == 0 and command[0] == "show" and result.stdout != boards[game]:
                        counts["wrong boards"] += 1
                        print(f"trial {trial} ({kind}, {game}): a wrong board with exit 0")
                    elif result.exit_code == 0 and command[0] != "show" and game in damaged:
                        counts["appends to damaged games"] += 1
                        print(f"trial {trial} ({kind}, {game}): {command[0]} appended to a damaged game")
            db.unlink()
            for extra in ("-wal", "-shm"):
                db.with_name(db.name + extra).unlink(missing_ok=True)
    print(f"{args.trials} trials, seed {args.seed}: " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items())))
    for name in ("games with damaged history", "appends to damaged games", "tracebacks", "wrong boards",
                 "check misses"):
        print(f"{name}: {counts[name]}")
    return 0 if not any(counts[n] for n in ("appends to damaged games", "tracebacks", "wrong boards",
                                             "check misses")) else 1


if __name__ == "__main__":
    raise SystemExit(main())
