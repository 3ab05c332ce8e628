"""The tournament as a fold of its events, and the pure checks of each command.

State is ``fold(evolve, events)``; ``evolve`` never validates (an old log
always folds).  The ``check_*`` functions are the decider: they look at the
state and either return the events a command records or raise
:class:`TournamentError` (one line naming the problem and what is legal),
so nothing is written for a bad command.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec
from msgspec.structs import replace

from ..core.errors import TrvError
from . import events as ev


class TournamentError(TrvError):
    """A tournament command that cannot be carried out here."""


class TableState(msgspec.Struct, frozen=True):
    table: int
    players: tuple[str, ...]  # seat order
    reason: str
    game: str = ""  # the game `start` created for it
    game_id: str = ""
    reported: ev.ResultReported | None = None
    #: players out of this table without playing it through: (player, "conceded"|"no-show", declared_by)
    out: tuple[tuple[str, str, str], ...] = ()
    #: the organiser's ruling on the claim on time that ended the table's game
    ruling: ev.ClaimRuled | None = None

    @property
    def out_players(self) -> tuple[str, ...]:
        return tuple(p for p, _, _ in self.out)


class RoundState(msgspec.Struct, frozen=True):
    round: int
    seed: int
    tables: tuple[TableState, ...]
    started: bool = False
    #: the host's public key when the round is played in host mode ("" when not)
    host: str = ""


class Entrant(msgspec.Struct, frozen=True):
    name: str
    from_round: int
    key: str = ""
    dropped_from: int | None = None
    dropped_by: str = ""

    def active_in(self, round_: int) -> bool:
        return self.from_round <= round_ and (self.dropped_from is None or round_ < self.dropped_from)


class State(msgspec.Struct, frozen=True):
    created: ev.TournamentCreated | None = None
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[RoundState, ...] = ()
    version: int = 0

    @property
    def name(self) -> str:
        return self.created.name if self.created else ""

    def entrant(self, name: str) -> Entrant | None:
        return next((e for e in self.entrants if e.name == name), None)

    def round(self, number: int) -> RoundState | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None


# ------------------------------------------------------------------ evolve
def _table(state: State, round_: int, table: int, **changes: object) -> State:
    r = state.rounds[round_ - 1]
    tables = tuple(replace(t, **changes) if t.table == table else t for t in r.tables)
    rounds = tuple(replace(x, tables=tables) if x.round == round_ else x for x in state.rounds)
    return replace(state, rounds=rounds)


def evolve(state: State, event: ev.TournamentEvent) -> State:
    """One small step per event; never validates."""
    state = replace(state, version=state.version + 1)
    match event:
        case ev.TournamentCreated():
            return replace(state, created=event)
        case ev.PlayerRegistered(player, from_round, key):
            return replace(state, entrants=(*state.entrants, Entrant(player, from_round, key)))
        case ev.PlayerDropped(player, from_round, by):
            return replace(state, entrants=tuple(
                replace(e, dropped_from=from_round, dropped_by=by) if e.name == player else e
                for e in state.entrants))
        case ev.RoundPaired(round_, seed, tables):
            r = RoundState(round_, seed, tuple(TableState(t.table, t.players, t.reason) for t in tables))
            return replace(state, rounds=(*state.rounds, r))
        case ev.RoundStarted(round_, games):
            for g in games:
                state = _table(state, round_, g.table, game=g.game, game_id=g.game_id)
            rounds = tuple(replace(r, started=True, host=event.host) if r.round == round_ else r
                           for r in state.rounds)
            return replace(state, rounds=rounds)
        case ev.ResultReported():
            return _table(state, event.round, event.table, reported=event)
        case ev.Conceded(round_, table, player, by) | ev.NoShow(round_, table, player, by):
            how = "conceded" if isinstance(event, ev.Conceded) else "no-show"
            t = state.rounds[round_ - 1].tables[table - 1]
            return _table(state, round_, table, out=(*t.out, (player, how, by)))
        case ev.ClaimRuled():
            return _table(state, event.round, event.table, ruling=event)
    return state


def fold(events: Iterable[ev.TournamentEvent], state: State | None = None) -> State:
    state = State() if state is None else state
    for event in events:
        state = evolve(state, event)
    return state


# ---------------------------------------------------------- table results
def competition_places(order: Sequence[Sequence[str]]) -> dict[str, int]:
    """Places from tiers, best first, ties sharing the best place of their
    tier ("1224" ranking): ``[["a"], ["b", "c"], ["d"]]`` -> a 1, b 2, c 2, d 4."""
    out: dict[str, int] = {}
    place = 1
    for tier in order:
        for p in tier:
            out[p] = place
        place += len(tier)
    return out


def table_places(table: TableState) -> dict[str, int] | None:
    """Each player's final place at the table, or None while it has no result.

    Players who conceded or did not show share the last places; the others
    are placed by the reported game record (re-ranked among themselves), or,
    when only one is left, that one is first.  See docs/tournament.md."""
    out_players = table.out_players
    playing = [p for p in table.players if p not in out_players]
    if table.reported is not None:
        by_place: dict[int, list[str]] = {}
        for pl in table.reported.places:
            if pl.player in playing:
                by_place.setdefault(pl.place, []).append(pl.player)
        tiers = [by_place[k] for k in sorted(by_place)]
    elif len(playing) <= 1:
        tiers = [playing] if playing else []
    else:
        return None
    if out_players:
        tiers.append(list(out_players))
    return competition_places(tiers)


def points_for(scoring: Sequence[int], place: int) -> int:
    return scoring[place - 1] if place <= len(scoring) else 0


def round_complete(r: RoundState) -> bool:
    return all(table_places(t) is not None for t in r.tables)


def pending_tables(r: RoundState) -> list[int]:
    return [t.table for t in r.tables if table_places(t) is None]


# -------------------------------------------------------------- the decider
def _need(state: State) -> ev.TournamentCreated:
    if state.created is None:
        raise TournamentError("no such tournament; create it with `trv tournament new NAME --rounds N`")
    return state.created


def check_new(name: str, ruleset: str, rounds: int, pod_min: int, pod_max: int, scoring: Sequence[int],
              seed: int, max_players: int = 4, min_players: int = 2, organiser: str = "") -> list[ev.TournamentEvent]:
    """A new tournament's first event (``organiser``: the key whose rulings count, "" for none)."""
    if not 1 <= rounds <= 99:
        raise TournamentError(f"--rounds {rounds}: a tournament has 1 to 99 rounds")
    lo, hi = max(2, min_players), min(4, max_players)
    if not (lo <= pod_min <= pod_max <= hi):
        raise TournamentError(f"--pod-size {pod_min}-{pod_max}: tables seat {lo} to {hi} players of {ruleset} "
                              f"(for example --pod-size 3-4)")
    if not scoring or any(s < 0 for s in scoring) or list(scoring) != sorted(scoring, reverse=True):
        raise TournamentError(f"--scoring {','.join(map(str, scoring))}: points per place must be whole numbers "
                              "from 1st place down, never rising (for example 4,2,1,0)")
    try:
        event = ev.TournamentCreated(name, ruleset, rounds, pod_min, pod_max, tuple(scoring), seed, organiser)
        msgspec.convert(msgspec.to_builtins(event), ev.TournamentCreated)
    except msgspec.ValidationError:
        raise TournamentError(f"{name!r} is not a tournament name: use letters, digits, '-' and '_'") from None
    return [event]


