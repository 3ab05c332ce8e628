"""Simulation: whole games played by bots, one at a time or many in parallel.

``simulate`` plays one game and returns a :class:`GameResult`; ``run_many``
plays game ``i`` with seed ``seed + i`` (so any single game of a run can be
replayed alone with ``simulate(..., seed + i, ...)``) and summarises them in a
:class:`SimSummary`.  Each seat's bot draws from its own stream,
``Rng(game_seed, 1000 + seat)``, and the engine's dice come from the game
seed, so a result depends only on the ruleset, the player count, the seed and
the bots.

Nothing here reads the clock: ``run_many`` takes an optional ``clock``
(``time.perf_counter``, given by the shell) to report games per second.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from .. import rulesets
from ..core.errors import TrvError
from ..core.protocol import Ruleset
from ..core.rng import Rng
from .registry import get_bot

#: players are named by seat; colours are handed out in this order
COLORS = ("red", "blue", "green", "yellow", "black", "white")
BOT_STREAM = 1000


class GameResult(msgspec.Struct, frozen=True):
    """The outcome of one simulated game."""

    ruleset: str
    seed: int
    players: int
    bots: tuple[str, ...]
    winner: str | None
    winner_seat: int | None  # 1-based seat number
    crew: str | None  # the winner's crew
    rounds: int | None
    events: int
    actions: int
    eliminations: dict[str, int]  # cause (names and spaces stripped) -> count
    end_reason: str | None
    finished: bool = True


class Stats(msgspec.Struct, frozen=True):
    mean: float
    median: float
    max: int


class SimSummary(msgspec.Struct, frozen=True):
    """What ``trv sim`` prints: wins, game lengths, eliminations, throughput."""

    ruleset: str
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    jobs: int
    wins_by_seat: dict[str, int]
    wins_by_crew: dict[str, int]
    no_winner: int
    unfinished: int
    rounds: Stats | None
    events: Stats
    eliminations: dict[str, int]
    end_reasons: dict[str, int]
    crews_played: dict[str, int] = {}
    seconds: float | None = None
    games_per_second: float | None = None


# ------------------------------------------------------------------ one game
def seat_name(seat: int) -> str:
    """The name of the player in ``seat`` (0-based): ``p1``, ``p2``, ..."""
    return f"p{seat + 1}"


def _ruleset(ruleset: Ruleset | str) -> Ruleset:
    return rulesets.get(ruleset) if isinstance(ruleset, str) else ruleset


def _bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    if len(bots) == 1:
        return tuple(bots) * players
    if len(bots) != players:
        raise TrvError(f"{len(bots)} bots for {players} players; give one bot, or one per seat")
    return tuple(bots)


Crews = str | Sequence[str]


def seat_crews(crew: Crews, players: int, seed: int, default: str = "") -> tuple[str, ...]:
    """Each seat's crew: one crew for every seat, or a list of crews (seats
    past the list play ``default``, the ruleset's ``default_crew``, as does an
    empty crew) rotated by the seed, so that over consecutive seeds every crew
    sits in every seat equally often."""
    if isinstance(crew, str):
        return (crew or default,) * players
    crews = [c or default for c in crew] + [default] * (players - len(crew))
    if len(crews) > players:
        raise TrvError(f"{len(crew)} crews for {players} players; give at most one crew per seat")
    shift = seed % players
    return tuple(crews[(i - shift) % players] for i in range(players))


def check_players(ruleset: Ruleset, players: int) -> None:
    """A player count the ruleset takes (checked before anything is made a seat)."""
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise TrvError(
            f"{ruleset.name} is for {ruleset.min_players} to {ruleset.max_players} players, not {players}"
        )


def new_position(ruleset: Ruleset, players: int, seed: int, crew: Crews = "") -> Any:
    """The default position for ``players`` seats named ``p1``.. in COLORS order (a seat
    given no crew plays the ruleset's ``default_crew``)."""
    check_players(ruleset, players)
    crews = seat_crews(crew, players, seed, ruleset.default_crew)
    seats = [(seat_name(i), COLORS[i], crews[i]) for i in range(players)]
    return ruleset.default_position(seats, seed)


def bucket(text: str, ids: Sequence[str], names: Sequence[str]) -> str:
    """A cause or reason with the vehicle ids, player names and spaces taken out."""
    for vid in sorted(ids, key=len, reverse=True):
        text = text.replace(vid, "a vehicle")
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}'s\b", "a player's", text)
        text = re.sub(rf"\b{re.escape(name)}\b", "a player", text)
    text = re.sub(r"\bwreck-\d+\b", "a wreck", text)
    text = re.sub(r" at [a-z]-?\d{1,4}\b", "", text)
    return text


