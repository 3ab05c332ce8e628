"""The store's two CPU figures as instruction counts, which do not move with the host's load.

``python -m bench.instructions [--turns 300]`` (needs ``valgrind``; about two minutes)

On a shared machine the store bench's wall-clock ratios move by 20% and more from run to run; the count of
instructions a piece of work executes repeats to within about 0.1%.  Each figure runs one piece of work
under ``valgrind --tool=cachegrind --cache-sim=no`` twice, with ``n`` and with ``m`` repetitions, and divides
the difference (so the interpreter's start, the imports and the set-up cancel out):

- append: ``--turns`` turns of the store bench's game (a greedy 4-player Vendetta game, seed 27) appended one
  command a transaction (``GameStore.append(..., state=...)``, as ``trv turn`` does), against the bare
  eventsourcing save of the same events (``bench/store.py``), both with ``PRAGMA synchronous=OFF`` (the
  fsync is a wait, not instructions); per turn;
- verify: ``replays.verify_game`` of that game stored turn by turn, against the engine's own re-execution
  of its actions (``ruleset.apply`` in a loop); per event, cyclic GC off on both sides (verify turns it off).

Each measured process runs with ``PYTHONHASHSEED=0`` (unless set otherwise): with a random seed, dicts and sets
laid out differently moved the verify figure by up to 0.5k instructions an event between runs of the same code.

Caveat: valgrind counts a ``rep movsb`` copy by the byte, so work that copies large buffers (priming a
deflater or an inflater with the 32 KiB dictionary) weighs more here than in time.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from trvendetta import rulesets
from trvendetta.bots import new_position

SEED = 27


def _game():
    from .common import longest_greedy_game

    rs = rulesets.get("vendetta")
    seed, _, actions = longest_greedy_game(rs, range(SEED, SEED + 1))
    return rs, seed, actions


def _work(what: str, n: int, where: str, turns: int) -> None:
    """Run ``what`` ``n`` times (inside valgrind: the measured process)."""
    if what in ("append", "bare"):
        connect = sqlite3.connect

        def unsynced(*args, **kwargs):
            con = connect(*args, **kwargs)
            con.execute("PRAGMA synchronous=OFF")
            return con

        sqlite3.connect = unsynced
    from trvendetta import replays
    from trvendetta.store import GameStore

    from .common import _tally_class

    rs, seed, actions = _game()
    state, first = rs.new_game(new_position(rs, 4, seed))
    steps = []
    for action in actions[:turns]:
        state, new = rs.apply(state, action)
        steps.append((action, new, state, [rs.encode(e).decode() for e in new]))
    if what == "append":
        with GameStore(os.path.join(where, "append.sqlite")) as store:
            version = store.create_game("g", rs.name, first).version
            for action, new, after, _ in steps[:n]:
                version = store.append("g", version, steps=[(action, new)], state=after).version
    elif what == "bare":
        from eventsourcing.application import Application

        app = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                               "SQLITE_DBNAME": os.path.join(where, "bare.sqlite")})
        agg = _tally_class()()
        app.save(agg)
        for _, _, _, payloads in steps[:n]:
            for payload in payloads:
                agg.bump(payload)
            app.save(agg)
        app.close()
    else:
        with GameStore(os.path.join(where, "game.sqlite")) as store:
            game = store.list_games()[0].id
            replays.verify_game(store, game)  # warm: imports and first-call caches outside the difference
            gc.disable()
            for _ in range(n):
                if what == "verify":
                    replays.verify_game(store, game)
                else:
                    s, _ = rs.new_game(new_position(rs, 4, seed))
                    for action in actions:
                        s, _ = rs.apply(s, action)


def _store_game(where: str) -> int:
    """The game stored turn by turn as the store bench stores it (``bench/store.py``); returns its number of
    events."""
    from trvendetta.store import GameStore

    from .store import _append_once

    rs, seed, actions = _game()
    return _append_once(GameStore, os.path.join(where, "game.sqlite"), rs, seed, actions)[1]


def _count(what: str, n: int, where: str, turns: int) -> int:
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-m", f"{__package__}.instructions", "--work", what, "-n", str(n),
                          "--where", where, "--turns", str(turns)], capture_output=True, text=True, check=True,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), env={**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")})
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _per(what: str, low: int, high: int, where: str, turns: int) -> float:
    """Instructions a repetition: the count for ``high`` less the count for ``low``, each from fresh stores."""
    counts = []
    for n in (low, high):
        for name in ("append.sqlite", "bare.sqlite"):
            for suffix in ("", "-wal", "-shm"):
                Path(where, name + suffix).unlink(missing_ok=True)
        counts.append(_count(what, n, where, turns))
    return (counts[1] - counts[0]) / (high - low)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    ap.add_argument("-n", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--where", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.work:
        _work(args.work, args.n, args.where, args.turns)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1
    where = tempfile.mkdtemp(prefix="trv-instructions-")
    try:
        events = _store_game(where)
        turns = args.turns
        append, bare = _per("append", 0, turns, where, turns), _per("bare", 0, turns, where, turns)
        verify, engine = _per("verify", 1, 4, where, turns), _per("engine", 1, 4, where, turns)
    finally:
        shutil.rmtree(where, ignore_errors=True)
    print(f"append  {append / 1000:,.1f}k instructions a turn against the bare save's {bare / 1000:,.1f}k: "
          f"{bare / append:.2f}x (target >= 1.0x; {turns} turns, synchronous off)")
    print(f"verify  {verify / events / 1000:,.1f}k instructions an event against the engine's "
          f"{engine / events / 1000:,.1f}k: {verify / engine:.2f}x (target <= 1.51x; {events} events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
