"""Creating and listing games: `trv new`, `trv games`."""

from __future__ import annotations

import os
import tomllib

import click
import msgspec
from click.core import ParameterSource

from trvendetta import rulesets
from trvendetta.core.errors import PositionError, TrvError
from trvendetta.core.names import name_problem, seed_problem
from trvendetta.core.rng import fresh_seed
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET

from .args import unknown
from .args import (CrewsHelp, _check_names, complete_ruleset, parse_keys, parse_player, ruleset_arg, seats_position,
                   time_option, timed)
from .common import Session, echo_json, json_option, pass_session, played_json, print_played, service


def read_position(path: str, ruleset_name: str, seed: int | None, explicit: bool = False):
    """A position file (TOML) validated by its ruleset; PositionError names the field.

    The file's ``ruleset`` chooses the ruleset (``ruleset_name`` when it names none).  A
    ruleset the file names that no ruleset is, or one that differs from a ``--ruleset``
    given on the command line (``explicit``) that does not take its positions, is a usage
    error naming both and what is legal; nothing is read further."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError("file", f"{path} is not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise PositionError("file", f"{path} is not UTF-8 text: {exc}") from None
    except RecursionError:
        raise PositionError("file", f"{path} is nested too deeply") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise PositionError("file", f"{path}: {exc}".split("; use sys.")[0]) from None
    except OSError as exc:
        raise PositionError("file", f"cannot read {path}: {exc.strerror or exc}") from None
    name = data.get("ruleset", ruleset_name)
    if not isinstance(name, str):
        raise PositionError("ruleset", f"{name!r} is not a ruleset name")
    if name not in rulesets.names() and name not in rulesets.installed():
        raise click.BadParameter(f"{path}: {unknown('ruleset', name, rulesets.names())} (the file's "
                                 "ruleset field)", param_hint="--position")
    ruleset = ruleset_arg(name, "--position")  # an installed plug-in that does not load: its own message
    if seed is not None:
        data["seed"] = seed
    elif "seed" not in data:
        data["seed"] = fresh_seed(os.urandom(16))
    if explicit and ruleset_name != name:
        asked = ruleset_arg(ruleset_name)
        try:  # a ruleset built on the file's may take its positions (as a plug-in on Vendetta's rules)
            return asked, _position(asked, data)
        except PositionError as exc:
            if exc.field != "ruleset":
                _position(ruleset, data)  # the file's own fault, if its own ruleset refuses it too
        raise click.UsageError(f"--ruleset {ruleset_name}, but {path} is a position of {name} (its ruleset "
                               f"field), which {ruleset_name} does not play: leave --ruleset out (the file "
                               f"chooses {name}), give --ruleset {name}, or change the file's ruleset")
    return ruleset, _position(ruleset, data)


def _position(ruleset, data: dict):
    try:
        return ruleset.position_from_dict(data)
    except msgspec.ValidationError as exc:  # a ruleset that let msgspec's message through
        raise PositionError("file", str(exc)) from None


def parse_bot(text: str) -> tuple[str, str, str, str]:
    """``KIND:COLOR:CREW[:NAME]`` -> (name, color, crew, kind); NAME defaults to KIND-COLOR.  CREW
    may be empty (``greedy:red:``, ``greedy:red::max``: a seat of a ruleset with no crews), which
    is the ruleset's default crew, as a ``--player`` with no CREW is."""
    from trvendetta.bots import bot_names

    parts = text.split(":")
    if len(parts) not in (3, 4) or not all(p for i, p in enumerate(parts) if i != 2):
        raise click.BadParameter(f"{text!r} is not KIND:COLOR:CREW or KIND:COLOR:CREW:NAME "
                                 "(for example greedy:blue:cars)", param_hint="--bot")
    kind, color = parts[:2]
    crew = parts[2]  # empty: the ruleset's default crew
    if kind not in bot_names():
        raise click.BadParameter(f"{text!r}: no bot called {kind!r}; bots: {', '.join(bot_names())}",
                                 param_hint="--bot")
    name = parts[3] if len(parts) == 4 else f"{kind}-{color}"
    _check_names(text, {"COLOR": color, "NAME": name}, "--bot")
    from trvendetta.bots import seat_name_problem

    reserved = seat_name_problem(name)
    if reserved is not None:
        raise click.BadParameter(f"{text!r}: {reserved}", param_hint="--bot")
    return name, color, crew, kind


