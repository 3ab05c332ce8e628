"""Draws of an exchange game: the bookkeeping of intents and reveals (docs/fair-play.md).

In a game whose charter says ``dice="exchange"``, every seat committed to the
top of a hash chain (``charter.commits``) and revealed its first value for
the set-up (``charter.setup``, draw 1).  Later, an action that needs chance
is recorded as an *intent* (signed by its seat, with the seat's own reveal
for the next draw); then each other seat, in charter order starting after the
actor, appends its *reveal*; the action is then recorded with its events,
resolved with ``draw_rng`` of every reveal.  :class:`Draws` follows a walk
and checks every reveal against its chain; it tells the walker the RNG of
each action (``NoDice`` when no draw was made: the rules may then use none).
"""

from __future__ import annotations

from typing import Any

from trvendetta.core.draws import draw_rng, follows
from trvendetta.core.rng import NoDice
from trvendetta.store import Charter, Intent, Reveal, decode_charter

from .walker import Tampered


class Draws:
    """The open draw and each seat's last reveal, along a walk."""

    def __init__(self, charter: Charter | str):
        if isinstance(charter, str):
            charter = decode_charter(charter)
        self.order = sorted(charter.seats)
        self.last = {s: bytes.fromhex(charter.commits[s]) for s in self.order}
        self.setup = [bytes.fromhex(charter.setup[s]) for s in self.order]
        for seat, value in zip(self.order, self.setup):
            if not follows(value, self.last[seat]):
                raise Tampered(1, f"{seat}'s set-up reveal in the charter is not the value {seat}'s commitment fixed")
            self.last[seat] = value
        self.next_draw = 2
        #: the open draw: {"seat", "draw", "action", "reveals": {seat: bytes}, "number"}
        self.open: dict[str, Any] | None = None

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
        self.open = {"seat": intent.seat, "draw": intent.draw, "action": record.action,
                     "reveals": {intent.seat: value}, "number": number}

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
        reveals = self.open["reveals"]
        rng = draw_rng(self.open["draw"], [reveals[s] for s in self.order])
        for seat, value in reveals.items():
            self.last[seat] = value
        self.next_draw += 1
        self.open = None
        return rng, True


__all__ = ["Draws"]
