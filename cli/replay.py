"""Records, play by email and audit: `trv export`, `import`, `replay`, `undo`, `fork`, `verify`."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from trvendetta import replays
from trvendetta.replays.audit import walker_for
from trvendetta.replays.walker import Visitor, Walker
from trvendetta import rulesets
from trvendetta.core.errors import TrvError

from .clock import now as clock_now
from .args import check_name, game_arg as _game_arg, read_untrusted, write_text
from .common import (Session, after_option, complete_game, echo_json, event_number, game_option, json_option, pass_session,
                     played_json, print_played, service, use_color)

if TYPE_CHECKING:
    from .cosign import WithSignatures
    from .identity import Keyring


def record_lines(store: Any, game: str, since: int) -> list[dict]:
    """The records after ``since``: each one's number, its sentence (as `trv log` prints it) and,
    on an action's first record, the action by name."""
    from trvendetta.store import STORE_KINDS, describe_store_record

    ruleset = store.ruleset_of(game)
    out = []
    for r in store.events(game, since=since):
        action = ruleset.describe_action(r.decoded_action) if r.action and r.kind not in STORE_KINDS else None
        text = describe_store_record(r.event) if r.kind in STORE_KINDS else ruleset.describe(r.event)
        out.append({"n": r.number, "kind": r.kind, "text": text, "action": action})
    return out


def print_records(store: Any, game: str, since: int) -> None:
    """The records after ``since``, numbered, one sentence each (as `trv log` prints them)."""
    for row in record_lines(store, game, since):
        if row["action"]:
            click.echo(f"       {row['action']}")
        click.echo(f"{row['n']:>5}. {row['text']}")


@click.command(name="export")
@click.argument("game", required=False, shell_complete=complete_game)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
              help="Write to FILE instead of standard output.")
@click.option("--since", type=event_number(0), metavar="N",
              help="Write a turn packet: only the actions and events after event N (play by email).")
@click.option("--mail", is_flag=True,
              help="Write an armoured block of 76-character lines that survives mail (trv import reads it "
                   "pasted anywhere in a mail body, quoted or not).")
@click.option("--created", "with_created", is_flag=True,
              help="Add the Created tag (when this store created the game); without it the same game exports "
                   "byte for byte alike from every store.")
@json_option
@game_option
@pass_session
def export(session: Session, game: str | None, output: str | None, since: int | None, mail: bool,
           with_created: bool, as_json: bool) -> None:
    """Write the game record (or, with --since, a turn packet) as UTF-8 text.

    The record has a header (ruleset, rules version, players, seed, created,
    head hash), the game in move notation (docs/notation.md) and every event
    with the action that produced it and its hash chain.  A damaged game
    writes the record of the events that can be read, then says on stderr
    where it is damaged and exits 1.

    \b
    Examples:
      trv export duel -o duel.trv
      trv export --since 27 -o turn.trv      # mail it; the other side runs trv import turn.trv
      trv export duel --json                  # the record's text in a JSON document, with its head
    """
    name = _game_arg(session, game)
    incomplete = None
    try:
        text = service(session).export(name, since=since, created=with_created)
    except replays.IncompleteExport as exc:  # a damaged game: write what can be read, then say so (exit 1)
        text, incomplete = exc.text, exc
    if mail:
        from trvendetta.app.outgoing import in_words
        from trvendetta.replays.mail import armor

        text = armor(text, in_words(session.store(), name, since) if incomplete is None else ())
    kind = "turn packet" if since is not None else "game record"
    if output:
        write_text(output, text)
        if incomplete is not None:
            raise TrvError(f"{incomplete} (written to {output})")
        if not as_json:
            click.echo(f"wrote the {kind} of {name} to {output}", err=True)
    if as_json:
        loaded = session.store().load(name) if incomplete is None else None
        echo_json({"game": name, "kind": kind.split()[-1], "since": since,
                   "events": loaded.version if loaded else None, "head": loaded.head if loaded else None,
                   "output": output, "text": None if output else text,
                   "damaged": None if incomplete is None else str(incomplete)})
    elif not output:
        click.echo(text, nl=False)
    if incomplete is not None:
        raise incomplete


@click.command(name="import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--name", "new_name", metavar="ID", help="Import a game record under another id.")
@click.option("--reply", type=click.Path(dir_okay=False), metavar="FILE",
              help="Exchange games: where to write the reply packet when this store answers a draw "
                   "(default GAME-N.trv next to the imported file).")
