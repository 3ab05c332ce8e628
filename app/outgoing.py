"""``trv send``: the packet of a shared game's records the other players lack (docs/fair-play.md).

:func:`outgoing` reads who made each record (``replays.outbox``) and returns
the packet after the last record another party made (or the whole record when
nothing was made elsewhere yet), and who it goes to.  It writes nothing.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from trvendetta import replays
from trvendetta.core.errors import TrvError
from trvendetta.replays import outbox
from trvendetta.replays.signatures import HOST
from trvendetta.store import GameStore


#: a whole record's mail names at most this many of its last events in words
WORDS_OF_A_RECORD = 40


def in_words(store: GameStore, game: str, since: int | None, upto: int | None = None) -> list[str]:
    """The records after ``since`` (None: the whole game's last WORDS_OF_A_RECORD) as
    ``trv log`` says them, numbered, for the top of a mail (``replays.mail.armor``)."""
    from trvendetta.store import STORE_KINDS, describe_store_record

    ruleset = store.ruleset_of(game)
    records = store.events(game, upto=upto, since=since or 0)
    skipped = len(records) - WORDS_OF_A_RECORD if since is None and len(records) > WORDS_OF_A_RECORD else 0
    lines = [f"{game}: events 1-{skipped} are in the record below (trv log after the import)"] if skipped else []
    for r in records[skipped:]:
        text = describe_store_record(r.event) if r.kind in STORE_KINDS else ruleset.describe(r.event)
        lines.append(f"{r.number}. {text}")
    return lines


class Outgoing(NamedTuple):
    """What ``trv send`` writes: ``text`` holds the records after ``since`` (None: the whole
    record) up to ``upto``; ``recipients`` are the other parties (seats, "the host")."""

    game: str
    text: str
    since: int | None
    upto: int
    recipients: list[str]


def outgoing(store: GameStore, game: str, local: set[str], since: int | None = None) -> Outgoing | None:
    """The packet for the parties other than ``local`` (seats whose keys are here, ``@host`` when
    this store's user hosts the game); ``since`` overrides the computed point.  None: they have
    every record already."""
    meta = store.header(game)
    known = outbox.parties(meta.charter)
    if not known:
        raise TrvError(f"game {game!r} has no seats bound to keys: it is played at one terminal. To mail a "
                       f"hot-seat game, write a packet with: trv export {game} --since N --mail -o FILE")
    others = [p for p in known if p not in local]
    if not others:
        raise TrvError(f"every seat of game {game!r} is yours here ({', '.join(sorted(local))}): there is no "
                       "other player to send it to")
    records = store.events(game, decode=False)
    upto = len(records)
    if since is None:
        since = outbox.last_made_elsewhere(store, game, records, local, known)
    elif since > upto:
        raise TrvError(f"--since {since}: game {game!r} has only {upto} events")
    if since == upto:
        return None
    recipients = ["the host" if p == HOST else p for p in others]
    text = replays.export(store, game, since=since)
    return Outgoing(game, text, since, upto, recipients)


__all__ = ["Outgoing", "in_words", "outgoing"]
