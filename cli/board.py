"""Looking at a game: `trv show`, `trv log`."""

from __future__ import annotations

import click
import msgspec

from trvendetta.store import RETRACTION_KIND
from trvendetta.store.records import charter_dice

from .common import Session, echo_json, event_number, game_option, json_option, pass_session, seen, use_color


@click.command()
@click.option("--at", type=event_number(), metavar="N", help="Show the game as it was after event N.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True, allow_dash=True), metavar="FILE",
              help="Also draw the board as an SVG picture into FILE ('-': standard output).")
@click.option("--png", "png_file", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Also draw the board as a PNG picture into FILE (needs the optional extra 'png': cairosvg).")
@click.option("--legend", is_flag=True, help="Print what every symbol of the text board means (after the board).")
@json_option
@game_option
@pass_session
def show(session: Session, at: int | None, svg_file: str | None, png_file: str | None, as_json: bool,
         legend: bool) -> None:
    """Print the board, each player's dashboard and what the game waits for.

    The board is plain text, coloured per player when stdout is a terminal
    (set NO_COLOR to turn colour off).

    With --json, print the stable document scripts read: game, ruleset,
    version (number of events), head (hash of the last event) and the
    ruleset's view (round, active_player, pending, players, vehicles, ...,
    and board: what a picture needs, i.e. the grid, the terrain printed on
    the spaces, printed marks, the Finish Line, starting-area lanes and
    damage tokens).

    With --svg FILE (or --png FILE), draw the board as people know it: the
    road's spaces and terrain, hazard tokens, wrecks, choppers, each car in
    its owner's colour with the owner's letter, its size, facing and damage,
    the dashboards beside it and the last action highlighted; only the
    picture is written (and --json, if given, printed).

    \b
    Examples:
      trv show
      trv show --at 12
      trv show --json
      trv show --legend
      trv show --svg board.svg
      trv show --at 40 --png board.png    # pip install 'trvendetta[png]'
    """
    if png_file is not None:
        from trvendetta.pictures.png import converter

        converter()  # the missing extra is named before anything is read
    game = session.load(at=at) if at is not None else session.view()
    ruleset = game.ruleset
    if svg_file is not None or png_file is not None:
        from .pictures import write_pictures

        write_pictures(session, game, svg_file, png_file)
        if not as_json:
            return  # the picture was asked for, not the text board as well (--json still prints)
    ended, clock = _ending(session, game) if at is None else (None, None)
    state = seen(session, game)  # what the local identity may see (its own favors, nobody else's)
    if as_json:
        doc = {"game": game.game, "ruleset": ruleset.name, "version": game.version, "head": game.head}
        doc.update(ruleset.view(state))
        if ended is not None:
            doc["ended"] = {"loser": ended.loser, "how": ended.how, "event": ended.number, "text": ended.line()}
        if clock is not None:
            doc["clock"] = clock.to_dict()
        echo_json(doc)
        return
    click.echo(f"game {game.game} ({ruleset.name}) after event {game.version}, head {game.head[:16]}")
    click.echo(ruleset.render(state, color=use_color()))
    if ended is not None:
        click.echo(ended.line())
    elif clock is not None:
        from .clock import now

        click.echo(clock.line(now()))
    if game.charter and charter_dice(game.charter):  # may wait for a player's or the host's dice
        from trvendetta.app.exchange import unrevealed_line, waiting_line

        line = waiting_line(session.store(), game.game) or unrevealed_line(session.store(), game.game)
        if line:
            click.echo(line)
    if legend:
        click.echo("")
        click.echo(ruleset.legend() or f"(the {ruleset.name} ruleset has no legend)")


def _ending(session: Session, game) -> tuple:
    """A signed game's claim or resignation, else whose answer it waits for and until when."""
    if not game.charter:  # (a hot-seat game has neither: nobody signs a claim or a resignation)
        return None, None
    from trvendetta.app.outcome import outcome_of

    store = session.store()
    ended = outcome_of(store, game.game)
    if ended is not None:
        return ended, None
    from trvendetta.app.clock import waiting

    clock = waiting(store, game.game)  # (only a game with a time control has a deadline to show)
    return None, clock if clock is not None and clock.control is not None else None


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
    A damaged game prints the events that can be read, then one line on
    stderr saying where it is damaged, and exits 1.

    \b
    Examples:
      trv log
      trv log --all
      trv log --json
    """
    from trvendetta.replays import readable

    store = session.store()
    game_id = session.game_id()
    records, damage = readable(store, game_id)  # a damaged game: what can be read, then where it is damaged
    ruleset = store.ruleset_of(game_id)
    dead = {n for r in records if r.kind == RETRACTION_KIND for n in range(r.event.first, r.event.last + 1)}
    if not show_all:
        records = [r for r in records if r.number not in dead and r.kind != RETRACTION_KIND]
    from trvendetta.store import STORE_KINDS, describe_store_record
    if as_json:
        rows = []
        for r in records:
            row = {"n": r.number, "kind": r.kind, "hash": r.hash, "event": msgspec.Raw(r.payload)}
            if show_all:
                row["action"] = msgspec.Raw(r.action) if r.action else None
                row["retracted"] = r.number in dead
            rows.append(row)
        echo_json(rows)
    else:
        for r in records:
            if r.kind in STORE_KINDS:
                text = describe_store_record(r.event)
            else:
                text = ruleset.describe(r.event)
            mark = "  [retracted]" if r.number in dead else ""
            click.echo(f"{r.number:>5}. {text}{mark}")
    if damage is not None:
        raise damage  # one line on stderr, exit 1: what was printed is not the whole game


COMMANDS = [show, log]