@json_option
@pass_session
def import_(session: Session, file: str, new_name: str | None, reply: str | None, as_json: bool) -> None:
    """Import a game record (a new game) or a turn packet (extends the game).

    The file is untrusted: it is decoded strictly, every action is replayed
    through the rules and every event and hash checked before anything is
    written.  A packet is applied only if it extends this database's game
    exactly; a stale, forked, out-of-order, other-game or tampered packet is
    refused with the reason, and nothing is written.

    \b
    Examples:
      trv --db bob.sqlite import duel.trv
      trv --db bob.sqlite import turn.trv
      trv --db bob.sqlite import - < mail.txt      # FILE - reads standard input (a pasted mail)

    In an exchange game (docs/fair-play.md) a packet that opens a draw
    waiting for your dice is answered at once: your reveal is appended (the
    action resolved, if yours was the last) and the reply packet written.
    """
    check_name(new_name)
    svc = service(session)
    store = svc.store
    data = read_untrusted(file)
    file_name = file if file != "-" else "standard input"
    gf = replays.read_file(data, file_name)
    # a packet, or the record of a game this store has (`trv send`): its new part extends the game
    extends = new_name is None and store.exists(gf.header.game)
    before = store.version(gf.header.game) if extends else 0
    _check_draw(gf, new_name)  # one reveal per draw: a copy's or another intent's draw is refused here
    try:
        gf, game, events, head = svc.import_file(data, file_name, new_name, parsed=gf, now=clock_now())
    except replays.AlreadyApplied as exc:
        if as_json:
            echo_json({"game": gf.header.game, "imported": None, "said": str(exc)})
            return
        click.echo(f"{gf.header.game}: {exc}")
        return
    except replays.PacketRefused as exc:
        if exc.reason != "forked" or not extends or not _crossed(session, gf, data):
            raise
        if store.version(gf.header.game) > before:
            # a claim appended after a late answer ended the game: a host's store reveals its seed after it
            _answer(svc, store, gf.header.game, file, reply, {"answered": [], "reply": None}, False)
        return
    what = "packet" if gf.kind == "packet" else "the record's new part" if extends else "game"
    doc: dict = {"game": game, "imported": what, "events": events, "head": head,
                 "added": record_lines(store, game, before) if extends else [], "answered": [], "reply": None}
    if not as_json:
        click.echo(f"imported {what} into {game}: {events} events, head {head}")
        if extends:
            print_records(store, game, before)
    _answer(svc, store, game, file, reply, doc, as_json)
    played = svc.run_bots(game)  # what the bots did, and what the game waits for
    from .play import check_hint

    hint = check_hint(session, game)  # a `trv turn` printed for after these dice: does it still apply?
    from trvendetta.app.outcome import outcome_of

    ended = outcome_of(store, game)  # a claim or resignation imported: the game is over, whatever the rules wait for
    if as_json:
        bots = played_json(played)
        waits = {"pending": None, "over": True, "waiting": ended.line()} if ended else \
            {k: bots[k] for k in ("pending", "over", "waiting")}
        echo_json({**doc, "bots": bots["bots"], "version": bots["version"], **waits, "hint": hint})
        return
    print_played(played, ended=ended)
    if hint:
        click.echo(hint)


def _answer(svc: Any, store: Any, game: str, file: str, reply: str | None, doc: dict, as_json: bool) -> None:
    """What an import asks of this store in a game with dice at a distance: its reveals (or, the
    host's store, its resolutions and its seed's reveal), and the reply packet written."""
    from trvendetta.store.records import charter_dice

    dice = charter_dice(store.header(game).charter)
    if dice:
        if dice == "host":
            from .host import host_keys

            before, added, note = svc.answer_host(game, host_keys())
        else:
            from .exchange import ledger, secret_of
            from .identity import Keyring, acting_seat
            from trvendetta.core.fairplay import charter_of

            keyring = Keyring(dict(charter_of(store.header(game).charter).seats), acting_seat(None))
            before, added, note = svc.answer_draws(game, keyring, secret_of, ledger())
        if note:
            click.echo(note)
        if added:
            number = before
            for numbered, line in added:
                if numbered:
                    number += 1
                doc["answered"].append({"n": number if numbered else None, "text": line})
                if not as_json:
                    click.echo(f"{number:>5}. {line}" if numbered else f"       {line}")
            target = reply or str((Path(file).parent if file != "-" else Path()) / f"{game}-{number}.trv")
            from trvendetta.replays.mail import armor

            from trvendetta.app.outgoing import in_words

            write_text(target, armor(svc.export(game, since=before), in_words(store, game, before)))
            doc["reply"] = target
            if not as_json:
                click.echo(f"wrote the reply packet to {target}: {_reply_line(svc, store, game)}")


