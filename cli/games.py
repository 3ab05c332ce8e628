"""Creating and listing games: `trv new`, `trv games`."""

from __future__ import annotations

import os
import tomllib

import click
import msgspec

from trvendetta import rulesets
from trvendetta.core.errors import PositionError
from trvendetta.core.rng import fresh_seed

from .common import Session, echo_json, json_option, pass_session, report


def parse_player(text: str) -> tuple[str, str, str]:
    parts = text.split(":")
    if len(parts) == 2:
        parts.append("cars")
    if len(parts) != 3 or not all(parts):
        raise click.BadParameter(f"{text!r} is not NAME:COLOR:CREW (for example ann:red:cars)", param_hint="--player")
    return parts[0], parts[1], parts[2]


def read_position(path: str, ruleset_name: str, seed: int | None):
    """A position file (TOML) validated by its ruleset; PositionError names the field."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError("file", f"{path} is not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise PositionError("file", f"{path} is not UTF-8 text: {exc}") from None
    name = data.get("ruleset", ruleset_name)
    if not isinstance(name, str):
        raise PositionError("ruleset", f"{name!r} is not a ruleset name")
    ruleset = rulesets.get(name)
    if seed is not None:
        data["seed"] = seed
    elif "seed" not in data:
        data["seed"] = fresh_seed(os.urandom(16))
    try:
        return ruleset, ruleset.position_from_dict(data)
    except msgspec.ValidationError as exc:  # a ruleset that let msgspec's message through
        raise PositionError("file", str(exc)) from None


def next_game_id(store, ruleset_name: str) -> str:
    n = len(store.list_games()) + 1
    while store.exists(f"{ruleset_name}-{n}"):
        n += 1
    return f"{ruleset_name}-{n}"


@click.command()
@click.option("--player", "players", multiple=True, metavar="NAME:COLOR:CREW",
              help="A player, in turn order (repeat; CREW is 'cars' for now and may be left out).")
@click.option("--seed", type=int, help="Seed of every die roll and draw (default: drawn at random and recorded).")
@click.option("--name", "game_id", metavar="ID", help="The game's id (default RULESET-N).")
@click.option("--position", type=click.Path(exists=True, dir_okay=False),
              help="Start from a position file (TOML; see the README) instead of a fresh set-up.")
@click.option("--ruleset", default="vendetta", show_default=True, help="Which game to play.")
@pass_session
def new(session: Session, players: tuple[str, ...], seed: int | None, game_id: str | None,
        position: str | None, ruleset: str) -> None:
    """Create a game and print its id (it becomes the current game).

    \b
    Examples:
      trv new --player ann:red:cars --player bob:blue:cars
      trv new --player ann:red:cars --player bob:blue:cars --seed 7 --name duel
      trv new --position tests/positions/slam.toml
    """
    if position is not None:
        rules, pos = read_position(position, ruleset, seed)
        if players:
            raise click.UsageError("give the players in the position file or with --player, not both")
    else:
        if not players:
            raise click.UsageError("name the players: --player NAME:COLOR:CREW (at least two)")
        rules = rulesets.get(ruleset)
        triples = [parse_player(p) for p in players]
        pos = rules.default_position(triples, seed if seed is not None else fresh_seed(os.urandom(16)))
    if game_id is not None and not game_id.replace("-", "").replace("_", "").replace(".", "").isalnum():
        raise click.BadParameter(f"{game_id!r}: use letters, digits, '-', '_' and '.'", param_hint="--name")
    state, events = rules.new_game(pos)
    store = session.store()
    game = store.create_game(game_id or next_game_id(store, rules.name), rules.name, events)
    click.echo(game.game)
    click.echo(f"{rules.name} game, seed {rules.seed(state)}, {game.version} events")
    report(rules, [], first=game.version + 1, state=game.state)


@click.command(name="games")
@json_option
@pass_session
def games_(session: Session, as_json: bool) -> None:
    """List the games in the store, most recently used first.

    \b
    Examples:
      trv games
      trv games --json
    """
    found = session.store().list_games()
    if as_json:
        echo_json([g.to_dict() for g in found])
        return
    if not found:
        click.echo("no games yet; try `trv new --player ann:red:cars --player bob:blue:cars` or `trv demo`")
        return
    rows = [("ID", "RULESET", "PLAYERS", "ROUND", "STATUS", "LAST ACTIVITY")]
    for g in found:
        status = f"won by {g.winner}" if g.status == "over" and g.winner else g.status
        rows.append((g.id, g.ruleset, ",".join(g.players), "" if g.round is None else str(g.round),
                     status, g.last_used[:19].replace("T", " ")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


COMMANDS = [new, games_]