class SeatOrder(click.Command):
    """Remembers the order in which --player and --bot were given (the turn order),
    and takes the set-up choices every registered ruleset declares
    (``Ruleset.setup_choices``, helped by ``setup_help``): ``--start-tile``,
    ``--side`` and any other ruleset's, built when the command runs."""

    def setup_params(self) -> list[click.Option]:
        merged: dict[str, tuple[list[str], list[str]]] = {}
        for rs in rulesets.every():
            for key, legal in rs.setup_choices.items():
                values, helps = merged.setdefault(key, ([], []))
                values += [v for v in legal if v not in values]
                helps.append(rs.setup_help.get(key, f"{rs.name}: a set-up choice"))
        return [click.Option(["--" + key.replace("_", "-"), key], metavar="|".join(values), help=" ".join(helps))
                for key, (values, helps) in merged.items()]

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        help_option = self.get_help_option(ctx)
        head = [p for p in params if p is not help_option]
        return head + self.setup_params() + ([help_option] if help_option is not None else [])

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            ctx.meta["trv_seats"] = [p.name for p in order if p.name in ("players", "bots")]
        except click.UsageError:
            pass  # the real parse below reports it
        return super().parse_args(ctx, args)


@click.command(cls=SeatOrder)
@click.option("--player", "players", multiple=True, metavar="NAME:COLOR:CREW", cls=CrewsHelp,
              help="A player, in turn order (repeat; CREW is one of the ruleset's crews, default cars).")
@click.option("--bot", "bots", multiple=True, metavar="KIND:COLOR:CREW[:NAME]",
              help="A seat played by a bot, in turn order with the --player seats (repeat). KIND is "
                   "random, greedy, front or search; the seat is called KIND-COLOR unless NAME is given.")
@click.option("--seed", type=int, help="Seed of every die roll and draw (default: drawn at random and recorded).")
@click.option("--name", "game_id", metavar="ID", help="The game's id (default RULESET-N).")
@click.option("--position", type=click.Path(exists=True, dir_okay=False),
              help="Start from a position file (TOML; see the README) instead of a fresh set-up.")
@click.option("--ruleset", shell_complete=complete_ruleset, default=DEFAULT_RULESET, show_default=True,
              help="Which game to play.")
@click.option("--key", "keys", multiple=True, metavar="SEAT=FINGERPRINT|FILE",
              help="Bind a seat to a player's public key (a file or the key `trv id show` prints, or the "
                   "fingerprint of a local identity): every action of that seat must then carry its signature.")
@click.option("--allow-shared-key", is_flag=True,
              help="Let one key sign for two seats (hot-seat testing only: `trv verify` says so and "
                   "tournaments refuse the game).")
