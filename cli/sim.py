"""``trv sim``: play many games between bots and summarise them."""

from __future__ import annotations

import sys
import time
from typing import Any

import click
import msgspec

from trvendetta.bots import bot_names, run_many, sim_summary_text, summarize
from trvendetta.core.errors import PositionError, TrvError
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET

from .args import CrewsHelp, complete_ruleset, ruleset_arg, unknown


def _store(ctx: click.Context) -> Any:
    """The game store of the running ``trv`` (its --db), else the default one."""
    from trvendetta.store import GameStore, default_db_path

    from .common import Session

    session = ctx.find_object(Session)
    if session is not None:
        return session.store()
    return ctx.with_resource(GameStore(str(default_db_path())))


@click.command(name="sim")
@click.option("--ruleset", shell_complete=complete_ruleset, default=DEFAULT_RULESET, show_default=True,
              help="Which game to simulate.")
@click.option("--players", type=int, default=None, help="Seats per game, all filled by bots  [default: 4, or one per --crews].")
@click.option("--crews", "crews", default=None, metavar="CREW[,CREW...]", cls=CrewsHelp,
              help="One crew per seat, rotated every game so each crew sits in every seat; seats past the list "
                   "play cars.  Prints each crew's win rate.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="How many games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is played with seed SEED+i.")
@click.option(
    "--bot",
    "bots",
    default="random",
    show_default=True,
    metavar="BOT[,BOT...]",
    help=f"The bot in every seat, or one per seat, comma-separated ({', '.join(bot_names())}).",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Processes to play in.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of text.")
@click.option("--store", "store", is_flag=True, help="Also write every game to the event store (as sim-RULESET-Np-SEED).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.pass_context
def sim(
    ctx: click.Context,
    ruleset: str,
    players: int | None,
    crews: str | None,
    games: int,
    seed: int,
    bots: str,
    jobs: int,
    as_json: bool,
    store: bool,
    quiet: bool,
) -> None:
    """Play GAMES games between bots and print who won and how games went.

    Prints wins by seat and by crew, game length in rounds and events,
    eliminations by cause and a throughput line.  Every game is reproducible:
    game i uses seed SEED+i, and each seat's bot has its own seeded stream.

    \b
    Examples:
      trv sim --games 1000 --jobs 2
      trv sim --players 2 --bot greedy,random --games 200
      trv sim --ruleset classic --players 3 --json
      trv sim --games 5 --store
      trv sim --crews finalfive,cars --bot greedy --games 200
    """
    crew_list = [c.strip() for c in crews.split(",") if c.strip()] if crews else None
    if crews is not None and not crew_list:
        raise click.UsageError(f"--crews {crews!r}: name the crews, comma-separated (like finalfive,cars)")
    if players is None:
        players = len(crew_list) if crew_list else 4
    try:
        rs = ruleset_arg(ruleset)
        if not rs.min_players <= players <= rs.max_players:
            raise click.BadParameter(f"{players}: {rs.name} is for {rs.min_players} to {rs.max_players} players",
                                     param_hint="--players")
        if crew_list and not rs.crews():
            raise TrvError(f"--crews is for Vendetta and the other rulesets with crews; {ruleset} has no crews")
        seat_bots = [b.strip() for b in bots.split(",") if b.strip()]
        if store:
            summary = _run_and_store(ctx, rs, players, games, seed, seat_bots, quiet, crew_list or "")
        else:
            with click.progressbar(length=games, label="playing", file=sys.stderr, hidden=quiet or not sys.stderr.isatty()) as bar:
                summary = run_many(
                    rs, players, games, seed=seed, bots=seat_bots, jobs=jobs, crew=crew_list or "",
                    progress=bar.update, clock=time.perf_counter,
                )
    except PositionError as exc:  # a crew the ruleset does not have: the --crews value's usage error
        if exc.field.endswith(".crew") and exc.legal:
            word = next((c for c in crew_list or () if c not in exc.legal), "")
            raise click.BadParameter(f"{crews!r}: {unknown('crew', word, exc.legal)}", param_hint="--crews") from None
        raise click.ClickException(str(exc)) from None
    except TrvError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(msgspec.json.format(msgspec.json.encode(summary), indent=2).decode())
    else:
        click.echo(sim_summary_text(summary))


def _run_and_store(ctx: click.Context, rs: Any, players: int, games: int, seed: int, bots: list[str], quiet: bool,
                   crew: Any = ""):
    """Play the games one by one in this process and store each whole game in one save."""
    from trvendetta.app.simulated import store_simulated

    gs = _store(ctx)
    results = []
    bots_t = tuple(bots) * players if len(bots) == 1 else tuple(bots)
    started = time.perf_counter()
    with click.progressbar(range(games), label="playing and storing", file=sys.stderr, hidden=quiet or not sys.stderr.isatty()) as bar:
        for i in bar:
            results.append(store_simulated(gs, rs, players, seed + i, bots_t, crew))
    seconds = time.perf_counter() - started
    return summarize(results, rs.name, players, seed, bots_t, 1, seconds, crew)

