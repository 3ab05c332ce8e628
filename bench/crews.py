"""The engine's work on games with the expansion crews, two checkouts side by side in instructions.

``python -m bench.crews --old OLD/.venv/bin/python [--new PYTHON] [--rounds 2]`` (needs ``valgrind``; a few
minutes a round)

The store's figures (``bench/sidebyside.py``) play an all-car game; this measures where the Big Rig's and the
Final Five's own state is read and written: a greedy 4-player Vendetta game with the Big Rig, the Final Five
and two car crews (seed 27, played to its end by the new checkout; its events and actions are the same bytes
for both), and, per event or per state:

- fold: ``ruleset.fold`` of its events;
- reexec: its actions applied one by one from its position (``ruleset.apply``, as verify re-executes);
- decode: ``ruleset.decode_state`` of its state after every 25th event, as that checkout encodes it (a
  snapshot's read).

Each figure runs under ``valgrind --tool=cachegrind --cache-sim=no`` with 3 and with 1 repetitions, and the
difference is divided by 2 (start-up and imports cancel), ``PYTHONHASHSEED=0``; a warm-up run of each checkout
compiles its bytecode first.  Printed: each figure's median (min-max) over the rounds and the new/old ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

SEED, CREWS, PLAYERS, EVERY = 27, ("bigrig", "finalfive", "cars", "cars"), 4, 25
FIGURES = ("fold", "reexec", "decode")


def _game(where: str) -> None:
    """Play the game (the new checkout) and write its events and actions, one JSON a line."""
    from trvendetta import rulesets
    from trvendetta.bots import get_bot, new_position
    from trvendetta.core.rng import Rng

    rs = rulesets.get("vendetta")
    state, events = rs.new_game(new_position(rs, PLAYERS, SEED, CREWS))
    agent, rng, actions = get_bot("greedy"), Rng(SEED, 1), []
    while not rs.is_over(state) and len(actions) < 2000:
        action = agent.choose(rs, state, rng)
        state, new = rs.apply(state, action)
        actions.append(action)
        events += new
    with open(os.path.join(where, "events.jsonl"), "wb") as f:
        f.write(b"\n".join(rs.encode(e) for e in events) + b"\n")
    with open(os.path.join(where, "actions.jsonl"), "wb") as f:
        f.write(b"\n".join(rs.encode(a) for a in actions) + b"\n")


def _work(what: str, n: int, where: str) -> None:
    """Run ``what`` ``n`` times (inside valgrind: the measured process)."""
    import gc

    from trvendetta import rulesets
    from trvendetta.bots import new_position

    rs = rulesets.get("vendetta")
    with open(os.path.join(where, "events.jsonl"), "rb") as f:
        events = [rs.decode_event(line) for line in f.read().splitlines()]
    with open(os.path.join(where, "actions.jsonl"), "rb") as f:
        actions = [rs.decode_action(line) for line in f.read().splitlines()]
    states, s = [], rs.initial_state()
    for i, e in enumerate(events):
        s = rs.evolve(s, e)
        if i % EVERY == EVERY - 1:
            states.append(rs.encode(s))
    gc.disable()
    for _ in range(n):
        if what == "fold":
            rs.fold(events)
        elif what == "reexec":
            s, _ = rs.new_game(new_position(rs, PLAYERS, SEED, CREWS))
            for a in actions:
                s, _ = rs.apply(s, a)
        else:
            for data in states:
                rs.decode_state(data)


def _count(python: str, what: str, n: int, where: str) -> int:
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          python, os.path.abspath(__file__), "--work", what, "-n", str(n), "--where", where],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.crews", description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the old checkout's interpreter")
    ap.add_argument("--new", default=sys.executable, help="the new checkout's interpreter [this one]")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    ap.add_argument("-n", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--where", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.work:
        _work(args.work, args.n, args.where)
        return 0
    if not args.old:
        ap.error("--old is required")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as where:
        subprocess.run([args.new, "-c", f"import sys; sys.path.insert(0, {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))!r}); "
                        f"from bench.crews import _game; _game({where!r})"], check=True)
        with open(os.path.join(where, "events.jsonl"), "rb") as f:
            events = len(f.read().splitlines())
        per = {"fold": events, "reexec": events, "decode": events // EVERY}
        sides = {"old": args.old, "new": args.new}
        for python in sides.values():  # compile each checkout's bytecode before anything is counted
            _count(python, "decode", 1, where)
        found: dict[tuple[str, str], list[float]] = {}
        for r in range(args.rounds):
            for what in FIGURES:
                for side, python in sides.items():
                    value = (_count(python, what, 3, where) - _count(python, what, 1, where)) / 2 / per[what]
                    found.setdefault((what, side), []).append(value)
                    print(f"round {r + 1}: {what} {side} {value:,.0f}", file=sys.stderr, flush=True)
    print(f"{events} events, {per['decode']} states; instructions a repetition, median (min-max) of {args.rounds}")
    print(f"{'figure':<14} {'old':>26} {'new':>26} {'new/old':>8}")
    result = {}
    for what in FIGURES:
        old, new = found[(what, "old")], found[(what, "new")]
        ratio = statistics.median(new) / statistics.median(old)
        result[what] = {"old": old, "new": new, "ratio": ratio}
        cell = [f"{statistics.median(v):,.0f} ({min(v):,.0f}-{max(v):,.0f})" for v in (old, new)]
        print(f"{what + (' /event' if what != 'decode' else ' /state'):<14} {cell[0]:>26} {cell[1]:>26} {ratio:>8.3f}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
