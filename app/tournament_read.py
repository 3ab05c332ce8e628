"""The tournaments' read model, SQLite tables rebuilt from the events by :func:`project` (docs/tournament.md,
"Read model" and "Ratings"). Imported by tournament commands only (never by ``trv show``)."""

from __future__ import annotations

from typing import Any

import msgspec
import sqlite_utils
from openskill.models import PlackettLuce

from trvendetta.tournament import model
from trvendetta.tournament.standings import decided, rated_places, standings

TOURNAMENTS = "trv_tournaments"
STANDINGS = "trv_tournament_standings"
SEATS = "trv_tournament_seats"
RATINGS = "trv_ratings"
#: (table, column, other table, other column): what datasette follows from a row
FOREIGN_KEYS = (
    (STANDINGS, "tournament", TOURNAMENTS, "name"),
    (STANDINGS, "player", RATINGS, "player"),
    (SEATS, "tournament", TOURNAMENTS, "name"),
    (SEATS, "player", RATINGS, "player"),
    (RATINGS, "last_tournament", TOURNAMENTS, "name"),
)


class Rating(msgspec.Struct, frozen=True):
    mu: float
    sigma: float
    games: int = 0
    tournaments: tuple[str, ...] = ()

    @property
    def ordinal(self) -> float:
        return round(self.mu - 3 * self.sigma, 2)


def rate(results: list[tuple[str, list[tuple[str, int]]]], before: dict[str, Rating] | None = None
         ) -> dict[str, Rating]:
    """Fold openskill Plackett-Luce over games: (tournament, [(player, place)])
    in order; ``before`` are the ratings carried in."""
    pl = PlackettLuce()
    ratings = dict(before or {})
    for tournament, places in results:
        if len(places) < 2:
            continue
        teams = [[pl.rating(mu=ratings[p].mu, sigma=ratings[p].sigma, name=p) if p in ratings else pl.rating(name=p)]
                 for p, _ in places]
        new = pl.rate(teams, ranks=[place for _, place in places])
        for (p, _), [r] in zip(places, new):
            old = ratings.get(p) or Rating(0.0, 0.0)  # a player's first rated table: no games, no tournaments
            ratings[p] = Rating(r.mu, r.sigma, old.games + 1,
                                old.tournaments if tournament in old.tournaments else (*old.tournaments, tournament))
    return ratings


def carried_ratings(all_states: list[model.State], upto: str | None = None) -> tuple[dict[str, Rating], dict]:
    """Ratings after every tournament (oldest first); with ``upto``, also the
    ratings just before that tournament (the second value)."""
    ratings: dict[str, Rating] = {}
    before: dict[str, Rating] = {}
    for st in all_states:
        if st.name == upto:
            before = dict(ratings)
        ratings = rate([(st.name, rated_places(g)) for g in decided(st)], ratings)
    return ratings, before


def project(store: Any, log: Any, name: str) -> list[dict]:
    """Rewrite ``name``'s rows and every rating from the events; returns its standings rows."""
    all_states = [log.load(n).state for n in log.names()]  # oldest first
    loaded = log.load(name)
    state = loaded.state
    ratings, before = carried_ratings(all_states, name)
    after = rate([(name, rated_places(g)) for g in decided(state)], before)  # at the end of this tournament
    created = state.created
    assert created is not None
    standing_rows = []
    for s in standings(state):
        row = msgspec.to_builtins(s)
        row["places"] = list(s.places)  # stored as a JSON list
        row["bot_games"] = s.bot_games  # (a row of every standing has it, 0 included)
        b, a = before.get(s.player), rating_row(s.player, after.get(s.player))  # its rating after this one
        row.update(tournament=name, rating_before=b.ordinal if b else None, rating=a["rating"], mu=a["mu"],
                   sigma=a["sigma"])
        standing_rows.append(row)
    seat_rows = []
    for r in state.rounds:
        for t in r.tables:
            places = model.table_places(t)
            bots = t.reported.bots if t.reported is not None and isinstance(t.reported.bots, tuple) else ()
            outs = {p: (how, by) for p, how, by in t.out}
            for i, p in enumerate(t.players, 1):
                place = places.get(p) if places else None
                how, by = outs.get(p, ("played" if place else "pending", ""))
                seat_rows.append({
                    "tournament": name, "round": r.round, "table_no": t.table, "seat": i, "player": p,
                    "place": place, "points": model.points_for(created.scoring, place) if place else None,
                    "outcome": how, "declared_by": by, "bot": int(p in bots),
                    "game": t.reported.game if t.reported else t.game, "reason": t.reason,
                })
    paired = len(state.rounds)
    done = paired == created.rounds and model.round_complete(state.rounds[-1])
    status = "finished" if done else (f"round {paired}" if paired else "registering")
    tournament_row = {
        "name": name, "ruleset": created.ruleset, "rounds": created.rounds, "rounds_paired": paired,
        "pod_min": created.pod_min, "pod_max": created.pod_max, "scoring": ",".join(map(str, created.scoring)),
        "players": len(state.entrants), "status": status, "events": loaded.version, "head": loaded.head,
    }
    rating_rows = [rating_row(p, ratings.get(p)) for p in sorted({e.name for st in all_states for e in st.entrants})]
    # the store's SQLite file; in memory, for this command only, when the store is not one
    path = getattr(store, "path", None)
    db = sqlite_utils.Database(path) if path is not None else sqlite_utils.Database(memory=True)
    try:
        _write(db, name, tournament_row, standing_rows, seat_rows, rating_rows)
    finally:
        db.close()
    return standing_rows


def rating_row(player: str, r: Rating | None) -> dict:
    """A player's row of ``trv_ratings``; one with no decided table yet has no rating."""
    if r is None:
        return {"player": player, "mu": None, "sigma": None, "rating": None, "games": 0, "tournaments": 0,
                "last_tournament": None}
    return {"player": player, "mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "rating": r.ordinal,
            "games": r.games, "tournaments": len(r.tournaments),
            "last_tournament": r.tournaments[-1] if r.tournaments else None}


def _write(db: sqlite_utils.Database, name: str, tournament_row: dict, standing_rows: list[dict],
           seat_rows: list[dict], rating_rows: list[dict]) -> None:
    with db.atomic():  # one transaction (sqlite-utils nests its own writes as savepoints)
        # delete_where passes over a table not made yet, insert_all over no rows
        db.table(TOURNAMENTS).insert(tournament_row, pk="name", replace=True)
        db.table(STANDINGS).delete_where("tournament = ?", [name])
        db.table(SEATS).delete_where("tournament = ?", [name])
        db.table(RATINGS).delete_where()
        # alter: a read model written before a column was added gets it (bot_games, bot)
        db.table(STANDINGS).insert_all(standing_rows, pk=("tournament", "player"), replace=True, alter=True,
                                 columns={"rating_before": float, "rating": float, "mu": float, "sigma": float})
        db.table(SEATS).insert_all(seat_rows, pk=("tournament", "round", "table_no", "seat"), replace=True, alter=True,
                             columns={"place": int, "points": int})
        db.table(RATINGS).insert_all(rating_rows, pk="player", replace=True,
                               columns={"mu": float, "sigma": float, "rating": float, "last_tournament": str})
        # inside the transaction: no VACUUM; a read model written before the keys gets them now
        tables = set(db.table_names())
        db.add_foreign_keys([fk for fk in FOREIGN_KEYS if fk[0] in tables and fk[2] in tables])