def _reply_line(svc: Any, store: Any, game: str) -> str:
    """Whom the reply goes to; when the game now waits on this store's own seat, that its
    player may play first: `trv send` then carries the reply and the move in one mail."""
    from .identity import Keyring
    from trvendetta.core.fairplay import charter_of

    seats = dict(charter_of(store.header(game).charter).seats)
    keyring = Keyring(seats)
    others = [seat for seat in seats if not keyring.can_sign(seat)]
    line = f"send it to {', '.join(others) or 'the other players'}"
    loaded = svc.load(game)
    decision = loaded.ruleset.pending(loaded.state)
    if decision is not None and keyring.can_sign(decision.player):
        line += (f" (or play {decision.player}'s move first: `trv send` then carries the reply and the move "
                 "in one mail)")
    return line


def _check_draw(gf: Any, name: str | None) -> None:
    """Refuse, before anything is written, a file whose open draw this store's ledger refuses."""
    from trvendetta.app.exchange import check_import
    from trvendetta.store import decode_charter

    from .exchange import ledger, secret_of
    from .host import host_secret
    from .identity import Keyring

    charter = decode_charter(gf.header.charter)
    if charter is None or not charter.dice:
        return
    if not gf.header.parent:  # the seed inputs this user signed (a fork's are its parent's, checked there)
        from .host import check_seeds, started_as

        check_seeds(gf.header.charter, name or gf.header.game, gf.header.game_id, started_as(gf))
    keyring = Keyring(dict(charter.seats))
    if not gf.header.parent and not gf.header.since:  # the commitment this user answered an invitation with
        from .exchange import check_commitments

        check_commitments(gf.header.charter, name or gf.header.game, keyring.can_sign)
    check_import(gf, name, lambda seat, commit: keyring.can_sign(seat) and secret_of(commit) is not None,
                 ledger(), host_secret)


class _Printer(Visitor):
    def __init__(self, first: int, last: int | None, delay: float, color: bool):
        self.first, self.last, self.delay, self.color = first, last, delay, color

    def _show(self, walker: Walker, number: int, sentence: str) -> None:
        if number < self.first or (self.last is not None and number > self.last):
            return
        click.echo(f"{number:>5}. {sentence}")
        click.echo(walker.ruleset.render(walker.state, color=self.color))
        click.echo("")
        if self.delay > 0:
            time.sleep(self.delay)

    def on_action(self, walker: Walker, record: Any, group: Any) -> None:
        if self.first <= record.number and (self.last is None or record.number <= self.last):
            click.echo(f"       {group.player}: {walker.ruleset.describe_action(group.action)}")

    def on_event(self, walker: Walker, record: Any, event: Any) -> None:
        self._show(walker, record.number, walker.ruleset.describe(event))

    def on_retraction(self, walker: Walker, record: Any, retraction: Any, group: Any) -> None:
        self._show(walker, record.number, _retraction_sentence(walker.ruleset, retraction, group))


def _retraction_sentence(ruleset: Any, retraction: Any, group: Any) -> str:
    what = ruleset.describe_action(group.action) if group is not None else "an action"
    agreed = " (agreed)" if retraction.agreed else ""
    span = (f"event {retraction.first}" if retraction.first == retraction.last
            else f"events {retraction.first}-{retraction.last}")
    return f"{retraction.player} takes back {what!r}: {span} retracted{agreed}"


@click.command()
@click.argument("game", required=False, metavar="[GAME | FILE]", shell_complete=complete_game)
@click.option("--from", "first", type=event_number(), default=1, metavar="N", help="First event to show.")
@click.option("--to", "last", type=event_number(), metavar="N", help="Last event to show.")
@click.option("--delay", type=click.FloatRange(min=0), default=0.0, metavar="S",
              help="Seconds to wait between events (only when stdout is a terminal).")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True), metavar="OUT",
              help="Write the whole game as one self-contained HTML page (a replay viewer) to OUT instead.")
