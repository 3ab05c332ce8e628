"""Helpers of the tournament tests: exhaustive pairing minima and made-up results."""

from __future__ import annotations

import hashlib
from itertools import combinations

from trvendetta.tournament import events as ev
from trvendetta.tournament import model


def partitions(players: list[str], sizes: list[int]):
    """Every way to split ``players`` into unordered tables of ``sizes``."""
    if not sizes:
        yield []
        return
    size, rest_sizes = sizes[0], sizes[1:]
    first, rest = players[0], players[1:]
    for others in combinations(rest, size - 1):
        table = (first, *others)
        left = [p for p in rest if p not in others]
        for tail in partitions(left, rest_sizes):
            yield [table, *tail]


def repeats(tables, met) -> int:
    return sum(len(met.get(tuple(sorted((a, b))), ())) for t in tables for a, b in combinations(t, 2))


def balances_first_seats(tables, firsts) -> bool:
    """Whether every table can seat first one of the players with the fewest
    first seats, or, when they are fewer than the tables, each of them can."""
    low = min(firsts.get(p, 0) for t in tables for p in t)
    fewest = [sum(firsts.get(p, 0) == low for p in t) for t in tables]
    if sum(fewest) >= len(tables):
        return all(fewest)
    return all(n <= 1 for n in fewest)


def fewest_repeats(players: list[str], sizes: list[int], met, firsts=None) -> int:
    """The fewest repeat meetings any seating of ``players`` at ``sizes`` has
    (exhaustive); with ``firsts`` (player -> first seats so far), among the
    seatings that keep first seats within one."""
    best = None
    # tables of equal size are unordered: fix the order of sizes so each split is seen once or a few times
    for tables in partitions(sorted(players), sorted(sizes, reverse=True)):
        if firsts is not None and not balances_first_seats(tables, firsts):
            continue
        r = repeats(tables, met)
        if best is None or r < best:
            best = r
            if r == 0:
                break
    return best


def made_up_result(round_: int, table: ev.Table, order: list[str] | None = None) -> ev.ResultReported:
    """A result with places in ``order`` (default: seat order); only for tests of the pure core."""
    order = order or list(table.players)
    places = tuple(ev.Place(p, order.index(p) + 1, 1) for p in table.players)
    gid = hashlib.sha256(f"{round_}:{table.table}".encode()).hexdigest()
    return ev.ResultReported(round_, table.table, f"g{round_}-{table.table}", gid, "0" * 64, 10, places)


def report_all(state: model.State, round_: int, orders=None) -> model.State:
    r = state.round(round_)
    for t in r.tables:
        order = orders(t) if orders else None
        state = model.fold(model.check_report(state, made_up_result(round_, t, order)), state)
    return state
