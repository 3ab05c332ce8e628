"""Two checkouts side by side in instruction counts: the store's user-visible figures, old against new.

``python -m bench.sidebyside --old OLD/.venv/bin/python [--new PYTHON] [--rounds 2] [--wall]``
(needs ``valgrind``; about ten minutes a round; ``--wall``: the same figures in wall-clock time, no valgrind,
about a minute a round)

On a shared machine wall-clock figures move by 20% and more from run to run (docs/performance.md); the number
of instructions a piece of work executes repeats to within about 0.5%.  Each checkout's interpreter runs this
file by its path (so an older checkout needs nothing of it), against its own installed ``trvendetta``, and
stores its own games.  The two alternate, figure by figure, ``--rounds`` times; each figure is printed as the
median with min and max over the rounds, and the new/old ratio of the medians:

- show: a whole ``trv show`` of the store bench's game (seed 27, stored turn by turn), against the import
  floor ``python -c "import click, msgspec, eventsourcing"``, as a ratio (warm bytecode cache);
- act: a whole ``trv act`` (load, apply, append) on a copy of that game stopped after 400 turns;
- append: a turn's ``GameStore.append`` in a process of its own, as ``trv turn`` appends, the bench game's
  turns to a new store with ``PRAGMA synchronous=OFF`` (300 turns less 100);
- verify: ``replays.verify_game`` of the bench game, an event (4 runs less 1: the process's start cancels);
- long: ``replays.verify_game`` of the store bench's 100,547-event toy game stored in one save (2 runs less 1);
- sim: ``simulate`` of random 4-player games against ``store_simulated`` of the same games (20 less 2), as the
  ratio of their rates (``trv sim --store`` / ``trv sim``);
- bytes: file size a event of the bench game stored turn by turn (after a checkpoint; not valgrind's).

With ``--wall`` each figure is wall-clock time (``time.perf_counter``), a round's figure the median of a few
runs: show and the floor (whole processes, alternating, 5 each) as a ratio; act, a whole process on a fresh
copy each time (3); verify and long timed inside the process after a warm run (5 and 3), long in seconds a
verify (its target: under 1 s); sim as the ratio of the rates of 10 games each.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
SEED, LIVE_TURNS, SIM_GAMES, APPEND_TURNS = 27, 400, 20, 300
FLOOR = "import click, msgspec, eventsourcing"


# --------------------------------------------------------------- the measured work (any checkout)
def _bench(module: str):
    """A module of the measured checkout's benchmarks: ``trvendetta.bench.MODULE`` where the wheel
    has it (an older checkout), else ``bench.MODULE`` of the checkout this file is in."""
    import importlib

    try:
        return importlib.import_module(f"trvendetta.bench.{module}")
    except ModuleNotFoundError:
        if str(HERE.parents[1]) not in sys.path:
            sys.path.insert(0, str(HERE.parents[1]))
        return importlib.import_module(f"bench.{module}")


def _bench_game(where: str, turns: int | None = None) -> tuple[str, int]:
    from trvendetta import rulesets
    play_events, _append_once = _bench("common").play_events, _bench("store")._append_once
    from trvendetta.store import GameStore

    rs = rulesets.get("vendetta")
    _, actions = play_events(rs, 4, SEED, ["greedy"])
    _append_once(GameStore, where, rs, SEED, actions[:turns])
    with GameStore(where) as store:
        game = store.list_games()[0]
        return game.id, game.version


def _work(what: str, n: int, where: str) -> list[float]:
    """Do ``what`` ``n`` times (sim: ``n`` games); the wall-clock seconds of each time (sim: of all)."""
    import gc

    from trvendetta import replays, rulesets
    from trvendetta.store import GameStore

    times = []
    if what == "append":  # n turns of the bench game, one command a transaction, as `trv turn` appends
        return _append(n, where)
    if what in ("verify", "long"):
        if what == "long":
            _bench("store")._toy()  # the toy ruleset the long game is played with, registered
        with GameStore(os.path.join(where, f"{what}.sqlite")) as store:
            game = store.list_games()[0].id
            replays.verify_game(store, game)  # warm: imports and first-call caches outside the difference
            gc.disable()
            for _ in range(n):
                start = time.perf_counter()
                replays.verify_game(store, game)
                times.append(time.perf_counter() - start)
    elif what == "sim":  # n games
        from trvendetta.bots import simulate

        rs = rulesets.get("vendetta")
        start = time.perf_counter()
        for seed in range(n):
            simulate(rs, 4, seed, ["random"])
        times.append(time.perf_counter() - start)
    elif what == "simstore":
        from trvendetta.app.simulated import store_simulated

        rs = rulesets.get("vendetta")
        with GameStore(os.path.join(where, f"sim-{n}-{os.getpid()}.sqlite")) as store:
            start = time.perf_counter()
            for seed in range(n):
                store_simulated(store, rs, 4, seed, ("random",) * 4, name=f"sim-{seed}")
            times.append(time.perf_counter() - start)
    return times


def _append(n: int, where: str) -> list[float]:
    """``GameStore.append`` of the bench game's first ``n`` turns (of APPEND_TURNS: the engine's work is the
    same for every ``n``) to a new store, ``PRAGMA synchronous=OFF`` (the fsync is a wait, not work); the
    seconds of each append."""
    connect = sqlite3.connect

    def unsynced(*args, **kwargs):
        con = connect(*args, **kwargs)
        con.execute("PRAGMA synchronous=OFF")
        return con

    sqlite3.connect = unsynced  # type: ignore[assignment]
    from trvendetta import rulesets
    play_events = _bench("common").play_events
    from trvendetta.bots import new_position
    from trvendetta.store import GameStore

    rs = rulesets.get("vendetta")
    _, actions = play_events(rs, 4, SEED, ["greedy"])
    state, first = rs.new_game(new_position(rs, 4, SEED))
    steps = []
    for action in actions[:APPEND_TURNS]:
        state, events = rs.apply(state, action)
        steps.append((action, events, state))
    times = []
    path = os.path.join(where, f"append-{n}-{os.getpid()}.sqlite")
    with GameStore(path) as store:
        version = store.create_game("g", rs.name, first).version
        for action, events, after in steps[:n]:
            start = time.perf_counter()
            version = store.append("g", version, steps=[(action, events)], state=after).version
            times.append(time.perf_counter() - start)
    for suffix in ("", "-wal", "-shm"):
        Path(path + suffix).unlink(missing_ok=True)
    return times


def _prepare(where: str) -> dict:
    """Store this checkout's games in ``where``; what the driver needs to know of them."""
    long_game = _bench("store").long_game
    from trvendetta.store import GameStore

    game, events = _bench_game(os.path.join(where, "verify.sqlite"))
    live, _ = _bench_game(os.path.join(where, "live.sqlite"), LIVE_TURNS)
    import inspect

    states: list = []
    toy, first, steps, state = long_game(states=states)
    with GameStore(os.path.join(where, "long.sqlite")) as store:
        given = {"states": states} if "states" in inspect.signature(store.create_game).parameters else {}
        store.create_game("long", toy.name, first, steps=steps, state=state, **given)  # an older store's option
    long_events = len(first) + sum(len(e) for _, e in steps)
    shutil.copy(os.path.join(where, "verify.sqlite"), os.path.join(where, "bytes.sqlite"))
    con = sqlite3.connect(os.path.join(where, "bytes.sqlite"))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    size = os.path.getsize(os.path.join(where, "bytes.sqlite"))
    return {"game": game, "events": events, "live": live, "long_events": long_events, "bytes": size / events}


