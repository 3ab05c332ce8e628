"""`trv demo`: four built-in random players play a whole game."""

from __future__ import annotations

import os
import random
import sys
import time

import click

from trvendetta.app.decisions import MAX_ACTIONS_PER_COMMAND
from trvendetta.store import MEMORY
from trvendetta.core.errors import TrvError
from trvendetta.core.rng import fresh_seed

from .args import complete_ruleset, ruleset_arg
from .common import Session, pass_session, service, use_color

DEMO_PLAYERS = (("ann", "red", "cars"), ("bob", "blue", "cars"), ("cyd", "green", "cars"), ("dee", "yellow", "cars"))


@click.command()
@click.option("--seed", type=int, help="Seed of the game and of the players' choices (default: random).")
@click.option("--ruleset", shell_complete=complete_ruleset, default="vendetta", show_default=True, help="Which game to play.")
@click.option("--players", "count", type=click.IntRange(2, 4), default=4, show_default=True,
              help="How many built-in players.")
@click.option("--quiet", is_flag=True, help="Print only the final board and the result.")
@click.option("--delay", type=click.FloatRange(min=0), default=0.0, metavar="S",
              help="Pause S seconds after each action when stdout is a terminal (never when piped).")
@pass_session
def demo(session: Session, seed: int | None, ruleset: str, count: int, quiet: bool, delay: float) -> None:
    """Watch built-in random players play a whole game, turn by turn.

    Each player picks uniformly among the legal actions.  The game is kept in
    memory unless --db (or $TRV_DB) names a store, so a demo leaves nothing
    behind by default.

    \b
    Examples:
      trv demo
      trv demo --seed 7 --players 2
      trv demo --delay 0.3
      trv --db demo.sqlite demo --seed 7 && trv --db demo.sqlite log
    """
    seed = fresh_seed(os.urandom(16)) if seed is None else seed
    rules = ruleset_arg(ruleset)
    players = list(getattr(rules, "demo_players", DEMO_PLAYERS))[:count]
    chooser = random.Random(seed)
    session.store(None if session.db_given else MEMORY)  # opened here: the service below plays on it
    games = service(session)
    loaded = games.new_game(rules, rules.default_position(players, seed), stem=f"demo-{seed}").loaded
    name, state, version = loaded.game, loaded.state, loaded.version
    say = (lambda text: None) if quiet else click.echo
    wait = delay if delay and not quiet and sys.stdout.isatty() else 0.0
    say(f"demo game {name}: {rules.name}, seed {seed}, players {', '.join(p[0] for p in players)}")
    for stored in games.events(name):
        say(f"{stored.number:>5}. {rules.describe(stored.event)}")
    picked: list[tuple[str, object]] = []

    def random_player(rs, current):
        """One action: the deciding player's uniform pick among the legal ones."""
        options = rs.legal_actions(current())
        if not options:
            raise TrvError(f"the game waits on nothing yet is not over (after event {version}): a ruleset bug")
        picked.append((rs.pending(current()).player, chooser.choice(options)))
        yield picked[-1][1]

    while not rules.is_over(state):
        played = games.play(name, random_player, after=loaded)  # the game as the last play saved it
        loaded = played.loaded
        player, action = picked[-1]
        say(f"{player}: {rules.describe_action(action)}")
        for i, event in enumerate(played.events, start=played.first):
            say(f"{i:>5}. {rules.describe(event)}")
        state, version = played.state, played.loaded.version
        if wait:
            time.sleep(wait)
        if len(picked) > 100 * MAX_ACTIONS_PER_COMMAND:
            raise TrvError(f"no winner after {len(picked)} actions; giving up")
    click.echo(rules.render(state, color=use_color()))
    click.echo(f"winner: {rules.winner(state) or 'nobody'}")
    click.echo(f"{version} events, {len(picked)} actions, seed {seed}")


COMMANDS = [demo]
