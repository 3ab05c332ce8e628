"""``trv store``: work on whole stores (copy games between SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
from typing import Any

import click

from trvendetta.store import location

from .common import Session, echo_json, json_option


@click.group(name="store")
def store() -> None:
    """Work on whole game stores.

    A store is an SQLite file (PATH or sqlite:PATH) or a PostgreSQL database
    (postgresql://USER@HOST:PORT/DB, optionally ?schema=NAME), as for the
    global --store option.

    \b
    Examples:
      trv store copy --from sqlite:club.sqlite --to postgresql://club@db.example/trv
    """


@store.command(name="copy")
@click.option("--from", "source", metavar="STORE",
              help="The store to copy from [default: the global --store / --db / $TRV_STORE].")
@click.option("--to", "target", metavar="STORE", required=True, help="The store to copy into.")
@click.option("--game", "games", multiple=True, metavar="ID",
              help="Copy only this game (repeatable) [default: every game, and every tournament].")
@click.option("--tournaments/--no-tournaments", default=None,
              help="Copy the tournaments too [default: yes, unless --game names the games].")
@json_option
@click.pass_obj
def copy(session: Session, source: str | None, target: str, games: tuple[str, ...], tournaments: bool | None,
         as_json: bool) -> None:
    """Copy games and tournaments from one store to another, verifying each copy.

    Every record is copied byte for byte with its stamp (so the hash chain and
    the head are the same), then read back, compared with its source and its
    chain recomputed; a tournament's log by its events (the same chain).  A
    game already in the target with the same head is left as it is; one
    whose records in the target are the start of the source's (a copy made
    earlier, played on since) is brought up to date; one with another
    history stops the copy before anything is written.

    \b
    Examples:
      trv store copy --from sqlite:club.sqlite --to postgresql://club@db.example/trv
      trv --db mine.sqlite store copy --to postgresql://postgres@127.0.0.1/test --game duel
    """
    from trvendetta.app.stores import SameStore, copy_store

    from .host import check_seeds

    def check(game: str, charter: str, game_id: str, started: Any) -> None:
        check_seeds(charter, game, game_id, started)  # the seed inputs against this user's own answers

    try:
        from .clock import now as clock_now

        copies = copy_store(source or session.db, target, games, tournaments=tournaments, check=check,
                            now=clock_now())
    except SameStore:
        raise click.UsageError("--from and --to name the same store") from None
    done = []
    for copied in copies:
        done.append(copied)
        if not as_json:
            click.echo(f"{copied.done} {copied.game}: {copied.events} events, head {copied.head[:16]} (verified)")
    if as_json:
        echo_json([c._asdict() for c in done])
    elif not done:
        click.echo("no games or tournaments to copy")


@store.command(name="upgrade")
@click.option("--to", "target", metavar="STORE",
              help="The new store to write [default: beside an SQLite file, x.sqlite -> x.v3.sqlite; "
                   "a PostgreSQL schema NAME -> NAME_v3].")
@click.option("--leave-out", "leave_out", multiple=True, metavar="GAME",
              help="Do not bring this game over (repeatable): one the upgrade named as damaged.")
@click.pass_obj
def upgrade(session: Session, target: str | None, leave_out: tuple[str, ...]) -> None:
    """Copy an older store's games and tournaments into a new store of the current layout.

    The store given by the global --store / --db / $TRV_STORE is read, never
    changed.  First every game is read whole and compared with every other
    account of it (its rows with and without the table's index, the games
    index's count and head, its snapshots); if any game cannot be read whole,
    each is named and nothing is written (exit 1).  Then every game is
    written into the new store with its records, stamps and header (so its
    id, heads and signatures are the same), read back and compared record by
    record, its chain recomputed; every tournament by its events.  The new
    store is written under a temporary name (x.v3.sqlite.upgrading, schema
    NAME_v3_upgrading) and gets its name only when complete; a run that was
    stopped is started again clean.  Use the new store from then on (--db /
    --store, or move it in place of the old file).

    \b
    Examples:
      trv --db club.sqlite store upgrade
      trv --store 'postgresql://club@db.example/trv?schema=club' store upgrade
    """
    from trvendetta.app.stores import SameStore
    from trvendetta.app.upgrade import UpgradeRefused, upgrade_store, upgrade_target

    source = str(session.db)
    target = target or upgrade_target(source)
    games = tournaments = 0
    already = False
    try:
        for copied in upgrade_store(source, target, leave_out, lambda line: click.echo(f"warning: {line}", err=True)):
            kind = "tournament" if copied.game.startswith("tournament ") else "game"
            games, tournaments = games + (kind == "game"), tournaments + (kind != "game")
            already = copied.done == "already there"
            if already:
                click.echo(f"already upgraded {copied.game}: head {copied.head[:16]} (verified)")
            else:
                click.echo(f"upgraded {copied.game}: {copied.events} events, head {copied.head[:16]} (verified)")
    except SameStore:
        raise click.UsageError("--to names the store being upgraded") from None
    except UpgradeRefused as exc:
        for line in exc.problems:
            click.echo(line, err=True)
        raise click.ClickException(str(exc)) from None
    except (OSError, sqlite3.Error) as exc:  # a full disk, a lost file system: the target was not published
        raise click.ClickException(f"the upgrade stopped ({location.one_line(exc)}); {target} was not written: "
                                   "run it again (it starts clean)") from None
    left = f"; left out as asked: {', '.join(leave_out)}" if leave_out else ""
    click.echo(f"{games} games and {tournaments} tournaments {'were already in' if already else 'written to'} "
               f"{target}, each verified; {source} is unchanged{left}")


@store.command(name="check")
@json_option
@click.pass_obj
def check(session: Session, as_json: bool) -> None:
    """Scrub the whole store, game by game, and name every damaged game.

    Every row of every game is read and its hash chain checked from the
    start; its games-index row, the index's copy and its snapshots are read
    and compared with the rows; an SQLite file gets SQLite's own integrity
    check.  Nothing is written and no action is re-executed (trv verify
    does that for one game).  One line for each damaged game, then a
    count; the exit status is 1 when any game is damaged.

    \b
    Examples:
      trv store check
      trv --store postgresql://club@db.example/trv store check --json
    """
    from trvendetta.app.stores import check_store
    from trvendetta.core.errors import TrvError

    found = []
    for checked in check_store(session.store()):
        found.append(checked)
        if not as_json:
            for problem in checked.problems:
                click.echo(f"damaged {checked.game}: {problem}" if checked.game else f"damaged store: {problem}")
    damaged = [c for c in found if c.problems]
    games = [c for c in found if c.game]
    if as_json:
        echo_json([c._asdict() for c in found])
    else:
        click.echo(f"{len(games)} games checked, {len([c for c in damaged if c.game])} damaged")
    if damaged:
        names = ", ".join(c.game or "the store file" for c in damaged)
        raise TrvError(f"damage found in {names[:300]}: restore it from a copy (trv verify GAME says more)")