# ---------------------------------------------------------------------------------- the driver
def _count(python: str, args: list[str], env: dict | None = None) -> int:
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          python, *args], capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "0", "NO_COLOR": "1", **(env or {})})
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"{python} {' '.join(args)} failed:\n{run.stdout[-1000:]}\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _wall(python: str, args: list[str], env: dict) -> float:
    """The wall-clock seconds of a whole process."""
    start = time.perf_counter()
    subprocess.run([python, *args], capture_output=True, check=True, env={**env, "NO_COLOR": "1"})
    return time.perf_counter() - start


class Side:
    def __init__(self, label: str, python: str, root: Path):
        self.label, self.python = label, python
        self.where = root / label
        self.where.mkdir()
        self.env = {"PYTHONPYCACHEPREFIX": str(root / f"pycache-{label}")}
        self.env_all = {**os.environ, **self.env}
        self.env_all.pop("PYTHONDONTWRITEBYTECODE", None)
        out = subprocess.run([python, str(HERE), "--prepare", str(self.where)], capture_output=True, text=True,
                             check=True, env=self.env_all)
        self.info = json.loads(out.stdout.strip().splitlines()[-1])

    def trv(self, *args: str) -> list[str]:
        """A ``trv`` command as the console script runs it."""
        return ["-c", "from trvendetta.cli.main import main; main()", *args]

    def timed(self, what: str, n: int) -> list[float]:
        out = subprocess.run([self.python, str(HERE), "--work", what, "-n", str(n), "--where", str(self.where)],
                             capture_output=True, text=True, check=True, env=self.env_all)
        return json.loads(out.stdout.strip().splitlines()[-1])

    def wall_figures(self) -> dict[str, float]:
        """The figures of :meth:`figures` in wall-clock time."""
        py, i, med = self.python, self.info, statistics.median
        db = str(self.where / "verify.sqlite")
        show = self.trv("--db", db, "--game", i["game"], "show")
        _wall(py, show, self.env_all)  # warm the bytecode cache
        shows, floors = [], []
        for _ in range(5):
            shows.append(_wall(py, show, self.env_all))
            floors.append(_wall(py, ["-c", FLOOR], self.env_all))
        out = {"show": med(shows) / med(floors)}
        live = self.where / "act.sqlite"
        acts = []
        for _ in range(3):
            shutil.copy(self.where / "live.sqlite", live)
            legal = subprocess.run([py, *self.trv("--db", str(live), "--game", i["live"], "legal", "--json")],
                                   capture_output=True, text=True, check=True, env=self.env_all).stdout
            action = json.dumps(json.loads(legal)[0])
            acts.append(_wall(py, self.trv("--db", str(live), "--game", i["live"], "act", action), self.env_all))
        out["act"] = med(acts)
        out["append"] = med(self.timed("append", APPEND_TURNS)) * 1e6
        out["verify"] = med(self.timed("verify", 5)) / i["events"] * 1e6
        out["long"] = med(self.timed("long", 3))
        out["sim"] = self.timed("sim", SIM_WALL)[0] / self.timed("simstore", SIM_WALL)[0]
        out["bytes"] = i["bytes"]
        return out

    def figures(self) -> dict[str, float]:
        py, w, i = self.python, str(self.where), self.info
        db = str(self.where / "verify.sqlite")
        subprocess.run([py, *self.trv("--db", db, "--game", i["game"], "show")], capture_output=True, check=True,
                       env=self.env_all)  # warm the bytecode cache
        out = {"show": _count(py, self.trv("--db", db, "--game", i["game"], "show"), self.env_all)
               / _count(py, ["-c", FLOOR], self.env_all)}
        live = self.where / "act.sqlite"
        shutil.copy(self.where / "live.sqlite", live)
        legal = subprocess.run([py, *self.trv("--db", str(live), "--game", i["live"], "legal", "--json")],
                               capture_output=True, text=True, check=True, env=self.env_all).stdout
        action = json.dumps(json.loads(legal)[0])
        out["act"] = _count(py, self.trv("--db", str(live), "--game", i["live"], "act", action), self.env_all)

        def per(what: str, low: int, high: int) -> float:
            run = [_count(py, [str(HERE), "--work", what, "-n", str(n), "--where", w], self.env_all)
                   for n in (low, high)]
            return (run[1] - run[0]) / (high - low)

        out["append"] = per("append", 100, APPEND_TURNS)
        out["verify"] = per("verify", 1, 4) / i["events"]
        out["long"] = per("long", 1, 2) / i["long_events"]
        # games a second stored / plain, in instructions (2 games less than SIM_GAMES: start and imports cancel)
        out["sim"] = per("sim", 2, SIM_GAMES) / per("simstore", 2, SIM_GAMES)
        out["bytes"] = i["bytes"]
        return out


