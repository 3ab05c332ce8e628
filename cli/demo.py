"""`trv demo`: four built-in players (the search bot) play a whole game, a frame a turn."""

from __future__ import annotations

import os
import sys
import time

import click

from trvendetta.app.decisions import MAX_ACTIONS_PER_COMMAND
from trvendetta.store import MEMORY
from trvendetta.core.errors import TrvError
from trvendetta.core.rng import fresh_seed
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET

from .args import complete_ruleset, ruleset_arg, unknown
from .common import Session, pass_session, service, use_color

DEMO_PLAYERS = (("ann", "red", ""), ("bob", "blue", ""), ("cyd", "green", ""), ("dee", "yellow", ""))  # the ruleset's default crew


#: the pause after each frame on a terminal unless --delay says otherwise (none when piped)
TERMINAL_DELAY = 0.4
#: the seats' bots' chance: one stream a seat, apart from the dice (as `trv sim` keeps them)
BOT_STREAM = 1000


@click.command()
@click.option("--seed", type=int, help="Seed of the game and of the players' choices (default: random).")
@click.option("--ruleset", shell_complete=complete_ruleset, default=DEFAULT_RULESET, show_default=True,
              help="Which game to play.")
@click.option("--players", "count", type=click.IntRange(2, 4), default=4, show_default=True,
              help="How many built-in players.")
@click.option("--bot", "kind", default="search", show_default=True, metavar="KIND",
              help="How the players choose: search (the strongest: a tree search over the rules' chance), "
                   "front or greedy (each decision's best by the rules' heuristic: instant), or random.")
@click.option("--quiet", is_flag=True, help="Print only the final board and the result.")
@click.option("--frames/--no-frames", default=None,
              help="Draw the board after every turn [default: when stdout is a terminal].")
@click.option("--delay", type=click.FloatRange(min=0), default=None, metavar="S",
              help=f"Pause S seconds after each frame when stdout is a terminal, never when piped "
                   f"[default: {TERMINAL_DELAY}].")
@pass_session
def demo(session: Session, seed: int | None, ruleset: str, count: int, kind: str, quiet: bool,
         frames: bool | None, delay: float | None) -> None:
    """Watch built-in players play a whole game, turn by turn.

    The players are the search bot, the strongest there is (`trv sim --bot
    search`, docs/bots.md): a turn's thinking takes about a frame's pause
    and counts toward it, so the demo keeps its pace; piped there is no
    pause and a 4-player game takes about 15 seconds of CPU (--bot greedy:
    under one).  The same seed plays the same game.  On a
    terminal the board is drawn after every turn; piped, the game is printed
    one sentence an event, then the final board.  The game is kept in memory
    unless --db (or $TRV_DB) names a store, so a demo leaves nothing behind
    by default.

    \b
    Examples:
      trv demo
      trv demo --seed 7 --players 2
      trv demo --delay 0            # frames, no pause
      trv demo --bot greedy --no-frames
      trv --db demo.sqlite demo --seed 7 && trv --db demo.sqlite log
    """
    from trvendetta.bots import bot_names, get_bot
    from trvendetta.core.rng import Rng

    if kind not in bot_names():
        raise click.BadParameter(unknown("bot", kind, bot_names()), param_hint="--bot")
    seed = fresh_seed(os.urandom(16)) if seed is None else seed
    rules = ruleset_arg(ruleset)
    players = list(getattr(rules, "demo_players", DEMO_PLAYERS))[:count]
    bot = get_bot(kind)
    streams = {p[0]: Rng(seed, BOT_STREAM + i) for i, p in enumerate(players)}
    session.store(None if session.db_given else MEMORY)  # opened here: the service below plays on it
    games = service(session)
    loaded = games.new_game(rules, rules.default_position(players, seed), stem=f"demo-{seed}").loaded
    name, state, version = loaded.game, loaded.state, loaded.version
    terminal = _terminal()
    framed = (terminal if frames is None else frames) and not quiet
    wait = (TERMINAL_DELAY if delay is None else delay) if framed and terminal else 0.0
    say = (lambda text: None) if quiet else click.echo
    color = use_color()
    say(f"demo game {name}: {rules.name}, seed {seed}, players {', '.join(p[0] for p in players)} ({kind} bots)")
    for stored in games.events(name):
        say(f"{stored.number:>5}. {rules.describe(stored.event)}")
    picked: list[tuple[str, object]] = []

    def player(rs, current):
        """One action: the deciding player's bot's choice."""
        decision = rs.pending(current())
        if decision is None or not decision.options:
            raise TrvError(f"the game waits on nothing yet is not over (after event {version}): a ruleset bug")
        picked.append((decision.player, bot.choose(rs, current(), streams[decision.player], decision)))
        yield picked[-1][1]

    turn: list[str] = []
    shown = time.monotonic()  # when the last frame was drawn: the bots' thinking since counts toward the pause
    while not rules.is_over(state):
        played = games.play(name, player, after=loaded)  # the game as the last play saved it
        loaded = played.loaded
        who, action = picked[-1]
        turn.append(f"{who}: {rules.describe_action(action)}")
        ended = False
        for i, event in enumerate(played.events, start=played.first):
            turn.append(f"{i:>5}. {rules.describe(event)}")
            ended = ended or rules.event_kind(event) == "turn-ended"
        state, version = played.state, played.loaded.version
        if not framed:
            for line in turn:
                say(line)
            turn = []
        elif ended or rules.is_over(state):
            if wait:
                time.sleep(max(0.0, wait - (time.monotonic() - shown)))
            frame(rules, state, version, turn, color, clear=terminal)
            shown = time.monotonic()
            turn = []
        if len(picked) > 100 * MAX_ACTIONS_PER_COMMAND:
            raise TrvError(f"no winner after {len(picked)} actions; giving up")
    if not framed:
        click.echo(rules.render(state, color=color))
    click.echo(f"winner: {rules.winner(state) or 'nobody'}")
    click.echo(f"{version} events, {len(picked)} actions, seed {seed}")


def _terminal() -> bool:
    """Whether the demo draws for a person (frames and pauses by default) or into a pipe."""
    return sys.stdout.isatty()


def frame(rules, state, version: int, turn: list[str], color: bool, clear: bool) -> None:
    """One turn's frame: the board after it, then what the turn did (its last lines, so a frame
    fits a terminal)."""
    if clear:
        click.clear()
    click.echo(rules.render(state, color=color))
    shown = turn[-12:]
    if len(turn) > len(shown):
        click.echo(f"       ... {len(turn) - len(shown)} lines before (trv log after event {version} has all)")
    for line in shown:
        click.echo(line)
    click.echo("")


COMMANDS = [demo]