@click.option("--invite", "invite_file", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="Create the exchange game of your invitation (`trv invite`), with every --join answer.")
@click.option("--join", "join_files", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="An invited player's answer (`trv join`); one per other seat.")
@time_option
@json_option
@pass_session
def new(session: Session, players: tuple[str, ...], bots: tuple[str, ...], seed: int | None,
        game_id: str | None, position: str | None, ruleset: str, keys: tuple[str, ...], allow_shared_key: bool,
        invite_file: str | None, join_files: tuple[str, ...], time: str | None, as_json: bool,
        **setup: str | None) -> None:
    """Create a game and print its id (it becomes the current game).

    Seats are taken in the order --player and --bot are given.  A bot seat
    answers its own decisions: after `trv new`, `turn`, `act`, `decide`,
    `undo` and `import`, every bot whose decision is pending plays at once,
    and the command prints what it did.  Bot actions are recorded like
    anyone's (so `trv verify` checks them); a game of bots only is played
    to the end by `trv new` itself.

    \b
    Examples:
      trv new --player ann:red:cars --player bob:blue:cars
      trv new --player ann:red:cars --player bob:blue:cars --seed 7 --name duel
      trv new --player ann:red:cars --bot greedy:blue:cars
      trv new --bot greedy:red:cars:max --bot random:blue:cars --seed 3
      trv new --player ann:red --player bob:blue --start-tile perdition
      trv new --ruleset carnival --side slaytona --player ann:red --player bob:blue
      trv new --position docs/examples/vendetta-slam.toml
      trv new --player ann:red:cars --player bob:blue:cars --key ann=ann.pub --key bob=bob.pub
      trv new --player ann:red --player bob:blue --key ann=ann --key bob=bob.pub --time 3d
      trv new --invite invite.json --join bob.json     # an exchange game (docs/fair-play.md)
    """
    if invite_file is not None:
        if players or bots or keys or seed is not None or position or time \
                or allow_shared_key or any(v is not None for v in setup.values()):
            raise click.UsageError("--invite takes the players, keys and time limit from the invitation; give only "
                                   "--join (and --name)")
        return new_exchange(session, invite_file, join_files, game_id, as_json)
    if join_files:
        raise click.UsageError("--join answers an invitation: give it with --invite FILE")
    if game_id is not None and (problem := name_problem(game_id)) is not None:
        raise click.BadParameter(problem, param_hint="--name")
    if seed is not None and (problem := seed_problem(seed)) is not None:
        raise click.BadParameter(problem, param_hint="--seed")
    seats: dict[str, str] = {}
    if position is not None:
        explicit = click.get_current_context().get_parameter_source("ruleset") != ParameterSource.DEFAULT
        rules, pos = read_position(position, ruleset, seed, explicit)
        if players or bots:
            raise click.UsageError("give the players in the position file or with --player/--bot, not both")
        for key, value in setup.items():
            if value is not None:
                raise click.UsageError(f"--{key.replace('_', '-')} is a choice of a new set-up; a position file "
                                       "gives the whole set-up itself")
    else:
        if not players and not bots:
            raise click.UsageError("name the players: --player NAME:COLOR:CREW or --bot KIND:COLOR:CREW "
                                   "(at least two seats)")
        rules = ruleset_arg(ruleset)
        humans = iter([parse_player(p) for p in players])
        robots = iter([parse_bot(b) for b in bots])
        order = click.get_current_context().meta.get("trv_seats") or (["players"] * len(players) +
                                                                      ["bots"] * len(bots))
        triples = []
        for which in order:
            if which == "players":
                triples.append(next(humans))
            else:
                name, color, crew, kind = next(robots)
                triples.append((name, color, crew))
                seats[name] = kind
        names = [t[0] for t in triples]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            if not bots:
                raise click.BadParameter(f"two players are called {', '.join(twice)}; give each --player "
                                         "its own NAME", param_hint="--player")
            raise click.BadParameter(f"two seats are called {', '.join(twice)}; give each --player its own NAME, "
                                     "and a bot one with --bot KIND:COLOR:CREW:NAME", param_hint="--player/--bot")
        choices = {key: _setup_choice(rules, key, value) for key, value in setup.items() if value is not None}
        given = {which: list(players if which == "players" else bots) for which in ("players", "bots")}
        texts = [given[which].pop(0) for which in order]
        options = ["--player" if which == "players" else "--bot" for which in order]
        pos = seats_position(rules, triples, texts, options,
                             seed if seed is not None else fresh_seed(os.urandom(16)), **choices)
        _same_initials(rules, triples, texts)
    from . import entropy

    # a random nonce: no other game has this one's id, whatever its seed, seats and keys
    charter = parse_keys(keys, [s.name for s in rules.seats(rules.new_game(pos)[0])], seats,
                         nonce=entropy.random_bytes(32).hex(), allow_shared=allow_shared_key) if keys else ""
    charter = timed(charter, time)
    played = service(session).new_game(rules, pos, game_id, bots=seats, charter=charter)
    if as_json:
        from trvendetta.core.fairplay import charter_of

        bound = dict(charter_of(charter).seats) if charter else {}
        echo_json(played_json(played, seed=rules.seed(played.state), setup_events=played.first - 1, bot_seats=seats,
                               keys=bound))
        return
    click.echo(played.loaded.game)
    bot_note = f", bots {', '.join(f'{n} ({k})' for n, k in seats.items())}" if seats else ""
    click.echo(f"{rules.name} game, seed {rules.seed(played.state)}, {played.first - 1} events{bot_note}")
    if charter:
        from .identity import fingerprint
        from trvendetta.core.fairplay import charter_of

        parsed = charter_of(charter)
        click.echo("seats bound to keys: " + ", ".join(f"{s} ({fingerprint(k)})" for s, k in parsed.seats.items()))
        time_line(parsed)
        from trvendetta.replays.charters import shared_key_line

        shared = shared_key_line(charter)
        if shared:
            click.echo(f"shared key: {shared}; `trv verify` says so and tournaments refuse this game")
    print_played(played)


