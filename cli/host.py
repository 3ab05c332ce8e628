"""Host mode: a host holding a committed secret seed rolls the dice (docs/fair-play.md).

    trv host offer --player ann:red --key ann=ann.pub --player bob:blue --key bob=bob.pub --name cup1 -o offer.json
    trv host join offer.json -o ann.json               # each player: a random contribution, signed
    trv host new offer.json --join ann.json --join bob.json   # the host: the game; send its record
    trv host reveal cup1                               # the host: publish seed and salt (automatic at game over)

The host's seed and salt are kept in ``$TRV_HOME/secrets/COMMITMENT.host``
(mode 0600) and reach the record only in the signed reveal.  Players play
as in an exchange game: an action that needs dice becomes a signed intent;
``trv import`` in the host's store resolves it with the game's seed, signs
the resolution and writes the reply packet.  What changes the store is the
application layer's (``app/host.py``, through ``GameService``); this module
keeps the host's seed files and key, parses and prints.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from trvendetta.app.host import HostKeys
from trvendetta.app.messages import Contribution, Offer
from trvendetta.core.draws import HOST_BYTES, host_commitment
from trvendetta.core.errors import TrvError
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET
from trvendetta.replays.signatures import HOST

from . import entropy
from .args import complete_ruleset, ruleset_arg, time_option
from .common import Session, pass_session
from .identity import Keyring, home, identities


def host_identity(ident: str | None) -> Any:
    """The local identity that hosts (``--id NAME``, else the only one)."""
    mine = [i for i in identities() if ident is None or ident in (i.name, i.fingerprint)]
    if len(mine) != 1:
        raise TrvError("say which of your identities hosts the game with --id NAME (trv id show)" if mine else
                       f"no identity {ident!r} here; create one with: trv id new NAME")
    return mine[0]


def write_offer(output: Any, game: str, ruleset: str, triples: list[tuple[str, str, str]], seats: dict[str, str], bots: dict[str, str],
                host_public: str, time: str = "") -> Offer:
    """Commit to a fresh secret seed and write the signed offer of a host game to ``output``."""
    commit = _new_seed()
    from trvendetta import rulesets

    made = Offer("trv-host-offer", game, ruleset, list(triples), seats, host_public, commit, bots=bots,
                 time=time, rules=str(rulesets.get(ruleset).rules_version))
    made = made.signed(lambda body: _host_keyring(host_public).sign(HOST, body))
    Path(output).write_bytes(made.file_bytes())
    return made


def read_offer(path: str) -> Offer:
    from .args import read_untrusted

    return Offer.decode(read_untrusted(path), path)


def read_contribution(path: str) -> Contribution:
    from .args import read_untrusted

    return Contribution.decode(read_untrusted(path), path)


def _secret_file(commit_hex: str, at: Path | None = None) -> Path:
    return (at or home()) / "secrets" / f"{commit_hex}.host"


def _new_seed(at: Path | None = None) -> str:
    """A fresh secret seed and salt, saved mode 0600; returns the commitment (hex)."""
    seed, salt = entropy.random_bytes(HOST_BYTES), entropy.random_bytes(HOST_BYTES)
    commit = host_commitment(seed, salt).hex()
    folder = (at or home()) / "secrets"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(_secret_file(commit, at), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(f"{seed.hex()}\n{salt.hex()}\n")
        fh.flush()
        os.fsync(fh.fileno())  # on disk before the offer that commits to it: a power loss leaves no empty seed
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # and its name in the folder
    finally:
        os.close(dir_fd)
    return commit


def new_seed(at: Path | None = None) -> str:
    """A fresh secret seed and salt for a game this user hosts (`trv serve` too); its commitment."""
    return _new_seed(at)


def host_secret(commit_hex: str, at: Path | None = None) -> tuple[bytes, bytes] | None:
    """The host's seed and salt of this commitment, when this user is that game's host."""
    path = _secret_file(commit_hex, at)
    if not path.exists():
        return None
    try:
        seed_hex, salt_hex = path.read_text().split()
        seed, salt = bytes.fromhex(seed_hex), bytes.fromhex(salt_hex)
    except (ValueError, UnicodeDecodeError):
        raise TrvError(f"{path} is damaged: it must hold the seed and salt of commitment {commit_hex[:16]} "
                       "as two hex words; restore it from a backup of $TRV_HOME/secrets") from None
    if host_commitment(seed, salt).hex() != commit_hex:
        raise TrvError(f"{path} does not hold the seed of commitment {commit_hex[:16]}")
    return seed, salt


def _host_keyring(public: str, at: Path | None = None) -> Keyring:
    keyring = Keyring({HOST: public}, HOST, at)
    if not keyring.can_sign(HOST):
        raise TrvError(f"the host's key ({public[:16]}...) is not among your identities (trv id show)")
    return keyring


def host_keys(at: Path | None = None) -> HostKeys:
    """This user's side of a host game, for the application layer: seeds from $TRV_HOME (``at``:
    from that home, whatever $TRV_HOME says later: a server's), the host's key, the ledger of its seeds."""
    from trvendetta.app.ledger import Ledger

    if at is None:
        return HostKeys(host_secret, _host_keyring, str(home() / "secrets"), Ledger(home() / "secrets"))
    return HostKeys(lambda commit: host_secret(commit, at), lambda public: _host_keyring(public, at),
                    str(at / "secrets"), Ledger(at / "secrets"))


def check_seeds(charter: str, game: str, game_id: str, started: Any = None) -> None:
    """Refuse, before it is written, a host game whose seed inputs are not the ones this user signed
    (``app.host.check_seed_inputs``: its contribution, the offer's commitment and seats, one game per
    offer; ``started``: the game's ruleset and seats, :func:`started_as`)."""
    from trvendetta.app.host import check_seed_inputs
    from trvendetta.app.ledger import Answers
    from trvendetta.store import decode_charter

    from .exchange import ledger

    found = decode_charter(charter) if charter else None
    if found is None or found.dice != "host":
        return
    keyring = Keyring(dict(found.seats))
    check_seed_inputs(charter, game, game_id, keyring.can_sign, Answers(home() / "secrets"), ledger(), started)


def started_as(gf: Any) -> "tuple[str, list[tuple[str, str]]] | None":
    """A record's ruleset and its seats' names and colours in order, from its event 1 (None for a
    packet, which extends a game this store has)."""
    from trvendetta import rulesets

    if gf.header.since or not gf.records:
        return None
    ruleset = rulesets.get(gf.header.ruleset)
    state = ruleset.evolve(ruleset.initial_state(), ruleset.decode_event(gf.records[0].payload))
    return ruleset.name, [(seat.name, seat.color) for seat in ruleset.seats(state)]


@click.group(name="host")
def host() -> None:
    """Host mode: a host (a tournament organiser, say) rolls the dice from a committed secret seed.

    \b
    Examples:
      trv host offer --player ann:red --key ann=ann.pub --player bob:blue --key bob=bob.pub --name cup1 -o offer.json
      trv host join offer.json -o ann.json
      trv host new offer.json --join ann.json --join bob.json
      trv host reveal cup1
    """


@host.command(name="offer")
@click.option("--player", "players", multiple=True, metavar="NAME:COLOR[:CREW]",
              help="A player, in turn order (repeat).")
@click.option("--key", "keys", multiple=True, metavar="SEAT=FINGERPRINT|FILE",
              help="Every player's public key (repeat).")
@click.option("--bot", "bots", multiple=True, metavar="KIND:COLOR:CREW[:NAME]",
              help="A bot seat, after the players (repeat): the host runs it and signs its actions.")
@click.option("--name", "game", required=True, metavar="ID", help="The game's id.")
@click.option("--ruleset", shell_complete=complete_ruleset, default=DEFAULT_RULESET, show_default=True)
@click.option("--id", "ident", metavar="NAME", help="Your identity as host (default: your only one).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE")
@time_option
def offer(players: tuple[str, ...], keys: tuple[str, ...], bots: tuple[str, ...], game: str, ruleset: str,
          ident: str | None, output: str, time: str | None) -> None:
    """Offer a host game: commit to a fresh secret seed; every player answers with `trv host join`.

    Bot seats (`--bot`) are run by the host: its store plays them as soon as
    they are to act and signs their actions with the host's key, under the
    seat's name; the record's charter declares them."""
    from .args import seats_position, timed
    from .games import parse_bot, parse_keys, parse_player
    from trvendetta.core.fairplay import charter_of

    rules = ruleset_arg(ruleset)
    if not players and not bots:
        raise click.UsageError("give the seats: --player NAME:COLOR (with its --key) or --bot KIND:COLOR:CREW")
    triples = [parse_player(p) for p in players]
    robots = [parse_bot(b) for b in bots]
    names = [t[0] for t in triples]
    charter = parse_keys(keys, names, {})
    seats = dict(charter_of(charter).seats) if charter else {}
    if sorted(seats) != sorted(names):
        missing = ", ".join(n for n in names if n not in seats)
        raise click.BadParameter(f"a host game binds every seat to a key; no key for {missing}", param_hint="--key")
    triples += [(name, color, crew) for name, color, crew, _ in robots]
    taken = [n for n in (t[0] for t in triples) if [t[0] for t in triples].count(n) > 1]
    if taken:
        raise click.BadParameter(f"two seats are called {taken[0]!r}", param_hint="--bot")
    seats_position(rules, triples, [*players, *bots], ["--player"] * len(players) + ["--bot"] * len(bots))
    mine = [host_identity(ident)]
    seats.update({name: mine[0].public for name, _, _, _ in robots})
    from trvendetta.store import Charter

    from .args import refuse_shared

    # the host sees every roll: it plays no seat (a bot's excepted), and no key plays two
    refuse_shared(Charter(seats, host=mine[0].public, bots={name: kind for name, _, _, kind in robots}))
    control = charter_of(timed(charter, time)).time if time else ""
    write_offer(output, game, rules.name, triples, seats, {name: kind for name, _, _, kind in robots}, mine[0].public,
                control)
    if names:
        click.echo(f"wrote the offer to {output}: send it to {', '.join(names)}; each runs "
                   f"`trv host join {output} -o SEAT.json` and sends it back")
    else:
        click.echo(f"wrote the offer to {output}: every seat is a bot; create the game with "
                   f"`trv host new {output}`")


def derived_contribution(offer: Offer, seat: str, keyring: Any) -> Contribution:
    """``seat``'s contribution to ``offer``, signed: its value derived from the seat key's signature over
    the offer's commitment and id (``replays.setups``), so every home of the player gives the same bytes
    and a host gets one contribution per offer from a key, ledger or no ledger, and none it could
    know before its offer (a second offer with an answered commitment gets other values)."""
    from trvendetta.replays.setups import CONTRIBUTION_2, derivation_message, derived_value

    value = derived_value(keyring.sign(seat, derivation_message(offer.commit, offer.id())))
    answer = Contribution(CONTRIBUTION_2, offer.id(), seat, value, commit=offer.commit)
    return answer.signed(lambda body: keyring.sign(seat, body))


@host.command(name="join")
@click.argument("offer_file", metavar="OFFER", type=click.Path(exists=True, dir_okay=False))
@click.option("--as", "seat", metavar="SEAT", envvar="TRV_AS", help="Your seat (default: the one whose key you hold).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE")
def join(offer_file: str, seat: str | None, output: str) -> None:
    """Answer a host's offer with a random contribution to the game's seed, signed.

    The host committed to its seed before you contribute, so it cannot choose
    the seed after seeing yours; you do not know its seed, so neither can you."""
    from .identity import fingerprint

    from trvendetta.replays.setups import answer_problem, terms

    got = read_offer(offer_file)
    if not got.signed_by(got.host):
        raise TrvError(f"{offer_file}: the offer is not signed by the host key it names")
    if (problem := answer_problem(got)) is not None:
        raise TrvError(f"{offer_file}: not answered: {problem}")
    mine = [s for s, k in got.seats.items() if k in {i.public for i in identities()} and s not in got.bots]
    seat = seat or (mine[0] if len(mine) == 1 else None)
    if seat is None or seat not in mine:
        raise TrvError("say which seat of the offer is yours with --as SEAT (one whose key you hold)")
    from .exchange import answer_once_here

    def make() -> tuple[bytes, str]:
        return derived_contribution(got, seat, Keyring(got.seats, seat)).file_bytes(), got.commit

    text, again = answer_once_here(got.id(), seat, got.host, [k for s, k in got.seats.items() if s not in got.bots],
                                   got.game, make, f"the host {fingerprint(got.host)} offered you a game",
                                   got.file_bytes().decode(), got.commit)
    Path(output).write_bytes(text)
    click.echo(f"the terms you sign, offer {got.game} ({got.id()[:16]}...):")
    for line in terms(got, f"the host, key {fingerprint(got.host)}"):
        click.echo(f"  {line}")
    if again:
        click.echo(f"you answered this offer before: wrote the same contribution to {output} (a second one would "
                   "let the host, who knows its seed, choose between two)")
    click.echo(f"wrote your contribution to {output}: send it to the host (key {fingerprint(got.host)}; "
               "check it is theirs)")


@host.command(name="new")
@click.argument("offer_file", metavar="OFFER", type=click.Path(exists=True, dir_okay=False))
@click.option("--join", "join_files", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="A player's contribution (`trv host join`); one per seat.")
@click.option("--name", "game_id", metavar="ID", help="The game's id (default: the offer's).")
@pass_session
def new(session: Session, offer_file: str, join_files: tuple[str, ...], game_id: str | None) -> None:
    """Create the host game of your offer, with every player's contribution."""
    from trvendetta.core.names import name_problem

    from .common import print_played, service
    from .identity import fingerprint

    got = read_offer(offer_file)
    name = game_id or got.game
    if (problem := name_problem(name)) is not None:
        raise click.BadParameter(problem, param_hint="--name")
    played, (before, added, _) = create_host_game(session, got, offer_file,
                                               [(f, read_contribution(f)) for f in join_files], name)
    rules = played.ruleset
    click.echo(played.loaded.game)
    click.echo(f"{rules.name} host game, {played.first - 1} events: the dice follow your secret seed "
               f"(committed: {got.commit[:16]}...) and every player's contribution")
    click.echo("seats bound to keys: " + ", ".join(
        f"{s} (bot {got.bots[s]}, run by the host: {fingerprint(k)})" if s in got.bots else f"{s} ({fingerprint(k)})"
        for s, k in got.seats.items()))
    print_played(played)
    if added:
        from trvendetta.app.decisions import pending_line

        _print_added(before, added)
        click.echo(pending_line(rules, service(session).load(name).state))
    humans = [s for s in got.seats if s not in got.bots]
    if humans:
        click.echo(f"send the record to {', '.join(humans)}: trv send {name}")


def create_host_game(session: Session, got: Offer, offer_file: str, answers: list[tuple[str, Contribution]],
                     name: str) -> tuple[Any, Any]:
    """The host game of offer ``got`` with the players' contributions (``GameService.new_host_game``:
    each checked, then the host's store plays any bot seat that is to act): what was played, what was added."""
    from .common import service

    return service(session).new_host_game(got, offer_file, answers, name, host_keys())


def _print_added(before: int, added: list[tuple[bool, str]]) -> int:
    """What ``answer_host`` appended, numbered like `trv log`; returns the last number."""
    number = before
    for numbered, line in added:
        if numbered:
            number += 1
        click.echo(f"{number:>5}. {line}" if numbered else f"       {line}")
    return number


@host.command(name="reveal")
@click.argument("game", metavar="GAME")
@pass_session
def reveal(session: Session, game: str) -> None:
    """Publish the game's secret seed and salt in an event signed by the host.

    Anyone holding the record can then check every roll (`trv verify`).
    After the reveal no more dice can be rolled in the game: every roll would be known."""
    from .common import service

    before = service(session).reveal_seed(game, host_keys())
    click.echo(f"{before + 1:>5}. the host reveals the game's secret seed: every roll can now be checked")
    click.echo(f"send it to the players: trv send {game}")
