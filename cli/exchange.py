"""Exchange games: dice nobody can foresee or choose, without a host (docs/fair-play.md).

    trv invite --player ann:red --key ann=ann --player bob:blue --key bob=bob.pub --name duel -o invite.json
    trv join invite.json -o bob.json                  # bob: his commitment and set-up reveal
    trv new --invite invite.json --join bob.json      # ann: the game, with every seat's commitment
    trv export duel -o duel.trv                       # to bob, who imports it

Each player's secret (the seed of their hash chain of reveals) is kept in
``$TRV_HOME/secrets/COMMITMENT.secret`` (mode 0600) and never leaves it: only
the reveals it yields, one per draw, reach the record (:func:`secret_of`
hands it to the application layer).  When an action needs dice,
``GameService.play`` records it as a signed intent and stops; ``trv import``
of it in the next seat's store appends that seat's reveal (and, from the
last seat, resolves the action: ``GameService.answer_draws``) and writes the
reply packet.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from trvendetta import rulesets
from trvendetta.app.messages import Invite, Join
from trvendetta.core.draws import commitment, draw_rng, reveal
from trvendetta.core.errors import TrvError
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET

from .args import time_option
from .identity import Keyring, home, identities


# ------------------------------------------------------------------ secrets
def _secret_file(commit_hex: str) -> Path:
    return home() / "secrets" / f"{commit_hex}.secret"


def new_secret() -> tuple[bytes, str]:
    """A fresh chain seed, saved mode 0600; returns it and its commitment (hex)."""
    from . import entropy

    return keep_secret(entropy.random_bytes(32))


def keep_secret(secret: bytes) -> tuple[bytes, str]:
    """Save a chain seed mode 0600 (kept as it is when this home holds it already, as a derived
    join's is when asked again); returns it and its commitment (hex)."""
    commit = commitment(secret).hex()
    folder = home() / "secrets"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(_secret_file(commit), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if secret_of(commit) != secret:  # (secret_of raises when it holds another: a damaged file)
            raise TrvError(f"{_secret_file(commit)} does not hold the secret of commitment {commit[:16]}") from None
        return secret, commit
    with os.fdopen(fd, "w") as fh:
        fh.write(secret.hex() + "\n")
    return secret, commit


def secret_of(commit_hex: str) -> bytes | None:
    path = _secret_file(commit_hex)
    if not path.exists():
        return None
    secret = bytes.fromhex(path.read_text().strip())
    if commitment(secret).hex() != commit_hex:
        raise TrvError(f"{path} does not hold the secret of commitment {commit_hex[:16]}")
    return secret


def ledger() -> Any:
    """The ledger of this user's secrets (``app.ledger``: one reveal per draw), beside them."""
    from trvendetta.app.ledger import Ledger

    return Ledger(home() / "secrets")


# ------------------------------------------------------------ invite, join
def _read(path: str, kind: Any) -> Any:
    from .args import read_untrusted

    return kind.decode(read_untrusted(path), path)


def _signer_for(seats: dict[str, str], seat: str) -> Keyring:
    keyring = Keyring(seats, seat)
    if not keyring.can_sign(seat):
        raise TrvError(f"{seat}'s key ({seats[seat][:16]}...) is not among your identities (trv id show)")
    return keyring


@click.command()
@click.option("--player", "players", multiple=True, required=True, metavar="NAME:COLOR[:CREW]",
              help="A player, in turn order (repeat).")
@click.option("--key", "keys", multiple=True, required=True, metavar="SEAT=FINGERPRINT|FILE",
              help="Every seat's public key (repeat).")
@click.option("--name", "game", required=True, metavar="ID", help="The game's id.")
@click.option("--ruleset", default=DEFAULT_RULESET, show_default=True)
@click.option("--as", "creator", metavar="SEAT", envvar="TRV_AS", help="Your seat (default: the one whose key you hold).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE")
@time_option
def invite(players: tuple[str, ...], keys: tuple[str, ...], game: str, ruleset: str, creator: str | None,
           output: str, time: str | None) -> None:
    """Invite players to an exchange game: dice from every player's reveals, no host.

    Writes FILE (send it to every other player; each answers with `trv join`)
    holding your commitment; your secret stays in $TRV_HOME/secrets.

    \b
    Examples:
      trv invite --player ann:red --player bob:blue --key ann=ann --key bob=bob.pub --name duel -o invite.json
    """
    from .args import parse_keys, parse_player, seats_position, timed
    from trvendetta.core.fairplay import charter_of

    rules = rulesets.get(ruleset)
    refuse_hidden(rules)
    triples = [parse_player(p) for p in players]
    names = [t[0] for t in triples]
    seats = dict(charter_of(parse_keys(keys, names, {})).seats)  # one key, two seats: refused
    if sorted(seats) != sorted(names):
        missing = ", ".join(n for n in names if n not in seats)
        raise click.BadParameter(f"an exchange game binds every seat to a key; no key for {missing}",
                                 param_hint="--key")
    seats_position(rules, triples, list(players), ["--player"] * len(players))  # judged now, not at `trv new`
    mine = [s for s, k in seats.items() if k in {i.public for i in identities()}]
    creator = creator or (mine[0] if len(mine) == 1 else None)
    if creator is None or creator not in mine:
        raise TrvError("say which seat is yours with --as SEAT (one whose key is among your identities)")
    control = charter_of(timed(parse_keys(keys, names, {}), time)).time
    _, commit = new_secret()
    inv = Invite("trv-invite", game, rules.name, list(triples), seats, creator, commit, time=control,
                 rules=str(rules.rules_version))
    inv = inv.signed(lambda body: _signer_for(seats, creator).sign(creator, body))
    Path(output).write_bytes(inv.file_bytes())
    others = ", ".join(s for s in names if s != creator)
    click.echo(f"wrote the invitation to {output}: send it to {others}; each runs `trv join {output} -o SEAT.json`")


@click.command()
@click.argument("invite_file", metavar="INVITE", type=click.Path(exists=True, dir_okay=False))
@click.option("--as", "seat", metavar="SEAT", envvar="TRV_AS", help="Your seat (default: the one whose key you hold).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE")
def join(invite_file: str, seat: str | None, output: str) -> None:
    """Answer an invitation: your commitment and your set-up reveal, signed.

    Send FILE back to the player who invited you.

    \b
    Examples:
      trv join invite.json -o bob.json
    """
    from trvendetta.replays.setups import answer_problem, terms

    inv = _read(invite_file, Invite)
    if inv.creator not in inv.seats or not inv.signed_by(inv.seats[inv.creator]):
        raise TrvError(f"{invite_file}: the invitation is not signed by {inv.creator}'s key")
    if (problem := answer_problem(inv)) is not None:
        raise TrvError(f"{invite_file}: not answered: {problem}")
    mine = [s for s, k in inv.seats.items() if k in {i.public for i in identities()} and s != inv.creator]
    seat = seat or (mine[0] if len(mine) == 1 else None)
    if seat is None or seat not in mine:
        raise TrvError("say which seat of the invitation is yours with --as SEAT (one whose key you hold)")
    def make() -> tuple[bytes, str]:
        # the chain secret derived from the joiner's signature over the invitation's id: the same join
        # from every home of this key, ledger or not, so the inviter cannot get two and keep one
        from trvendetta.replays.setups import derived_secret, join_secret_message

        signer = _signer_for(inv.seats, seat)
        secret, commit = keep_secret(derived_secret(signer.sign(seat, join_secret_message(inv.id()))))
        answer = Join("trv-join", inv.id(), seat, commit, reveal(secret, 1).hex())
        return answer.signed(lambda body: signer.sign(seat, body)).file_bytes(), commit

    text, again = answer_once_here(inv.id(), seat, inv.seats[inv.creator], list(inv.seats.values()), inv.game,
                                   make, f"{inv.creator} invited you")
    Path(output).write_bytes(text)
    from .identity import fingerprint

    click.echo(f"the terms you sign, invitation {inv.game} ({inv.id()[:16]}...):")
    for line in terms(inv, f"{inv.creator}, key {fingerprint(inv.seats[inv.creator])}"):
        click.echo(f"  {line}")
    if again:
        click.echo(f"you answered this invitation before: wrote the same answer to {output} (a second one would let "
                   f"{inv.creator}, who reveals last for the set-up, choose between two)")
    click.echo(f"wrote your answer to {output}: send it to {inv.creator} "
               f"(the invitation is signed by key {fingerprint(inv.seats[inv.creator])}; check it is theirs)")


def answer_once_here(message: str, seat: str, sender: str, keys: list[str], game: str, make: Any,
                     who: str, offer: str = "", commit: str = "") -> tuple[bytes, bool]:
    """The answer to an invitation or offer, given once (``app.ledger.answer_once``) from this
    user's secrets; an earlier one between the same players that never became a game is named."""
    from datetime import datetime, timezone

    from trvendetta.app.ledger import Answers, answer_once

    at = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text, again, earlier = answer_once(Answers(home() / "secrets"), ledger(), message=message, seat=seat,
                                       sender=sender, keys=keys, game=game, at=at, make=make, offer=offer,
                                       commit=commit)
    from .identity import fingerprint

    for e in earlier:
        by = "" if e["from"] == sender else f" (from another key, {fingerprint(e['from'])})"
        click.echo(f"{who} before{by}, at {e['at']}, and never started that game ({e['game']}): a second invitation "
                   "lets the one who sends it choose between two set-ups")
    return text, again


def check_commitments(charter_text: str, game: str, can_sign: Any) -> None:
    """Refuse, before an exchange game is written in a joiner's store, a game whose charter gives one of
    this user's seats another commitment than the one it answered the invitation with (its ledger,
    ``answers.jsonl``): the inviter swapped it for a chain of its own, whose reveals it would know.
    A charter of format 2 keeps each join's signature, which every store checks; this check holds for
    a charter stripped to pass as one made before too."""
    from trvendetta.app.ledger import Answers
    from trvendetta.replays.setups import FORMAT
    from trvendetta.replays.signatures import fingerprint
    from trvendetta.store import decode_charter

    charter = decode_charter(charter_text) if charter_text else None
    if charter is None or charter.dice != "exchange" or charter.v == FORMAT:
        return  # (format 2 keeps every join's signature, which every store checks, in any home)
    keys = sorted(charter.seats.values())
    given = Answers(home() / "secrets").all()
    for seat in sorted(charter.seats):
        commit = charter.commits.get(seat, "")
        if not can_sign(seat) or secret_of(commit) is not None:
            continue
        # looked up by the players' keys, never by an invitation id the charter names (its writer names it)
        mine = [e for e in given if e["keys"] == keys and not Answers.to_host(e)]
        if mine:
            e = mine[-1]
            raise TrvError(f"{game}: its charter gives {seat} the commitment {commit[:16]}..., which is not yours: you "
                           f"({seat}) answered the invitation of {e['game']} (from key {fingerprint(e['from'])}) with "
                           f"{e['commit'][:16]}...: the inviter swapped your commitment for one whose reveals it "
                           "would know; nothing imported")


def charter_from_invite(invite_file: str, join_files: tuple[str, ...]) -> tuple[Invite, str, Any]:
    """The exchange game's charter from an invitation and every answer, and the set-up RNG."""
    import msgspec

    from trvendetta.replays.charters import nonce_of
    from trvendetta.replays.setups import FORMAT
    from trvendetta.store import Charter, encode_charter

    inv = _read(invite_file, Invite)
    refuse_hidden(rulesets.get(inv.ruleset))
    secret = secret_of(inv.commit)
    if secret is None:
        raise TrvError(f"{invite_file}: its commitment is not one of yours (no secret in {home() / 'secrets'}); "
                       "only the player who wrote the invitation creates the game")
    commits, setup = {inv.creator: inv.commit}, {inv.creator: reveal(secret, 1).hex()}
    answers, signed = {}, {}
    for path in join_files:
        answer = _read(path, Join)
        if answer.invite != inv.id():
            raise TrvError(f"{path} answers another invitation")
        if answer.seat not in inv.seats or not answer.signed_by(inv.seats[answer.seat]):
            raise TrvError(f"{path} is not signed by {answer.seat}'s key")
        if commitment_follows(answer.setup, answer.commit) is False:
            raise TrvError(f"{path}: {answer.seat}'s set-up reveal is not the value its commitment fixed")
        commits[answer.seat], setup[answer.seat] = answer.commit, answer.setup
        answers[answer.seat] = answer.id()
        signed[answer.seat] = answer.sig
    missing = [s for s in inv.seats if s not in commits]
    if missing:
        raise TrvError(f"no answer from {', '.join(missing)} yet: give every --join FILE")
    # the turn order (the players as invited) is the order the others reveal in after an actor
    if inv.time:
        from trvendetta.app.clock import parse_time_control

        parse_time_control(inv.time)  # a time control this trv reads, or one clear error
    # the nonce: the invitation's id and every answer's, so every player's answer is in the game's id
    nonce = nonce_of(inv.id(), *(answers[s] for s in sorted(answers)))
    # format 2: the invitation itself and each answer's signature, so that every store checks each
    # joiner's commitment and set-up reveal are the ones that joiner signed, and rebuilds the nonce
    charter = Charter(dict(inv.seats), "exchange", commits, setup, order=[p[0] for p in inv.players], time=inv.time,
                      nonce=nonce, offer=inv.id(), signed=signed, v=FORMAT,
                      offered=msgspec.Raw(inv.canonical()))
    rng = draw_rng(1, [bytes.fromhex(setup[s]) for s in sorted(inv.seats)])
    return inv, encode_charter(charter), rng


def refuse_hidden(rules: Any) -> None:
    """An exchange game has no one to deal hidden information: a ruleset with face-down pieces (Carnival's
    party favors) is played in host mode, whose host deals them encrypted (docs/fair-play.md)."""
    if getattr(rules, "hidden_information", False):
        raise TrvError(f"an exchange game of {rules.name} would show every player the face-down party favors "
                       "the others hold: nobody deals them in secret without a host; play it as a host game "
                       "(trv host offer --ruleset " + rules.name + " ...)")


def commitment_follows(value_hex: str, commit_hex: str) -> bool:
    from trvendetta.core.draws import follows

    return follows(bytes.fromhex(value_hex), bytes.fromhex(commit_hex))