def _same_initials(rules, triples: list, texts: list[str]) -> None:
    """Two colours drawn with the same letter (purple and pink: P) would make two players
    look alike on the board; the second is refused, naming the colours still free."""
    seen: dict[str, str] = {}
    for (_, color, _), text in zip(triples, texts):
        first = seen.setdefault(color[:1].upper(), color)
        if first != color:
            free = [c for c in rules.colors() if c[:1].upper() not in seen]
            raise click.BadParameter(f"{text!r}: {color} and {first} are both drawn {color[:1].upper()} on the "
                                     f"board; choose another colour ({', '.join(free)})", param_hint="--player/--bot")


def time_line(charter) -> None:
    """"time limit: 3d an answer (...)" for a game with a time control."""
    if charter is not None and charter.time:
        from trvendetta.app.clock import parse_time_control

        click.echo(f"time limit: {parse_time_control(charter.time).describe()}, by each store's clock; past it "
                   "the waiting player may claim the game (trv claim)")


def _setup_choice(rules, key: str, value: str) -> str:
    """A set-up choice the ruleset offers (``setup_choices``), or a usage error naming what is legal."""
    flag = "--" + key.replace("_", "-")
    legal = rules.setup_choices.get(key)
    if legal is None:
        raise click.UsageError(f"{flag} is not a set-up choice of the {rules.name} ruleset")
    if value not in legal:
        raise click.BadParameter(f"{value!r}; choose {' or '.join(legal)}", param_hint=flag)
    return value