@game_option
@pass_session
def replay(session: Session, game: str | None, first: int, last: int | None, delay: float,
           html_file: str | None) -> None:
    """Step through a game event by event: each event's sentence and the board after it.

    GAME is a game of the store, or a record file (`trv export`), read
    without importing it.  Retracted events are shown where they happened,
    then the retraction that took them back.  Without a terminal on stdout,
    nothing waits.

    With --html OUT, write one HTML file that shows the whole game (of the
    store, or of a game record FILE written by `trv export`): the board at
    every event, a slider, step buttons and the arrow keys, the sentences
    (click one to jump), the dashboards, the hash chain checked in the page
    and whether re-executing every action gave the recorded events.  It
    needs no network and opens from a mail attachment.

    \b
    Examples:
      trv replay --from 30 --to 45
      trv replay duel --delay 0.5
      trv replay duel --html duel.html
      trv replay --html duel.html duel.trv
      trv replay duel.trv
    """
    if html_file is not None:
        if first != 1 or last is not None or delay:
            raise click.UsageError("--html writes the whole game; it takes no --from, --to or --delay")
        from .viewer import write_html

        write_html(session, game, html_file)
        return
    if game is not None and os.path.isfile(game):
        gf = replays.read_file(read_untrusted(game), game)
        if gf.kind != "record":
            raise TrvError(f"{game} is a turn packet: import it into its game (`trv import {game}`), "
                           "then replay the game")
        ruleset = rulesets.get(gf.header.ruleset)
        records = [r for r in gf.records if last is None or r.number <= last]
        wait = delay if sys.stdout.isatty() else 0.0
        walker_for(ruleset, gf.header.charter, gf.header.domain,
                   [_Printer(first, last, wait, use_color())], start=gf.genesis).walk(records)
        return
    store = session.store()
    name = _game_arg(session, game)
    meta = store.header(name)
    ruleset = rulesets.get(meta.ruleset)
    records = store.events(name, upto=last)
    wait = delay if sys.stdout.isatty() else 0.0
    # a game with seats bound to keys chains from its charter's genesis (docs/fair-play.md)
    walker_for(ruleset, meta.charter, meta.domain, [_Printer(first, last, wait, use_color())],
               start=meta.genesis).walk(records)


@click.command()
@click.option("--turn", "whole_turn", is_flag=True,
              help="Take back the whole move: every action of the player's turn so far (and the bots' after it).")
@click.option("--agreed", is_flag=True,
              help="Take the action back even past a die roll or a revealed token (recorded as agreed).")
@click.option("--ask", is_flag=True,
              help="Signed games at a distance: write the agreed retraction for the other players to sign (-o FILE).")
@click.option("--sign", "sign_file", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="Sign another player's undo request (checked against this store) into -o FILE.")
@click.option("--with", "with_files", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="With --agreed: the other players' signed requests (repeat).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE", help="Where --ask/--sign write.")
@after_option
@json_option
@game_option
@pass_session
def undo(session: Session, whole_turn: bool, agreed: bool, ask: bool, sign_file: str | None,
         with_files: tuple[str, ...], output: str | None, seen_at: int | None, as_json: bool) -> None:
    """Take back the active player's last action, without erasing it.

    A retraction record is appended: the retracted events stay in the store
    and in `trv log --all`, and every projection (show, legal, log) skips
    them.  Refused past new information (a die roll, a drawn or revealed
    token) and across players unless --agreed, which is recorded.

    With --turn, the whole move: the player's actions back to the start of
    their turn (assign, command, every step...), one retraction each, in one
    save.

    \b
    Examples:
      trv undo
      trv undo --turn                             # the whole move so far, not one step
      trv undo --agreed
      trv undo --agreed --ask -o undo.json        # at a distance: ann runs trv undo --sign undo.json -o a.json
      trv undo --agreed --with a.json
    """
    svc = service(session)
    name = session.game_id()
    meta = svc.store.header(name)
    keyring: Keyring | WithSignatures | None = None
    if meta.charter:  # seats bound to keys: the retraction is signed (docs/fair-play.md)
        from .identity import Keyring, acting_seat
        from trvendetta.core.fairplay import charter_of

        keyring = Keyring(dict(charter_of(meta.charter).seats), acting_seat(None))
    if (ask or sign_file) and not output:
        raise click.UsageError("--ask and --sign write a file: give -o FILE")
    if whole_turn and (ask or sign_file or with_files):
        raise click.UsageError("--turn takes back your own move here; an agreed undo at a distance (--ask, --sign, "
                               "--with) takes back one action")
    if ask or sign_file or with_files:
        from . import cosign

        if ask:
            assert output is not None  # (refused above without -o)
            click.echo(cosign.ask(svc.store, name, output))
            return
        if sign_file:
            assert output is not None  # (refused above without -o)
            click.echo(cosign.sign(svc.store, name, sign_file, output, keyring))
            return
        if not agreed:
            raise click.UsageError("--with gives the signatures of an agreed undo: add --agreed")
        keyring = cosign.keyring_with(svc.store, name, keyring, with_files)
    undone = svc.undo(name, agreed=agreed, keyring=keyring, turn=whole_turn, seen_at=seen_at)
    lines = [(undone.first + i, _retraction_sentence(undone.ruleset, retraction, group), retraction)
             for i, (retraction, group) in enumerate(undone.retractions)]
    if as_json:
        echo_json(played_json(undone.played, retractions=[
            {"n": n, "text": text, "player": r.player, "first": r.first, "last": r.last, "agreed": r.agreed}
            for n, text, r in lines]))
        return
    for n, text, _ in lines:
        click.echo(f"{n:>5}. {text}")
    print_played(undone.played)  # what the bots did, and what the game waits for


