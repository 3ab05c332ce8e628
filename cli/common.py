"""What every command shares: the store and game in the context, --json, errors, output."""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import click
import msgspec

from trvendetta.store import Loaded, default_db_path, location
from trvendetta.core.errors import RuleViolation, TrvError

#: give up on a turn or a demo that does not end (a ruleset bug, not the user's)
MAX_ACTIONS_PER_COMMAND = 10_000
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
            if isinstance(exc, sqlite3.Error) or is_persistence_error(exc):
                raise click.ClickException(f"game store: {exc}") from None
            raise


def is_persistence_error(exc: BaseException) -> bool:
    """An eventsourcing PersistenceError (without importing eventsourcing when no store was opened)."""
    persistence = sys.modules.get("eventsourcing.persistence")
    return persistence is not None and isinstance(exc, persistence.PersistenceError)


class Session:
    """The command's view of the store: opened on first use, closed when the command ends."""

    def __init__(self, ctx: click.Context, db: str | None, game: str | None):
        self.ctx = ctx
        self.db_given = db is not None
        self.db = db if db is not None else str(default_db_path())
        self.game_option = game
        self._store: Any = None

    def store(self, db: str | None = None) -> Any:
        """The GameStore (imported here: a read-only command may never need it)."""
        if self._store is None:
            from trvendetta.store import GameStore

            path = db or self.db
            try:
                store = GameStore(path)
            except Exception as exc:
                if isinstance(exc, (OSError, sqlite3.Error)) or is_persistence_error(exc):
                    raise click.ClickException(f"cannot open the game store {path}: {exc}") from None
                raise
            self._store = self.ctx.with_resource(store)
        return self._store

    def game_id(self) -> str:
        """--game, else $TRV_GAME, else the most recently created or used game."""
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
        if self._store is None and location.parse(self.db).kind == "sqlite":
            from trvendetta.store.quick import QuickReader

            reader = QuickReader.open(self.db)
            if reader is not None:
                with reader:
                    name = self.game_option or reader.latest()
                    loaded = reader.load(name) if name else None
                    if loaded is not None:
                        reader.touch(loaded.game)
                        return loaded
        return self.load()

    def load(self, at: int | None = None) -> Loaded:
        """The game (at event ``at``); looking at the latest makes it the current game."""
        game = self.store().load(self.game_id(), at=at)
        if at is None:
            self.store().touch(game.game)
        return game


pass_session = click.make_pass_decorator(Session)


def json_option(func: Callable) -> Callable:
    """The one shared output option: ``--json`` prints machine-readable JSON instead."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print JSON (a stable format for scripts) instead of text."
    )(func)


def _set_game(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        ctx.ensure_object(Session).game_option = value


def game_option(func: Callable) -> Callable:
    """``--game ID`` after the command name too (``trv show --game duel``)."""
    return click.option(
        "--game", "game_flag", metavar="ID", expose_value=False, callback=_set_game,
        help="The game to use (as the global --game).",
    )(func)


def echo_json(obj: Any) -> None:
    """Print ``obj`` as JSON (msgspec: structs, msgspec.Raw and builtins)."""
    click.echo(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode())


def use_color() -> bool:
    """Colour only on a terminal, and never with $NO_COLOR set."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def pending_line(ruleset: Any, state: Any) -> str:
    """What the game waits for now (or how it ended)."""
    if ruleset.is_over(state):
        winner = ruleset.winner(state)
        return f"game over: {winner} wins" if winner else "game over: no winner"
    decision = ruleset.pending(state)
    if decision is None:
        return "no decision pending"
    text = f"waiting on {decision.player}: {decision.kind}"
    if decision.prompt:
        text += f" ({decision.prompt})"
    return text


def legal_names(ruleset: Any, state: Any) -> list[str]:
    return [ruleset.describe_action(a) for a in ruleset.legal_actions(state)]


def check_player(ruleset: Any, state: Any, player: str | None) -> None:
    """``--as PLAYER``: refuse to act for someone whose decision it is not."""
    if player is None:
        return
    decision = ruleset.pending(state)
    if decision is None:
        raise RuleViolation("game over", "the game is over; no action is legal")
    if decision.player != player:
        raise RuleViolation(
            "wrong player",
            f"it is {decision.player}'s decision ({decision.kind}), not {player}'s",
        )


