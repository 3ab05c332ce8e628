"""Looking at a game: `trv show`, `trv log`."""

from __future__ import annotations

import click
import msgspec

from trvendetta.store import RETRACTION_KIND

from .common import Session, game_option, echo_json, json_option, pass_session, use_color


@click.command()
@click.option("--at", type=click.IntRange(min=1), metavar="N", help="Show the game as it was after event N.")
@json_option
@game_option
@pass_session
def show(session: Session, at: int | None, as_json: bool) -> None:
    """Print the board, each player's dashboard and what the game waits for.

    The board is plain text, coloured per player when stdout is a terminal
    (set NO_COLOR to turn colour off).

    With --json, print the stable document scripts read: game, ruleset,
    version (number of events), head (hash of the last event) and the
    ruleset's view (round, active_player, pending, players, vehicles, ...).

    \b
    Examples:
      trv show
      trv show --at 12
      trv show --json
    """
    game = session.load(at=at) if at is not None else session.view()
    ruleset = game.ruleset
    if as_json:
        doc = {"game": game.game, "ruleset": ruleset.name, "version": game.version, "head": game.head}
        doc.update(ruleset.view(game.state))
        echo_json(doc)
        return
    click.echo(f"game {game.game} ({ruleset.name}) after event {game.version}, head {game.head[:16]}")
    click.echo(ruleset.render(game.state, color=use_color()))


@click.command()
@click.option("--all", "show_all", is_flag=True,
              help="Also show events taken back by `trv undo` (marked) and the retractions themselves.")
@json_option
@game_option
@pass_session
def log(session: Session, show_all: bool, as_json: bool) -> None:
    """Print the game's events, numbered from 1, one sentence each.

    Events taken back by `trv undo` are skipped unless --all is given.  With
    --json, each event is {"n", "kind", "hash", "event"} where "event" is the
    engine event exactly as stored (its canonical JSON); with --all also
    "action" (the action that produced it, on its first event) and "retracted".

    \b
    Examples:
      trv log
      trv log --all
      trv log --json
    """
    store = session.store()
    game_id = session.game_id()
    records = store.events(game_id)
    ruleset = store.ruleset_of(game_id)
    dead = store.retracted(game_id)
    store.touch(game_id)
    if not show_all:
        records = [r for r in records if r.number not in dead and r.kind != RETRACTION_KIND]
    if as_json:
        rows = []
        for r in records:
            row = {"n": r.number, "kind": r.kind, "hash": r.hash, "event": msgspec.Raw(r.payload)}
            if show_all:
                row["action"] = msgspec.Raw(r.action) if r.action else None
                row["retracted"] = r.number in dead
            rows.append(row)
        echo_json(rows)
        return
    for r in records:
        if r.kind == RETRACTION_KIND:
            e = r.event
            text = f"{e.player} takes back events {e.first}-{e.last}" + (" (agreed)" if e.agreed else "")
        else:
            text = ruleset.describe(r.event)
        mark = "  [retracted]" if r.number in dead else ""
        click.echo(f"{r.number:>5}. {text}{mark}")


COMMANDS = [show, log]