@click.command()
@click.argument("game", required=False, shell_complete=complete_game)
@click.option("--at", "at", type=event_number(), required=True, metavar="N",
              help="Share the history up to event N; inside an action, up to the action's start (said).")
@click.option("--name", "new_name", required=True, metavar="ID", help="The new game's id.")
@click.option("--switch", is_flag=True, help="Make the fork the current game (default: GAME stays current).")
@json_option
@game_option
@pass_session
def fork(session: Session, game: str | None, at: int, new_name: str, switch: bool, as_json: bool) -> None:
    """Start a what-if game sharing GAME's history up to event N; the original is untouched.

    An action is shared whole or not at all: N inside an action (a move's
    later steps, the dice it rolled) forks before that action, so the
    what-if plays it again, and a line says so.  The original stays the
    current game (the one commands act on without --game) unless --switch
    is given.

    \b
    Examples:
      trv fork duel --at 40 --name duel-what-if
      trv fork duel --at 40 --name duel-what-if --switch
    """
    check_name(new_name)
    name = _game_arg(session, game)
    loaded, played, shared, moved = service(session).fork_near(name, at, new_name, switch=switch)
    current = new_name if switch else name
    if as_json:
        echo_json(played_json(played, parent=name, at=shared, asked=at, moved=moved or None, current=current))
        return
    click.echo(new_name)
    if moved:
        click.echo(moved)
    click.echo(f"forked from {name} after event {shared}, head {loaded.head[:16]}")
    print_played(played)  # a fork keeps the bot seats; what they did, and what the game waits for
    click.echo(f"current game: {current}" + ("" if switch else f" (use --game {new_name}, or fork with --switch)"))


def _crossed(session: Session, gf: Any, data: bytes) -> bool:
    """A packet that crossed a claim in the mail (``app.outcome.crossed``): said, and kept or applied."""
    from trvendetta.app.outcome import crossed

    from .identity import home

    store = session.store()
    try:
        late = crossed(store, gf.header.game, gf, clock_now())
    except replays.AlreadyApplied as exc:
        click.echo(f"{gf.header.game}: {exc}")
        return True
    if late is None:
        return False
    game, ended = gf.header.game, late.outcome
    if late.appended:
        click.echo(f"{ended.number:>5}. {ended.line()}")
        click.echo(f"{game}: the claim is appended after events {ended.record.after + 1}-{ended.number - 1}, "
                   f"{ended.loser}'s answer, which came after the deadline by the claimant's clock: the game is over")
        return True
    folder = home() / "evidence"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game}-after-{ended.record.after}-{len(list(folder.iterdir())) + 1}.trv"
    path.write_bytes(data)
    click.echo(f"{game} is over ({ended.line()}); this packet answers event {ended.record.after} after that: "
               f"kept as evidence in {path}, and the game is not reopened")
    return True


@click.command()
@click.argument("target", required=False, metavar="[GAME | FILE]")
@click.option("--claim", type=click.Path(exists=True, dir_okay=False), metavar="STATE.json",
              help="Compare a claimed board (the `trv show --json` document) with the record.")
