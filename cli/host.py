"""Host mode: a host holding a committed secret seed rolls the dice (docs/fair-play.md).

    trv host offer --player ann:red --key ann=ann.pub --player bob:blue --key bob=bob.pub --name cup1 -o offer.json
    trv host join offer.json -o ann.json               # each player: a random contribution, signed
    trv host new offer.json --join ann.json --join bob.json   # the host: the game; send its record
    trv host reveal cup1                               # the host: publish seed and salt (automatic at game over)

The host's seed and salt are kept in ``$TRV_HOME/secrets/COMMITMENT.host``
(mode 0600) and reach the record only in the signed reveal.  Players play
as in an exchange game: an action that needs dice becomes a signed intent;
``trv import`` in the host's store resolves it with the game's seed, signs
the resolution and writes the reply packet.
"""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path
from typing import Any

import click
import msgspec

from trvendetta import rulesets
from trvendetta.core.draws import HOST_BYTES, host_commitment, host_game_seed, host_rng
from trvendetta.core.errors import TrvError

from . import entropy
from .common import Session, pass_session
from .exchange import _body, _read, _verify
from .identity import Keyring, home, identities

#: the name the host signs under (replays.signatures.HOST)
HOST = "@host"


class Offer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    type: str
    game: str
    ruleset: str
    players: list[tuple[str, str, str]]
    seats: dict[str, str]
    host: str
    commit: str
    sig: str = ""
    #: bot seats ``{seat: kind}``, run by the host (each bound to the host's key in ``seats``)
    bots: dict[str, str] = {}


