"""Draws of an exchange game: the bookkeeping of intents and reveals (docs/fair-play.md).

In a game whose charter says ``dice="exchange"``, every seat committed to the
top of a hash chain (``charter.commits``) and revealed its first value for
the set-up (``charter.setup``, draw 1).  Later, an action that needs chance
is recorded as an *intent* (signed by its seat, with the seat's own reveal
for the next draw); then each other seat, in charter order starting after the
actor, appends its *reveal*; the action is then recorded with its events,
resolved with ``draw_rng`` of every reveal (taken in seat-name order).  The
order of the reveals is the game's turn order (``charter.order``); a game
made before the charter had it goes in seat-name order.  :class:`Draws` follows a walk
and checks every reveal against its chain; it tells the walker the RNG of
each action (``NoDice`` when no draw was made: the rules may then use none).
"""

from __future__ import annotations

from typing import Any

from trvendetta.core.draws import draw_rng, follows
from trvendetta.core.rng import NoDice
from trvendetta.core.fairplay import charter_of, decode_draw_as
from trvendetta.store import INTENT_KIND, REVEAL_KIND, Charter, Intent, Reveal

from .walker import Tampered


class Draws:
    """The open draw and each seat's last reveal, along a walk."""

    def __init__(self, given: Charter | str):
        charter = charter_of(given)
        #: the game's id (event 1's hash), once walked
        self.game_id = ""
        #: the seats in name order: each draw's RNG takes their reveals in this order
        self.seats = sorted(charter.seats)
        #: the turn order: after an actor, the other seats reveal in this order (games made before
        #: the charter's ``order``: name order)
        self.order = list(charter.order) or self.seats
        if sorted(self.order) != self.seats:
            raise Tampered(1, f"the charter's turn order ({', '.join(self.order)}) is not its seats "
                              f"({', '.join(self.seats)})")
        self.last = {s: bytes.fromhex(charter.commits[s]) for s in self.seats}
        self.setup = [bytes.fromhex(charter.setup[s]) for s in self.seats]
        for seat, value in zip(self.seats, self.setup):
            if not follows(value, self.last[seat]):
                raise Tampered(1, f"{seat}'s set-up reveal in the charter is not the value {seat}'s commitment fixed")
            self.last[seat] = value
        self.next_draw = 2
        #: the open draw: {"seat", "draw", "action", "reveals": {seat: bytes}, "number", "hash", "previous",
        #: "sig"} (the intent record's chain hash, the hash before it and its signature)
        self.open: dict[str, Any] | None = None
        #: whether each draw's dice cover the intent they resolve (a game made since one-reveal-per-draw)
        self.covers_intent = bool(charter.nonce)

    def setup_rng(self) -> Any:
        return draw_rng(1, self.setup)

    def waiting_for(self) -> str | None:
        """Whose reveal the open draw waits for (None: no open draw, or complete)."""
        if self.open is None:
            return None
        for seat in self._ring(self.open["seat"]):
            if seat not in self.open["reveals"]:
                return seat
        return None

    def ring(self, actor: str) -> list[str]:
        """The other seats, in the order they reveal after ``actor``."""
        return self._ring(actor)

    def _ring(self, actor: str) -> list[str]:
        i = self.order.index(actor)
        return self.order[i + 1:] + self.order[:i]

    def _check(self, number: int, seat: str, draw: int, value: bytes) -> None:
        if seat not in self.last:
            raise Tampered(number, f"{seat} is not a seat of this exchange game")
        if not follows(value, self.last[seat]):
            raise Tampered(number, f"{seat}'s reveal for draw {draw} is not the value {seat}'s commitment fixed "
                                   "(it does not hash to the previous one): the dice were changed")

    def on_intent(self, record: Any, intent: Intent, seat: str | None) -> None:
        number = record.number
        if self.open is not None:
            raise Tampered(number, f"a new intent while draw {self.open['draw']} is still open")
        if intent.seat != seat:
            raise Tampered(number, f"the intent is {intent.seat}'s but the game waits on {seat}")
        if intent.draw != self.next_draw:
            raise Tampered(number, f"the intent opens draw {intent.draw}; the next draw is {self.next_draw}")
        value = bytes.fromhex(intent.reveal)
        self._check(number, intent.seat, intent.draw, value)
        self.open = opened(record, intent, {intent.seat: value})

    def on_reveal(self, record: Any, reveal: Reveal) -> None:
        number = record.number
        if self.open is None:
            raise Tampered(number, "a reveal with no open draw")
        expected = self.waiting_for()
        if reveal.seat != expected or reveal.draw != self.open["draw"]:
            raise Tampered(number, f"a reveal of {reveal.seat} for draw {reveal.draw}; the open draw "
                                   f"{self.open['draw']} waits for {expected}")
        value = bytes.fromhex(reveal.reveal)
        self._check(number, reveal.seat, reveal.draw, value)
        self.open["reveals"][reveal.seat] = value

    def rng_of(self, open_: dict[str, Any]) -> Any:
        """The RNG of the open draw ``open_``, every reveal in."""
        reveals = [open_["reveals"][s] for s in self.seats]
        return draw_rng(open_["draw"], reveals, open_["hash"] if self.covers_intent else "")

    def rng_for(self, record: Any) -> tuple[Any, bool]:
        """The RNG of the action starting at ``record``, and whether an intent covers it."""
        if self.open is None:
            return NoDice(), False
        number = record.number
        if self.waiting_for() is not None:
            raise Tampered(number, f"the action of draw {self.open['draw']} is resolved before "
                                   f"{self.waiting_for()} revealed")
        if record.action != self.open["action"]:
            raise Tampered(number, f"the action resolved is not the one {self.open['seat']} recorded in the intent "
                                   f"(event {self.open['number']})")
        rng = self.rng_of(self.open)
        for seat, value in self.open["reveals"].items():
            self.last[seat] = value
        self.next_draw += 1
        self.open = None
        return rng, True


