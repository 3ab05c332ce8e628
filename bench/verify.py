"""The store bench's verify figure alone, in seconds instead of minutes, for A/B work on verify.

``python -m bench.verify [--seed 27] [--rounds 15] [--store PATH]``

The game is the store bench's (``bench/store.py``): a greedy 4-player Vendetta game, by default seed 27, the
longest of the bench's 30 (1,267 events, 652 turns), stored turn by turn in a fresh SQLite store as ``trv
turn`` stores it (``--store PATH`` keeps the store there and reuses it on the next run). Then
``replays.verify_game`` and the engine's own re-execution of the same actions (``ruleset.apply`` in a loop, no
store) alternate, three runs of each a round, timed in CPU time (``time.process_time``): on a machine shared
with other work it moves much less than the wall time the store bench reports, while the ratio stays the one
that bench measures. Prints each side's median with (min-max), the ratio of the medians and the median (min-max)
of the rounds' own ratios.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from trvendetta import rulesets
from trvendetta.bots import new_position

from .common import play_events
from .store import _append_once


def _cpu(fn, runs: int = 3) -> float:
    t = time.process_time()
    for _ in range(runs):
        fn()
    return (time.process_time() - t) / runs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.verify", description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--store", help="an SQLite file: made on the first run, reused after (default: a fresh one)")
    args = ap.parse_args(argv)
    from trvendetta import replays
    from trvendetta.store import GameStore

    rs = rulesets.get("vendetta")
    _, actions = play_events(rs, 4, args.seed, ["greedy"])
    where = Path(args.store) if args.store else Path(tempfile.mkdtemp(prefix="trv-bench-verify-")) / "game.sqlite"
    if not where.exists():
        _append_once(GameStore, str(where), rs, args.seed, actions)

    def engine() -> None:
        state, _ = rs.new_game(new_position(rs, 4, args.seed))
        for action in actions:
            state, _ = rs.apply(state, action)

    with GameStore(str(where)) as store:
        game = next(g.id for g in store.list_games())

        def verify() -> int:
            return replays.verify_game(store, game).events

        events = verify()
        engine()
        verifies, engines = [], []
        for _ in range(args.rounds):
            verifies.append(_cpu(verify))
            engines.append(_cpu(engine))
    med = statistics.median
    ratios = [v / e for v, e in zip(verifies, engines)]

    def ms(values: list[float]) -> str:
        return f"{med(values) * 1e3:.2f} ms ({min(values) * 1e3:.2f}-{max(values) * 1e3:.2f})"

    print(f"game: seed {args.seed}, {events} events, {len(actions)} turns; {args.rounds} rounds, CPU time")
    print(f"verify {ms(verifies)}; engine {ms(engines)}")
    print(f"verify / engine: {med(verifies) / med(engines):.3f} (medians); rounds' own ratios "
          f"{med(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}); "
          f"{(med(verifies) - med(engines)) / events * 1e6:.2f} us an event beyond the engine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
