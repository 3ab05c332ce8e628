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
from trvendetta.core.draws import CHAIN_LENGTH, draw_rng, reveal
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
            f"{draws.open['seat']}'s {what!r})")


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
    from trvendetta.store import INTENT_KIND, Intent, RawRecord, decode_charter, encode_draw

    charter = decode_charter(loaded.charter)
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
    addition as (whether it is a numbered record, its sentence)."""

    before: int
    added: list[tuple[bool, str]]


def answer_draws(store: GameStore, game: str, keyring: Any, secrets: Secrets) -> Answered:
    """Append this store's reveals the open draw waits for (and, when the last
    one is in, the resolved action)."""
    from trvendetta.store import REVEAL_KIND, RawRecord, Reveal, decode_charter, encode_draw

    meta = store.header(game)
    before = store.version(game)
    draws = draws_of(store, game, meta.charter)
    if draws is None or draws.open is None:
        return Answered(before, [])
    charter = decode_charter(meta.charter)
    records, added = [], []
    open_ = draws.open
    while True:
        seat = draws.waiting_for()
        if seat is None or not keyring.can_sign(seat):
            break
        secret = secrets(charter.commits[seat])
        if secret is None:
            break
        value = reveal(secret, open_["draw"])
        records.append(RawRecord(REVEAL_KIND, 1, encode_draw(Reveal(seat, open_["draw"], value.hex()))))
        open_["reveals"][seat] = value
        added.append((True, f"{seat} reveals dice for draw {open_['draw']}"))
    version = store.append(game, before, records=records).version if records else before
    if draws.waiting_for() is None:  # every reveal is in (this store's was the last): resolve the action
        loaded = store.load(game)
        ruleset = loaded.ruleset
        action = ruleset.decode_action(open_["action"])
        rng = draw_rng(open_["draw"], [open_["reveals"][s] for s in draws.seats])
        _, events = ruleset.apply(loaded.state, action, rng)
        store.append(game, version, steps=[(action, events)])
        added.append((False, f"{open_['seat']}: {ruleset.describe_action(action)}"))
        added.extend((True, ruleset.describe(e)) for e in events)
    return Answered(before, added)


class ExchangeTurn:
    """One command's actions in a game with dice at a distance: each is tried
    without chance; the first that needs dice becomes a signed intent, and the
    command stops there (the rest waits for the other players' reveals)."""

    def __init__(self, store: GameStore, loaded: Any, keyring: Any, secrets: Secrets):
        self.store, self.loaded, self.keyring, self.secrets = store, loaded, keyring, secrets
        self.draws = draws_of(store, loaded.game, loaded.charter)
        draws = self.draws
        if draws.open is not None:
            ruleset = loaded.ruleset
            what = ruleset.describe_action(ruleset.decode_action(draws.open["action"]))
            raise TrvError(f"waiting for {draws.waiting_for()}'s dice (draw {draws.open['draw']}: "
                           f"{draws.open['seat']}'s {what!r}); import their answer first")
        self.intent: tuple[Any, str] | None = None

    def apply(self, ruleset: Any, state: Any, action: Any, seat: str | None) -> Any:
        from trvendetta.core.rng import NeedDice, NoDice

        try:
            return ruleset.apply(state, action, NoDice())
        except NeedDice:
            self.intent = (action, seat)
            return None

    def finish(self, steps: list, seats: list) -> tuple[list, list]:
        """The steps signed (the run goes on into the intent, which is signed) and the intent record."""
        from .signing import sign_runs

        action, seat = self.intent
        placeholder = (action, [])
        signed = sign_runs(self.store, self.loaded, self.keyring, steps + [placeholder], seats + [seat])[:-1]
        record = intent_record(self.loaded, self.draws, self.store.events_head(self.loaded.game, 1), self.keyring,
                               seat, self.loaded.ruleset.encode(action), self.secrets)
        return signed, [record]

    def note(self, before: int, now: int) -> str:
        action, seat = self.intent
        order = self.draws.order
        nxt = order[(order.index(seat) + 1) % len(order)]
        if charter_dice(self.loaded.charter) == "host":
            nxt = "the host"
        what = self.loaded.ruleset.describe_action(action)
        return (f"{now:>5}. {seat} waits for the others' dice for {what!r} (draw {self.draws.next_draw})\n"
                f"waiting for {nxt}'s dice: send the packet: trv send")


__all__ = ["Answered", "ExchangeTurn", "answer_draws", "draws_of", "intent_record", "waiting_line"]