def draws_at(store: Any, game: str, charter: Charter | str, upto: int | None = None) -> Draws:
    """The draws of a stored exchange game after record ``upto`` (default: its
    last), read from the records of its newest two draws only, not the whole
    game: the newest resolved draw holds every seat's newest reveal (each seat
    reveals in every draw), and an open draw the reveals made so far.

    The store's own records were checked when they were appended, as the
    stored state is trusted for play; ``trv verify`` walks them all."""
    draws = Draws(charter)
    records = newest_draws(store, game, upto)
    intents = [i for i, r in enumerate(records) if r.kind == INTENT_KIND]
    if not intents:
        return draws
    intent, reveals, resolved = read_draw(records, intents[-1])
    if resolved:
        draws.last.update(reveals)
        draws.next_draw = intent.draw + 1
        return draws
    if len(intents) >= 2:
        draws.last.update(read_draw(records, intents[-2])[1])
    draws.next_draw = intent.draw
    draws.open = opened(records[intents[-1]], intent, reveals)
    return draws


def opened(record: Any, intent: Intent, reveals: dict[str, bytes]) -> dict[str, Any]:
    """The open draw of the intent ``intent`` at ``record``, with the reveals made so far."""
    return {"seat": intent.seat, "draw": intent.draw, "action": record.action, "reveals": reveals,
            "number": record.number, "hash": record.hash, "previous": record.previous, "sig": record.sig}


def newest_draws(store: Any, game: str, upto: int | None = None) -> list[Any]:
    """The game's raw records through ``upto`` (default: its last) from the
    newest two intents on (or from its newest intent, when an action
    resolved it; or all of them), read back from the end in growing spans."""
    end = store.version(game) if upto is None else upto
    records: list[Any] = []
    since, span = end, 64
    while since > 1:  # record 1 is the set-up
        since, span = max(1, since - span), span * 2
        records = store.events(game, upto=end, since=since, decode=False)
        intents = [i for i, r in enumerate(records) if r.kind == INTENT_KIND]
        if len(intents) >= 2 or (intents and read_draw(records, intents[-1])[2]):
            break
    return records


def read_draw(records: list[Any], i: int) -> tuple[Intent, dict[str, bytes], bool]:
    """The intent at ``records[i]``, the reveals after it, and whether an action resolved it."""
    intent = decode_draw_as(records[i].payload, Intent)
    reveals = {intent.seat: bytes.fromhex(intent.reveal)}
    for r in records[i + 1:]:
        if r.kind != REVEAL_KIND:
            return intent, reveals, bool(r.action)
        reveal = decode_draw_as(r.payload, Reveal)
        reveals[reveal.seat] = bytes.fromhex(reveal.reveal)
    return intent, reveals, False


__all__ = ["Draws", "draws_at", "newest_draws", "opened", "read_draw"]
