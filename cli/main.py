"""The `trv` entry point: global options and the command groups."""

from __future__ import annotations

import click

from . import board, demo, games, play, replay
from .sim import sim
from .common import Session, TrvGroup


@click.group(cls=TrvGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="TRV_DB",
    type=click.Path(dir_okay=False),
    help="SQLite file of games [env TRV_DB; default $XDG_DATA_HOME/trvendetta/trv.sqlite].",
)
@click.option(
    "--game",
    "game",
    envvar="TRV_GAME",
    metavar="ID",
    help="The game to act on [env TRV_GAME; default: the most recently created or used].",
)
@click.pass_context
def cli(ctx: click.Context, db: str | None, game: str | None) -> None:
    """Play Thunder Road: Vendetta (and friends) turn by turn at the terminal.

    Every game lives in an append-only event store; every command loads the
    game, applies what you asked, and saves all of its events at once.

    \b
    Examples:
      trv demo
      trv new --player ann:red:cars --player bob:blue:cars --seed 7
      trv show
      trv turn --car medium --assign 4 --path F,FR,F,F
      trv log
    """
    ctx.obj = Session(ctx, db, game)


for module in (games, board, play, demo, replay):
    for command in module.COMMANDS:
        cli.add_command(command)
cli.add_command(sim)


def main() -> None:
    cli(prog_name="trv")


if __name__ == "__main__":
    main()
