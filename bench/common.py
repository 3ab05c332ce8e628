"""What the benchmarks share (run.py and store.py): timing, long bot games, the bare aggregate."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from trvendetta.bots import get_bot, new_position
from trvendetta.core.rng import Rng

ROOT = Path(__file__).resolve().parent.parent  # the checkout (bench/ runs from it: python -m bench)


def median_time(fn, repeats: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), times


def play_events(rs, players: int, seed: int, bots: list[str]) -> tuple[list, list]:
    """One bot game: (events, actions) in order."""
    state, events = rs.new_game(new_position(rs, players, seed))
    agents = [get_bot(b) for b in (bots * players if len(bots) == 1 else bots)]
    rngs = [Rng(seed, 1000 + i) for i in range(players)]
    actions = []
    while not rs.is_over(state):
        seat = int(rs.pending(state).player[1:]) - 1
        action = agents[seat].choose(rs, state, rngs[seat])
        state, new = rs.apply(state, action)
        events += new
        actions.append(action)
    return events, actions


def longest_greedy_game(rs, seeds: range) -> tuple[int, list, list]:
    best = (0, [], [])
    for seed in seeds:
        events, actions = play_events(rs, 4, seed, ["greedy"])
        if len(events) > len(best[1]):
            best = (seed, events, actions)
    return best


_TALLY = None


def _tally_class():
    """The bare aggregate: one event type carrying a typical event's JSON (defined once)."""
    global _TALLY
    if _TALLY is None:
        from eventsourcing.domain import Aggregate, event

        class Tally(Aggregate):
            def __init__(self) -> None:
                self.count = 0

            @event("Bumped")
            def bump(self, payload: str) -> None:
                self.count += 1

        _TALLY = Tally
    return _TALLY
