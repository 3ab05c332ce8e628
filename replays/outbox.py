"""What to send: which records of a shared game the other players do not have yet (``trv send``).

A game at a distance (seats bound to keys, docs/fair-play.md) is played in
several stores; each record was *made* in one of them: an action by its
seat's player (a bot seat's by whoever runs it), an intent or a reveal by its
seat, a host game's resolution and seed reveal by the host, a retraction by
the player taking the action back, an exchange draw's resolution by the
player whose reveal completed it, and every other event of an action by
whoever made that action.  The record says all of that (signatures, seats,
the walk's pending decisions), so no bookkeeping outside it is needed.

:func:`makers` names the maker of each record; :func:`unsent_since` is the
last record another party made: every record after it was made here, so the
others lack exactly those (everyone mails every packet to every other
store).  When nothing in the game was made elsewhere yet, the others may
not have the game at all: the whole record is sent (``trv import`` of a
record over the same game applies its new part like a packet).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trvendetta.store import (CLAIM_KIND, HOST_REVEAL_KIND, INTENT_KIND, RESIGN_KIND, RETRACTION_KIND, REVEAL_KIND,
                              REVOKE_KIND, HostReveal, decode_charter, decode_draw, decode_outcome, decode_retraction)

from .signatures import HOST, parse
from .walker import Visitor

_DRAW_KINDS = (INTENT_KIND.encode(), REVEAL_KIND.encode(), HOST_REVEAL_KIND.encode())
_OUTCOME_KINDS = (CLAIM_KIND.encode(), RESIGN_KIND.encode())


class _Seats(Visitor):
    """The seat whose decision each action answered, by record number."""

    needs_event_state = False

    def __init__(self) -> None:
        self.actions: dict[int, str | None] = {}

    def on_action(self, walker: Any, record: Any, group: Any) -> None:
        self.actions[record.number] = group.player


def _kind(payload: bytes) -> bytes:
    """The ``type`` of a store record's payload (``b""`` for an engine event's)."""
    if not payload.startswith(b'{"type":"trv-'):
        return b""
    return payload[9:payload.index(b'"', 9)]


#: the maker of a record a walk resumed after a point cannot name: it depends on the records before
UNKNOWN: Any = object()


def makers(walker_for: Any, ruleset: Any, charter: str, domain: str, records: list[Any],
           start: str | None = None) -> list[str | None]:
    """Who made each record: a seat, :data:`~replays.signatures.HOST`, or None (the set-up,
    or a record no seat's decision made).  ``start``: the game's genesis (default: its charter's)."""
    seats = _Seats()
    walker_for(ruleset, charter, domain, [seats], start=start).walk(records)
    return _made(records, seats.actions, None, b"")


def makers_after(records: Sequence[Any], at: int, seats: _Seats) -> list[str | None]:
    """Who made each of ``records[at:]``, from a walk resumed after record ``at`` (``seats``
    its visitor): :data:`UNKNOWN` where that depends on the records before ``at`` (a record
    no decision made, or an action appended after a reveal, takes the maker of the record
    before it); every other entry is the one :func:`makers` gives."""
    kind = _kind(records[at - 1].payload) if at else b""
    return _made(records[at:], seats.actions, UNKNOWN if at else None, kind)


def _made(records: Sequence[Any], actions: dict[int, str | None], previous: str | None,
          previous_kind: bytes) -> list[str | None]:
    out: list[str | None] = []
    for record in records:
        kind = _kind(record.payload)
        maker: str | None = None
        names = [seat for seat, _ in parse(record.sig)] if record.sig else []
        if HOST in names:
            maker = HOST
        elif kind == RETRACTION_KIND.encode():
            maker = decode_retraction(record.payload).player
        elif kind == REVOKE_KIND.encode():  # signed by its seat, carried into the game by the host (server)
            maker = HOST
        elif kind in _OUTCOME_KINDS:  # a claim is its claimant's, a resignation its seat's
            found = decode_outcome(record.payload)
            maker = getattr(found, "by", found.seat)
        elif kind in _DRAW_KINDS:
            drawn = decode_draw(record.payload)
            maker = HOST if isinstance(drawn, HostReveal) else drawn.seat  # (a host reveal's kind)
        elif record.number in actions:
            # an exchange draw's resolution is appended by the store whose reveal completed it
            maker = previous if previous_kind == REVEAL_KIND.encode() else actions[record.number]
        out.append(maker if maker is not None else previous)
        previous, previous_kind = out[-1], kind
    return out


def last_made_elsewhere(store: Any, game: str, records: Sequence[Any], local: set[str], known: list[str]) -> int | None:
    """:func:`unsent_since` of the whole game, from walks of its last actions only
    (``replays.resume.tail_walk``: further back while the answer depends on older records)."""
    from trvendetta import rulesets

    from .resume import tail_walk, walker_for

    meta = store.header(game)
    found: list[int | None] = []

    def enough(walker: Any, at: int) -> bool:
        since = unsent_since(makers_after(records, at, walker.visitors[0]), local, known, at + 1)
        found.append(since)
        return since is not UNKNOWN

    def whole(visitors: list[Any]) -> Any:
        ruleset = rulesets.get(meta.ruleset)
        walker = walker_for(ruleset, meta.charter, meta.domain, visitors).walk(records)
        found.append(unsent_since(_made(records, visitors[0].actions, None, b""), local, known))
        return walker

    tail_walk(store, game, records, lambda: [_Seats()], enough, whole)
    return found[-1]


def parties(charter: str) -> list[str]:
    """Every party of a shared game: its bound seats, and a host game's host."""
    parsed = decode_charter(charter)
    if parsed is None:
        return []
    return sorted(parsed.seats) + ([HOST] if parsed.host else [])


def unsent_since(made: list[str | None], local: set[str], known: list[str], first: int = 1) -> int | None:
    """The number of the last record a party other than ``local`` made (everything after it
    was made here); None when no record was made elsewhere (send the whole record).  ``made``:
    the makers of the records from number ``first`` on; when ``first`` is not 1, or a maker
    is :data:`UNKNOWN`, and no other party's record is found after it, :data:`UNKNOWN`."""
    for number in range(len(made), 0, -1):
        maker = made[number - 1]
        if maker is UNKNOWN:
            return UNKNOWN  # type: ignore[return-value]  # (mypy narrows the Any sentinel to maker's type here)
        if maker in known and maker not in local:
            return number + first - 1
    return None if first == 1 else UNKNOWN


__all__ = ["UNKNOWN", "last_made_elsewhere", "makers", "makers_after", "parties", "unsent_since"]
