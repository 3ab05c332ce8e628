"""What a command's start-up costs, two checkouts side by side in instruction counts.

``python bench/startup.py --old OLD_PYTHON [--new PYTHON] [--rounds 3] [--games 10,10000]``
(needs ``valgrind``; a few minutes a round, most of it storing 10,000 games once per checkout)

Each interpreter runs this file by its path against its own installed ``trvendetta`` (an older
checkout needs nothing of it) and stores its own games.  Every figure is a whole process under
cachegrind (``--cache-sim=no``: instructions executed, which repeat to within about 0.5% whatever
else the machine runs), the two checkouts alternating figure by figure, ``--rounds`` times; each
is printed as the median with min and max over the rounds, and the new/old ratio of the medians:

- python: ``python -c pass``;
- floor: the import floor ``python -c "import click, msgspec, eventsourcing"`` (docs/performance.md);
- --help, --version: ``trv --help`` and ``trv --version``;
- show: ``trv show`` of a two-player Vendetta game after its set-up (the only game of its store);
- turn: ``trv turn --car medium --assign 5`` on a fresh copy of that store (load, apply, append);
- latest@N: ``trv show`` without ``--game`` in a store of N games (the latest one shown): what
  finding "the latest game" costs as the games index grows.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
TRV = ["-c", "from trvendetta.cli.main import main; main()"]
NEW = ["new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", "duel"]


def _prepare(where: str, games: list[int]) -> None:
    """(In the measured checkout) the stores: ``show.sqlite`` with the duel, ``games-N.sqlite`` with N."""
    from trvendetta.cli.main import main

    sys.argv = ["trv", "--db", os.path.join(where, "show.sqlite"), *NEW]
    try:
        main()
    except SystemExit as exc:
        if exc.code:
            raise
    from trvendetta import rulesets
    from trvendetta.bots import new_position
    from trvendetta.store import GameStore

    rs = rulesets.get("vendetta")
    _, first = rs.new_game(new_position(rs, 2, 7))
    for n in games:
        with GameStore(os.path.join(where, f"games-{n}.sqlite")) as store:
            for i in range(n):
                store.create_game(f"g{i}", rs.name, first)


def _environ(extra: dict) -> dict:
    """The environment of a measured process: no store, game or server named from outside."""
    env = {k: v for k, v in os.environ.items() if k not in ("TRV_DB", "TRV_GAME", "TRV_STORE", "TRV_SERVER",
                                                             "PYTHONDONTWRITEBYTECODE")}
    return {**env, "PYTHONHASHSEED": "0", "NO_COLOR": "1", **extra}


def _count(python: str, args: list[str], env: dict) -> int:
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          python, *args], capture_output=True, text=True, env=_environ(env))
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"{python} {' '.join(args)} failed:\n{run.stdout[-1000:]}\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


class Side:
    def __init__(self, label: str, python: str, root: Path, games: list[int]):
        self.label, self.python, self.where = label, python, root / label
        self.where.mkdir()
        self.env = {"PYTHONPYCACHEPREFIX": str(root / f"pycache-{label}"), "XDG_DATA_HOME": str(self.where / "xdg")}
        env = _environ(self.env)
        subprocess.run([python, str(HERE), "--prepare", str(self.where), "--games",
                        ",".join(map(str, games))], check=True, env=env, capture_output=True)
        for args in (["-c", "pass"], [*TRV, "--help"], [*TRV, "--db", str(self.where / "show.sqlite"), "show"]):
            subprocess.run([python, *args], env=env, capture_output=True)  # the bytecode cache, warm

    def figure(self, name: str) -> int:
        db = str(self.where / "show.sqlite")
        if name == "python":
            return _count(self.python, ["-c", "pass"], self.env)
        if name == "floor":
            return _count(self.python, ["-c", "import click, msgspec, eventsourcing"], self.env)
        if name in ("--help", "--version"):
            return _count(self.python, [*TRV, name], self.env)
        if name == "show":
            return _count(self.python, [*TRV, "--db", db, "show"], self.env)
        if name == "turn":
            copy = str(self.where / "turn.sqlite")
            for suffix in ("-wal", "-shm"):
                Path(copy + suffix).unlink(missing_ok=True)
            shutil.copy(db, copy)
            return _count(self.python, [*TRV, "--db", copy, "turn", "--car", "medium", "--assign", "5"], self.env)
        n = name.split("@")[1]
        return _count(self.python, [*TRV, "--db", str(self.where / f"games-{n}.sqlite"), "show"], self.env)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/startup.py", description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the old checkout's python (required)")
    ap.add_argument("--new", default=sys.executable, help="the new checkout's python (default: this one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", default="10,10000", help="the store sizes of latest@N (comma-separated)")
    ap.add_argument("--prepare", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    games = [int(n) for n in args.games.split(",")]
    if args.prepare:
        _prepare(args.prepare, games)
        return 0
    if not args.old:
        ap.error("--old PYTHON is required")
    figures = ["python", "floor", "--help", "--version", "show", "turn", *(f"latest@{n}" for n in games)]
    with tempfile.TemporaryDirectory() as tmp:
        sides = [Side("old", args.old, Path(tmp), games), Side("new", args.new, Path(tmp), games)]
        counts: dict = {(s.label, f): [] for s in sides for f in figures}
        for _ in range(args.rounds):
            for f in figures:
                for s in sides:
                    counts[(s.label, f)].append(s.figure(f))
    med = {k: statistics.median(v) for k, v in counts.items()}

    def cell(label: str, f: str) -> str:
        v = counts[(label, f)]
        floor = med[(label, "floor")]
        return f"{med[(label, f)] / 1e6:8.1f}M ({min(v) / 1e6:.1f}-{max(v) / 1e6:.1f}) {med[(label, f)] / floor:5.2f}x"

    print(f"instructions, median (min-max) of {args.rounds} rounds, and x the import floor of the same checkout")
    print(f"{'figure':<14}{'old':>36}{'new':>36}  new/old")
    for f in figures:
        print(f"{f:<14}{cell('old', f):>36}{cell('new', f):>36}  {med[('new', f)] / med[('old', f)]:.2f}")
    if len(games) >= 2:
        lo, hi = games[0], games[-1]
        for label in ("old", "new"):
            per = (med[(label, f"latest@{hi}")] - med[(label, f"latest@{lo}")]) / (hi - lo)
            print(f"{label}: latest@{hi} - latest@{lo}: {per:,.0f} instructions a stored game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