def play(session: Session, actions: Callable[[Any, Any], Iterable[Any]], *, player: str | None = None,
         observe: Callable[[list[Any]], None] | None = None) -> None:
    """Load the game, apply the actions one after another, let the bot seats
    answer their decisions after them, and append all of it (each action
    recorded with the events it produced) in one save.

    ``actions(ruleset, state_getter)`` yields actions; it is handed a function
    returning the current state so it can look at each intermediate state.
    A RuleViolation anywhere stops the command with nothing appended.
    ``observe(events)``, when given, sees the events of each action as it is applied.
    """
    store = session.store()
    game = session.load()
    ruleset, state = game.ruleset, game.state
    if ruleset.is_over(state):
        raise RuleViolation("game over", f"{pending_line(ruleset, state)}; no action is legal")
    check_player(ruleset, state, player)
    keyring = None
    if game.charter:  # seats bound to keys: every action is signed by its seat (docs/fair-play.md)
        from .identity import keyring_for

        keyring = keyring_for(game, player)
    draws = None
    if keyring is not None and '"exchange"' in game.charter:  # dice from the players' reveals
        from .exchange import ExchangeTurn

        draws = ExchangeTurn(store, game, keyring)
    steps: list[tuple[Any, ...]] = []
    seats: list[str | None] = []
    current = [state]
    for n, action in enumerate(actions(ruleset, lambda: current[0])):
        if n >= MAX_ACTIONS_PER_COMMAND:
            raise TrvError(f"more than {MAX_ACTIONS_PER_COMMAND} actions in one command; giving up")
        if keyring is not None:
            decision = ruleset.pending(current[0])
            seat = decision.player if decision else None
            refusal = keyring.refusal(seat)
            if refusal:
                raise TrvError(refusal)
            seats.append(seat)
        if draws is not None:
            applied = draws.apply(ruleset, current[0], action, seat)
            if applied is None:  # it needs dice: recorded as an intent; the rest waits for the reveals
                seats.pop()
                break
            current[0], events = applied
        else:
            current[0], events = ruleset.apply(current[0], action)
        steps.append((action, events))
        if observe is not None:
            observe(events)
    human = [e for _, events in steps for e in events]
    count = game.version + len(human)
    state, moves = bot_moves(ruleset, current[0], game.bots or {}, count)
    steps.extend((m.action, m.events) for m in moves)
    records: list[Any] = []
    if draws is not None and draws.intent is not None:
        steps, records = draws.finish(steps, seats)
    elif keyring is not None:
        from .identity import sign_runs

        steps = sign_runs(store, game, keyring, steps, seats + [m.player for m in moves])
    saved = store.append(game.game, game.version, steps=steps, records=records)
    report(ruleset, human, first=game.version + 1, state=saved.state, bots=moves)
    if draws is not None and draws.intent is not None:
        click.echo(draws.note(game.version, saved.version))


class BotMove(NamedTuple):
    """One action a bot seat took: who, which bot, what, and the events it produced."""

    player: str
    bot: str
    action: Any
    events: list[Any]


#: a bot-only game that has not ended after this many bot actions is a ruleset bug
MAX_BOT_ACTIONS = 100 * MAX_ACTIONS_PER_COMMAND


def bot_rng(ruleset: Any, state: Any, count: int) -> Any:
    """The bot's chance for the decision taken after ``count`` stored records:
    the game seed and the record count, on a stream the engine never uses
    (negative), so a bot's picks are independent of the dice yet reproducible."""
    from trvendetta.core.rng import Rng

    return Rng(int(ruleset.seed(state)), -1 - count)


def bot_moves(ruleset: Any, state: Any, bots: dict[str, str], count: int) -> tuple[Any, list[BotMove]]:
    """Let the bot seats answer every pending decision that is theirs, in turn,
    from ``state`` (after ``count`` stored records).  Returns the state after
    them and what each did; nothing is stored here."""
    if not bots:
        return state, []
    from trvendetta.bots import get_bot

    agents: dict[str, Any] = {}
    moves: list[BotMove] = []
    while not ruleset.is_over(state):
        decision = ruleset.pending(state)
        if decision is None or decision.player not in bots:
            break
        if len(moves) >= MAX_BOT_ACTIONS:
            raise TrvError(f"the bots took {MAX_BOT_ACTIONS} actions and the game is not over; giving up")
        kind = bots[decision.player]
        agent = agents.get(kind) or agents.setdefault(kind, get_bot(kind))
        action = agent.choose(ruleset, state, bot_rng(ruleset, state, count), decision)
        state, events = ruleset.apply(state, action)
        moves.append(BotMove(decision.player, kind, action, events))
        count += len(events)
    return state, moves


def run_bots(store: Any, name: str) -> None:
    """After a command already saved (undo, import): let the bots answer
    their decisions, in one more save, and print what they did and what the
    game waits for."""
    loaded = store.load(name)
    state, moves = bot_moves(loaded.ruleset, loaded.state, loaded.bots or {}, loaded.version)
    if moves:
        loaded = store.append(name, loaded.version, steps=[(m.action, m.events) for m in moves])
    report(loaded.ruleset, [], first=loaded.version + 1 - sum(len(m.events) for m in moves),
           state=loaded.state, bots=moves)


def report(ruleset: Any, events: list[Any], *, first: int, state: Any, bots: Sequence[BotMove] = ()) -> None:
    """Print the new events, numbered, then each bot's action and its events,
    then what the game waits for."""
    number = first
    for event in events:
        click.echo(f"{number:>5}. {ruleset.describe(event)}")
        number += 1
    for move in bots:
        click.echo(f"       {move.player} (bot {move.bot}): {ruleset.describe_action(move.action)}")
        for event in move.events:
            click.echo(f"{number:>5}. {ruleset.describe(event)}")
            number += 1
    click.echo(pending_line(ruleset, state))