@click.option("--against", type=click.Path(exists=True, dir_okay=False), metavar="OTHER.trv",
              help="Compare with another record of the same game: where they split, who signed both.")
@json_option
@game_option
@pass_session
def verify(session: Session, target: str | None, claim: str | None, against: str | None, as_json: bool) -> None:
    """Re-execute every recorded action and check every event byte for byte.

    From the recorded set-up and seed, every action goes through the rules
    again; every event must come out identical and the hash chain must hold.
    Prints `OK: N events, head HASH`; otherwise exits 1 naming the first
    divergent event, recorded and recomputed side by side.  With --claim,
    also names the first vehicle or token where the claimed board differs.
    With --json, one document (``ok``, and the refusal as ``error``) on
    standard output, whatever the verdict.

    \b
    Examples:
      trv verify
      trv verify duel.trv
      trv verify duel.trv --claim board.json
      trv verify mine.trv --against theirs.trv
      trv verify duel.trv --json
    """
    doc: dict[str, Any] = {"ok": False}
    try:
        if against is not None:
            _verify_against(target, against, doc, as_json)
        else:
            _verify_one(session, target, claim, doc, as_json)
    except TrvError as exc:
        if as_json:
            doc["error"] = str(exc)
            echo_json(doc)
        raise
    if as_json:
        echo_json(doc)


def _verify_against(target: str | None, against: str, doc: dict, as_json: bool) -> None:
    """`trv verify A --against B` (``doc``: the --json document, filled in)."""
    if target is None or not os.path.isfile(target):
        raise click.UsageError("--against compares two record files: trv verify A.trv --against B.trv")
    from trvendetta.replays import disputes

    a = replays.read_file(read_untrusted(target), target)
    b = replays.read_file(read_untrusted(against), against)
    found = disputes.compare(a, b, (target, against))
    doc.update(records=[target, against], lines=found.lines, split=found.split, equivocator=found.equivocator,
               problems=dict(found.problems))
    if not as_json:
        for line in found.lines:
            click.echo(line)
    split = found.split or 0  # (an equivocator is found where the records split)
    if found.equivocator == disputes.HOST:
        raise TrvError(f"the host signed two different resolutions of one intent after event {split - 1}")
    if found.equivocator:
        raise TrvError(f"{found.equivocator} signed two different games after event {split - 1}")
    if found.split is not None:
        raise TrvError(f"the records split at event {found.split}")
    if found.problems:
        raise TrvError(f"{', '.join(found.problems)} does not verify")
    doc["ok"] = True


