"""Ending a game outside the rules: `trv claim` (on time) and `trv resign` (docs/fair-play.md)."""

from __future__ import annotations

from datetime import datetime, timezone

import click

from .common import Session, game_option, pass_session


def now() -> datetime:
    """The wall clock, read here (the shell): the application layer and the engine are given it."""
    return datetime.now(timezone.utc)


def _keyring(session: Session, player: str | None):
    loaded = session.store().load(session.game_id())
    if not loaded.charter:
        return None
    from .identity import keyring_for

    return keyring_for(loaded, player)


def _sent(session: Session, outcome) -> None:
    click.echo(f"{outcome.number:>5}. {outcome.line()}")
    if session.server is None:  # on a club server it is posted by itself
        click.echo("send it to the other players: trv send")


@click.command()
@click.option("--as", "player", metavar="SEAT", help="The seat that claims (default: your only seat).")
@game_option
@pass_session
def claim(session: Session, player: str | None) -> None:
    """Claim the game on time: the seat it waits for let its deadline pass.

    The claim is signed by your seat and names the silent seat, the event it
    did not answer and the times, by this store's clock (`trv show` says the
    deadline).  It ends the game: the silent seat loses on time.  An answer
    that arrives after the claim is kept as evidence, and does not reopen it.

    \b
    Examples:
      trv claim
      trv claim duel --as ann
    """
    if session.server_claim is not None:  # the server's clock decides in its games: the server claims
        click.echo(session.server_claim())
        return
    from trvendetta.app.outcome import claim as claim_game

    _sent(session, claim_game(session.store(), session.game_id(), _keyring(session, player), now()))


@click.command()
@click.option("--as", "player", metavar="SEAT", help="The seat that resigns (default: your only seat).")
@game_option
@pass_session
def resign(session: Session, player: str | None) -> None:
    """Resign the game: it ends, and your seat loses.

    The resignation is signed by your seat and sent like any packet (a game
    whose seats are bound to keys: in a hot-seat game nothing would show who
    resigned).

    \b
    Examples:
      trv resign
      trv resign --as bob
    """
    from trvendetta.app.outcome import resign as resign_game

    _sent(session, resign_game(session.store(), session.game_id(), _keyring(session, player), now(), player))


COMMANDS = [claim, resign]
