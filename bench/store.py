"""The store's figures (issue 16), on SQLite and PostgreSQL side by side.

``python -m bench.store [--postgres URL] [--quick]``; the URL defaults
to ``$TRV_TEST_POSTGRES`` (without one, only SQLite is measured).  Every
figure is the median of repeated runs in this invocation, printed with its
min and max; ratios are of medians measured in the same run:

- show: wall time of ``trv --store S --game G show`` (a subprocess, warm
  bytecode cache) against ``python -c "import click, msgspec, eventsourcing"``,
  the two alternating; the game is the longest greedy 4-player game of 30;
- append: turns per second, one command per transaction
  (``GameStore.append(..., steps=[(action, events)], state=...)`` as ``trv
  turn`` does), against a bare eventsourcing application saving the same
  events (one aggregate event per engine event carrying its JSON, one
  ``save()`` per turn) on the same backend; on both sides the engine's
  ``ruleset.apply`` runs before the timing;
- verify: events per second of ``replays.verify_game`` on that game, and its
  time against the engine's own re-execution of the same actions (no store,
  no walker) as a ratio;
- sim: whole random 4-player games per second with and without storing each
  game (``trv sim`` and ``trv sim --store``), and the process's peak memory
  (maximum resident set) after every 100 stored games;
- bytes: file size per event of an SQLite store holding one whole greedy
  4-player game (after a checkpoint), over every game of the search (30 seeds,
  8 with ``--quick``), of one store holding all of them (played one after the
  other), and the longest game's bytes by table (``dbstat``);
  ``--bytes-only`` measures only this;
- long: a game of about 100,000 events, stored in one save, then verified
  (``replays.verify_game``), against the engine's own re-execution.  No real
  ruleset makes a game that long (a 4-player Vendetta game has a few hundred
  events, the longest greedy one about 1,800), so this game is the test
  suite's toy ruleset (``tests/store/toy_ruleset.py``, loaded by its path) raced
  to a target far past the 100 its position check allows a hand-made game,
  with random moves (one event an action, so the walker's per-action work
  weighs more than in Vendetta, where an action makes about two events); on
  both backends (``store.library.drain_after_insert`` keeps PostgreSQL's one
  insert of 100k rows from hanging).

Writes ``bench/results/store.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from trvendetta import rulesets
from trvendetta.bots import new_position, simulate

from .common import ROOT, _tally_class, longest_greedy_game, median_time, play_events


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": values}


def _wall(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    return time.perf_counter() - t


def bench_show(where: str, game: str, repeats: int, pycache: Path) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TRV_STORE", "TRV_DB")}
    env = dict(base, NO_COLOR="1", PYTHONPYCACHEPREFIX=str(pycache))
    show = [sys.executable, "-m", "trvendetta.cli.main", "--store", where, "--game", game, "show"]
    floor = [sys.executable, "-c", "import click, msgspec, eventsourcing"]
    _wall(show, env), _wall(floor, env)
    shows, floors = [], []
    for _ in range(repeats):
        shows.append(_wall(show, env))
        floors.append(_wall(floor, env))
    return {"ratio": statistics.median(shows) / statistics.median(floors), "show_s": spread(shows),
            "floor_s": spread(floors)}


def _append_once(GameStore, where: str, rs, seed: int, actions: list) -> tuple[float, int]:
    game = f"bench-{seed}-{uuid.uuid4().hex[:6]}"
    with GameStore(where) as store:
        state, first = rs.new_game(new_position(rs, 4, seed))
        version = store.create_game(game, rs.name, first).version
        turns = []
        for action in actions:  # the engine's work, outside the timing as on the bare side
            state, new = rs.apply(state, action)
            turns.append((action, new, state))
        t = time.perf_counter()
        for action, new, state in turns:
            version = store.append(game, version, steps=[(action, new)], state=state).version
        return len(actions) / (time.perf_counter() - t), version


def _bare_once(env: dict, rs, seed: int, actions: list) -> float:
    """The same events saved by a bare eventsourcing app: one aggregate event per
    engine event (its JSON), one save() per turn."""
    from eventsourcing.application import Application

    Tally = _tally_class()
    app = Application(env=env)
    try:
        state, first = rs.new_game(new_position(rs, 4, seed))
        agg = Tally()
        app.save(agg)
        turns = []
        for action in actions:
            state, new = rs.apply(state, action)
            turns.append([rs.encode(e).decode() for e in new])
        t = time.perf_counter()
        for payloads in turns:
            for payload in payloads:
                agg.bump(payload)
            app.save(agg)
        return len(turns) / (time.perf_counter() - t)
    finally:
        app.close()


def bench_append(GameStore, where_of, bare_env_of, rs, seed: int, actions: list, repeats: int) -> dict:
    trv, bare = [], []
    for r in range(repeats):
        rate, _ = _append_once(GameStore, where_of(f"append{r}"), rs, seed, actions)
        trv.append(rate)
        bare.append(_bare_once(bare_env_of(f"bare{r}"), rs, seed, actions))
    return {"ratio": statistics.median(trv) / statistics.median(bare), "turns_per_s": spread(trv),
            "bare_turns_per_s": spread(bare), "turns": len(actions)}


def bench_verify(GameStore, where: str, game: str, rs, seed: int, actions: list, repeats: int) -> dict:
    from trvendetta import replays

    def engine() -> None:
        state, _ = rs.new_game(new_position(rs, 4, seed))
        for action in actions:
            state, _ = rs.apply(state, action)

    with GameStore(where) as store:
        events = replays.verify_game(store, game).events
        _, verify = median_time(lambda: replays.verify_game(store, game), repeats)
    _, alone = median_time(engine, repeats)
    v, e = statistics.median(verify), statistics.median(alone)
    return {"events": events, "events_per_s": spread([events / t for t in verify]), "verify_s": spread(verify),
            "engine_s": spread(alone), "ratio_to_engine": v / e}


def bench_sim(GameStore, where: str, games: int, repeats: int) -> dict:
    from trvendetta.app.simulated import store_simulated

    rs = rulesets.get("vendetta")
    plain, stored, peaks = [], [], []
    with GameStore(where) as store:
        for r in range(repeats):
            seeds = range(r * games, (r + 1) * games)
            t = time.perf_counter()
            for seed in seeds:
                simulate(rs, 4, seed, ["random"])
            plain.append(games / (time.perf_counter() - t))
            t = time.perf_counter()
            for n, seed in enumerate(seeds, 1):
                store_simulated(store, rs, 4, seed, ("random",) * 4, name=f"sim-{r}-{seed}")
                if n % 100 == 0:
                    peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
            stored.append(games / (time.perf_counter() - t))
    return {"ratio": statistics.median(stored) / statistics.median(plain), "sim_games_per_s": spread(plain),
            "sim_store_games_per_s": spread(stored), "peak_rss_kb_every_100_games": peaks}


def _toy():
    """The test suite's toy ruleset, registered (loaded by path: ``tests/`` is not a package of the install)."""
    import importlib.util

    if "toy" not in rulesets.names():
        spec = importlib.util.spec_from_file_location("toy_ruleset", ROOT / "tests" / "store" / "toy_ruleset.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["toy_ruleset"] = module  # its msgspec structs name their module
        spec.loader.exec_module(module)
    return rulesets.get("toy"), sys.modules["toy_ruleset"]


def long_game(events: int = 100_000, seed: int = 1, states: list | None = None) -> tuple:
    """A 4-player toy race of about ``events`` events, random moves: (ruleset, set-up events, steps, state);
    ``states``, when given, receives the state after each step."""
    import random

    toy, module = _toy()
    seats = (("ann", "red", "cars"), ("bob", "blue", "cars"), ("cy", "green", "cars"), ("di", "white", "cars"))
    state, first = toy.new_game(module.ToyPosition(players=seats, seed=seed, target=events * 10_000 // 20_953))
    rnd, steps = random.Random(seed), []
    while not toy.is_over(state):
        action = rnd.choice(toy.legal_actions(state))
        state, new = toy.apply(state, action)
        steps.append((action, new))
        if states is not None:
            states.append(state)
    return toy, first, steps, state


def bench_long(GameStore, where: str, repeats: int) -> dict:
    from trvendetta import replays

    toy, first, steps, state = long_game()
    events = len(first) + sum(len(e) for _, e in steps)

    def engine() -> None:
        st = toy.fold(toy.restart(first[0]))
        for action, _ in steps:
            st, _ = toy.apply(st, action)

    with GameStore(where) as store:
        t = time.perf_counter()
        store.create_game("long", toy.name, first, steps=steps, state=state)
        stored = time.perf_counter() - t
    with GameStore(where) as store:
        assert replays.verify_game(store, "long").events == events
        _, verify = median_time(lambda: replays.verify_game(store, "long"), repeats)
        _, load = median_time(lambda: store.load("long"), repeats)
    _, alone = median_time(engine, repeats)
    return {"events": events, "store_s": stored, "verify_s": spread(verify), "engine_s": spread(alone),
            "load_s": spread(load), "ratio_to_engine": statistics.median(verify) / statistics.median(alone)}


def bytes_per_event(path: Path, events: int) -> float:
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path.stat().st_size / events


def bench_bytes(GameStore, rs, seeds: range, tmp: Path) -> dict:
    """File size per event of one whole greedy 4-player game alone in an SQLite
    store (each turn appended as ``trv turn`` does, then a checkpoint), for every
    seed; of one store holding all those games, played one after the other; and
    where the bytes of the longest game go (SQLite's ``dbstat``)."""
    per_event, longest, together, total = [], (0, {}, 0), tmp / "bytes-all.sqlite", 0
    for seed in seeds:
        events, actions = play_events(rs, 4, seed, ["greedy"])
        path = tmp / f"bytes{seed}.sqlite"
        _, version = _append_once(GameStore, str(path), rs, seed, actions)
        total += _append_once(GameStore, str(together), rs, seed, actions)[1]
        per_event.append(bytes_per_event(path, version))
        if version > longest[0]:
            con = sqlite3.connect(path)
            try:
                pages = dict(con.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
            finally:
                con.close()
            longest = (version, {name: size / version for name, size in sorted(pages.items())}, seed)
        path.unlink()
    return {"per_event": spread(per_event), "games": len(per_event), "one_store": bytes_per_event(together, total),
            "longest": {"seed": longest[2], "events": longest[0], "per_event_by_table": longest[1]}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__.splitlines()[0])
    ap.add_argument("--postgres", default=os.environ.get("TRV_TEST_POSTGRES", ""),
                    help="a postgresql:// URL (default $TRV_TEST_POSTGRES); a fresh schema is used and dropped")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--bytes-only", action="store_true", help="only the bytes on disk per event (SQLite)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "store.json"))
    args = ap.parse_args(argv)
    from trvendetta.store import GameStore, location

    reps = 3 if args.quick else 7
    rs = rulesets.get("vendetta")
    print("finding a long game ...", file=sys.stderr)
    seed, events, actions = longest_greedy_game(rs, range(8 if args.quick else 30))
    tmp = Path(tempfile.mkdtemp(prefix="trv-bench-store-"))
    schema = "bench_" + uuid.uuid4().hex[:10]
    backends = {"sqlite": None}
    if args.postgres:
        sep = "&" if "?" in args.postgres else "?"
        backends["postgresql"] = f"{args.postgres}{sep}schema={schema}"
    results: dict = {"game": {"seed": seed, "events": len(events), "turns": len(actions)}}
    if args.bytes_only:
        backends = {"sqlite": None}
    try:
        for name, url in backends.items():
            if args.bytes_only:
                print("[sqlite] bytes ...", file=sys.stderr)
                results[name] = {"bytes": bench_bytes(GameStore, rs, range(8 if args.quick else 30), tmp)}
                break
            def where_of(label: str, url=url) -> str:
                return str(tmp / f"{label}.sqlite") if url is None else url

            def bare_env_of(label: str, url=url) -> dict:
                if url is None:
                    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / f"{label}.sqlite")}
                import psycopg

                env = location.postgres_env(url)
                env["POSTGRES_SCHEMA"] = f"{schema}_{label}"
                with psycopg.connect(args.postgres, autocommit=True) as conn:
                    conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{env["POSTGRES_SCHEMA"]}"')
                return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_POOL_SIZE": "1", **env}

            r: dict = {}
            print(f"[{name}] append ({len(actions)} turns) ...", file=sys.stderr)
            r["append"] = bench_append(GameStore, where_of, bare_env_of, rs, seed, actions, 3 if args.quick else 5)
            where = where_of("game")
            _, version = _append_once(GameStore, where, rs, seed, actions)
            with GameStore(where) as store:
                game = next(g.id for g in store.list_games())
            print(f"[{name}] show ...", file=sys.stderr)
            r["show"] = bench_show(where, game, reps, tmp / "pycache")
            print(f"[{name}] verify ...", file=sys.stderr)
            r["verify"] = bench_verify(GameStore, where, game, rs, seed, actions, reps if args.quick else 15)
            print(f"[{name}] sim ...", file=sys.stderr)
            r["sim"] = bench_sim(GameStore, where_of("sim"), 100 if args.quick else 300, 2 if args.quick else 3)
            if url is None:
                print(f"[{name}] bytes ...", file=sys.stderr)
                r["bytes"] = bench_bytes(GameStore, rs, range(8 if args.quick else 30), tmp)
            # on PostgreSQL too (its one save of 100k events: library.drain_after_insert)
            print(f"[{name}] a 100k-event game ...", file=sys.stderr)
            r["long"] = bench_long(GameStore, where_of("long"), 3 if args.quick else 5)
            results[name] = r
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if args.postgres:
            import psycopg

            with psycopg.connect(args.postgres, autocommit=True) as conn:
                for (s,) in conn.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE %s",
                                         [schema + "%"]).fetchall():
                    conn.execute(f'DROP SCHEMA "{s}" CASCADE')

    def fmt(d: dict, scale: float = 1.0, unit: str = "") -> str:
        return f"{d['median'] * scale:,.1f}{unit} ({d['min'] * scale:,.1f}-{d['max'] * scale:,.1f})"

    g = results["game"]
    print(f"game: seed {g['seed']}, {g['events']} events, {g['turns']} turns")
    for name in backends:
        r = results[name]
        print(f"--- {name}")
        if "bytes" in r:
            b = r["bytes"]
            print(f"bytes    {fmt(b['per_event'])} per event on disk over {b['games']} whole greedy games, one "
                  f"store each (target <= 200); {b['one_store']:.1f} for one store holding them all; by table, "
                  f"the longest ({b['longest']['events']} events): "
                  + ", ".join(f"{k} {v:.1f}" for k, v in b["longest"]["per_event_by_table"].items()))
        if "show" not in r:
            continue
        print(f"show     {r['show']['ratio']:.2f}x the import floor: show {fmt(r['show']['show_s'], 1000, ' ms')}, "
              f"floor {fmt(r['show']['floor_s'], 1000, ' ms')}  (target <= 1.3x)")
        a = r["append"]
        print(f"append   {a['ratio']:.2f}x the bare save: {fmt(a['turns_per_s'])} turns/s vs "
              f"{fmt(a['bare_turns_per_s'])}  (target >= 1.0x)")
        v = r["verify"]
        print(f"verify   {fmt(v['events_per_s'])} events/s; {v['ratio_to_engine']:.2f}x the engine's re-execution "
              f"({fmt(v['verify_s'], 1000, ' ms')} vs {fmt(v['engine_s'], 1000, ' ms')})")
        s = r["sim"]
        print(f"sim      --store {s['ratio']:.2f}x: {fmt(s['sim_store_games_per_s'])} vs {fmt(s['sim_games_per_s'])} "
              f"games/s (target >= 0.5x); peak RSS every 100 games (kB): {s['peak_rss_kb_every_100_games']}")
        g = r.get("long")
        if g is None:
            continue
        print(f"long     {g['events']:,} events (toy): verify {fmt(g['verify_s'], 1000, ' ms')} (target < 1,000 ms), "
              f"{g['ratio_to_engine']:.2f}x the engine's {fmt(g['engine_s'], 1000, ' ms')}; load "
              f"{fmt(g['load_s'], 1000, ' ms')}; stored in one save in {g['store_s']:.1f} s")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "nproc": os.cpu_count(),
                               "load": os.getloadavg(), **results}, indent=1, default=str) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
