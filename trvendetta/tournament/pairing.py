"""Pairing a round: seat every active player at tables of ``pod_min`` to
``pod_max`` players, as even as the count allows, avoiding repeat opponents
and rotating seat order.  Pure and seeded: the same history and seed give the
same tables on any machine (chance comes only from ``core.rng.Rng``).

The search minimises, in this order of weight:

1. first seats: the growth of the cube of the first-seated player's count of
   first seats (``FIRST_SEAT``), so the first seats go to the players who
   had fewest, and every player's count stays within one of everyone
   else's (a seating that does this always exists: the players with the
   fewest first seats sit at different tables);
2. repeat opponents: every pair at a table that met before, counted once per
   earlier meeting (``REPEAT``): the fewest the first seats allow;
3. the other seats: the growth of the cube of a player's count of games in
   the seat they get (``OTHER_SEAT``), so seat order rotates;
4. points spread at a table (``SPREAD``), so players with similar standings
   meet (Swiss-like pods) when nothing above decides.

It is an iterated local search over swaps of two players between tables,
from a seeded shuffle, for a fixed number of swaps (``BUDGET``); the best
found wins (ties: the first found).
It is not exhaustive, so a reason says "fewest found", never "unavoidable";
tests compare it with an exhaustive search on small fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING
from itertools import combinations, permutations

import msgspec

from ..core.rng import Rng
from .events import Table
from .model import TournamentError

if TYPE_CHECKING:
    from .events import RoundPaired
    from .model import State

FIRST_SEAT = 1_000_000
REPEAT = 10_000
OTHER_SEAT = 10
SPREAD = 1
#: swaps the search tries per round (a fixed amount of work, not a time limit)
BUDGET = 6_000


class History(msgspec.Struct, frozen=True):
    """What pairing needs to know of earlier rounds."""

    #: (a, b) with a < b -> rounds in which they sat at one table
    met: Mapping[tuple[str, str], tuple[int, ...]] = {}
    #: player -> games played in seat 1, seat 2, ... (index 0 is the first seat)
    seats: Mapping[str, tuple[int, ...]] = {}
    points: Mapping[str, int] = {}


def table_sizes(n: int, pod_min: int, pod_max: int) -> list[int]:
    """Table sizes for ``n`` players: the fewest tables whose sizes differ by
    at most one and lie within ``pod_min..pod_max``; biggest tables first."""
    if n < pod_min:
        raise TournamentError(f"{n} active player{'s' if n != 1 else ''}; a table needs at least {pod_min}")
    for tables in range(-(-n // pod_max), n // pod_min + 1):
        base, extra = divmod(n, tables)
        if base >= pod_min and base + (1 if extra else 0) <= pod_max:
            return [base + 1] * extra + [base] * (tables - extra)
    raise TournamentError(f"{n} players cannot sit at tables of {pod_min} to {pod_max} of even size; "
                          f"register or drop a player, or widen --pod-size")


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class _Costs:
    """Cost of one table (given as a sorted tuple), with its best seat order."""

    def __init__(self, history: History):
        self.h = history
        self.cache: dict[tuple[str, ...], tuple[int, tuple[str, ...]]] = {}

    def seat_cost(self, player: str, seat: int) -> int:
        counts = self.h.seats.get(player, ())
        n = counts[seat] if seat < len(counts) else 0
        # the growth of n**3: one more time in a seat had once costs 7, had twice 19,
        # so two players at one each beat one at two and one at none
        return ((n + 1) ** 3 - n ** 3) * (FIRST_SEAT if seat == 0 else OTHER_SEAT)

    def __call__(self, table: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
        hit = self.cache.get(table)
        if hit is not None:
            return hit
        repeats = sum(len(self.h.met.get(_key(a, b), ())) for a, b in combinations(table, 2))
        best: tuple[int, tuple[str, ...]] | None = None
        for order in permutations(table):  # at most 4! = 24
            c = sum(self.seat_cost(p, i) for i, p in enumerate(order))
            if best is None or c < best[0]:
                best = (c, order)
        assert best is not None
        pts = [self.h.points.get(p, 0) for p in table]
        cost = REPEAT * repeats + best[0] + SPREAD * (max(pts) - min(pts))
        self.cache[table] = (cost, best[1])
        return self.cache[table]


def _climb(tables: list[list[str]], cost: _Costs, budget: list[int]) -> int:
    """Swap players between tables while a swap lowers the total; in place.
    ``budget[0]`` counts down the swaps tried (the search's fixed work bound)."""

    def c(t: list[str]) -> int:
        return cost(tuple(sorted(t)))[0]

    current = [c(t) for t in tables]
    improved = True
    while improved and budget[0] > 0:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    budget[0] -= 1
                    ti, tj = tables[i][:], tables[j][:]
                    ti[a], tj[b] = tj[b], ti[a]
                    ci, cj = c(ti), c(tj)
                    if ci + cj < current[i] + current[j]:
                        tables[i], tables[j] = ti, tj
                        current[i], current[j] = ci, cj
                        improved = True
    return sum(current)


def _kick(tables: list[list[str]], rng: Rng, swaps: int) -> list[list[str]]:
    out = [t[:] for t in tables]
    for _ in range(swaps):
        i = rng.below(len(out))
        j = rng.below(len(out) - 1)
        j += j >= i
        a, b = rng.below(len(out[i])), rng.below(len(out[j]))
        out[i][a], out[j][b] = out[j][b], out[i][a]
    return out


def pair(players: Sequence[str], history: History, round_: int, seed: int, pod_min: int, pod_max: int,
         budget: int = BUDGET) -> tuple[Table, ...]:
    """The tables of ``round_``: players in seat order, with a reason each.

    An iterated local search: a seeded shuffle, a hill-climb over swaps,
    then random kicks (two swaps) each followed by a climb, keeping a result
    no worse than the current one; ``budget`` swaps tried in all.  Table 1
    is the top table (most points), as in Swiss events."""
    sizes = table_sizes(len(players), pod_min, pod_max)
    cost = _Costs(history)
    rng = Rng(seed, round_)
    order = rng.shuffled(sorted(players))
    tables, at = [], 0
    for size in sizes:
        tables.append(order[at:at + size])
        at += size
    left = [budget]
    total = _climb(tables, cost, left)
    best_total, best = total, [t[:] for t in tables]
    while left[0] > 0 and len(tables) > 1:
        trial = _kick(tables, rng, 2)
        found = _climb(trial, cost, left)
        if found <= total:
            tables, total = trial, found
            if found < best_total:
                best_total, best = found, [t[:] for t in trial]
    seated = [cost(tuple(sorted(t)))[1] for t in best]
    seated.sort(key=lambda t: (-sum(history.points.get(p, 0) for p in t), t))
    split = "+".join(map(str, sizes))
    return tuple(Table(i, tuple(t), _reason(t, history, len(players), split)) for i, t in enumerate(seated, 1))


def _reason(table: Sequence[str], h: History, n: int, split: str) -> str:
    parts = [f"{len(table)} of {n} players ({split})"]
    repeats = [(a, b, h.met[_key(a, b)]) for a, b in combinations(table, 2) if h.met.get(_key(a, b))]
    if repeats:
        said = ", ".join(f"{a}-{b} met in round {'/'.join(map(str, rs))}" for a, b, rs in repeats)
        parts.append(f"repeat opponents, the fewest the search found: {said}")
    else:
        parts.append("no one here has met before")
    first = table[0]
    firsts = h.seats.get(first, (0,))[0] if h.seats.get(first) else 0
    parts.append(f"{first} sits first (first seat {firsts} time{'s' if firsts != 1 else ''} before)")
    if h.points:
        parts.append("points " + "/".join(str(h.points.get(p, 0)) for p in table))
    return "; ".join(parts)


def history_of(tables_by_round: Sequence[tuple[int, Sequence[Sequence[str]]]], points: Mapping[str, int]) -> History:
    """The pairing history from earlier rounds' seatings (round, [table seat orders])."""
    met: dict[tuple[str, str], tuple[int, ...]] = {}
    seats: dict[str, list[int]] = {}
    for round_, tables in tables_by_round:
        for t in tables:
            for a, b in combinations(t, 2):
                k = _key(a, b)
                met[k] = (*met.get(k, ()), round_)
            for i, p in enumerate(t):
                counts = seats.setdefault(p, [0, 0, 0, 0])
                counts[i] += 1
    return History(met, {p: tuple(c) for p, c in seats.items()}, dict(points))


def pair_next(state: State) -> RoundPaired:
    """The next round's tables for a tournament state (refused while the last
    round has tables without a result)."""
    from .events import RoundPaired
    from .model import active_players, check_can_pair
    from .standings import standings

    created = state.created
    round_ = check_can_pair(state)
    assert created is not None
    points = {s.player: s.points for s in standings(state)} if state.rounds else {}
    history = history_of([(r.round, [t.players for t in r.tables]) for r in state.rounds], points)
    tables = pair(active_players(state, round_), history, round_, created.seed, created.pod_min, created.pod_max)
    return RoundPaired(round_, created.seed, tables)