UNITS = {"show": "x the floor", "act": "instructions a command", "append": "instructions a turn's append", "verify": "instructions an event",
         "long": "instructions an event", "sim": "x (sim --store / sim)", "bytes": "bytes an event"}
WALL_UNITS = {**UNITS, "act": "s a command", "append": "us a turn's append (median of 300)", "verify": "us an event", "long": "s a verify"}
SIM_WALL = 10


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.sidebyside", description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the old checkout's interpreter")
    ap.add_argument("--new", default=sys.executable, help="the new checkout's interpreter [this one]")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of instructions (no valgrind)")
    ap.add_argument("--prepare", help=argparse.SUPPRESS)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    ap.add_argument("-n", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--where", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.prepare:
        print(json.dumps(_prepare(args.prepare)))
        return 0
    if args.work:
        print(json.dumps(_work(args.work, args.n, args.where)))
        return 0
    if not args.old:
        ap.error("--old PYTHON is required")
    if not args.wall and shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1
    root = Path(tempfile.mkdtemp(prefix="trv-sidebyside-"))
    old, new = os.path.abspath(args.old), os.path.abspath(args.new)
    os.chdir(root)  # `python -c` puts the working directory first on sys.path: a checkout's own would shadow
    try:
        sides = [Side("old", old, root), Side("new", new, root)]
        found: dict[str, dict[str, list[float]]] = {s.label: {} for s in sides}
        for _ in range(args.rounds):
            for side in sides:
                for name, value in (side.wall_figures() if args.wall else side.figures()).items():
                    found[side.label].setdefault(name, []).append(value)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    med = statistics.median
    for name, unit in (WALL_UNITS if args.wall else UNITS).items():
        old, new = found["old"][name], found["new"][name]
        print(f"{name:7} old {med(old):,.3f} ({min(old):,.3f}-{max(old):,.3f}), new {med(new):,.3f} "
              f"({min(new):,.3f}-{max(new):,.3f}) {unit}: new / old {med(new) / med(old):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