def next_round(state: State) -> int:
    return len(state.rounds) + 1


def check_register(state: State, players: Sequence[str], keys: dict[str, str] | None = None
                   ) -> list[ev.TournamentEvent]:
    """Enter players; after round 1 is paired this is a late entry, paired
    from the next round on."""
    created = _need(state)
    keys = keys or {}
    r = next_round(state)
    if r > created.rounds:
        raise TournamentError(f"all {created.rounds} rounds of {created.name} are paired; no one can enter now")
    out: list[ev.TournamentEvent] = []
    seen: set[str] = set()
    for p in players:
        if state.entrant(p) is not None or p in seen:
            raise TournamentError(f"{p} is already registered in {created.name}")
        seen.add(p)
        try:
            event = msgspec.convert({"type": "player-registered", "player": p, "from_round": r,
                                     "key": keys.get(p, "")}, ev.PlayerRegistered)
        except msgspec.ValidationError:
            raise TournamentError(f"{p!r} is not a player name: use letters, digits, '-' and '_'") from None
        out.append(event)
    if not out:
        raise TournamentError("name at least one player to register")
    return out


def check_drop(state: State, player: str, declared_by: str) -> list[ev.TournamentEvent]:
    created = _need(state)
    e = state.entrant(player)
    if e is None:
        raise TournamentError(f"{player} is not registered in {created.name}; registered: "
                              f"{', '.join(x.name for x in state.entrants) or 'nobody'}")
    if e.dropped_from is not None:
        raise TournamentError(f"{player} already dropped (from round {e.dropped_from})")
    try:
        return [msgspec.convert({"type": "player-dropped", "player": player, "from_round": min(next_round(state), 99),
                                 "declared_by": declared_by}, ev.PlayerDropped)]
    except msgspec.ValidationError:
        raise TournamentError(f"--by {declared_by!r} is not a name: use letters, digits, '-' and '_'") from None


def active_players(state: State, round_: int) -> list[str]:
    return [e.name for e in state.entrants if e.active_in(round_)]


def check_can_pair(state: State) -> int:
    """The round to pair next; refuses while a round has tables without a result."""
    created = _need(state)
    r = next_round(state)
    if r > created.rounds:
        raise TournamentError(f"all {created.rounds} rounds of {created.name} are paired; see its standings")
    if state.rounds and not round_complete(state.rounds[-1]):
        last = state.rounds[-1]
        raise TournamentError(f"round {last.round} still has tables without a result "
                              f"({', '.join(map(str, pending_tables(last)))}); report them first")
    return r


