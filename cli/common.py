"""What every command shares: the store and game in the context, --json, errors, output."""

from __future__ import annotations

import gc
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click
import msgspec

from trvendetta.store import Loaded, default_db_path, location
from trvendetta.core.errors import TrvError

#: the largest event number an option takes: far past any game, inside SQLite's INTEGER
MAX_EVENT_NUMBER = 10**12


def event_number(low: int = 1) -> click.IntRange:
    """The type of an event-number option (``--at``, ``--to``, ``--since``): bounded where it enters."""
    return click.IntRange(min=low, max=MAX_EVENT_NUMBER)


class TrvGroup(click.Group):
    """A group that turns every domain error into a one-line message and exit 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TrvError as exc:
            raise click.ClickException(str(exc)) from None
        except Exception as exc:
            if isinstance(exc, sqlite3.Error) or is_persistence_error(exc) or location.is_server_error(exc):
                raise click.ClickException(f"game store: {location.one_line(exc)}") from None
            raise

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple:
        """An unknown command is a usage error naming the commands, with a "did you mean"
        (click's own offers only the commands already imported, none in a lazy group)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            from .args import unknown

            word = click.utils.make_str(args[0])
            raise click.UsageError(unknown("command", word, self.list_commands(ctx)), ctx) from None


def is_persistence_error(exc: BaseException) -> bool:
    """An eventsourcing PersistenceError (without importing eventsourcing when no store was opened)."""
    persistence = sys.modules.get("eventsourcing.persistence")
    return persistence is not None and isinstance(exc, persistence.PersistenceError)


#: the commands that may create the store file; any other on a missing file says so instead
CREATING_COMMANDS = frozenset({"new", "import", "demo", "sim", "tournament", "store", "id", "host"})
#: of a group above, the subcommands that may create it (the group's others only read, or need a
#: tournament that a new file cannot hold): a group not listed here creates with any subcommand
CREATING_SUBCOMMANDS = {"tournament": frozenset({"new"})}


def creates_store(ctx: click.Context) -> bool:
    """Whether the command running under the root context ``ctx`` may create the store file."""
    name = ctx.invoked_subcommand
    if name not in CREATING_COMMANDS:
        return False
    allowed = CREATING_SUBCOMMANDS.get(name)
    if allowed is None:
        return True
    current = click.get_current_context(silent=True)
    while current is not None and current.parent is not None and current.parent.parent is not None:
        current = current.parent  # up to the group's subcommand (`trv tournament list` -> list)
    if current is not None and current.parent is None:  # (not under the group yet)
        return False
    sub = current.info_name if current is not None and current.info_name != name else \
        current.invoked_subcommand if current is not None else None
    return sub in allowed


class Session:
    """The command's view of the store: opened on first use, closed when the command ends."""

    def __init__(self, ctx: click.Context, db: str | None, game: str | None):
        self.ctx = ctx
        self.db_given = db is not None
        self.db = db if db is not None else str(default_db_path())
        self.game_option = game
        self._store: Any = None
        self._pg_missing: bool | None = None
        #: `trv --server URL`: the club server this command's game is played on (cli/remote.py)
        self.server: str | None = None
        #: with --server, a playing command's way to post what it recorded now and import the dice the
        #: server rolled (True: the game goes on, the command may play on; cli/remote.py)
        self.server_send: Callable[[], bool] | None = None
        #: with --server, `trv claim`: the server claims on time by its clock (the outcome's line)
        self.server_claim: Callable[[], str] | None = None

    def store(self, db: str | None = None) -> Any:
        """The GameStore (imported here: a read-only command may never need it)."""
        if self._store is None:
            from trvendetta.store import GameStore

            path = db or self.db
            if db is None and self.missing() and not creates_store(self.ctx):
                where = location.parse(self.db)
                if self.ctx.invoked_subcommand == "tournament":
                    raise TrvError(f"no game store at {where}, so no tournament there; create one with "
                                   "`trv tournament new NAME --rounds N` (or give --db / $TRV_DB)")
                raise TrvError(f"no game store at {where}; create a game there with "
                               "`trv new --player NAME:COLOR ...` (or give --db / $TRV_DB)")
            try:
                store = GameStore(path)
            except Exception as exc:
                if isinstance(exc, (OSError, sqlite3.Error)) or is_persistence_error(exc) or \
                        location.is_server_error(exc):
                    raise click.ClickException(f"cannot open the game store {path}: {location.one_line(exc)}") \
                        from None
                raise
            self._store = self.ctx.with_resource(store)
        return self._store

    def location(self) -> Any:
        """Where the store is (``trvendetta.store.location.Location``)."""
        return location.parse(self.db)

    def missing(self) -> bool:
        """Whether the store is an SQLite file that does not exist yet, or a
        PostgreSQL schema that holds no store (a read-only command then says
        so instead of creating it, or the folders a mistyped path names)."""
        where = location.parse(self.db)
        if where.kind == "postgresql":
            if self._pg_missing is None:
                self._pg_missing = location.postgres_store_missing(where.target)
            return self._pg_missing
        return where.kind == "sqlite" and where.target != ":memory:" and not os.path.exists(where.target)

    def game_id(self) -> str:
        """--game, else $TRV_GAME, else the game most recently created or played
        (looking at a game writes nothing, so it does not make it current)."""
        if self.game_option:
            return self.game_option
        latest = self.store().latest_game()
        if latest is None:
            raise TrvError("no game in this store yet; create one with `trv new --player NAME:COLOR:cars ...`")
        return latest

    def view(self) -> Loaded:
        """The game's latest state for a read-only command (show, legal): read
        with ``trvendetta.store.quick`` (plain sqlite3, no eventsourcing import)
        when it can, else loaded through the GameStore."""
        if self._store is None:
            running = gc.isenabled()
            gc.disable()
            try:
                loaded = self._quick()
            finally:
                gc.freeze()  # as start-up's (cli/main.py): the ruleset's modules and the game, all alive
                if running:
                    gc.enable()
            if loaded is not None:
                return loaded
        return self.load()

    def _quick(self) -> Loaded | None:
        """The fast path's answer.  What it makes is the ruleset's modules and decoders,
        which live until the process ends, the game's state, which lives until the
        command ends, and states and records freed by their reference counts: the
        cyclic collector only walked them (about 0.5 ms of `trv show`)."""
        from trvendetta.store.quick import QuickReader

        reader = QuickReader.open(self.db)
        if reader is None:
            return None
        with reader:
            name = self.game_option or reader.latest()
            return reader.load(name) if name else None  # a read writes nothing: never "database is locked"

    def load(self, at: int | None = None) -> Loaded:
        """The game (at event ``at``).  Nothing is written: a command that
        plays makes the game current by its own save (the index row's stamp)."""
        return self.store().load(self.game_id(), at=at)


pass_session = click.make_pass_decorator(Session)


def after_option(func: Callable) -> Callable:
    """``--after N``: do the command only while the game is at event N (what `trv show` printed), so a retry
    of a command that did land (a kill just after its commit) is refused, never done twice."""
    return click.option(
        "--after", "seen_at", type=click.IntRange(min=0), metavar="N",
        help="Refuse unless the game is still after event N (as `trv show` printed): a retry never acts twice.",
    )(func)


def json_option(func: Callable) -> Callable:
    """The one shared output option: ``--json`` prints machine-readable JSON instead."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print JSON (a stable format for scripts) instead of text."
    )(func)


def _set_game(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        ctx.ensure_object(Session).game_option = value


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The shell's completion of a game id (``args.complete_game``, imported when completing)."""
    from . import args

    return args.complete_game(ctx, param, incomplete)


def game_option(func: Callable) -> Callable:
    """``--game ID`` after the command name too (``trv show --game duel``)."""
    return click.option(
        "--game", "game_flag", metavar="ID", expose_value=False, callback=_set_game, shell_complete=complete_game,
        help="The game to use (as the global --game).",
    )(func)


def echo_json(obj: Any) -> None:
    """Print ``obj`` as JSON (msgspec: structs, msgspec.Raw and builtins)."""
    click.echo(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode())


def use_color() -> bool:
    """Colour only on a terminal, and never with $NO_COLOR set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def legal_names(ruleset: Any, state: Any) -> list[str]:
    return [ruleset.describe_action(a) for a in ruleset.legal_actions(state)]


def seen(session: Session, game: Any) -> Any:
    """``game``'s state as the local identity may see it (``trv show``, ``legal``): in a signed game
    of a ruleset with hidden pieces, those of the seats bound to your keys face up (a host game's
    favors opened from the boxes sealed to your keys), nobody else's; a hot-seat game shows the
    player to act's (the one at the keyboard)."""
    ruleset = game.ruleset
    if not game.charter or not getattr(ruleset, "hidden_information", False):
        return game.state
    from trvendetta.app.sealing import local_view
    from trvendetta.core.fairplay import charter_of

    from .identity import Keyring

    keyring = Keyring(dict(charter_of(game.charter).seats))
    openings, _ = local_view(session.store(), game, keyring)
    return ruleset.private_view(game.state, openings, sorted(keyring.local))


def service(session: Session) -> Any:
    """The application layer over the session's store (every command that changes a game goes through it)."""
    from trvendetta.app import GameService

    return GameService(session.store())


def play(session: Session, actions: Callable[[Any, Any], Iterable[Any]], *, player: str | None = None,
         observe: Callable[[list[Any]], None] | None = None, quiet: bool = False, seen_at: int | None = None) -> Any:
    """Apply the actions through the application layer (``GameService.play``:
    one save, bot seats answering after them) and print what happened.

    ``actions(ruleset, state_getter)`` yields actions; it is handed a function
    returning the current state so it can look at each intermediate state.
    ``observe(events)``, when given, sees the events of each action as it is applied.
    ``quiet``: print nothing (the caller prints the returned ``Played``, as JSON say).
    ``seen_at`` (``--after N``): refuse (``NotAfter``) unless the game is still after event N.
    """
    def keyring(loaded: Any) -> Any:  # seats bound to keys: each action is signed by its seat (docs/fair-play.md)
        from .identity import keyring_for

        return keyring_for(loaded, player)

    from .exchange import ledger, secret_of  # an exchange game's dice: the player's secret, from $TRV_HOME

    played = service(session).play(session.game_id(), actions, player=player, keyring_for=keyring,
                                   observe=observe, secrets=secret_of, ledger=ledger(), seen_at=seen_at)
    if not quiet:
        print_played(played, sent=session.server is not None)
    return played


def print_played(played: Any, sent: bool = False, ended: Any = None) -> None:
    """A command's result: its events, each bot's action and events, what the game waits for.
    ``sent``: the command's records go to a club server by themselves (no `trv send` to say);
    ``ended``: the claim or resignation that ended the game (``app.outcome.Outcome``), said instead."""
    report(played.ruleset, played.events, first=played.first, state=played.state, bots=played.bots,
           waiting=not played.waits_for_dice and ended is None)  # else the note says whose dice it waits for
    if ended is not None:
        click.echo(ended.line())
    note = "\n".join(line for line in played.note.split("\n") if not (sent and "trv send" in line))
    if note:
        click.echo(note)


def played_json(played: Any, **extra: Any) -> dict:
    """A command's result as ``--json`` prints it: the game, its events after the command (each
    numbered, with its kind, its sentence and the engine event exactly as stored), each bot's
    action and events, what the game waits for, and the caller's ``extra`` fields."""
    ruleset, number = played.ruleset, played.first

    def rows(events: list[Any]) -> list[dict]:
        nonlocal number
        out = []
        for event in events:
            out.append({"n": number, "kind": ruleset.event_kind(event), "text": ruleset.describe(event),
                        "event": msgspec.Raw(ruleset.encode(event))})
            number += 1
        return out

    doc: dict[str, Any] = {"game": played.loaded.game, "ruleset": ruleset.name, "events": rows(played.events)}
    doc["bots"] = [{"player": m.player, "bot": m.bot, "action": msgspec.Raw(ruleset.encode(m.action)),
                    "events": rows(m.events)} for m in played.bots]
    doc["version"], doc["head"] = played.loaded.version, played.loaded.head
    doc.update(waiting_json(ruleset, played.state))
    if played.note:
        doc["note"] = played.note
    doc.update(extra)
    return doc


def waiting_json(ruleset: Any, state: Any) -> dict:
    """``pending`` (the decision: player, kind, prompt and its options by name) or ``over``/``winner``."""
    from trvendetta.app.decisions import pending_line

    if ruleset.is_over(state):
        return {"over": True, "winner": ruleset.winner(state), "pending": None,
                "waiting": pending_line(ruleset, state)}
    decision = ruleset.pending(state)
    pending = None if decision is None else {"player": decision.player, "kind": decision.kind,
                                             "prompt": decision.prompt, "legal": legal_names(ruleset, state)}
    return {"over": False, "pending": pending, "waiting": pending_line(ruleset, state)}


def report(ruleset: Any, events: list[Any], *, first: int, state: Any, bots: Sequence[Any] = (),
           waiting: bool = True) -> None:
    """Print the new events, numbered, then each bot's action and its events,
    then (``waiting``) what the game waits for."""
    number = first
    for event in events:
        click.echo(f"{number:>5}. {ruleset.describe(event)}")
        number += 1
    for move in bots:
        click.echo(f"       {move.player} (bot {move.bot}): {ruleset.describe_action(move.action)}")
        for event in move.events:
            click.echo(f"{number:>5}. {ruleset.describe(event)}")
            number += 1
    from trvendetta.app.decisions import pending_line  # here: `trv show` never loads the application layer

    if waiting:
        click.echo(pending_line(ruleset, state))
