"""What a tournament costs (issue 15): ``python -m bench.tournament``.

* pairing: ``trvendetta.tournament.pairing.pair_next`` for round 1 and for
  round 4 (after three rounds of made-up results) of fields of 12, 40 and 100
  players at tables of 3-4, over ``--seeds`` seeds;
* the simulated tournament: 12 players, 4 rounds, random bots (the test
  ``tests/tournament/test_simulated.py`` without its exhaustive checks),
  through ``trv`` in this process against a SQLite file, ``--repeats``
  times; with the time of each phase (pair, start, report, standings,
  export + verify) summed over the run.

Prints medians with min and max and writes ``bench/results/tournament.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from click.testing import CliRunner

from trvendetta.cli.main import cli
from trvendetta.core.rng import Rng
from trvendetta.tournament import events as tev
from trvendetta.tournament import model, pairing

RESULTS = Path(__file__).resolve().parent / "results" / "tournament.json"


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def _made_up(state: model.State, round_: int, rng: Rng) -> model.State:
    for t in state.round(round_).tables:
        order = rng.shuffled(list(t.players))
        places = tuple(tev.Place(p, order.index(p) + 1) for p in t.players)
        gid = f"{round_:032x}{t.table:032x}"
        result = tev.ResultReported(round_, t.table, f"g{round_}-{t.table}", gid, "0" * 64, 1, places)
        state = model.fold([result], state)
    return state


def bench_pairing(sizes: list[int], seeds: int) -> dict:
    out = {}
    for n in sizes:
        first, fourth = [], []
        for seed in range(seeds):
            s = model.fold(model.check_new("b", "vendetta", 4, 3, 4, (4, 2, 1, 0), seed))
            s = model.fold(model.check_register(s, [f"p{i:03d}" for i in range(n)]), s)
            rng = Rng(seed, 7)
            for r in range(1, 5):
                t = time.perf_counter()
                event = pairing.pair_next(s)
                took = time.perf_counter() - t
                (first if r == 1 else fourth if r == 4 else []).append(took)
                s = _made_up(model.fold([event], s), r, rng)
        out[str(n)] = {"round 1": spread(first), "round 4": spread(fourth)}
    return out


def _trv(db: Path, phases: dict, phase: str, *args: str) -> str:
    t = time.perf_counter()
    result = CliRunner().invoke(cli, ["--db", str(db), *args], env={"TRV_DB": None, "TRV_GAME": None},
                                catch_exceptions=False)
    phases[phase] += time.perf_counter() - t
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result.stdout


def bench_tournament(repeats: int) -> dict:
    whole, by_phase = [], defaultdict(list)
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "t.sqlite"
            phases: dict = defaultdict(float)
            t0 = time.perf_counter()
            _trv(db, phases, "new + register", "tournament", "new", "s", "--rounds", "4", "--seed", "7")
            _trv(db, phases, "new + register", "tournament", "register", "s", *[f"p{i:02d}" for i in range(12)])
            for r in range(1, 5):
                paired = json.loads(_trv(db, phases, "pair", "tournament", "pair", "s", "--json"))
                _trv(db, phases, "start (12 bot games)", "tournament", "start", "s", "--bots", "random")
                for table in paired["tables"]:
                    _trv(db, phases, "report (re-execute)", "tournament", "report", "s", "--table", str(table["table"]))
            _trv(db, phases, "standings", "tournament", "standings", "s")
            _trv(db, phases, "export + verify", "tournament", "export", "s", "-o", str(Path(tmp) / "s.trvt"))
            _trv(db, phases, "export + verify", "tournament", "verify", str(Path(tmp) / "s.trvt"))
            whole.append(time.perf_counter() - t0)
            for k, v in phases.items():
                by_phase[k].append(v)
    return {"whole": spread(whole), "phases": {k: spread(v) for k, v in by_phase.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    results = {"pairing": bench_pairing([12, 40, 100], args.seeds), "tournament": bench_tournament(args.repeats)}
    for n, figs in results["pairing"].items():
        for r, f in figs.items():
            print(f"pair {n:>3} players, {r}: {f['median'] * 1000:7.1f} ms (min {f['min'] * 1000:.1f}, "
                  f"max {f['max'] * 1000:.1f})")
    w = results["tournament"]["whole"]
    print(f"12 players, 4 rounds, 12 bot games: {w['median']:.2f} s (min {w['min']:.2f}, max {w['max']:.2f})")
    for k, f in results["tournament"]["phases"].items():
        print(f"  {k:<22} {f['median']:.2f} s (min {f['min']:.2f}, max {f['max']:.2f})")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