def _verify_one(session: Session, target: str | None, claim: str | None, doc: dict, as_json: bool) -> None:
    """`trv verify [GAME | FILE] [--claim STATE.json]` (``doc``: the --json document, filled in)."""
    if target is not None and os.path.isfile(target):
        gf = replays.read_file(read_untrusted(target), target)
        doc["file"] = target
        result = replays.verify_file(gf)
        records: Any = gf.records
        meta: Any = gf.header
        start = gf.genesis
        checked = f"the record file {target}"
    else:
        store = session.store()
        name = _game_arg(session, target)
        doc["game"] = name
        result = replays.verify_game(store, name)
        records = None
        meta = store.header(name)
        start = meta.genesis
        checked = f"game {name} of the store"
    lines: list[str] = []
    if claim is not None:
        data = read_untrusted(claim)
        ruleset = result.walker.ruleset
        number = _claimed_version(data, result.events)
        if records is None:
            records = session.store().events(name, upto=number)
        state, number = replays.state_at(ruleset, records, number, meta.charter, meta.domain, start)
        diff = replays.compare_claim(ruleset, state, number, data)
        doc["claim"] = {"matches": not diff, "after": number, "difference": diff or None}
        if diff:
            raise TrvError(f"the claim differs from the record: {diff}")
        lines.append(f"claim matches the record after event {number}")
    doc.update(ok=True, events=result.events, head=result.head, signed=result.signed, unsigned=result.unsigned)
    sigs = result.walker.signatures
    keys, host = getattr(sigs, "seats", {}), getattr(sigs, "host", "")
    # the bot seats the charter declares, each with the key that signs its moves (whoever runs it)
    doc["bot_seats"] = {seat: {"kind": kind, "key": keys.get(seat, ""), "run_by_host": bool(host) and keys.get(seat) == host}
                        for seat, kind in getattr(sigs, "bots", {}).items()}
    lines.append(f"OK: {result.events} events, head {result.head}")
    from trvendetta.core.events import script_size

    fixed = script_size(getattr(getattr(result.walker, "_first_event", None), "position", None))
    doc["scripted"] = fixed
    if fixed:
        lines.append(f"scripted: the set-up fixes {fixed} dice and draws ([script]): those outcomes were chosen, "
                     "not rolled")
    doc["bots_unchained"] = result.bots_unchained
    if result.bots_unchained:
        lines.append("bots: the bot seats are outside the hash chain (a game stored before they were chained): "
                     "nothing shows they are the ones the game was played with")
    lines.append(f"checked {checked}")
    ended = result.walker.outcome
    doc["ended"] = None
    if ended is not None:
        when = ended.record.at
        if ended.how == "time":
            when += f", the claimant's clock: {ended.loser} had to answer event {ended.record.after} by " \
                    f"{ended.record.deadline}"
        lines.append(f"ended at event {ended.number}: {ended.sentence} ({when})")
        doc["ended"] = {"n": ended.number, "how": ended.how, "text": ended.sentence, "at": ended.record.at}
    lines.append(signature_summary(result))
    from trvendetta.replays.charters import marks

    lines.extend(marks(meta.charter))  # what the charter leaves open (a game made before a defence)
    from trvendetta.app.sealing import open_pieces_line

    opened = open_pieces_line(result.walker.ruleset, getattr(result.walker, "_first_event", None), meta.charter)
    if opened:
        lines.append(opened)
    if result.note:
        lines.append(result.note)
    doc["note"] = result.note or None
    doc["lines"] = lines
    if not as_json:
        for line in lines:
            click.echo(line)


def signature_summary(result: Any) -> str:
    """Which seats signed their actions, and which are unsigned (anyone could have played them)."""
    from trvendetta.replays.signatures import fingerprint

    signed = result.signed
    parts = []
    if signed:
        delegated = getattr(result.walker.signatures, "delegated", {})
        parts.append("signed by " + ", ".join(f"{seat} ({fingerprint(result.walker.signatures.seats[seat])}, "
                                              f"{n} signature{'s' if n != 1 else ''}"
                                              + (f", {delegated[seat]} by a delegated key"
                                                 if delegated.get(seat) else "")
                                              + ")" for seat, n in signed.items()))
        if any(delegated.values()):
            parts.append("a delegation's end is checked when a record reaches a store, not here (a record holds "
                         "no time of a signature)")
    unsigned = result.unsigned
    if unsigned:
        parts.append(f"unsigned seats: {', '.join(unsigned)} (no key: nothing shows who made their actions)")
    bots = getattr(result.walker.signatures, "bots", {})
    if bots:
        keys = result.walker.signatures.seats
        host = getattr(result.walker.signatures, "host", "")
        parts.append("bot seats: " + ", ".join(
            f"{seat} ({kind}, run by " + (f"the host, key {fingerprint(host)}" if keys[seat] == host else
                                          f"key {fingerprint(keys[seat])}") + ")"
            for seat, kind in bots.items()))
    host = getattr(result.walker.signatures, "host", "")
    if host:
        n = result.walker.signatures.checked.get("@host", 0)
        parts.append(f"host {fingerprint(host)} ({n} signature{'s' if n != 1 else ''})")
        old = result.walker.signatures.legacy_host
        if old:
            parts.append(f"{old} of them (made by an older trv) cover a draw's action but not its events")
        if result.rolls_unchecked:
            commit = result.walker.signatures.charter.seed_commit
            parts.append(f"the rolls are not yet checkable: the host ({fingerprint(host)}) has not revealed the "
                         f"seed it committed to ({commit[:16]}...) (trv host reveal)")
        else:
            parts.append("every roll checked against the host's revealed seed")
    return "; ".join(parts)


def _claimed_version(data: bytes, events: int) -> int:
    import msgspec

    class _V(msgspec.Struct):
        version: int | None = None

    try:
        v = msgspec.json.decode(data, type=_V).version
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return events  # compare_claim names what is wrong with it
    if v is None or not 1 <= v <= events:  # there is no board before event 1
        return events
    return v


COMMANDS = [export, import_, replay, undo, fork, verify]
