"""Standings: points by finishing place, and the tie-breaks, explained.

Order (docs/tournament.md; each is used only when everything above is level):

1. **points**: the tournament's scoring for each finishing place, summed
   over the player's decided tables (a concession or a no-show is last place);
2. **opponents' points**: the mean, over every opponent met at a decided
   table (once per meeting), of that opponent's points: who had the harder
   field;
3. **head-to-head**: among the players still level, how many times a player
   finished ahead of another of them at a shared table, less the times behind;
4. **cars left**: running cars at the end of the player's reported games, summed;
5. **lot**: a draw fixed by the tournament seed (``sha256(seed:player)``), so
   the order is total and reproducible.

Players who dropped stay in the standings with what they played.

A seat a bot played (``ResultReported.bots``: the record's charter or chained Bots tag declares
it) scores for its entrant like any seat, and is marked: ``bot_games`` counts them.  Ratings
(:func:`rated_places`) leave such seats out of a game that also had a person in it; a game of
bots only rates its bots, who are then the entrants (docs/tournament.md, "Ratings").
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence

import msgspec

from .model import State, points_for, table_places


class Standing(msgspec.Struct, frozen=True, omit_defaults=True):
    rank: int
    player: str
    points: int
    games: int
    places: tuple[int, ...]  # finishing place at each decided table, round order
    opponents_points: float
    head_to_head: int
    cars: int
    lot: str
    dropped: bool
    why: str  # how the tie-breaks put the player below the one above
    #: decided games in which a bot played this player's seat (0, the default, is not written, so the
    #: standings of a tournament with no bot seats keep their bytes)
    bot_games: int = 0


class GameResult(msgspec.Struct, frozen=True):
    """One decided table as the ratings and read model see it."""

    round: int
    table: int
    game: str  # "" for a table decided by concessions and no-shows alone
    places: tuple[tuple[str, int], ...]  # (player, place) in seat order
    bots: tuple[str, ...] = ()  # the seats a bot played (``ResultReported.bots``)


def decided(state: State) -> list[GameResult]:
    """Every decided table, in round and table order."""
    out = []
    for r in state.rounds:
        for t in r.tables:
            places = table_places(t)
            if places is not None:
                game = t.reported.game if t.reported else ""
                bots = t.reported.bots if t.reported and isinstance(t.reported.bots, tuple) else ()
                out.append(GameResult(r.round, t.table, game, tuple((p, places[p]) for p in t.players), bots))
    return out


def rated_places(game: GameResult) -> list[tuple[str, int]]:
    """The (player, place) pairs a rating counts: every seat but the bots' when the game also had a
    person in it (a bot's result is not its entrant's skill); every seat in a game of bots only (the
    bots are the entrants, as in a simulated tournament, and their ratings compare bots)."""
    people = [(p, place) for p, place in game.places if p not in game.bots]
    return people if people else list(game.places)


def _lot(seed: int, player: str) -> str:
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()[:12]


def standings(state: State) -> list[Standing]:
    """The standings after every decided table, best first."""
    created = state.created
    if created is None:
        return []
    scoring = created.scoring
    points: dict[str, int] = {e.name: 0 for e in state.entrants}
    places: dict[str, list[int]] = defaultdict(list)
    met: dict[str, list[str]] = defaultdict(list)
    cars: dict[str, int] = defaultdict(int)
    by_bots: dict[str, int] = defaultdict(int)
    results = decided(state)
    for g in results:
        for p in g.bots:
            by_bots[p] += 1
        for p, place in g.places:
            points[p] = points.get(p, 0) + points_for(scoring, place)
            places[p].append(place)
            met[p].extend(q for q, _ in g.places if q != p)
    for r in state.rounds:
        for t in r.tables:
            if t.reported is not None and table_places(t) is not None:
                for pl in t.reported.places:
                    cars[pl.player] += pl.cars

    def opp(p: str) -> float:
        return round(sum(points[q] for q in met[p]) / len(met[p]), 2) if met[p] else 0.0

    # group by (points, opponents' points); head-to-head within each group
    key1 = {p: (points[p], opp(p)) for p in points}
    groups: dict[tuple[int, float], list[str]] = defaultdict(list)
    for p, k in key1.items():
        groups[k].append(p)
    h2h: dict[str, int] = {p: 0 for p in points}
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        for g in results:
            at = [(p, place) for p, place in g.places if p in members]
            for p, place in at:
                h2h[p] += sum((place < ql) - (place > ql) for q, ql in at if q != p)

    def sort_key(p: str) -> tuple:
        return (-points[p], -opp(p), -h2h[p], -cars[p], _lot(created.seed, p))

    order = sorted(points, key=sort_key)
    dropped = {e.name for e in state.entrants if e.dropped_from is not None}
    out = []
    for i, p in enumerate(order):
        why = _why(p, order[i - 1] if i else None, points, opp, h2h, cars, created.seed)
        out.append(Standing(i + 1, p, points[p], len(places[p]), tuple(places[p]), opp(p), h2h[p], cars[p],
                            _lot(created.seed, p), p in dropped, why, by_bots[p]))
    return out


def _why(p: str, above: str | None, points: dict, opp, h2h: dict, cars: dict, seed: int) -> str:
    if above is None:
        return f"most points ({points[p]})"
    if points[p] != points[above]:
        return f"{points[p]} point{'' if points[p] == 1 else 's'}, {points[above] - points[p]} behind {above}"
    tests: Sequence[tuple[str, object, object]] = (
        ("opponents' points", opp(p), opp(above)),
        ("head-to-head", h2h[p], h2h[above]),
        ("cars left", cars[p], cars[above]),
    )
    for name, mine, theirs in tests:
        if mine != theirs:
            return f"level on points with {above}; {name} {mine} < {theirs}"
    return f"level with {above} on points, opponents' points, head-to-head and cars left; behind on the lot"
