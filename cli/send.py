"""`trv send`: write the packet the other players of a shared game need (docs/fair-play.md)."""

from __future__ import annotations

from pathlib import Path

import click

from .args import game_arg, write_text
from .common import Session, complete_game, event_number, game_option, pass_session


def local_parties(charter_text: str) -> set[str]:
    """The parties of a game whose keys are among this user's identities: bound seats, and
    ``@host`` when this user hosts it."""
    from trvendetta.replays.signatures import HOST
    from trvendetta.store import decode_charter

    from .identity import identities

    charter = decode_charter(charter_text)
    if charter is None:
        return set()
    mine = {i.public for i in identities()}
    local = {seat for seat, key in charter.seats.items() if key in mine}
    if charter.host and charter.host in mine:
        local.add(HOST)
    return local


@click.command()
@click.argument("game", required=False, shell_complete=complete_game)
@click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE",
              help="Where to write the packet (default GAME-N.trv in the current directory, N its last event).")
@click.option("--since", type=event_number(0), metavar="N",
              help="Send every event after N (default: after the last event another player made).")
@click.option("--plain", is_flag=True, help="Write the plain text packet instead of the mail-safe armoured block.")
@game_option
@pass_session
def send(session: Session, game: str | None, output: str | None, since: int | None, plain: bool) -> None:
    """Write the packet the other players of a shared game lack, ready to mail.

    The record says who made each event (signatures, seats, the host), so
    `trv send` writes every event after the last one another player (or the
    host) made: what this store added since it last heard from them.  When
    nothing was made elsewhere yet (the game you just created, or its first
    moves), it writes the whole record; `trv import` of it over the same
    game applies only its new part.  The packet is an armoured block of
    76-character lines after the moves in words (mail it as it is, or paste
    it in a mail body); send it to every player it names.

    \b
    Examples:
      trv send                       # after trv turn / decide / undo / host reveal
      trv send duel -o to-bob.trv
      trv send duel --since 40       # everything after event 40 again
    """
    from trvendetta.app.outgoing import in_words, outgoing
    from trvendetta.replays.mail import armor

    store = session.store()
    name = game_arg(session, game)
    out = outgoing(store, name, local_parties(store.header(name).charter), since)
    if out is None:
        click.echo(f"nothing to send: the other players have every event of {name} (the last, {store.version(name)}, "
                   "was made elsewhere); `--since N` sends events again")
        return
    target = output or str(Path.cwd() / f"{name}-{out.upto}.trv")
    write_text(target, out.text if plain else armor(out.text, in_words(store, name, out.since, out.upto)))
    what = (f"the whole record of {name} ({out.upto} events)" if out.since is None
            else f"the packet of {name} (events {out.since + 1}-{out.upto})")
    click.echo(f"wrote {what} to {target}: send it to {', '.join(out.recipients)}; "
               f"each runs `trv import {Path(target).name}`")
