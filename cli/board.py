"""Looking at a game: `trv show`, `trv log`."""

from __future__ import annotations

import click
import msgspec

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
    game = session.load(at=at)
    ruleset = game.ruleset
    if as_json:
        doc = {"game": game.game, "ruleset": ruleset.name, "version": game.version, "head": game.head}
        doc.update(ruleset.view(game.state))
        echo_json(doc)
        return
    click.echo(f"game {game.game} ({ruleset.name}) after event {game.version}, head {game.head[:16]}")
    click.echo(ruleset.render(game.state, color=use_color()))


@click.command()
@json_option
@game_option
@pass_session
def log(session: Session, as_json: bool) -> None:
    """Print the game's events, numbered from 1, one sentence each.

    With --json, each event is {"n", "kind", "hash", "event"} where "event" is
    the engine event exactly as stored (its canonical JSON).

    \b
    Examples:
      trv log
      trv log --json
    """
    store = session.store()
    game_id = session.game_id()
    records = store.events(game_id)
    ruleset = store.ruleset_of(game_id)
    store.touch(game_id)
    if as_json:
        echo_json([{"n": r.number, "kind": r.kind, "hash": r.hash, "event": msgspec.Raw(r.payload)}
                   for r in records])
        return
    for r in records:
        click.echo(f"{r.number:>5}. {ruleset.describe(r.event)}")


COMMANDS = [show, log]