def simulate(
    ruleset: Ruleset | str,
    players: int,
    seed: int,
    bots: Sequence[str],
    crew: Crews = "",
    events_out: list | None = None,
    steps_out: list | None = None,
) -> GameResult:
    """Play one whole game with ``bots`` (one name, or one per seat).

    A game that runs past ``ruleset.max_events`` stops there and is reported
    with ``finished=False`` (that is an engine bug: the conformance tests
    check every game ends within the bound).  ``events_out``, when given,
    receives every event of the game, and ``steps_out`` every action as
    ``(action, its events, the state after it)`` (to store the game:
    ``trv sim --store``).
    """
    rs = _ruleset(ruleset)
    check_players(rs, players)
    bots = _bots(bots, players)
    names = [seat_name(i) for i in range(players)]
    seat_of = {n: i for i, n in enumerate(names)}
    agents = [get_bot(b) for b in bots]
    rngs = [Rng(seed, BOT_STREAM + i) for i in range(players)]
    state, events = rs.new_game(new_position(rs, players, seed, crew))
    count = len(events)
    causes: Counter[str] = Counter()
    ids = rs.pieces(state)

    def tally(evs: list) -> None:
        for e in evs:
            cause = rs.elimination(e)
            if cause is not None:
                causes[bucket(cause, ids, names)] += 1

    tally(events)
    if events_out is not None:
        events_out.extend(events)
    actions = 0
    finished = True
    while not rs.is_over(state):
        if count > rs.max_events:
            finished = False
            break
        decision = rs.pending(state)
        seat = seat_of.get(decision.player or "", 0) if decision is not None else 0
        action = agents[seat].choose(rs, state, rngs[seat], decision)
        state, new = rs.apply(state, action)
        tally(new)
        if events_out is not None:
            events_out.extend(new)
        if steps_out is not None:
            steps_out.append((action, new, state))
        count += len(new)
        actions += 1
    winner = rs.winner(state) if finished else None
    winner_seat = seat_of[winner] + 1 if winner in seat_of else None
    crew_won = None
    if winner is not None:
        crew_won = next((s.crew or None for s in rs.seats(state) if s.name == winner), None)
    reason = rs.end_reason(state) if finished else f"unfinished after {count} events"
    return GameResult(
        ruleset=rs.name,
        seed=seed,
        players=players,
        bots=bots,
        winner=winner,
        winner_seat=winner_seat,
        crew=crew_won,
        rounds=rs.round(state),
        events=count,
        actions=actions,
        eliminations=dict(sorted(causes.items())),
        end_reason=bucket(reason, ids, names) if reason else None,
        finished=finished,
    )


# ----------------------------------------------------------------- many games
def _play_chunk(args: tuple) -> list[GameResult]:
    name, players, seeds, bots, crew = args
    return [simulate(name, players, s, bots, crew) for s in seeds]


