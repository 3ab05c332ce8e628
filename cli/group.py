"""The `trv` click group: global options and the commands, each imported when it runs
(the entry point, which starts it, is ``cli/main.py``)."""

from __future__ import annotations

import importlib

import click

from trvendetta import __version__

from .common import Session, TrvGroup, complete_game

#: command name -> "module:attribute"; a command's module is imported only when it runs
#: (or for `trv --help`), so `trv show` does not pay for replays, bots or sim
COMMANDS = {
    "new": "trvendetta.cli.games:new",
    "games": "trvendetta.cli.games:games_",
    "show": "trvendetta.cli.board:show",
    "log": "trvendetta.cli.board:log",
    "turn": "trvendetta.cli.play:turn",
    "legal": "trvendetta.cli.play:legal",
    "act": "trvendetta.cli.play:act",
    "decide": "trvendetta.cli.play:decide",
    "demo": "trvendetta.cli.demo:demo",
    "export": "trvendetta.cli.replay:export",
    "send": "trvendetta.cli.send:send",
    "import": "trvendetta.cli.replay:import_",
    "replay": "trvendetta.cli.replay:replay",
    "undo": "trvendetta.cli.replay:undo",
    "fork": "trvendetta.cli.replay:fork",
    "verify": "trvendetta.cli.replay:verify",
    "claim": "trvendetta.cli.clock:claim",
    "resign": "trvendetta.cli.clock:resign",
    "sim": "trvendetta.cli.sim:sim",
    "id": "trvendetta.cli.identity:id_",
    "invite": "trvendetta.cli.exchange:invite",
    "join": "trvendetta.cli.exchange:join",
    "host": "trvendetta.cli.host:host",
    "store": "trvendetta.cli.store:store",
    "tournament": "trvendetta.cli.tournament:tournament",
    "serve": "trvendetta.cli.serve:serve",
    "login": "trvendetta.cli.serve:login",
    "logout": "trvendetta.cli.serve:logout",
}
#: each command's summary, as `trv --help` lists it (the first paragraph of its help), so that
#: listing imports no command module; a command not here is imported for it
#: (tests/packaging/test_startup.py checks that these are the commands' own words)
SUMMARIES = {
    "new": 'Create a game and print its id (it becomes the current game).',
    "games": 'List the games in the store, most recently used first.',
    "show": "Print the board, each player's dashboard and what the game waits for.",
    "log": "Print the game's events, numbered from 1, one sentence each.",
    "turn": "Play the active player's turn from flags, then say what happened.",
    "legal": 'List the legal actions of the pending decision.',
    "act": 'Apply one action object, as printed by `trv legal --json`.',
    "decide": 'Answer the pending decision by the printed name of an option (see `trv legal`).',
    "demo": 'Watch built-in players play a whole game, turn by turn.',
    "export": 'Write the game record (or, with --since, a turn packet) as UTF-8 text.',
    "send": 'Write the packet the other players of a shared game lack, ready to mail.',
    "import": 'Import a game record (a new game) or a turn packet (extends the game).',
    "replay": "Step through a game event by event: each event's sentence and the board after it.",
    "undo": "Take back the active player's last action, without erasing it.",
    "fork": "Start a what-if game sharing GAME's history up to event N; the original is untouched.",
    "verify": 'Re-execute every recorded action and check every event byte for byte.',
    "claim": 'Claim the game on time: the seat it waits for let its deadline pass.',
    "resign": 'Resign the game: it ends, and your seat loses.',
    "sim": 'Play GAMES games between bots and print who won and how games went.',
    "id": 'Your identities: key pairs that sign your actions in games at a distance.',
    "invite": "Invite players to an exchange game: dice from every player's reveals, no host.",
    "join": 'Answer an invitation: your commitment and your set-up reveal, signed.',
    "host": 'Host mode: a host (a tournament organiser, say) rolls the dice from a committed secret seed.',
    "store": 'Work on whole game stores.',
    "tournament": 'Run a tournament: players, pods, pairings, results from verified game records, standings with tie-breaks, ratings, one export file.',
    "serve": 'Run a club server over this store: players play its games in the browser or with `trv --server`.',
    "login": 'Log in to a club server by signing its challenge with your identity (no password).',
    "logout": 'End your session on a club server (the server forgets it; so does this machine).',
}
#: with --server URL, these are the server's (``cli/remote.py``); the rest run on the local copy
SERVER_COMMANDS = {"new": "trvendetta.cli.remote:new", "join": "trvendetta.cli.remote:join",
                   "games": "trvendetta.cli.remote:games", "decline": "trvendetta.cli.remote:decline"}


class LazyGroup(TrvGroup):
    """Click's lazy-loading group: commands are imported by name on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of `trv --help`, from ``SUMMARIES`` (no command module imported); a
        command without a summary, or any with --server (its own commands), from the command."""
        if ctx.params.get("server"):
            return super().format_commands(ctx, formatter)
        names = [n for n in self.list_commands(ctx) if n in SUMMARIES and n not in self.commands
                 or ((command := self.get_command(ctx, n)) is not None and not command.hidden)]
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands or name not in SUMMARIES:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
            else:
                rows.append((name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple:
        ctx.meta["trv.args"] = list(args[1:])  # the command's own arguments (`--server` reads its --game)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in SERVER_COMMANDS and ctx.params.get("server"):
            module, attr = SERVER_COMMANDS[name].split(":")
            return getattr(importlib.import_module(module), attr)
        if name in COMMANDS and name not in self.commands:
            module, attr = COMMANDS[name].split(":")
            command = getattr(importlib.import_module(module), attr)
            _accept_db_after(command)
            self.add_command(command, name)
        return super().get_command(ctx, name)


def _set_db(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    session = ctx.find_object(Session)
    if value and session is not None:
        session.db, session.db_given = value, True


def _accept_db_after(command: click.Command) -> None:
    """``--db FILE`` after the command name too, as ``--game`` is (``trv show --db x.sqlite``);
    a group passes it on to each of its subcommands."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _accept_db_after(sub)
        return
    if any("--db" in p.opts for p in command.params):
        return
    command.params.append(click.Option(["--db"], type=click.Path(dir_okay=False), expose_value=False,
                                       callback=_set_db, metavar="FILE",
                                       help="The SQLite file of games (as the global --db)."))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="trv", message="%(prog)s %(version)s")
@click.option(
    "--db",
    envvar="TRV_DB",
    type=click.Path(dir_okay=False),
    help="SQLite file of games [env TRV_DB; default $XDG_DATA_HOME/trvendetta/trv.sqlite].",
)
@click.option(
    "--store",
    "store",
    envvar="TRV_STORE",
    metavar="WHERE",
    help="The game store: an SQLite file (PATH or sqlite:PATH) or postgresql://USER@HOST:PORT/DB"
    "[?schema=NAME] [env TRV_STORE; default: --db].",
)
@click.option(
    "--game",
    "game",
    envvar="TRV_GAME",
    metavar="ID",
    shell_complete=complete_game,
    help="The game to act on [env TRV_GAME; default: the most recently created or played].",
)
@click.option(
    "--server",
    "server",
    envvar="TRV_SERVER",
    metavar="URL",
    help="Play on a club server (trv login URL first): new, join, games, show, legal, turn, act, decide, "
    "resign, claim, log and export [env TRV_SERVER].",
)
@click.pass_context
def cli(ctx: click.Context, db: str | None, store: str | None, game: str | None, server: str | None) -> None:
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
      trv --store postgresql://club@db.example:5432/trv games
    """
    ctx.obj = Session(ctx, store or db, game)
    if server:
        from .remote import before_command

        before_command(ctx, server)
