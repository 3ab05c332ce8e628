"""The bots' strength, the crews' balance and the playouts' cost (a benchmark, not a test).

``python -m bench.bots duel [--ruleset vendetta] [--crews cars,cars] [--games 100] [--steps 1000]``
    the search bot against ``greedy`` and against ``front`` (``bots/front.py``: the greedy bot that gives
    a car crew's biggest die to its frontmost car, not its rearmost: the best greedy car bot found), in
    2-player games; game ``i`` has seed ``--seed + i``, the search sits in seat ``i % 2``, and with two
    crews the seats swap crews every other pair of games, so the search plays each crew from each seat.  A table per opponent:
    wins by the search's seat and crew, with Wilson 95% intervals, and the seeds the search did not win.
``python -m bench.bots balance [--ruleset vendetta] [--bot search] [--players 2,3,4] [--crews ...]``
    one bot against itself: win rates by crew, player count and seat, Wilson 95% intervals; game ``g``
    seats crew ``(g + i) mod n`` of the crews (padded with ``cars`` to the player count) in seat ``i``,
    so each crew sits in each seat equally often.
``python -m bench.bots report FILE...``
    the tables of the games ``--out`` files hold (below), without playing: a run cut short is
    reported as far as it got, its games and seeds named.
(The playouts' cost is ``bench/playouts.py``.)

Every game is reproducible from its seed and the bots (each seat's RNG is ``Rng(seed, 1000 + seat)``,
as ``trv sim``'s); ``--jobs N`` spreads the games over N processes (the results do not depend on it).
``--out FILE`` appends each game's result to FILE (one JSON line) as it finishes and, run again, plays
only the games FILE lacks: a run cut short loses at most the games in progress, and rerunning the same
command with a finished FILE prints its tables without playing.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from trvendetta import rulesets
from trvendetta.bots import get_bot
from trvendetta.bots.front import FrontBot
from trvendetta.bots.search import DEFAULT_STEPS, SearchBot
from trvendetta.bots.sim import seat_name
from trvendetta.core.protocol import Ruleset
from trvendetta.core.rng import Rng


def make_bot(name: str, steps: int) -> Any:
    """A bot by name: a registered one, ``front`` (``bots/front.py``), or ``search`` at ``steps``
    (``search-greedy`` / ``search-random``: with the greedy bot's or random rollouts)."""
    if name == "front":
        return FrontBot()
    if name.startswith("search"):
        _, _, rollout = name.partition("-")
        return SearchBot(steps, rollout=rollout or "front")
    return get_bot(name)


def play(rs: Ruleset, seed: int, bots: Sequence[Any], crews: Sequence[str], clock: Any = None) -> dict:
    """One game: the winner's seat (1-based, None: no winner), and the CPU seconds each seat spent
    on its decisions of more than one option, and how many it took."""
    players = len(bots)
    seats = [(seat_name(i), ("red", "blue", "green", "yellow")[i], crews[i]) for i in range(players)]
    state, _ = rs.new_game(rs.default_position(seats, seed))
    rngs = [Rng(seed, 1000 + i) for i in range(players)]
    spent = [0.0] * players
    decisions = [0] * players
    while not rs.is_over(state):
        d = rs.pending(state)
        assert d is not None and d.player is not None
        i = int(d.player[1:]) - 1
        t = clock() if clock else 0.0
        action = bots[i].choose(rs, state, rngs[i], d)
        if len(d.options) > 1:
            decisions[i] += 1
            spent[i] += (clock() - t) if clock else 0.0
        state, _ = rs.apply(state, action)
    w = rs.winner(state)
    return {"seed": seed, "winner": int(w[1:]) if w else None, "spent": spent, "decisions": decisions}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {100 * k / n:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]" if n else "-"


def _run(job: tuple) -> dict:
    name, seed, bots, crews, steps = job
    rs = rulesets.get(name)
    out = play(rs, seed, [make_bot(b, steps) for b in bots], crews, time.process_time)
    out.update(key=_key(job), ruleset=name, bots=list(bots), crews=list(crews), steps=steps)
    return out


def _key(job: tuple) -> str:
    """What identifies a game in an ``--out`` file: ruleset, seed, bots, crews and search budget."""
    name, seed, bots, crews, steps = job
    return json.dumps([name, seed, list(bots), list(crews), steps])


def _map(jobs: list, n: int, out: str | None = None) -> list[dict]:
    """Play ``jobs`` on ``n`` processes, in job order; with ``out``, the games already in that file
    are read, not played, and each game played is appended to it as soon as it ends."""
    done: dict[str, dict] = {}
    if out and Path(out).exists():
        for line in Path(out).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[r["key"]] = r
    todo = [j for j in jobs if _key(j) not in done]
    if done:
        print(f"{len(jobs) - len(todo)} of {len(jobs)} games read from {out}", file=sys.stderr)
    sink = open(out, "a") if out else None
    try:
        if n <= 1:
            results = map(_run, todo)
        else:
            import multiprocessing

            pool = multiprocessing.get_context().Pool(n)
            results = pool.imap_unordered(_run, todo)
        for r in results:
            done[r["key"]] = r
            if sink:
                sink.write(json.dumps(r) + "\n")
                sink.flush()
            print(".", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if n > 1:
            pool.close()
            pool.join()
    finally:
        if sink:
            sink.close()
    return [done[_key(j)] for j in jobs]


# ------------------------------------------------------------------------------------- duel
def duel(args: argparse.Namespace) -> None:
    crews = args.crews.split(",")
    if len(crews) == 1:
        crews *= 2
    print(f"{args.ruleset}, 2 players, crews {','.join(crews)}, search steps {args.steps}, "
          f"seeds {args.seed}..{args.seed + args.games - 1}")
    for opponent in args.against.split(","):
        jobs = []
        for g in range(args.games):
            me = g % 2
            order = crews if (g // 2) % 2 == 0 else crews[::-1]
            bots = ["search", opponent] if me == 0 else [opponent, "search"]
            jobs.append((args.ruleset, args.seed + g, bots, list(order), args.steps))
        results = _map(jobs, args.jobs, args.out)
        duel_table(opponent, results)


def duel_table(opponent: str, results: list[dict]) -> None:
    """The search's wins against ``opponent`` by its seat and crew, its CPU, the seeds it did not win."""
    print(f"\nsearch against {opponent}:")
    rows: dict[tuple, list[int]] = {}
    cpu: list[float] = []
    for r in results:
        me = r["bots"].index("search")
        key = (me + 1, r["crews"][me])
        won = r["winner"] == me + 1
        for k in (key, ("all", "")):
            rows.setdefault(k, [0, 0])
            rows[k][0] += won
            rows[k][1] += 1
        if r["decisions"][me]:
            cpu.append(r["spent"][me] / r["decisions"][me])
    for (seat, crew), (k, n) in sorted(rows.items(), key=lambda kv: str(kv[0])):
        label = "all seats" if seat == "all" else f"seat p{seat} as {crew}"
        print(f"  {label:24} {rate(k, n)}")
    if cpu:
        print(f"  CPU a decision (search, decisions of 2+ options): median {1000 * statistics.median(cpu):.0f} ms "
              f"({1000 * min(cpu):.0f}-{1000 * max(cpu):.0f}) over games")
        print("  " + _game_cpu([r["spent"][r["bots"].index("search")] for r in results], "the search's"))
    lost = [str(r["seed"]) for r in results if r["winner"] != r["bots"].index("search") + 1]
    print("  seeds the search did not win: " + (" ".join(lost) or "none"))


# ---------------------------------------------------------------------------------- balance
def balance(args: argparse.Namespace) -> None:
    rs = rulesets.get(args.ruleset)
    crews = args.crews.split(",") if args.crews else list(rs.crews()) or [""]
    budget = f" (steps {args.steps})" if args.bot.startswith("search") else ""
    print(f"{args.ruleset}: bot {args.bot}{budget} against itself, crews {','.join(crews)}, "
          f"{args.games} games per player count, seeds {args.seed}..{args.seed + args.games - 1}")
    for players in (int(p) for p in args.players.split(",")):
        jobs = []
        for g in range(args.games):
            seed = args.seed + g
            pool = crews + ["cars"] * (players - len(crews))  # seats past the crews play cars, as in trv sim
            mix = [pool[(g + i) % len(pool)] for i in range(players)]  # each crew in each seat in turn
            jobs.append((args.ruleset, seed, [args.bot] * players, list(mix), args.steps))
        results = _map(jobs, args.jobs, args.out)
        balance_table(players, results)


def balance_table(players: int, results: list[dict]) -> None:
    """Win rates by crew and by seat of ``results``, games of ``players`` players."""
    by_crew: dict[str, list[int]] = {}
    by_seat: dict[int, list[int]] = {}
    for r in results:
        for i, c in enumerate(r["crews"]):
            won = r["winner"] == i + 1
            by_crew.setdefault(c or "-", [0, 0])
            by_crew[c or "-"][0] += won
            by_crew[c or "-"][1] += 1
            by_seat.setdefault(i + 1, [0, 0])
            by_seat[i + 1][0] += won
            by_seat[i + 1][1] += 1
    print(f"\n{players} players ({len(results)} games; a crew's rate is of the seats it played, "
          f"fair is {100 / players:.0f}%):")
    for c, (k, n) in sorted(by_crew.items()):
        print(f"  crew {c:12} {rate(k, n)}")
    for s, (k, n) in sorted(by_seat.items()):
        print(f"  seat p{s:<11} {rate(k, n)}")
    none = sum(1 for r in results if r["winner"] is None)
    if none:
        print(f"  no winner: {none}")
    if results and results[0]["bots"][0].startswith("search"):
        print("  " + _game_cpu([sum(r["spent"]) for r in results], "every seat's"))


def _game_cpu(seconds: list[float], whose: str) -> str:
    return (f"CPU a game ({whose} decisions): median {statistics.median(seconds):.1f} s "
            f"({min(seconds):.1f}-{max(seconds):.1f})")


# ----------------------------------------------------------------------------------- report
def report(args: argparse.Namespace) -> None:
    """The tables of whatever games ``--out`` files hold, without playing: a run cut short is reported
    as far as it got (the games and seeds are printed with each table)."""
    groups: dict[tuple, list[dict]] = {}
    for name in args.files:
        for line in Path(name).read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                bots = r["bots"]
                if len(set(bots)) == 1:
                    key: tuple = ("balance", r["ruleset"], bots[0], r["steps"] if bots[0].startswith("search") else None,
                                  len(bots))
                else:
                    other = next(b for b in bots if b != "search")
                    key = ("duel", r["ruleset"], ",".join(sorted(set(r["crews"]))), r["steps"], other)
                groups.setdefault(key, []).append(r)
    for key, results in sorted(groups.items(), key=lambda kv: str(kv[0])):
        results.sort(key=lambda r: r["seed"])
        seeds = [r["seed"] for r in results]
        span = (f"seeds {seeds[0]}..{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1))
                else "seeds " + " ".join(map(str, seeds)))
        if key[0] == "duel":
            _, ruleset, crews, steps, other = key
            print(f"\n== {ruleset}, crews {crews}, search steps {steps}: {len(results)} game{'s' * (len(results) != 1)}, {span}")
            duel_table(other, results)
        else:
            _, ruleset, bot, steps, players = key
            budget = f" (steps {steps})" if steps else ""
            print(f"\n== {ruleset}: bot {bot}{budget} against itself: {span}")
            balance_table(players, results)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    d = sub.add_parser("duel")
    d.add_argument("--ruleset", default="vendetta")
    d.add_argument("--crews", default="cars", help="one crew for both seats, or two (seat order; they swap)")
    d.add_argument("--against", default="greedy,front")
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--steps", type=int, default=DEFAULT_STEPS)
    d.add_argument("--jobs", type=int, default=1)
    d.add_argument("--out", help="a JSON-lines file of the games' results: appended as they end, read when rerun")
    b = sub.add_parser("balance")
    b.add_argument("--ruleset", default="vendetta")
    b.add_argument("--bot", default="search")
    b.add_argument("--crews", default="", help="comma-separated (default: every crew of the ruleset)")
    b.add_argument("--players", default="2,3,4")
    b.add_argument("--games", type=int, default=100)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--steps", type=int, default=DEFAULT_STEPS)
    b.add_argument("--jobs", type=int, default=1)
    b.add_argument("--out", help="a JSON-lines file of the games' results: appended as they end, read when rerun")
    r = sub.add_parser("report")
    r.add_argument("files", nargs="+", help="--out files of duel or balance runs")
    args = parser.parse_args(argv)
    {"duel": duel, "balance": balance, "report": report}[args.what](args)


if __name__ == "__main__":
    main()
