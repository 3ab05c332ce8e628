"""`trv tournament ...`: run a tournament from the CLI (thin: parse, call, print).

Every command that writes goes through the application layer
(``trvendetta.app.tournament.TournamentService``: the log, the read model,
a round's games, results from verified records); pairing, places and
standings are pure (``trvendetta.tournament``).  See docs/tournament.md.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any

import click

from trvendetta import rulesets
from trvendetta.core.errors import TrvError
from trvendetta.core.rng import fresh_seed
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET
from trvendetta.tournament import model

from .args import complete_ruleset, ruleset_arg
from .common import Session, echo_json, json_option, pass_session


def _svc(session: Session) -> Any:
    """The tournaments' application service over the session's store (imported on first use)."""
    from trvendetta.app.tournament import TournamentService

    return TournamentService(session.store())


def _pod(text: str) -> tuple[int, int]:
    parts = text.split("-")
    try:
        lo, hi = (int(parts[0]), int(parts[-1])) if len(parts) in (1, 2) else (0, 0)
    except ValueError:
        lo = hi = 0
    if not lo:
        raise click.BadParameter(f"{text!r} is not a table size or range such as 3-4", param_hint="--pod-size")
    return lo, hi


def _scoring(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not points per place such as 4,2,1,0", param_hint="--scoring") from None


def _round_of(state: model.State, given: int | None) -> int:
    from trvendetta.app.tournament import round_of

    return round_of(state, given)


@click.group(name="tournament")
def tournament() -> None:
    """Run a tournament: players, pods, pairings, results from verified
    game records, standings with tie-breaks, ratings, one export file.

    \b
    Examples:
      trv tournament new spring --rounds 4 --pod-size 3-4
      trv tournament register spring ann bob cyd dee eve fay gus hal
      trv tournament pair spring
      trv tournament start spring --bots random
      trv tournament report spring --table 1
      trv tournament standings spring
      trv tournament export spring -o spring.trvt && trv tournament verify spring.trvt
    """


@tournament.command(name="new")
@click.argument("name")
@click.option("--ruleset", shell_complete=complete_ruleset, default=DEFAULT_RULESET, show_default=True,
              help="The game every table plays.")
@click.option("--rounds", type=click.IntRange(1, 99), required=True, help="How many rounds.")
@click.option("--pod-size", "pod", default="3-4", show_default=True, metavar="MIN-MAX",
              help="Players per table (2 to 4); tables are as even as the count allows.")
@click.option("--scoring", default="4,2,1,0", show_default=True, metavar="P1,P2,...",
              help="Points for 1st, 2nd, ... place (a tie shares the better place's points).")
@click.option("--seed", type=int, help="Seed of every pairing and of the games' dice (default: drawn and recorded).")
@click.option("--as", "ident", metavar="IDENTITY", help="The organiser's identity, whose signed rulings on claims "
                                                          "count (trv id; default: your only one).")
@pass_session
def new(session: Session, name: str, ruleset: str, rounds: int, pod: str, scoring: str, seed: int | None,
        ident: str | None) -> None:
    """Create a tournament (an append-only log in the game store).  Its organiser's
    public key (--as, or your only identity) is fixed in it: only that key's
    signed rulings on claims on time count (trv tournament rule).

    \b
    Examples:
      trv tournament new spring --rounds 4
      trv tournament new duel-cup --ruleset classic --rounds 3 --pod-size 2 --scoring 1,0 --seed 9
    """
    rules = ruleset_arg(ruleset)
    lo, hi = _pod(pod)
    from .identity import identities

    ids = identities()
    mine = [i for i in ids if ident in (None, i.name, i.fingerprint)]
    if ident is not None and len(mine) != 1:
        raise TrvError(f"--as {ident}: no identity of yours has this name or fingerprint (trv id); nothing was "
                       "created")
    if ident is None and len(mine) > 1:
        raise TrvError(f"say which of your identities organises {name} (its rulings on claims count): --as "
                       f"IDENTITY (yours: {', '.join(sorted(i.name for i in mine))}); nothing was created")
    seed = fresh_seed(os.urandom(16)) if seed is None else seed
    _svc(session).new(name, rules, rounds, (lo, hi), _scoring(scoring), seed, mine[0].public if mine else "")
    click.echo(f"tournament {name}: {rules.name}, {rounds} round{'' if rounds == 1 else 's'}, tables of {lo}-{hi}, "
               f"scoring {scoring}, seed {seed}")
    click.echo(f"organiser: {mine[0].fingerprint} ({mine[0].name}): only its signed rulings count" if mine else
               "no organiser key (you have no identity: trv id new NAME): no ruling on a claim can count in it")


@tournament.command(name="register")
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@click.option("--key", "keys", multiple=True, metavar="PLAYER=FINGERPRINT|FILE",
              help="Bind a player's seats to their public key (a file or the key `trv id show` prints, or a "
                   "local identity; docs/fair-play.md): their games are then signed by them, and a result "
                   "counts only from a record they signed.")
@pass_session
def register(session: Session, name: str, players: tuple[str, ...], keys: tuple[str, ...]) -> None:
    """Enter players; after round 1 is paired this is a late entry, paired from the next round.

    \b
    Examples:
      trv tournament register spring ann bob cyd dee eve fay
      trv tournament register spring gus --key gus=gus.pub     (gus's games must be signed by gus)
    """
    bound: dict[str, str] = {}
    for k in keys:
        player, sep, key = k.partition("=")
        if not sep or not key or player not in players:
            raise click.BadParameter(f"{k!r} is not PLAYER=KEY for a player being registered", param_hint="--key")
        from .identity import resolve_key

        bound[player] = resolve_key(player, key)
    r = _svc(session).register(name, players, bound).from_round
    late = f" (late entry: paired from round {r})" if r > 1 else ""
    click.echo(f"registered {', '.join(players)} in {name}{late}")


@tournament.command(name="drop")
@click.argument("name")
@click.argument("player")
@click.option("--by", "by", required=True, metavar="WHO", help="Who declared it (the player, or the organiser).")
@pass_session
def drop(session: Session, name: str, player: str, by: str) -> None:
    """Drop a player: not paired from the next round on (a table already
    paired still needs a result: report it, or `concede` / `no-show`).

    \b
    Examples:
      trv tournament drop spring eve --by eve
      trv tournament drop spring fay --by organiser
    """
    event = _svc(session).drop(name, player, by)
    click.echo(f"{player} dropped from {name} (from round {event.from_round}; declared by {by})")


@tournament.command(name="pair")
@click.argument("name")
@json_option
@pass_session
def pair(session: Session, name: str, as_json: bool) -> None:
    """Seat every active player at tables for the next round, with a reason per table.

    Tables are as even as the count allows, repeat opponents are avoided where
    the search finds a way, and seat order rotates so the first seat goes
    round.  Seeded by the tournament's seed: the same log pairs the same way.

    \b
    Examples:
      trv tournament pair spring
      trv tournament pair spring --json
    """
    event = _svc(session).pair(name)
    if as_json:
        echo_json(event)
        return
    click.echo(f"{name} round {event.round}:")
    for t in event.tables:
        click.echo(f"  table {t.table}: {', '.join(t.players)}")
        click.echo(f"      {t.reason}")


def round_bots(bot_help: str) -> Any:
    """NAME, ``--round R`` and ``--bot PLAYER=KIND`` of the commands that seat a round's games."""
    def decorate(func: Any) -> Any:
        func = click.option("--bot", "bots", multiple=True, metavar="PLAYER=KIND", help=bot_help)(func)
        func = click.option("--round", "round_", type=int, help="The round (default: the last paired).")(func)
        return click.argument("name")(func)
    return decorate


def _bot_kinds(r: Any, bots: tuple[str, ...], all_bots: str | None) -> dict[str, str]:
    """``--bot PLAYER=KIND`` and ``--bots KIND`` for the players of round ``r``."""
    from trvendetta.bots import bot_names

    seated = {p for t in r.tables for p in t.players}
    kinds: dict[str, str] = {}
    for b in bots:
        player, sep, kind = b.partition("=")
        if not sep or player not in seated or kind not in bot_names():
            raise click.BadParameter(f"{b!r} is not PLAYER=KIND for a player of round {r.round} "
                                     f"(KIND: {', '.join(bot_names())})", param_hint="--bot")
        kinds[player] = kind
    if all_bots is not None:
        if all_bots not in bot_names():
            raise click.BadParameter(f"{all_bots!r}: bots are {', '.join(bot_names())}", param_hint="--bots")
        kinds = {p: kinds.get(p, all_bots) for p in seated}
    return kinds


@tournament.command(name="offer")
@round_bots("Seat a bot (random, greedy, front or search) for PLAYER (repeat); the host runs it.")
@click.option("--id", "ident", metavar="NAME", help="Your identity as host (default: your only one).")
@click.option("-o", "--output", "folder", required=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Where to write one offer per table (GAME.offer.json).")
@pass_session
def offer(session: Session, name: str, round_: int | None, bots: tuple[str, ...], ident: str | None,
          folder: str) -> None:
    """Host mode: offer each table's game of the round, hosted by you (docs/fair-play.md).

    Every player of the round must be registered with a key.  Writes one
    host offer per table (your commitment to a fresh secret seed); send each
    to its table's players, who answer with `trv host join FILE -o SEAT.json`;
    then `trv tournament start NAME --host DIR --join ...` creates the games.
    A result of such a round counts only from its host game, every roll
    checked against your revealed seed.

    \b
    Examples:
      trv tournament offer spring -o offers
      trv tournament start spring --host offers --join ann.json --join bob.json
    """
    from trvendetta.app.tournament import COLORS, table_games

    from .host import host_identity, write_offer

    state = _svc(session).load(name).state
    r = model.check_start(state, _round_of(state, round_))
    created = state.created
    assert created is not None
    kinds = _bot_kinds(r, bots, None)
    keyed = {e.name: e.key for e in state.entrants if e.key}
    botted = sorted(set(keyed) & set(kinds))
    if botted:
        raise click.BadParameter(f"{', '.join(botted)} registered with a key; a bot cannot sign for them",
                                 param_hint="--bot")
    unkeyed = sorted(p for t in r.tables for p in t.players if p not in keyed and p not in kinds)
    if unkeyed:
        raise TrvError(f"{', '.join(unkeyed)} registered without a key: in host mode every player signs "
                       f"(trv tournament register {name} PLAYER --key PLAYER=FILE), or seat a bot (--bot PLAYER=KIND)")
    host = host_identity(ident)
    Path(folder).mkdir(parents=True, exist_ok=True)
    rules = rulesets.get(created.ruleset)
    for t, game in zip(r.tables, table_games(name, r)):
        triples = [(p, COLORS[i], "") for i, p in enumerate(t.players)]
        rules.default_position(triples, 0)
        seats = {p: (host.public if p in kinds else keyed[p]) for p in t.players}
        target = Path(folder) / f"{game}.offer.json"
        write_offer(target, game, rules.name, triples, seats, {p: kinds[p] for p in t.players if p in kinds},
                    host.public)
        humans = [p for p in t.players if p not in kinds]
        click.echo(f"table {t.table}: wrote {target}: send it to {', '.join(humans) or 'nobody (bots only)'}")
    click.echo(f"each player runs `trv host join FILE -o PLAYER.json` and sends it back; then: "
               f"trv tournament start {name} --host {folder} --join PLAYER.json ...")


@tournament.command(name="start")
@round_bots("Seat a bot (random, greedy, front or search) for PLAYER (repeat).")
@click.option("--bots", "all_bots", metavar="KIND", help="A bot in every seat (a simulated round).")
@click.option("--host", "host_dir", type=click.Path(file_okay=False, exists=True), metavar="DIR",
              help="Host mode: create each table's host game from the offers in DIR (`trv tournament offer`).")
@click.option("--join", "join_files", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="With --host: a player's contribution (`trv host join`), any table (repeat).")
@pass_session
def start(session: Session, name: str, round_: int | None, bots: tuple[str, ...], all_bots: str | None,
          host_dir: str | None, join_files: tuple[str, ...]) -> None:
    """Create the round's games, one per table (NAME-rR-tT), seats in table order.

    Bot seats play at once; a game of bots only is played to the end.  The
    seats of players registered with a key are bound to it (the game's
    charter), so they play with `trv turn --as PLAYER` and sign.  Then report
    each with `trv tournament report NAME --table T`.

    \b
    Examples:
      trv tournament start spring
      trv tournament start spring --round 2 --bot eve=greedy
      trv tournament start spring --bots random
      trv tournament start spring --host offers --join ann.json --join bob.json
    """
    svc = _svc(session)
    loaded = svc.load(name)
    state = loaded.state
    r = model.check_start(state, _round_of(state, round_))
    if host_dir is not None:
        if bots or all_bots:
            raise click.UsageError("in host mode the bots are seated by `trv tournament offer --bot`")
        _start_hosted(session, svc, loaded, r, host_dir, join_files)
        return
    if join_files:
        raise click.UsageError("--join goes with --host DIR (host mode)")
    kinds = _bot_kinds(r, bots, all_bots)
    from trvendetta.app.tournament import table_games

    svc.check_free(table_games(name, r))
    seated = {p for t in r.tables for p in t.players}
    keyed = {e.name: e.key for e in state.entrants if e.key and e.name in seated}
    botted = sorted(set(keyed) & set(kinds))
    if botted:
        raise click.BadParameter(f"{', '.join(botted)} registered with a key; a bot cannot sign for them",
                                 param_hint="--bot")

    def created(done: Any) -> None:
        click.echo(f"table {done.table.table}: {done.game} ({', '.join(done.table.players)}; {done.events} events; "
                   f"{_status(done)})")

    svc.start_round(name, loaded, r, kinds, keyed, observe=created)


def _status(done: Any) -> str:
    """A table's game as created: over (and who won) or waiting."""
    rules, end = done.ruleset, done.state
    return "over: " + (rules.winner(end) or "no winner") if rules.is_over(end) else "waiting"


def _start_hosted(session: Session, svc: Any, loaded: Any, r: Any, folder: str, join_files: tuple[str, ...]) -> None:
    """Create each table's host game from its offer and the contributions; log the round's host."""
    from trvendetta.app.tournament import table_games

    from .host import create_host_game, read_contribution, read_offer

    name = loaded.name
    offers = {}
    for game in table_games(name, r):
        path = Path(folder) / f"{game}.offer.json"
        if not path.exists():
            raise TrvError(f"no offer {path}; write the round's offers with: trv tournament offer {name} -o {folder}")
        offers[game] = (str(path), read_offer(str(path)))

    def created(done: Any) -> None:
        click.echo(f"table {done.table.table}: {done.game} ({', '.join(done.table.players)}; host game, "
                   f"{done.events} events; {_status(done)}); send it to its players: trv send {done.game}")

    svc.start_hosted(name, loaded, r, offers, lambda: [(f, read_contribution(f)) for f in join_files],
                     lambda got, path, mine, game: create_host_game(session, got, path, mine, game),
                     observe=created)


@tournament.command(name="report")
@click.argument("name")
@click.argument("game_or_record", nargs=-1)
@click.option("--table", "table", type=int, required=True, help="The table whose result this is.")
@click.option("--round", "round_", type=int, help="The round (default: the last paired).")
@click.option("--evidence", "evidence", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="Another copy, fork or packet of the game: if it shows a player signed two histories (or two "
                   "intents for one draw), the result is refused with the proof (repeat).")
@json_option
@pass_session
def report(session: Session, name: str, game_or_record: tuple[str, ...], table: int, round_: int | None,
           evidence: tuple[str, ...], as_json: bool) -> None:
    """Count a table's result from a game record: a game in this store (default:
    the one `start` created for the table) or a record file (`trv export`).

    The record must verify (every action re-executed), have finished (by the
    rules, a claim on time or a resignation), and be played by the table's
    players; places are read from it, never typed in.  Given several record
    files (every seat's copy of the game), they must agree (the same record,
    or one extending another); two that split are refused with the evidence,
    naming a player who signed two histories.

    \b
    Examples:
      trv tournament report spring --table 1
      trv tournament report spring --table 2 spring-r1-t2
      trv tournament report spring --round 1 --table 3 table3.trv
      trv tournament report spring --table 3 ann.trv bob.trv
      trv tournament report spring --table 1 --evidence peek.trv
    """
    def read(source: str) -> bytes | None:  # a record file, when the name is not a game of the store
        if not os.path.isfile(source):
            return None
        with open(source, "rb") as fh:
            return fh.read()

    from .args import read_untrusted

    given = [(path, read_untrusted(path)) for path in evidence]
    first, *copies = game_or_record or (None,)
    decided = _svc(session).decided_without_game(name, table, round_) if first is None else None
    if decided is not None:  # two concessions at a table of three, say: finished, and nothing to read
        r, places = decided
        ranked = sorted(places.items(), key=lambda x: (x[1], x[0]))
        if as_json:
            echo_json({"tournament": name, "round": r, "table": table, "game": None, "decided_by": "concessions",
                       "places": dict(ranked)})
            return
        click.echo(f"round {r} table {table}: finished, decided by concessions and no-shows - "
                   + ", ".join(f"{place}. {p}" for p, place in ranked) + " (no game to report)")
        return
    reported = _svc(session).report(name, table, round_, first, read, tuple(copies), given)
    r, checked, result, after = reported
    final = model.table_places(after.rounds[r - 1].tables[table - 1]) or {}
    places = ", ".join(f"{place}. {p}" for p, place in sorted(final.items(), key=lambda x: (x[1], x[0])))
    if as_json:
        echo_json({"tournament": name, "round": r, "table": table, "game": result.game, "events": result.events,
                   "game_id": result.game_id, "head": result.head, "end": result.end,
                   "places": dict(sorted(final.items(), key=lambda x: (x[1], x[0]))),
                   "signed_by": sorted(checked.bound) if result.signed else [], "host": bool(checked.host),
                   "bot_seats": list(result.bots or ())})
        return
    signed = f"; signed by {', '.join(sorted(checked.bound))}" if result.signed else ""
    if checked.host:
        signed += "; host game, every roll checked against the host's seed"
    if result.bots:  # (their seats score; ratings leave them out of a game with a person in it)
        signed += f"; played by a bot: {', '.join(result.bots)}"
    click.echo(f"round {r} table {table}: {result.game} verified ({result.events} events{signed}) - {places}")


@tournament.command(name="rule")
@click.argument("name")
@click.argument("game_or_record", required=False)
@click.option("--table", "table", type=int, required=True, help="The table whose game ended on the claim.")
@click.option("--round", "round_", type=int, help="The round (default: the last paired).")
@click.option("--uphold/--overturn", "uphold", required=True, help="Uphold the claim (it decides the table) or "
                                                                    "overturn it (it does not).")
@click.option("--reason", default="", help="Why, in a few words (signed with the ruling).")
@click.option("--as", "ident", metavar="IDENTITY", help="The organiser's identity that signs (trv id; default: your "
                                                          "only one).")
@pass_session
def rule(session: Session, name: str, game_or_record: str | None, table: int, round_: int | None, uphold: bool,
         reason: str, ident: str | None) -> None:
    """The organiser's signed ruling on the claim on time that ended a table's game:
    --uphold (the claim decides the table) or --overturn (it does not: `tournament
    report` then refuses the game's result, and the table's is recorded otherwise).
    The game is the table's in this store (default) or a record file; the ruling
    names the claim, is signed with your identity (in a host round, the host's key)
    and is kept in the tournament's log.

    \b
    Examples:
      trv tournament rule spring --table 1 --uphold
      trv tournament rule spring --table 2 table2.trv --overturn --reason "mail server down two days"
    """
    from .identity import Keyring, identities

    mine = [i for i in identities() if ident in (None, i.name, i.fingerprint)]
    if len(mine) != 1:
        raise TrvError(f"--as {ident}: no identity of yours has this name or fingerprint (trv id)" if ident else
                       "say which of your identities signs the ruling: --as IDENTITY")
    keyring = Keyring({"organiser": mine[0].public}, "organiser")

    def read(source: str) -> bytes | None:
        if not os.path.isfile(source):
            return None
        with open(source, "rb") as fh:
            return fh.read()

    ruled, _ = _svc(session).rule(name, table, round_, game_or_record, read, "upheld" if uphold else "overturned",
                                  reason, mine[0].public, lambda message: keyring.sign("organiser", message))
    click.echo(f"round {ruled.round} table {ruled.table}: the claim is {ruled.ruling} (signed by "
               f"{mine[0].fingerprint}){': ' + reason if reason else ''}")


def _out(no_show: bool):
    word = "no-show" if no_show else "concede"

    @click.argument("name")
    @click.argument("player")
    @click.option("--table", "table", type=int, required=True, help="The player's table.")
    @click.option("--round", "round_", type=int, help="The round (default: the last paired).")
    @click.option("--by", "by", required=True, metavar="WHO", help="Who declared it (the player, or the organiser).")
    @pass_session
    def command(session: Session, name: str, player: str, table: int, round_: int | None, by: str) -> None:
        r, state = _svc(session).out(name, round_, table, player, by, no_show)
        what = "did not show" if no_show else "conceded"
        t = state.rounds[r - 1].tables[table - 1]
        done = model.table_places(t)
        tail = " - the table is decided" if done and t.reported is None else ""
        click.echo(f"round {r} table {table}: {player} {what} (declared by {by}); last place{tail}")

    what = "did not come to their table" if no_show else "conceded at their table"
    command.__doc__ = (f"Record that PLAYER {what} (last place there), and who declared it.\n\n"
                       f"    \b\n    Examples:\n      trv tournament {word} spring eve --table 2 --by organiser\n"
                       f"      trv tournament {word} spring eve --round 1 --table 2 --by eve\n")
    return click.command(name=word)(command)


tournament.add_command(_out(False))
tournament.add_command(_out(True))


def csv_row(row: dict) -> dict:
    """A standings row as a spreadsheet reads it: a flag 1 or 0 (not Python's True/False), the
    places a list of numbers with spaces (``1 2``: no quoted comma), nothing for no value."""
    out = {}
    for key, value in row.items():
        if isinstance(value, bool):
            value = int(value)
        elif key == "places":
            value = " ".join(map(str, value))
        out[key] = "" if value is None else value
    return out


@tournament.command(name="standings")
@click.argument("name")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV instead of text.")
@pass_session
def standings_(session: Session, name: str, as_json: bool, as_csv: bool) -> None:
    """Standings: points by finishing place, the tie-breaks that order equal
    points (opponents' points, head-to-head, cars left, then a seeded lot),
    why each player is below the one above, and openskill ratings carried
    across tournaments.  Also rewrites the read model tables.

    \b
    Examples:
      trv tournament standings spring
      trv tournament standings spring --csv > spring.csv
      sqlite-utils query trv.sqlite "select rank, player, points, why from trv_tournament_standings" --table
    """
    rows = _svc(session).standings(name)  # standings only from an unbroken log
    if as_json:
        echo_json(rows)
        return
    cols = ["rank", "player", "points", "games", "places", "opponents_points", "head_to_head", "cars",
            "rating_before", "rating", "dropped", "why", "bot_games"]
    if as_csv:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(csv_row(r) for r in rows)
        click.echo(buf.getvalue(), nl=False)
        return
    head = ("#", "PLAYER", "PTS", "GAMES", "PLACES", "OPP PTS", "H2H", "CARS", "RATING", "WHY")
    table = [head]
    for r in rows:
        before = "new" if r["rating_before"] is None else f"{r['rating_before']:.2f}"
        after = "-" if r["rating"] is None else f"{r['rating']:.2f}"
        marks = (" (dropped)" if r["dropped"] else "") + (f" (bot: {r['bot_games']})" if r.get("bot_games") else "")
        table.append((str(r["rank"]), r["player"] + marks, str(r["points"]),
                      str(r["games"]), ",".join(map(str, r["places"])) or "-", f"{r['opponents_points']:.2f}",
                      str(r["head_to_head"]),
                      str(r["cars"]), f"{before} -> {after}", r["why"]))
    widths = [max(len(x[i]) for x in table) for i in range(len(head))]
    for line in table:
        click.echo("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())


@tournament.command(name="list")
@json_option
@pass_session
def list_(session: Session, as_json: bool) -> None:
    """The tournaments in the store, oldest first.

    \b
    Examples:
      trv tournament list
      trv tournament list --json
    """
    svc = _svc(session)
    rows = []
    for n in svc.names():
        st = svc.load(n).state
        c = st.created
        rows.append({"name": n, "ruleset": c.ruleset if c else "", "rounds": c.rounds if c else 0,
                     "paired": len(st.rounds), "players": len(st.entrants)})
    if as_json:
        echo_json(rows)
        return
    for r in rows:
        click.echo(f"{r['name']}: {r['ruleset']}, round {r['paired']} of {r['rounds']}, {r['players']} players")
    if not rows:
        click.echo("no tournaments yet; create one with `trv tournament new NAME --rounds N`")


@tournament.command(name="export")
@click.argument("name")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to FILE (default stdout).")
@pass_session
def export(session: Session, name: str, output: str | None) -> None:
    """One file with the tournament's events, standings and every reported game's record.

    \b
    Examples:
      trv tournament export spring -o spring.trvt
      trv tournament export spring | gzip > spring.trvt.gz
    """
    text = _svc(session).export(name)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


@tournament.command(name="verify")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option
def verify(file: str, as_json: bool) -> None:
    """Check an export from the file alone: the tournament's hash chain, every
    game re-executed, every result matched to its record and the standings
    to the events.  Exit 1 with the first problem.

    \b
    Examples:
      trv tournament verify spring.trvt
      trv tournament verify spring.trvt --json
    """
    from trvendetta.replays.tournament import verify_export

    with open(file, "rb") as fh:
        done = verify_export(fh.read(), file)
    if as_json:
        echo_json(done)
        return
    click.echo(f"ok: tournament {done.name}, {done.events} events, {done.games} games re-executed, "
               f"standings match (head {done.head[:16]}...)")
    if done.standings:
        top = done.standings[0]
        click.echo(f"first: {top.player} with {top.points} points")


COMMANDS = [tournament]