def check_start(state: State, round_: int) -> RoundState:
    _need(state)
    r = state.round(round_)
    if r is None:
        raise TournamentError(f"round {round_} is not paired; paired rounds: 1 to {len(state.rounds)}"
                              if state.rounds else "no round is paired yet; run `trv tournament pair` first")
    if r.started:
        raise TournamentError(f"round {round_} was already started (its games exist)")
    return r


def table_of(state: State, round_: int, table: int) -> TableState:
    r = state.round(round_)
    if r is None:
        raise TournamentError(f"round {round_} is not paired; paired rounds: 1 to {len(state.rounds)}"
                              if state.rounds else "no round is paired yet")
    if not 1 <= table <= len(r.tables):
        raise TournamentError(f"round {round_} has tables 1 to {len(r.tables)}, not {table}")
    return r.tables[table - 1]


def check_report(state: State, result: ev.ResultReported) -> list[ev.TournamentEvent]:
    """A verified, finished game record as a table's result: its players must
    be the table's (all of them, or all but those who conceded or did not
    show), and no game may count twice."""
    _need(state)
    t = table_of(state, result.round, result.table)
    where = f"round {result.round} table {t.table}"
    if t.reported is not None:
        raise TournamentError(f"{where} already has its result (game {t.reported.game})")
    if table_places(t) is not None:
        raise TournamentError(f"{where} is already decided by concessions and no-shows")
    for r in state.rounds:
        for other in r.tables:
            if other.reported is not None and other.reported.game_id == result.game_id:
                raise TournamentError(f"game {result.game} is already the result of round {r.round} "
                                      f"table {other.table}")
    in_game = sorted(p.player for p in result.places)
    full = sorted(t.players)
    staying = sorted(p for p in t.players if p not in t.out_players)
    if in_game not in (full, staying):
        raise TournamentError(f"game {result.game} was played by {', '.join(in_game)}, but {where} seats "
                              f"{', '.join(t.players)}")
    if t.game_id and result.game_id != t.game_id:
        raise TournamentError(f"{where} plays game {t.game} (created by `trv tournament start`); {result.game} is "
                              "another game: its result cannot count")
    return [result]


def ruler(state: State, round_: int) -> str:
    """The one key whose rulings count at round ``round_``'s tables: the organiser's, fixed at
    `tournament new`; in a tournament that names none (created before organiser keys, or without an
    identity), a host round's host; "" for nobody."""
    created = state.created
    if created is not None and created.organiser:
        return created.organiser
    r = state.round(round_)
    return r.host if r is not None else ""


def ruler_problem(state: State, ruled: ev.ClaimRuled) -> str | None:
    """Why ``ruled`` is not by the key whose rulings count (None: it is; its signature is checked apart)."""
    key = ruler(state, ruled.round)
    if not key:
        return (f"tournament {state.name} names no organiser key (it was created without an identity, or before "
                "organiser keys), so no ruling counts in it; a claim in it is settled another way (trv tournament "
                "concede / no-show, or a game played again)")
    if ruled.by != key:
        created = state.created
        whose = ("its organiser's key, fixed at `tournament new`," if created is not None and created.organiser
                 else f"round {ruled.round}'s host key")
        return (f"the ruling on round {ruled.round} table {ruled.table} is signed by key {ruled.by[:16]}..., not "
                f"{whose} {key[:16]}...: only that key rules")
    return None


def check_rule(state: State, ruled: ev.ClaimRuled) -> list[ev.TournamentEvent]:
    """A ruling on a table's claim on time: its table exists and has no result counted yet, the
    claim has no ruling (one ruling per claim), and it is by the key whose rulings count (:func:`ruler`)."""
    t = table_of(state, ruled.round, ruled.table)
    if t.reported is not None:
        raise TournamentError(f"round {ruled.round} table {ruled.table} has its result already; a ruling comes "
                              "before the report")
    if t.ruling is not None and t.ruling.claim == ruled.claim:
        raise TournamentError(f"the claim of round {ruled.round} table {ruled.table} was {t.ruling.ruling} already")
    problem = ruler_problem(state, ruled)
    if problem is not None:
        raise TournamentError(problem)
    return [ruled]


def check_out(state: State, round_: int, table: int, player: str, declared_by: str, no_show: bool
              ) -> list[ev.TournamentEvent]:
    """A concession or a no-show at a table that has no result yet."""
    _need(state)
    t = table_of(state, round_, table)
    where = f"round {round_} table {table}"
    if player not in t.players:
        raise TournamentError(f"{player} is not at {where}; it seats {', '.join(t.players)}")
    if t.reported is not None or table_places(t) is not None:
        raise TournamentError(f"{where} already has its result")
    if player in t.out_players:
        raise TournamentError(f"{player} is already out of {where}")
    cls = ev.NoShow if no_show else ev.Conceded
    try:
        return [msgspec.convert({"type": "no-show" if no_show else "player-conceded", "round": round_,
                                 "table": table, "player": player, "declared_by": declared_by}, cls)]
    except msgspec.ValidationError:
        raise TournamentError(f"--by {declared_by!r} is not a name: use letters, digits, '-' and '_'") from None
