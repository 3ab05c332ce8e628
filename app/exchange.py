"""Exchange and host games in the application layer (docs/fair-play.md).

An action that needs dice becomes a signed *intent* and the command stops
(:class:`ExchangeTurn`, used by ``GameService.play``); importing a packet
answers the draw it waits for with this store's reveals, and the last
reveal resolves the action (:func:`answer_draws`).  Both work from the
stored state: an exchange game's draws are read from its newest draws'
records (``replays.exchange.draws_at``), the engine state from the store's
snapshots, never from a walk of the whole game; a host game's draws too
(``replays.host.host_draws_at``; the host's side is ``app/host.py``).

The players' secrets are the shell's business (``$TRV_HOME``): every
function here takes ``secrets(commitment_hex) -> bytes | None``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from trvendetta import rulesets
from trvendetta.core.draws import CHAIN_LENGTH, reveal
from trvendetta.core.errors import TrvError
from trvendetta.store import GameStore
from trvendetta.store.records import charter_dice

Secrets = Callable[[str], "bytes | None"]


def draws_of(store: GameStore, game: str, charter: str) -> Any:
    """The draws of a game with dice at a distance, as they stand (from its
    newest draws' records, not a walk of the whole game)."""
    dice = charter_dice(charter)
    if dice == "exchange":
        from trvendetta.replays.exchange import draws_at

        return draws_at(store, game, charter)
    if dice == "host":
        from trvendetta.replays.host import host_draws_at

        return host_draws_at(store, game, charter)
    return None


def waiting_line(store: GameStore, game: str) -> str | None:
    """"waiting for bob's dice (...)" while a draw is open, else None."""
    meta = store.header(game)
    draws = draws_of(store, game, meta.charter)
    if draws is None or draws.open is None:
        return None
    ruleset = rulesets.get(meta.ruleset)
    what = ruleset.describe_action(ruleset.decode_action(draws.open["action"]))
    return (f"waiting for {draws.waiting_for()}'s dice (draw {draws.open['draw']}: "
            f"{draws.open['seat']}'s {what!r}){_host_named(meta.charter)}")


def _host_named(charter: str) -> str:
    """", the host 25d6d3e613b2fb4c, commitment 8a97865887f45b6c..." in a host game, else ""."""
    from trvendetta.replays.signatures import fingerprint
    from trvendetta.store import decode_charter

    found = decode_charter(charter)
    if found is None or found.dice != "host":
        return ""
    return f"; the host is {fingerprint(found.host)}, its seed's commitment {found.seed_commit[:16]}..."


def unrevealed_line(store: GameStore, game: str) -> str | None:
    """In a host game that is over (by the rules, a claim or a resignation) without the host's reveal
    of its seed: the host, named with its commitment, and what stays unchecked; else None."""
    meta = store.header(game)
    if charter_dice(meta.charter) != "host":
        return None
    from trvendetta.replays.outcomes import ended_in

    draws = draws_of(store, game, meta.charter)
    loaded = store.load(game)
    over = loaded.ruleset.pending(loaded.state) is None or ended_in(store, game)
    if draws.revealed_at or not over:
        return None
    return ("the game is over and the host has not revealed its seed" + _host_named(meta.charter)
            + ": no roll can be checked until it does (trv host reveal)")


def _secret(secrets: Secrets, charter: Any, seat: str) -> bytes:
    secret = secrets(charter.commits[seat])
    if secret is None:
        raise TrvError(f"{seat}'s secret for this game is not in your $TRV_HOME/secrets: only {seat} can draw "
                       "for that seat")
    return secret


def intent_record(loaded: Any, draws: Any, game_id: str, keyring: Any, seat: str, action: bytes,
                  secrets: Secrets) -> Any:
    """The signed intent of ``seat``'s ``action``, with ``seat``'s reveal of the next draw."""
    from trvendetta.replays.signatures import domain_at, entry, message
    from trvendetta.core.fairplay import charter_of
    from trvendetta.store import INTENT_KIND, Intent, RawRecord, encode_draw

    charter = charter_of(loaded.charter)
    draw = draws.next_draw
    if charter.dice == "host":  # the host's seed decides the roll: the player adds nothing
        from trvendetta.replays.host import NO_REVEAL

        value = NO_REVEAL
    else:
        value = reveal(_secret(secrets, charter, seat), draw, CHAIN_LENGTH).hex()
    payload = encode_draw(Intent(seat, draw, value))

    def sign(number: int, previous: str, body: bytes) -> bytes:
        msg = message(domain_at(loaded.domain, game_id, number), number, previous, body)
        return entry(seat, keyring.sign(seat, msg))

    return RawRecord(INTENT_KIND, 1, payload, action, sign)


class Answered(NamedTuple):
    """What answering a draw appended: the game's records before it, and each
    addition as (whether it is a numbered record, its sentence); ``note``: why
    nothing was (a fork, for looking only)."""

    before: int
    added: list[tuple[bool, str]]
    note: str = ""


def intent_ref(store: GameStore, game: str, open_: dict[str, Any], ruleset: Any = None) -> Any:
    """The open draw's intent as a ledger keeps it (``app.ledger.IntentRef``)."""
    from .ledger import IntentRef

    what = ""
    if ruleset is not None:
        try:
            what = ruleset.describe_action(ruleset.decode_action(open_["action"]))
        except Exception:  # noqa: BLE001 - the action was checked when stored; a name is only for messages
            what = ""
    return IntentRef(game, store.events_head(game, 1), open_["draw"], open_["seat"], open_["number"],
                     open_["hash"], open_["previous"], open_["action"].decode(), (open_["sig"] or b"").decode(),
                     what)


def looking_only(game: str, parent: str) -> str:
    """Why a fork of a game with dice at a distance draws no dice."""
    return (f"{game} is a fork of {parent}, whose dice come from secrets that serve {parent} only (one reveal "
            f"per draw): a fork is for looking only; to play it out, start a new game (trv invite, trv host offer)")


def answer_draws(store: GameStore, game: str, keyring: Any, secrets: Secrets, ledger: Any) -> Answered:
    """Append this store's reveals the open draw waits for (and, when the last
    one is in, the resolved action), each checked against and recorded in the
    ``ledger`` of this store's secrets (``app.ledger``: one reveal per draw,
    refused with both intents named); none for a fork (for looking only)."""
    from trvendetta.core.fairplay import charter_of
    from trvendetta.store import REVEAL_KIND, RawRecord, Reveal, encode_draw

    from .ledger import claim, refuse
    from trvendetta.replays.outcomes import ended_in

    meta = store.header(game)
    before = store.version(game)
    draws = draws_of(store, game, meta.charter)
    if draws.open is not None and ended_in(store, game):  # a claim ended it: no answer
        return Answered(before, [])
    charter = charter_of(meta.charter)
    mine = [s for s in draws.seats if keyring.can_sign(s) and secrets(charter.commits[s]) is not None]
    if not meta.parent:  # this store's secrets serve this game (the first it met: see app.ledger)
        for seat in mine:
            ledger.bind(charter.commits[seat], game, store.events_head(game, 1))
    if draws.open is None:
        return Answered(before, [])
    open_ = draws.open
    waiting: list[str] = []  # this store's seats the draw waits for, in turn
    for seat in draws.ring(open_["seat"]):
        if seat in open_["reveals"]:
            continue
        if seat not in mine:
            break
        waiting.append(seat)
    if not waiting:
        return Answered(before, [])
    if meta.parent:
        return Answered(before, [], looking_only(game, meta.parent) + ": no dice revealed")
    ref = intent_ref(store, game, open_, rulesets.get(meta.ruleset))
    for seat in waiting:  # every seat's ledger first: nothing is revealed unless all may be
        refuse(ledger, charter.commits[seat], seat, ref)
    records, added = [], []
    for seat in waiting:
        claim(ledger, charter.commits[seat], seat, ref)
        secret = secrets(charter.commits[seat])
        assert secret is not None  # (waiting: seats of ``mine``, whose secrets are here)
        value = reveal(secret, open_["draw"])
        records.append(RawRecord(REVEAL_KIND, 1, encode_draw(Reveal(seat, open_["draw"], value.hex()))))
        open_["reveals"][seat] = value
        added.append((True, f"{seat} reveals dice for draw {open_['draw']}"))
    version = store.append(game, before, records=records).version if records else before
    if draws.waiting_for() is None:  # every reveal is in (this store's was the last): resolve the action
        loaded = store.load(game)
        ruleset = loaded.ruleset
        action = ruleset.decode_action(open_["action"])
        _, events = ruleset.apply(loaded.state, action, draws.rng_of(open_))
        store.append(game, version, steps=[(action, events)])
        added.append((False, f"{open_['seat']}: {ruleset.describe_action(action)}"))
        added.extend((True, ruleset.describe(e)) for e in events)
    return Answered(before, added)


def check_import(gf: Any, name: str | None, local: Callable[[str, str], bool], ledger: Any,
                 host_secret: Callable[[str], Any]) -> None:
    """Before a file is imported: refuse it (``app.ledger.OneReveal``, nothing written) when it ends
    on an open draw this store would answer and its ledger refuses that intent (another intent for
    the draw, another game for the secret).  ``local(seat, commitment)``: whether this store reveals
    for ``seat``; ``host_secret(commitment)``: the host's seed, when this store is the host."""
    from trvendetta.core.fairplay import decode_draw_as
    from trvendetta.store import INTENT_KIND, REVEAL_KIND, Intent, Reveal, decode_charter

    from .ledger import IntentRef, refuse

    charter = decode_charter(gf.header.charter)
    if charter is None or not charter.dice or gf.header.parent:  # a fork draws nothing anyway
        return
    marks = [b'{"type":"%s"' % kind.encode() for kind in (INTENT_KIND, REVEAL_KIND)]
    records = list(gf.records)
    at = next((i for i in range(len(records) - 1, -1, -1) if records[i].payload.startswith(marks[0])), None)
    if at is None or not all(r.payload.startswith(marks[1]) for r in records[at + 1:]):
        return  # no draw open at the file's end
    record, intent = records[at], decode_draw_as(records[at].payload, Intent)
    ruleset = rulesets.get(gf.header.ruleset)
    ref = IntentRef(name or gf.header.game, gf.header.game_id, intent.draw, intent.seat, record.number,
                    record.hash, record.previous, record.action.decode(), (record.sig or b"").decode(),
                    ruleset.describe_action(ruleset.decode_action(record.action)))
    if charter.dice == "host":
        if host_secret(charter.seed_commit) is not None:
            refuse(ledger, charter.seed_commit, "the host", ref)
        return
    revealed = {intent.seat} | {decode_draw_as(r.payload, Reveal).seat for r in records[at + 1:]}
    for seat in sorted(charter.seats):
        if seat not in revealed and local(seat, charter.commits[seat]):
            refuse(ledger, charter.commits[seat], seat, ref)


class ExchangeTurn:
    """One command's actions in a game with dice at a distance: each is tried
    without chance; the first that needs dice becomes a signed intent, and the
    command stops there (the rest waits for the other players' reveals)."""

    def __init__(self, store: GameStore, loaded: Any, keyring: Any, secrets: Secrets, ledger: Any):
        self.store, self.loaded, self.keyring, self.secrets, self.ledger = store, loaded, keyring, secrets, ledger
        self.draws = draws_of(store, loaded.game, loaded.charter)
        #: the game this one forks (a fork is for looking only: it draws no dice)
        self.parent = store.header(loaded.game).parent
        draws = self.draws
        if draws.open is not None:
            ruleset = loaded.ruleset
            what = ruleset.describe_action(ruleset.decode_action(draws.open["action"]))
            raise TrvError(f"waiting for {draws.waiting_for()}'s dice (draw {draws.open['draw']}: "
                           f"{draws.open['seat']}'s {what!r}); import their answer first")
        self.intent: tuple[Any, str | None] | None = None

    def apply(self, ruleset: Any, state: Any, action: Any, seat: str | None) -> Any:
        from trvendetta.core.rng import NeedDice, NoDice

        try:
            return ruleset.apply(state, action, NoDice())
        except NeedDice:
            if self.parent:
                raise TrvError(f"{ruleset.describe_action(action)!r} needs dice, and "
                               + looking_only(self.loaded.game, self.parent)) from None
            self.intent = (action, seat)
            return None

    def finish(self, steps: list, seats: list) -> tuple[list, list]:
        """The steps signed (the run goes on into the intent, which is signed) and the intent record."""
        from .signing import sign_runs

        from .ledger import IntentRef, check

        action, seat = self._intent()
        commit = self._commit(seat)
        if commit:  # this secret serves this game only: a copy of it under another name draws nothing
            game, game_id = self.loaded.game, self.store.events_head(self.loaded.game, 1)
            number = self.loaded.version + sum(len(step[1]) for step in steps) + 1  # the intent's, once saved
            check(self.ledger, commit, seat, IntentRef(game, game_id, self.draws.next_draw, seat, number, "", "",
                                                      "", "", self.loaded.ruleset.describe_action(action)))
        placeholder: tuple[Any, list[Any]] = (action, [])
        signed = sign_runs(self.store, self.loaded, self.keyring, steps + [placeholder], seats + [seat])[:-1]
        record = intent_record(self.loaded, self.draws, self.store.events_head(self.loaded.game, 1), self.keyring,
                               seat, self.loaded.ruleset.encode(action), self.secrets)
        return signed, [record]

    def _intent(self) -> tuple[Any, str]:
        """The action that needs dice and its seat (``finish``, ``recorded`` and ``note`` follow an
        ``apply`` that met one)."""
        if self.intent is None or self.intent[1] is None:
            raise ValueError("no seat's action waits for dice in this turn")
        return self.intent[0], self.intent[1]

    def _commit(self, seat: str) -> str:
        """The commitment of ``seat``'s secret that this intent reveals from ("" in a host game)."""
        from trvendetta.core.fairplay import charter_of

        charter = charter_of(self.loaded.charter)
        return "" if charter.dice == "host" else charter.commits[seat]

    def recorded(self) -> None:
        """After the save: the intent's draw is recorded in the ledger of the actor's secret."""
        from .ledger import claim

        _, seat = self._intent()
        commit = self._commit(seat)
        if not commit:
            return
        draws = draws_of(self.store, self.loaded.game, self.loaded.charter)
        claim(self.ledger, commit, seat, intent_ref(self.store, self.loaded.game, draws.open, self.loaded.ruleset))

    def note(self, before: int, now: int) -> str:
        action, seat = self._intent()
        order = self.draws.order
        nxt = order[(order.index(seat) + 1) % len(order)]
        if charter_dice(self.loaded.charter) == "host":
            nxt = "the host"
        what = self.loaded.ruleset.describe_action(action)
        return (f"{now:>5}. {seat} waits for the others' dice for {what!r} (draw {self.draws.next_draw})\n"
                f"waiting for {nxt}'s dice: send the packet: trv send")


__all__ = ["Answered", "ExchangeTurn", "answer_draws", "check_import", "intent_ref", "looking_only", "draws_of", "intent_record", "unrevealed_line",
           "waiting_line"]