def _chunks(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def run_many(
    ruleset: Ruleset | str,
    players: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("random",),
    jobs: int = 1,
    crew: Crews = "",
    progress: Callable[[int], None] | None = None,
    clock: Callable[[], float] | None = None,
    results: list[GameResult] | None = None,
) -> SimSummary:
    """Play ``games`` games (game ``i`` with seed ``seed + i``) and summarise them.

    ``jobs > 1`` spreads the games over that many processes (the summary does
    not depend on ``jobs``).  ``progress(n)`` is called as ``n`` more games
    finish; ``clock`` (e.g. ``time.perf_counter``) enables the throughput
    figures; ``results``, when given, receives every GameResult in seed order.
    """
    rs = _ruleset(ruleset)
    check_players(rs, players)
    bots = _bots(bots, players)
    new_position(rs, players, seed, crew)  # fail fast on a bad crew
    for b in set(bots):
        get_bot(b)
    seeds = [seed + i for i in range(games)]
    started = clock() if clock else None
    out: list[GameResult] = []
    if jobs <= 1 or games <= 1:
        for s in seeds:
            out.append(simulate(rs, players, s, bots, crew))
            if progress:
                progress(1)
    else:
        import multiprocessing

        size = max(1, min(50, games // (jobs * 8)))
        work = [(rs.name, players, chunk, bots, crew) for chunk in _chunks(seeds, size)]
        with multiprocessing.get_context().Pool(jobs) as pool:
            for chunk in pool.imap_unordered(_play_chunk, work):
                out.extend(chunk)
                if progress:
                    progress(len(chunk))
        out.sort(key=lambda r: r.seed)
    seconds = clock() - started if clock and started is not None else None
    if results is not None:
        results.extend(out)
    return summarize(out, rs.name, players, seed, bots, jobs, seconds, crew)


def _stats(values: list[int]) -> Stats:
    return Stats(round(statistics.fmean(values), 2), float(statistics.median(values)), max(values))


def summarize(
    results: Sequence[GameResult],
    ruleset: str,
    players: int,
    seed: int,
    bots: Sequence[str],
    jobs: int = 1,
    seconds: float | None = None,
    crew: Crews = "",
) -> SimSummary:
    """Aggregate game results (wins by seat and crew, lengths, eliminations).

    ``crews_played`` counts, per crew, the games it took part in, so
    ``wins_by_crew / crews_played`` is its win rate."""
    if not results:
        raise TrvError("no games to summarise; ask for at least one")
    default = rulesets.get(ruleset).default_crew
    by_seat = Counter({seat_name(i): 0 for i in range(players)})
    by_crew: Counter[str] = Counter()
    elim: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for r in results:
        for c in set(seat_crews(crew, players, r.seed, default)):
            played[c] += 1
        if r.winner is not None:
            by_seat[r.winner] += 1
            by_crew[r.crew or "?"] += 1
        elim.update(r.eliminations)
        reasons[r.end_reason or "?"] += 1
    rounds = [r.rounds for r in results if r.rounds is not None]
    return SimSummary(
        ruleset=ruleset,
        players=players,
        games=len(results),
        seed=seed,
        bots=tuple(bots),
        jobs=jobs,
        wins_by_seat=dict(by_seat),
        wins_by_crew=dict(sorted(by_crew.items())),
        no_winner=sum(1 for r in results if r.winner is None),
        unfinished=sum(1 for r in results if not r.finished),
        rounds=_stats(rounds) if rounds else None,
        events=_stats([r.events for r in results]),
        eliminations=dict(elim.most_common()),
        end_reasons=dict(reasons.most_common()),
        crews_played=dict(sorted(played.items())),
        seconds=round(seconds, 3) if seconds is not None else None,
        games_per_second=round(len(results) / seconds, 1) if seconds else None,
    )


def _pct(n: int, total: int) -> str:
    return f"{n} ({100 * n / total:.0f}%)"


def sim_summary_text(summary: SimSummary) -> str:
    """The summary as a few lines of text (what ``trv sim`` prints)."""
    s = summary
    g = s.games
    bots = s.bots[0] if len(set(s.bots)) == 1 else ",".join(s.bots)
    lines = [f"{s.ruleset}: {g} game{'s' if g != 1 else ''} of {s.players} players, bots {bots}, seeds {s.seed}..{s.seed + g - 1}"]
    seats = "  ".join(f"{seat} {_pct(n, g)}" for seat, n in s.wins_by_seat.items())
    lines.append(f"wins by seat:  {seats}" + (f"  no winner {_pct(s.no_winner, g)}" if s.no_winner else ""))
    crews = "  ".join(f"{crew} {_pct(n, g)}" for crew, n in s.wins_by_crew.items()) or "none"
    lines.append(f"wins by crew:  {crews}")
    if len(s.crews_played) > 1:
        rates = "  ".join(f"{c} {100 * s.wins_by_crew.get(c, 0) / n:.0f}% of {n}" for c, n in s.crews_played.items())
        lines.append(f"win rate by crew (of the games it played):  {rates}")
    if s.rounds is not None:
        lines.append(f"rounds:        mean {s.rounds.mean:g}  median {s.rounds.median:g}  max {s.rounds.max}")
    lines.append(f"events:        mean {s.events.mean:g}  median {s.events.median:g}  max {s.events.max}")
    if s.eliminations:
        lines.append("eliminations (per game):")
        for cause, n in s.eliminations.items():
            lines.append(f"  {n / g:6.2f}  {cause}")
    lines.append("end reasons:")
    for reason, n in s.end_reasons.items():
        lines.append(f"  {_pct(n, g):>10}  {reason}")
    if s.unfinished:
        lines.append(f"UNFINISHED: {s.unfinished} game(s) ran past the ruleset's event bound")
    if s.games_per_second is not None:
        per_job = s.games_per_second / max(1, s.jobs)
        lines.append(
            f"{g} games in {s.seconds:.2f} s: {s.games_per_second:g} games/s"
            + (f" ({per_job:.1f} per job, {s.jobs} jobs)" if s.jobs > 1 else "")
        )
    return "\n".join(lines)
