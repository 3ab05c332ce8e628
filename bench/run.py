"""Benchmarks of issue 6: run with ``python -m bench`` (or ``python bench/run.py``).

Every figure is the median over repeated runs, measured in this process (or
in subprocesses, for wall times of the CLI) on this machine:

1. fold: events/s folding a 10,000-event history with ``ruleset.fold``
   (whole random 4-player Vendetta games concatenated up to 10,000 events;
   each GameStarted starts a fresh state, so this is pure ``evolve``);
2. load + show: wall time of ``trv show`` on a long game stored in SQLite
   with snapshots, against ``python -c "import click, msgspec, eventsourcing"``
   (the floor any such CLI pays) in the same run, as a ratio;
3. verify: events/s re-executed and checked by ``replays.verify_game`` (what
   ``trv verify GAME`` runs) on the long game stored for figure 5;
4. sim: full random 4-player Vendetta games per second on one core;
5. append: turns per second appended to SQLite one command per transaction
   (apply the action, ``GameStore.append`` its events), against a bare
   ``eventsourcing`` save of one event per transaction, as a ratio.

Prints a table and writes ``bench/results/latest.json``.  ``--quick`` runs
fewer repeats; ``--profile`` prints where the time goes (cProfile) for the
engine-bound figures.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trvendetta import rulesets
from trvendetta.bots import new_position, simulate
from trvendetta.core.errors import TrvError

from .common import ROOT, _tally_class, longest_greedy_game, median_time, play_events  # noqa: F401 (bench.store uses them)


TARGETS = {
    "fold": ("events/s", 100_000, ">="),
    "load_show": ("x import floor", 1.5, "<="),
    "verify": ("events/s", 30_000, ">="),
    "sim": ("games/s/core", 50, ">="),
    "sim_mixed": ("games/s/core", 50, ">="),
    "append": ("x bare save", 0.8, ">="),
}
FOLD_EVENTS = 10_000


# ------------------------------------------------------------------ 1 fold
def long_history(rs, n: int = FOLD_EVENTS) -> list:
    events: list = []
    seed = 0
    while len(events) < n:
        events += play_events(rs, 4, seed, ["random"])[0]
        seed += 1
    return events[:n]


def bench_fold(rs, repeats: int) -> dict:
    events = long_history(rs)
    med, times = median_time(lambda: rs.fold(events), repeats)
    return {"value": round(len(events) / med), "events": len(events), "median_s": med, "runs_s": times}


# ------------------------------------------------------------------- 4 sim
def bench_sim(rs, repeats: int, games: int) -> dict:
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        for seed in range(r * games, (r + 1) * games):
            simulate(rs, 4, seed, ["random"])
        rates.append(games / (time.perf_counter() - t))
    return {"value": round(statistics.median(rates), 1), "games_per_run": games, "runs_games_per_s": rates}


MIXED_CREWS = ("bigrig", "finalfive", "cars", "cars")


def bench_sim_mixed(rs, repeats: int, games: int, crews: tuple[str, ...] = MIXED_CREWS) -> dict:
    """As bench_sim, with mixed crews (default: the Big Rig, the Final Five and two car crews, rotated over the seats)."""
    rates = []
    for r in range(repeats):
        t = time.perf_counter()
        for seed in range(r * games, (r + 1) * games):
            simulate(rs, len(crews), seed, ["random"], crews)
        rates.append(games / (time.perf_counter() - t))
    return {"value": round(statistics.median(rates), 1), "games_per_run": games, "runs_games_per_s": rates,
            "crews": list(crews)}


# --------------------------------------------------------- store available?
def store_api():
    try:
        from trvendetta.store import GameStore  # noqa: F401

        return GameStore
    except ImportError:
        return None


# ---------------------------------------------------------------- 5 append
def bare_save_rate(path: str, n: int, payload: str) -> float:
    """Turns per second of a bare eventsourcing app saving one event per transaction."""
    from eventsourcing.application import Application

    Tally = _tally_class()
    app = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path})
    agg = Tally()
    app.save(agg)
    t = time.perf_counter()
    for _ in range(n):
        agg.bump(payload)
        app.save(agg)
    return n / (time.perf_counter() - t)


def trv_append_rate(GameStore, path: str, rs, seed: int, events: list, actions: list) -> tuple[float, int, str]:
    """Replay a bot game into a fresh store one command (action) per transaction."""
    game = f"bench-{seed}"
    store = GameStore(path)
    state, first = rs.new_game(new_position(rs, 4, seed))
    loaded = store.create_game(game, rs.name, first)
    version = loaded.version
    t = time.perf_counter()
    for action in actions:
        state, new = rs.apply(state, action)
        version = store.append(game, version, steps=[(action, new)]).version
    rate = len(actions) / (time.perf_counter() - t)
    store.close()
    return rate, version, game


def bench_append(GameStore, rs, tmp: Path, repeats: int, game_seed: int, events: list, actions: list) -> dict:
    payload = rs.encode(events[len(events) // 2]).decode()
    trv, bare = [], []
    db = None
    for r in range(repeats):
        db = tmp / f"append-{r}.sqlite"
        rate, version, game = trv_append_rate(GameStore, str(db), rs, game_seed, events, actions)
        trv.append(rate)
        bare.append(bare_save_rate(str(tmp / f"bare-{r}.sqlite"), len(actions), payload))
    ratio = statistics.median(trv) / statistics.median(bare)
    return {
        "value": round(ratio, 3),
        "turns_per_s": round(statistics.median(trv), 1),
        "bare_saves_per_s": round(statistics.median(bare), 1),
        "turns": len(actions),
        "events": version,
        "runs_turns_per_s": trv,
        "runs_bare_per_s": bare,
        "db": str(db),
        "game": game,
    }


# ------------------------------------------------------------- 2 load+show
def wall(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    return time.perf_counter() - t


def bench_load_show(db: str, game: str, repeats: int, pycache: Path) -> dict:
    """``trv show`` vs the import floor, both with a warm bytecode cache (as an
    installed CLI runs); the cache goes to ``pycache`` (PYTHONPYCACHEPREFIX),
    never into the repository.  One more pair without any bytecode cache
    (PYTHONDONTWRITEBYTECODE, as some CI shells set) is recorded for reference."""
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env = dict(base, NO_COLOR="1", PYTHONPYCACHEPREFIX=str(pycache))
    show = [sys.executable, "-m", "trvendetta.cli.main", "--db", db, "--game", game, "show"]
    floor = [sys.executable, "-c", "import click, msgspec, eventsourcing"]
    wall(show, env), wall(floor, env)  # write the bytecode cache, warm the file cache
    shows, floors = [], []
    for _ in range(repeats):  # interleaved, so drift hits both alike
        shows.append(wall(show, env))
        floors.append(wall(floor, env))
    s, f = statistics.median(shows), statistics.median(floors)
    cold_env = dict(base, NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1")
    cold = statistics.median(wall(show, cold_env) for _ in range(3))
    return {
        "value": round(s / f, 2), "show_s": s, "floor_s": f, "runs_show_s": shows, "runs_floor_s": floors,
        "show_no_bytecode_cache_s": cold,
    }


# ---------------------------------------------------------------- 3 verify
def bench_verify(GameStore, db: str, game: str, repeats: int) -> dict:
    """Events per second re-executed and checked by ``replays.verify_game``
    (reading the records from SQLite, checking the chain, re-running every
    action, comparing every event's bytes), in this process, the store open."""
    from trvendetta import replays

    with GameStore(db) as store:
        result = replays.verify_game(store, game)  # warm: imports, component data
        med, times = median_time(lambda: replays.verify_game(store, game), repeats)
    return {"value": round(result.events / med), "events": result.events, "median_s": med, "runs_s": times,
            "best": round(result.events / min(times))}


# ----------------------------------------------------------------- profile
def profile(label: str, fn, top: int = 14) -> str:
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = Path(tempfile.mkstemp(suffix=".txt")[1])
    with out.open("w") as fh:
        pstats.Stats(prof, stream=fh).strip_dirs().sort_stats("tottime").print_stats(top)
    text = out.read_text()
    out.unlink()
    return f"--- {label} (cProfile, by own time)\n" + text


def verdict(name: str, value) -> str:
    if value is None:
        return "not measured"
    _, target, op = TARGETS[name]
    ok = value >= target if op == ">=" else value <= target
    return "met" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    ap.add_argument("--profile", action="store_true", help="print cProfile summaries of fold, sim and append")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "latest.json"))
    ap.add_argument("--ruleset", default="vendetta",
                    help="the ruleset to measure (default vendetta: docs/performance.md's targets are set for it)")
    ap.add_argument("--mixed-crews", default=",".join(MIXED_CREWS),
                    help="the crews of the mixed-crew sim, comma-separated (skipped if the ruleset refuses them)")
    ap.add_argument("--no-store-figures", action="store_true",
                    help="skip the store's figures on SQLite and PostgreSQL (bench/store.py, issue 16)")
    args = ap.parse_args(argv)
    rs = rulesets.get(args.ruleset)
    mixed = tuple(c.strip() for c in args.mixed_crews.split(",") if c.strip())
    reps = 3 if args.quick else 7
    results: dict = {}
    notes: dict = {}

    print("measuring fold ...", file=sys.stderr)
    results["fold"] = bench_fold(rs, reps)
    print("measuring sim ...", file=sys.stderr)
    results["sim"] = bench_sim(rs, reps if not args.quick else 2, 20 if args.quick else 50)
    print("measuring sim with mixed crews ...", file=sys.stderr)
    try:
        results["sim_mixed"] = bench_sim_mixed(rs, reps if not args.quick else 2, 20 if args.quick else 50, mixed)
    except TrvError as exc:
        notes["sim_mixed"] = f"{rs.name} refuses the crews {', '.join(mixed)}: {exc}"

    GameStore = store_api()
    tmp = Path(tempfile.mkdtemp(prefix="trv-bench-"))
    try:
        if GameStore is None:
            notes["append"] = notes["load_show"] = "event_store has no GameStore yet"
        else:
            print("finding a long game ...", file=sys.stderr)
            seed, events, actions = longest_greedy_game(rs, range(8 if args.quick else 30))
            print(f"measuring append ({len(actions)} turns, {len(events)} events) ...", file=sys.stderr)
            results["append"] = bench_append(GameStore, rs, tmp, 3 if args.quick else 5, seed, events, actions)
            print("measuring load + show ...", file=sys.stderr)
            results["load_show"] = bench_load_show(
                results["append"]["db"], results["append"]["game"], reps, tmp / "pycache"
            )
            results["load_show"]["events"] = results["append"]["events"]
            print("measuring verify ...", file=sys.stderr)
            results["verify"] = bench_verify(GameStore, results["append"]["db"], results["append"]["game"],
                                             reps if args.quick else 15)
            if args.profile:
                prof_db = str(tmp / "profile.sqlite")
                print(profile("append", lambda: trv_append_rate(GameStore, prof_db, rs, seed, events, actions)))
                from trvendetta import replays

                with GameStore(results["append"]["db"]) as vs:
                    print(profile("verify", lambda: replays.verify_game(vs, results["append"]["game"])))
        if args.profile:
            history = long_history(rs)
            print(profile("fold 10,000 events", lambda: rs.fold(history)))
            print(profile("sim 20 random 4-player games", lambda: [simulate(rs, 4, s, ["random"]) for s in range(20)]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    rows = []
    for name in ("fold", "load_show", "verify", "sim", "sim_mixed", "append"):
        unit, target, op = TARGETS[name]
        value = results.get(name, {}).get("value")
        rows.append((name, value, unit, f"{op} {target:g}", verdict(name, value), notes.get(name, "")))
    print(f"{'figure':<10} {'median':>12} {'unit':<15} {'target':<10} {'verdict':<13} note")
    for name, value, unit, target, v, note in rows:
        shown = "-" if value is None else f"{value:,}"
        print(f"{name:<10} {shown:>12} {unit:<15} {target:<10} {v:<13} {note}")
    if "append" in results:
        a = results["append"]
        print(f"append: {a['turns_per_s']:,} turns/s vs bare save {a['bare_saves_per_s']:,}/s "
              f"({a['turns']} turns, {a['events']} events)")
    if "verify" in results:
        v = results["verify"]
        print(f"verify: {v['events']} events in {v['median_s'] * 1000:.0f} ms (best run {v['best']:,} events/s)")
    if "load_show" in results:
        ls = results["load_show"]
        print(f"load+show: trv show {ls['show_s'] * 1000:.0f} ms vs import floor {ls['floor_s'] * 1000:.0f} ms "
              f"({ls['events']} events); without a bytecode cache {ls['show_no_bytecode_cache_s'] * 1000:.0f} ms")

    doc = {
        "machine": {
            "nproc": os.cpu_count(),
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
        },
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "repeats": reps,
        "targets": {k: {"unit": u, "target": t, "op": o} for k, (u, t, o) in TARGETS.items()},
        "results": results,
        "verdicts": {name: v for name, _, _, _, v, _ in rows},
        "notes": notes,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2, default=str) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    if not args.no_store_figures:  # show/append/verify/sim --store/bytes, SQLite beside PostgreSQL
        from . import store as store_figures

        store_figures.main(["--quick"] if args.quick else [])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
