"""What an exchange game costs (issue 11): ``python -m bench.exchange``.

Two or three players, each with their own SQLite store and identity home,
play a whole Vendetta exchange game (docs/fair-play.md) through ``trv`` run
in this process (click's test runner, as tests/fairplay does): the first
invites, the others join, then whoever's decision it is plays a random
legal option (``random.Random(seed)``, avoiding certain elimination where it
can) with ``trv decide``, exports the packet and every other store imports
it; the reply packets ``trv import`` writes are mailed on the same way.

Each player's secrets come from a generator seeded by ``--seed``
(``cli.entropy``), so every run plays the same game (the same dice, the same choices): the runs differ
only in time.  Per run: wall and CPU time of the whole game and of each kind
of command (``decide``, ``import``, ``export``; ``legal`` and ``show`` are
the harness asking whose turn it is), and what was mailed (packets, bytes,
draws).  Prints medians with min and max over ``--runs`` and writes
``bench/results/exchange-N.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
COLORS = ["red", "blue", "green", "yellow"]


def _seeded(seed: int):
    """``cli.entropy.random_bytes`` from a seeded generator: the same secrets (and keys), so
    the same dice, in every run."""
    rng = random.Random(seed)
    return rng.randbytes


class Player:
    """`trv` as one player runs it: their own database and $TRV_HOME; times every command."""

    def __init__(self, root: Path, name: str, clock: dict):
        from click.testing import CliRunner

        self.name, self.clock = name, clock
        self.db, self.home = root / f"{name}.sqlite", root / f"home-{name}"
        self.runner = CliRunner()

    def __call__(self, *args) -> str:
        from trvendetta.cli.main import cli

        env = {"TRV_GAME": None, "TRV_DB": None, "TRV_AS": None, "NO_COLOR": "1", "TRV_HOME": str(self.home)}
        t, c = time.perf_counter(), time.process_time()
        result = self.runner.invoke(cli, ["--db", str(self.db), *map(str, args)], env=env, catch_exceptions=False)
        self.clock[args[0]][0] += time.perf_counter() - t
        self.clock[args[0]][1] += time.process_time() - c
        if result.exit_code != 0:
            raise RuntimeError(f"{self.name}: trv {' '.join(map(str, args))}: {result.stdout}{result.stderr}")
        return result.stdout


def play_game(root: Path, names: list[str], seed: int) -> dict:
    """One whole exchange game; returns its times and what was mailed."""
    from trvendetta.cli import entropy

    clock: dict = defaultdict(lambda: [0.0, 0.0])
    players = [Player(root, n, clock) for n in names]
    saved = entropy.random_bytes
    entropy.random_bytes = _seeded(seed + 10_000)  # the identities' keys
    try:
        start = time.perf_counter(), time.process_time()
        for p in players:
            p("id", "new", p.name)
            (root / f"{p.name}.pub").write_text(p("id", "show", p.name))
        entropy.random_bytes = _seeded(seed)  # the exchange secrets, from the generator's first bytes
        first, others = players[0], players[1:]
        args = ["invite", "--name", "duel", "-o", root / "invite.json"]
        for p, color in zip(players, COLORS):
            args += ["--player", f"{p.name}:{color}", "--key", f"{p.name}={root / (p.name + '.pub')}"]
        first(*args)
        joins = []
        for p in others:
            p("join", root / "invite.json", "-o", root / f"{p.name}.json")
            joins += ["--join", root / f"{p.name}.json"]
        first("new", "--invite", root / "invite.json", *joins)
        first("export", "duel", "-o", root / "duel.trv")
        for p in others:
            p("import", root / "duel.trv")
        mailed = {"packets": 0, "bytes": 0, "replies": 0, "actions": 0, "draws": 0}
        chooser = random.Random(seed)
        by_name = {p.name: p for p in players}
        n = 0
        while True:
            legal = first("legal").splitlines()
            if legal[0].startswith("the game is over"):
                break
            p = by_name[legal[0].split(":")[0]]
            since = json.loads(p("show", "--json"))["version"]
            options = [o for o in legal[1:] if not o.rstrip().endswith(")")] or legal[1:]
            out = p("decide", chooser.choice(options).strip())
            mailed["actions"] += 1
            mailed["draws"] += "waits for the others' dice" in out
            n += 1
            packet = root / f"turn-{n}.trv"
            p("export", "--since", since, "-o", packet)
            queue = [(packet, p)]
            while queue:
                packet, sender = queue.pop(0)
                mailed["packets"] += 1
                mailed["bytes"] += packet.stat().st_size
                for q in players:
                    if q is sender:
                        continue
                    n += 1
                    reply = root / f"reply-{n}.trv"
                    if "wrote the reply packet" in q("import", packet, "--reply", reply):
                        mailed["replies"] += 1
                        queue.append((reply, q))
        wall, cpu = time.perf_counter() - start[0], time.process_time() - start[1]
        shown = {first("show", "--json")} | {q("show", "--json") for q in others}
        assert len(shown) == 1, "the stores disagree"
        events = json.loads(first("show", "--json"))["version"]
    finally:
        entropy.random_bytes = saved
    return {"wall_s": wall, "cpu_s": cpu, "events": events, **mailed,
            "commands": {k: {"wall_s": v[0], "cpu_s": v[1]} for k, v in clock.items()}}


def _spread(values: list[float]) -> list[float]:
    return [round(statistics.median(values), 2), round(min(values), 2), round(max(values), 2)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--label", default="", help="a name for this measurement (before/after) in the file")
    args = parser.parse_args(argv)
    names = ["ann", "bob", "cyd", "dee"][:args.players]
    runs = []
    load = [os.getloadavg()[0]]
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(play_game(Path(tmp), names, args.seed))
    load.append(os.getloadavg()[0])
    # the same game every run (the bytes too, where the identities' keys come from the same source)
    same = {(r["events"], r["actions"], r["draws"], r["packets"]) for r in runs}
    assert len(same) == 1, f"the runs played different games: {same}"
    first = runs[0]
    out = {
        "label": args.label, "players": args.players, "seed": args.seed, "runs": args.runs, "load": load,
        "events": first["events"], "actions": first["actions"], "draws": first["draws"],
        "packets": first["packets"], "replies": first["replies"],
        "bytes": int(statistics.median(r["bytes"] for r in runs)),
        "bytes_min_max": [min(r["bytes"] for r in runs), max(r["bytes"] for r in runs)],
        "game_wall_s": _spread([r["wall_s"] for r in runs]),
        "game_cpu_s": _spread([r["cpu_s"] for r in runs]),
        "commands_cpu_s": {k: _spread([r["commands"][k]["cpu_s"] for r in runs]) for k in first["commands"]},
    }
    print(f"{args.players} players, seed {args.seed}, {args.runs} runs (load {load[0]:.1f}-{load[1]:.1f}): "
          f"{out['events']} events, {out['actions']} actions, {out['draws']} draws, {out['packets']} packets "
          f"({out['replies']} replies), {out['bytes']:,} bytes")
    m, lo, hi = out["game_wall_s"]
    c, clo, chi = out["game_cpu_s"]
    print(f"whole game: {m} s wall (min {lo}, max {hi}), {c} s CPU (min {clo}, max {chi})")
    for k, (m, lo, hi) in sorted(out["commands_cpu_s"].items(), key=lambda kv: -kv[1][0]):
        print(f"  trv {k:<7} {m:7.2f} s CPU (min {lo}, max {hi})")
    RESULTS.mkdir(parents=True, exist_ok=True)
    target = RESULTS / f"exchange-{args.players}{'-' + args.label if args.label else ''}.json"
    target.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