def new_exchange(session: Session, invite_file: str, join_files: tuple[str, ...], game_id: str | None,
                 as_json: bool = False) -> None:
    """``trv new --invite``: the set-up's chance comes from every player's first reveal."""
    from .exchange import charter_from_invite
    from .identity import fingerprint
    from trvendetta.core.fairplay import charter_of
    from trvendetta.store import decode_charter

    from .exchange import ledger

    inv, charter, rng = charter_from_invite(invite_file, join_files)
    rules = rulesets.get(inv.ruleset)
    pos = rules.default_position(list(inv.players), 0)
    name = game_id or inv.game
    if (problem := name_problem(name)) is not None:
        raise click.BadParameter(problem, param_hint="--name")
    with ledger().locked(inv.commit):  # two `trv new --invite` of one invitation at once make one game too
        made = ledger().bound(inv.commit)
        if made is not None:  # one game per secret: a second would be a copy, or another choice of answers
            raise TrvError(f"{invite_file}: you created game {made['bind']} from this invitation already "
                           f"({made['id'][:16]}...); your secret serves that game only")
        played = service(session).new_game(rules, pos, name, charter=charter, rng=rng)
        game = played.loaded
        ledger().bind(inv.commit, game.game, service(session).store.events_head(game.game, 1))
    bound = charter_of(charter).seats
    if as_json:
        echo_json(played_json(played, exchange=True, keys=dict(bound),
                              send=[s for s in bound if s != inv.creator]))
        return
    click.echo(game.game)
    click.echo(f"{rules.name} exchange game, {played.first - 1} events: the dice come from every player's reveals")
    click.echo("seats bound to keys: " + ", ".join(f"{s} ({fingerprint(k)})" for s, k in bound.items()))
    time_line(decode_charter(charter))
    others = ", ".join(s for s in bound if s != inv.creator)
    click.echo(f"send the record to {others}: trv send {game.game}")
    print_played(played)


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
    if session.missing() and (session.location().kind == "postgresql" or
                              not os.path.isdir(os.path.dirname(os.path.abspath(session.location().target)))):
        session.store()  # a folder that is not there (a typo), a schema without a store: says "no game store
        # at ..." and creates nothing
    damaged: list[Exception] = []  # index rows that do not read: the others are listed, these named after
    found = [] if session.missing() else session.store().list_games(damaged)  # (never creates the store)
    clocks = {g.id: _clock(session.store(), g) for g in found}
    if as_json:
        docs = []
        for g in found:
            doc = g.to_dict()
            ended, waits = clocks[g.id]
            if ended is not None:
                doc["ended"] = {"loser": ended.loser, "how": ended.how, "event": ended.number}
            if waits is not None:
                doc["clock"] = waits.to_dict()
            docs.append(doc)
        echo_json(docs)
        _name_damaged(damaged)
        return
    if not found and not damaged:
        click.echo("no games yet; try `trv new --player ann:red:cars --player bob:blue:cars` or `trv demo`")
        return
    rows: list[tuple[str, ...]] = [("ID", "RULESET", "PLAYERS", "ROUND", "STATUS", "LAST ACTIVITY", "TO ANSWER")]
    timed = any(w is not None for _, w in clocks.values())  # the last column only where a game is signed
    for g in found:
        status = f"won by {g.winner}" if g.status == "over" and g.winner else g.status
        ended, waits = clocks[g.id]
        if ended is not None:
            status = f"{ended.loser} lost on time" if ended.how == "time" else f"{ended.loser} resigned"
        rows.append((g.id, g.ruleset, ",".join(g.players), "" if g.round is None else str(g.round),
                     status, g.last_used[:19].replace("T", " "), _answer(waits)))
    if not timed:
        rows = [r[:-1] for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    _name_damaged(damaged)


def _name_damaged(damaged: list[Exception]) -> None:
    """The games whose index rows do not read, one line each on stderr, and exit 1 (the others were listed)."""
    if damaged:
        for exc in damaged:
            click.echo(f"Error: {exc}", err=True)
        raise SystemExit(1)


def _clock(store, info) -> tuple:
    """A playing game's claim or resignation, else (signed) whose answer it waits for and until when."""
    if info.status != "playing":
        return None, None
    if not store.header(info.id).charter:  # a hot-seat game: no claim, no resignation, no time limit
        return None, None
    from trvendetta.app.outcome import outcome_of

    ended = outcome_of(store, info.id)
    if ended is not None:
        return ended, None
    from trvendetta.app.clock import waiting

    clock = waiting(store, info.id)  # (only a game with a time control has a deadline to show)
    return None, clock if clock is not None and clock.control is not None else None


def _answer(waits) -> str:
    """"bob since 12-01 20:30, by 12-04 20:30" (times UTC)."""
    if waits is None:
        return ""
    text = f"{waits.seat} since {waits.since:%m-%d %H:%M}"
    return text + (f", by {waits.deadline:%m-%d %H:%M} UTC" if waits.deadline else " UTC")


COMMANDS = [new, games_]


def _colours_epilog() -> str:
    """The colours each ruleset takes, for `trv new --help`."""
    from trvendetta import rulesets

    lines = [f"{rs.name}: {', '.join(rs.colors()) or 'any name'}" for rs in rulesets.every()]
    return "\b\nColours (a colour may be taken by one player only):\n  " + "\n  ".join(lines)


new.epilog = _colours_epilog()
