"""What a playout costs, old checkout against new, beside python-chess (a benchmark, not a test).

``python bench/playouts.py [--old TREE] [--rounds 5] [--games 5]``

A playout is what the search bot (``bots/search.py``) runs thousands of a decision: the game played
to its end from a state.  Measured from mid-game (the state half-way through the greedy game of each
seed ``0 .. --games - 1``), for 2- and 4-player Vendetta and Carnival games:

- random: a random playout (every option uniform, the search's own RNG), in ms, and decisions a second;
- greedy: a playout by the greedy bot (the search's default rollout), in ms;
- python-chess: a random chess game from the start (at most 200 moves), in ms, and moves a second:
  the yardstick (``pip install chess``; left out when it is missing).

Each figure is CPU time (``time.process_time``) of a process of its own; with ``--old TREE`` (a tree
holding an older ``trvendetta/`` package, as ``git archive main trvendetta | tar -x -C TREE`` makes it)
the old and the new code run in turn, round after round, so the pairs see the same load; each figure
is printed as the median with min and max over the rounds, and new/old of the medians.  This file
runs itself by its path with ``PYTHONPATH`` set to the tree it measures, and imports only the engine's
rulesets and bots, so an older tree needs nothing of it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
CASES = (("vendetta", 2), ("vendetta", 4), ("carnival", 2), ("carnival", 4))


def _midgame(rs, players: int, seed: int):
    from trvendetta.bots import GreedyBot, new_position
    from trvendetta.core.rng import Rng

    state, _ = rs.new_game(new_position(rs, players, seed))
    states, bot, rng = [state], GreedyBot(), Rng(seed, 99)
    while not rs.is_over(state):
        state, _ = rs.apply(state, bot.choose(rs, state, rng))
        states.append(state)
    return states[len(states) // 2]


def _playout(rs, state, rng, bot=None) -> int:
    n = 0
    while not rs.is_over(state):
        d = rs.pending(state)
        action = rng.pick(d.options) if bot is None else bot.choose(rs, state, rng, d)
        state, _ = rs.apply(state, action, rng)
        n += 1
    return n


def measure(games: int, round_: int) -> dict[str, float]:
    """One round of every figure (in the measured process)."""
    from trvendetta import rulesets
    from trvendetta.bots import GreedyBot
    from trvendetta.core.rng import Rng

    out: dict[str, float] = {}
    for name, players in CASES:
        rs = rulesets.get(name)
        starts = [_midgame(rs, players, seed) for seed in range(games)]
        t = time.process_time()
        n = sum(_playout(rs, s, Rng(round_, 7 + i)) for i, s in enumerate(starts))
        dt = time.process_time() - t
        out[f"{name} {players}p random playout, ms"] = 1000 * dt / games
        out[f"{name} {players}p random decisions/s"] = n / dt
        t = time.process_time()
        for i, s in enumerate(starts):
            _playout(rs, s, Rng(round_, 7 + i), GreedyBot())
        out[f"{name} {players}p greedy playout, ms"] = 1000 * (time.process_time() - t) / games
    try:
        import chess
    except ImportError:
        return out
    from trvendetta.core.rng import Rng

    rng, n = Rng(round_, 7), 0
    t = time.process_time()
    for _ in range(games * 4):
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.fullmove_number < 200:
            board.push(rng.pick(list(board.legal_moves)))
            n += 1
    dt = time.process_time() - t
    out["python-chess random game, ms"] = 1000 * dt / (games * 4)
    out["python-chess random moves/s"] = n / dt
    return out


def _run(tree: str, games: int, round_: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, str(HERE), "--measure", str(games), str(round_)], env=env,
                          capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", metavar="TREE", help="a tree holding the old trvendetta/ package")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--measure", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(*args.measure)))
        return
    new = str(HERE.parent.parent)  # this checkout (bench/ sits beside trvendetta/)
    trees = {"old": args.old, "new": new} if args.old else {"new": new}
    figures: dict[str, dict[str, list[float]]] = {k: {} for k in trees}
    for r in range(args.rounds):
        for which, tree in trees.items():
            for label, value in _run(tree, args.games, r).items():
                figures[which].setdefault(label, []).append(value)
        print(f"round {r + 1} of {args.rounds}", file=sys.stderr)

    def cell(values: list[float]) -> str:
        return f"{statistics.median(values):9.1f} ({min(values):.1f}-{max(values):.1f})"

    print(f"{'figure (CPU time, median (min-max) of ' + str(args.rounds) + ' rounds)':46}"
          + "".join(f"{k:>26}" for k in trees) + ("   new/old" if args.old else ""))
    for label in figures["new"]:
        row = f"{label:46}" + "".join(f"{cell(figures[k][label]):>26}" for k in trees)
        if args.old and label in figures["old"]:
            row += f"   {statistics.median(figures['new'][label]) / statistics.median(figures['old'][label]):.2f}"
        print(row)


if __name__ == "__main__":
    main()