class Contribution(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    type: str
    offer: str
    seat: str
    value: str
    sig: str = ""


def host_identity(ident: str | None) -> Any:
    """The local identity that hosts (``--id NAME``, else the only one)."""
    mine = [i for i in identities() if ident is None or ident in (i.name, i.fingerprint)]
    if len(mine) != 1:
        raise TrvError("say which of your identities hosts the game with --id NAME (trv id show)" if mine else
                       f"no identity {ident!r} here; create one with: trv id new NAME")
    return mine[0]


def write_offer(output: Any, game: str, ruleset: str, triples: list, seats: dict[str, str], bots: dict[str, str],
                host_public: str) -> Offer:
    """Commit to a fresh secret seed and write the signed offer of a host game to ``output``."""
    commit = _new_seed()
    made = Offer("trv-host-offer", game, ruleset, [list(t) for t in triples], seats, host_public, commit, bots=bots)
    sig = _host_keyring(host_public).sign(HOST, _body(made))
    made = msgspec.structs.replace(made, sig=base64.b64encode(sig).decode())
    Path(output).write_bytes(msgspec.json.format(msgspec.json.encode(made), indent=1) + b"\n")
    return made


def read_offer(path: str) -> Offer:
    return _read(path, Offer)


def read_contribution(path: str) -> Contribution:
    return _read(path, Contribution)


def _offer_id(offer: Offer) -> str:
    return hashlib.sha256(_body(offer)).hexdigest()


def _secret_file(commit_hex: str) -> Path:
    return home() / "secrets" / f"{commit_hex}.host"


def _new_seed() -> str:
    """A fresh secret seed and salt, saved mode 0600; returns the commitment (hex)."""
    seed, salt = entropy.random_bytes(HOST_BYTES), entropy.random_bytes(HOST_BYTES)
    commit = host_commitment(seed, salt).hex()
    folder = home() / "secrets"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(_secret_file(commit), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(f"{seed.hex()}\n{salt.hex()}\n")
    return commit


def host_secret(commit_hex: str) -> tuple[bytes, bytes] | None:
    """The host's seed and salt of this commitment, when this user is that game's host."""
    path = _secret_file(commit_hex)
    if not path.exists():
        return None
    seed_hex, salt_hex = path.read_text().split()
    seed, salt = bytes.fromhex(seed_hex), bytes.fromhex(salt_hex)
    if host_commitment(seed, salt).hex() != commit_hex:
        raise TrvError(f"{path} does not hold the seed of commitment {commit_hex[:16]}")
    return seed, salt


def _host_keyring(public: str) -> Keyring:
    keyring = Keyring({HOST: public}, HOST)
    if not keyring.can_sign(HOST):
        raise TrvError(f"the host's key ({public[:16]}...) is not among your identities (trv id show)")
    return keyring


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
@click.option("--ruleset", default="vendetta", show_default=True)
@click.option("--id", "ident", metavar="NAME", help="Your identity as host (default: your only one).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE")
def offer(players: tuple[str, ...], keys: tuple[str, ...], bots: tuple[str, ...], game: str, ruleset: str,
          ident: str | None, output: str) -> None:
    """Offer a host game: commit to a fresh secret seed; every player answers with `trv host join`.

    Bot seats (`--bot`) are run by the host: its store plays them as soon as
    they are to act and signs their actions with the host's key, under the
    seat's name; the record's charter declares them."""
    from .games import parse_bot, parse_keys, parse_player
    from trvendetta.store import decode_charter

    rules = rulesets.get(ruleset)
    if not players and not bots:
        raise click.UsageError("give the seats: --player NAME:COLOR (with its --key) or --bot KIND:COLOR:CREW")
    triples = [parse_player(p) for p in players]
    robots = [parse_bot(b) for b in bots]
    names = [t[0] for t in triples]
    charter = parse_keys(keys, names, {})
    seats = dict(decode_charter(charter).seats) if charter else {}
    if sorted(seats) != sorted(names):
        missing = ", ".join(n for n in names if n not in seats)
        raise click.BadParameter(f"a host game binds every seat to a key; no key for {missing}", param_hint="--key")
    triples += [(name, color, crew) for name, color, crew, _ in robots]
    taken = [n for n in (t[0] for t in triples) if [t[0] for t in triples].count(n) > 1]
    if taken:
        raise click.BadParameter(f"two seats are called {taken[0]!r}", param_hint="--bot")
    rules.default_position(triples, 0)  # the rules judge the seats now
    mine = [host_identity(ident)]
    seats.update({name: mine[0].public for name, _, _, _ in robots})
    write_offer(output, game, rules.name, triples, seats, {name: kind for name, _, _, kind in robots}, mine[0].public)
    if names:
        click.echo(f"wrote the offer to {output}: send it to {', '.join(names)}; each runs "
                   f"`trv host join {output} -o SEAT.json` and sends it back")
    else:
        click.echo(f"wrote the offer to {output}: every seat is a bot; create the game with "
                   f"`trv host new {output}`")


@host.command(name="join")
@click.argument("offer_file", metavar="OFFER", type=click.Path(exists=True, dir_okay=False))
@click.option("--as", "seat", metavar="SEAT", envvar="TRV_AS", help="Your seat (default: the one whose key you hold).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE")
def join(offer_file: str, seat: str | None, output: str) -> None:
    """Answer a host's offer with a random contribution to the game's seed, signed.

    The host committed to its seed before you contribute, so it cannot choose
    the seed after seeing yours; you do not know its seed, so neither can you."""
    from .identity import fingerprint

    got = _read(offer_file, Offer)
    if not _verify(got.host, got.sig, _body(got)):
        raise TrvError(f"{offer_file}: the offer is not signed by the host key it names")
    mine = [s for s, k in got.seats.items() if k in {i.public for i in identities()} and s not in got.bots]
    seat = seat or (mine[0] if len(mine) == 1 else None)
    if seat is None or seat not in mine:
        raise TrvError("say which seat of the offer is yours with --as SEAT (one whose key you hold)")
    answer = Contribution("trv-host-join", _offer_id(got), seat, entropy.random_bytes(HOST_BYTES).hex())
    keyring = Keyring(got.seats, seat)
    answer = msgspec.structs.replace(answer, sig=base64.b64encode(keyring.sign(seat, _body(answer))).decode())
    Path(output).write_bytes(msgspec.json.format(msgspec.json.encode(answer), indent=1) + b"\n")
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

    from .common import print_played
    from .identity import fingerprint

    got = read_offer(offer_file)
    name = game_id or got.game
    if name_problem(name) is not None:
        raise click.BadParameter(name_problem(name), param_hint="--name")
    played, (before, added) = create_host_game(session, got, offer_file,
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
        click.echo(pending_line(rules, session.store().load(name).state))
    humans = [s for s in got.seats if s not in got.bots]
    if humans:
        click.echo(f"send the record to {', '.join(humans)}: trv send {name}")


def create_host_game(session: Session, got: Offer, offer_file: str, answers: list[tuple[str, Contribution]],
                     name: str) -> tuple[Any, tuple[int, list[tuple[bool, str]]]]:
    """The host game of offer ``got`` with the players' contributions (each checked: its offer,
    its seat, its signature); the host's store then plays any bot seat that is to act.
    Returns what ``GameService.new_game`` played and what ``answer_host`` added."""
    from trvendetta.store import Charter, encode_charter

    from .common import service

    secret = host_secret(got.commit)
    if secret is None:
        raise TrvError(f"{offer_file}: its commitment is not one of yours (no seed in {home() / 'secrets'}); "
                       "only the host who wrote the offer creates the game")
    contributions: dict[str, str] = {}
    for path, answer in answers:
        if answer.offer != _offer_id(got):
            raise TrvError(f"{path} answers another offer")
        if answer.seat not in got.seats or not _verify(got.seats[answer.seat], answer.sig, _body(answer)):
            raise TrvError(f"{path} is not signed by {answer.seat}'s key")
        if len(bytes.fromhex(answer.value)) != HOST_BYTES:
            raise TrvError(f"{path}: {answer.seat}'s contribution is not {HOST_BYTES} bytes")
        if answer.seat in got.bots:
            raise TrvError(f"{path}: {answer.seat} is a bot seat; the host contributes for it")
        contributions[answer.seat] = answer.value
    missing = [s for s in got.seats if s not in contributions and s not in got.bots]
    if missing:
        raise TrvError(f"no contribution from {', '.join(missing)} yet for {got.game}: give every --join FILE")
    # the host's contribution for each bot seat: harmless, the host knows its own seed anyway
    contributions.update({seat: entropy.random_bytes(HOST_BYTES).hex() for seat in got.bots})
    charter = encode_charter(Charter(dict(got.seats), "host", {}, contributions, got.host, got.commit,
                                     dict(got.bots)))
    game_seed = host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in contributions.items()})
    rules = rulesets.get(got.ruleset)
    pos = rules.default_position([tuple(t) for t in got.players], 0)
    played = service(session).new_game(rules, pos, name, charter=charter, rng=host_rng(game_seed, 1))
    return played, answer_host(session.store(), played.loaded.game)


def _print_added(before: int, added: list[tuple[bool, str]]) -> int:
    """What ``answer_host`` appended, numbered like `trv log`; returns the last number."""
    number = before
    for numbered, line in added:
        if numbered:
            number += 1
        click.echo(f"{number:>5}. {line}" if numbered else f"       {line}")
    return number


def _signer(keyring: Keyring, spec: str, game_id: str, name: str = HOST) -> Any:
    """The host's signer (``name``: a bot seat the host runs, signed with the host's key)."""
    from trvendetta.replays.signatures import domain_at, entry, message

    def sign(number: int, previous: str, body: bytes) -> bytes:
        return entry(name, keyring.sign(name, message(domain_at(spec, game_id, number), number, previous, body)))
    return sign


def reveal_record(store: Any, game: str, walker: Any) -> Any:
    """The host's signed reveal of its seed and salt."""
    from trvendetta.replays.host import host_reveal_payload
    from trvendetta.store import HOST_REVEAL_KIND, RawRecord, decode_charter

    charter = decode_charter(store.header(game).charter)
    seed, salt = host_secret(charter.seed_commit)
    sign = _signer(_host_keyring(charter.host), store.header(game).domain, walker.signatures.game_id)
    return RawRecord(HOST_REVEAL_KIND, 1, host_reveal_payload(seed, salt), b"", sign)


def answer_host(store: Any, game: str) -> tuple[int, list[tuple[bool, str]]]:
    """In the host's store, after an import or the game's creation: resolve the open draw with the
    game's seed, signed by the host; play the bot seats the host runs (a bot's action that needs
    dice is recorded as its intent and resolved at once); at the game's end reveal the seed.
    Returns (records before, what was added: (whether it is a numbered record, its sentence))."""
    from trvendetta.app.decisions import MAX_ACTIONS_PER_COMMAND
    from trvendetta.store import decode_charter

    from .exchange import walk

    charter = decode_charter(store.header(game).charter)
    secret = host_secret(charter.seed_commit)
    walker = walk(store, game)
    before = walker.number
    if secret is None or walker.draws.revealed_at:
        return before, []
    added: list[tuple[bool, str]] = []
    ruleset = walker.ruleset
    seed = host_game_seed(secret[0], {s: bytes.fromhex(v) for s, v in charter.setup.items()})
    keyring, spec = _host_keyring(charter.host), store.header(game).domain
    for _ in range(MAX_ACTIONS_PER_COMMAND):
        if walker.draws.open is not None:
            _resolve(store, game, walker, seed, _signer(keyring, spec, walker.signatures.game_id), added)
        elif not _bot_acts(store, game, walker, charter, spec, added):
            break
        walker = walk(store, game)
    else:
        raise TrvError(f"the bot seats took {MAX_ACTIONS_PER_COMMAND} actions and the game is not over; giving up")
    if ruleset.pending(walker.state) is None:  # game over: every roll becomes checkable
        store.append(game, walker.number, records=[reveal_record(store, game, walker)])
        added.append((True, "the host reveals the game's secret seed: every roll can now be checked"))
    return before, added


def _resolve(store: Any, game: str, walker: Any, seed: bytes, host_signer: Any, added: list) -> None:
    """The open draw's action, rolled with the draw's RNG, recorded signed by the host over every event."""
    ruleset, open_ = walker.ruleset, walker.draws.open
    action = ruleset.decode_action(open_["action"])
    _, events = ruleset.apply(walker.state, action, host_rng(seed, open_["draw"]))
    payloads = [ruleset.encode(e) for e in events]

    def sign(number: int, previous: str, body: bytes) -> bytes:
        from trvendetta.replays.signatures import resolution_body

        return host_signer(number, previous, resolution_body(body, payloads))

    store.append(game, walker.number, steps=[(action, events, sign)])
    added.append((False, f"{open_['seat']}: {ruleset.describe_action(action)} (rolled by the host)"))
    added.extend((True, ruleset.describe(e)) for e in events)


def _bot_acts(store: Any, game: str, walker: Any, charter: Any, spec: str, added: list) -> bool:
    """When the game waits on a bot seat the host runs: its bot chooses, and the action is recorded
    signed with the host's key under the seat's name (one that needs dice: as its intent).
    False when the decision is not such a bot's."""
    from trvendetta.bots.registry import get_bot
    from trvendetta.bots.seats import bot_rng
    from trvendetta.core.rng import NeedDice, NoDice

    from trvendetta.app.exchange import intent_record

    ruleset, state = walker.ruleset, walker.state
    decision = ruleset.pending(state)
    if decision is None or decision.player not in charter.bots or charter.seats.get(decision.player) != charter.host:
        return False
    seat, kind = decision.player, charter.bots[decision.player]
    action = get_bot(kind).choose(ruleset, state, bot_rng(ruleset, state, walker.number), decision)
    what = ruleset.describe_action(action)
    keys = Keyring({seat: charter.host}, seat)  # the host's key, signing as the bot seat
    try:
        _, events = ruleset.apply(state, action, NoDice())
    except NeedDice:
        record = intent_record(store.load(game), walker.draws, walker.signatures.game_id, keys, seat,
                               ruleset.encode(action), lambda commitment: None)  # the host's seed decides
        store.append(game, walker.number, records=[record])
        added.append((True, f"{seat} (bot {kind}) waits for the host's dice for {what!r}"))
        return True
    sign = _signer(keys, spec, walker.signatures.game_id, name=seat)
    store.append(game, walker.number, steps=[(action, events, sign)])
    added.append((False, f"{seat} (bot {kind}): {what}"))
    added.extend((True, ruleset.describe(e)) for e in events)
    return True


@host.command(name="reveal")
@click.argument("game", metavar="GAME")
@pass_session
def reveal(session: Session, game: str) -> None:
    """Publish the game's secret seed and salt in an event signed by the host.

    Anyone holding the record can then check every roll (`trv verify`).
    After the reveal no more dice can be rolled in the game: every roll would be known."""
    from .exchange import walk
    from trvendetta.store import decode_charter

    store = session.store()
    meta = store.header(game)
    charter = decode_charter(meta.charter)
    if charter is None or charter.dice != "host":
        raise TrvError(f"game {game!r} is not a host game (trv host new); it has no secret seed to reveal")
    if host_secret(charter.seed_commit) is None:
        raise TrvError(f"game {game!r}: its seed is not in {home() / 'secrets'}; only its host can reveal it")
    walker = walk(store, game)
    if walker.draws.revealed_at:
        raise TrvError(f"game {game!r}: the seed was revealed at event {walker.draws.revealed_at} already")
    if walker.draws.open is not None:
        raise TrvError(f"game {game!r}: draw {walker.draws.open['draw']} is open; import it and resolve it first")
    before = walker.number
    store.append(game, before, records=[reveal_record(store, game, walker)])
    click.echo(f"{before + 1:>5}. the host reveals the game's secret seed: every roll can now be checked")
    click.echo(f"send it to the players: trv send {game}")
