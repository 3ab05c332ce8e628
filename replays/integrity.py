"""What `trv verify GAME` checks beyond the events themselves: that the
store agrees with them.

The events are the truth; everything else in the store is derived from them
and must say the same: the games index row (count, head, status, its copy of the
game), every snapshot (the fold of the events it claims to follow), and SQLite's own
integrity check of the file.  All of it is read through the store's API
(``GameStore.info``, ``index_state``, ``snapshots``, ``integrity``), never its tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from trvendetta.store import DamagedStore, GameNotFound, StoredEvent
from trvendetta.store.rows import decoded

from .walker import Walker


def walk_noting(walker: Walker, records: Sequence[StoredEvent], numbers: Iterable[int]) -> dict[int, bytes]:
    """Walk ``records`` to the end, keeping the walker's state (encoded) after each of ``numbers``
    where it is exact: after a set-up event, the last event of an action, or a retraction (inside an
    action a re-executing walk holds the state ``apply`` gave until the action's last event).  The
    walk pauses at those numbers only: no visitor is called for every event, and a walk without
    visitors runs the actions between them ahead in batches (``Walker.feed_all``)."""
    states: dict[int, bytes] = {}
    shared: dict[str, tuple[Any, msgspec.Raw]] = {}
    done = 0
    for number in sorted(set(numbers)):
        if not done < number <= len(records):
            continue
        walker.feed_all(records[done:number])  # record n is records[n - 1]: else feed names the gap
        done = number
        if walker.settled and (walker.groups[-1].last == number or number in walker.retractions):
            states[number] = encoded(walker.ruleset, walker.state, shared)
    walker.feed_all(records[done:])
    walker.end()
    return states


def encoded(ruleset: Any, state: Any, shared: dict[str, tuple[Any, msgspec.Raw]]) -> bytes:
    """``ruleset.encode(state)``, byte for byte, its shared fields (``Ruleset.shared_state``: Vendetta's
    components, 7 kB of its 11.7 kB of JSON, the same object in every state of a game) encoded once for all the
    states of a walk: ``shared`` keeps each field's last value and its JSON, reused while the field holds that
    very object (a frozen state's: the engine never changes a value it made).  Any other state is encoded
    whole."""
    names = ruleset.shared_state
    if not names or not isinstance(state, msgspec.Struct) or not state.__struct_config__.frozen \
            or not set(names) <= set(state.__struct_fields__):
        return ruleset.encode(state)
    raws = {}
    for name in names:
        value = getattr(state, name)
        last = shared.get(name)
        if last is None or last[0] is not value:
            shared[name] = last = (value, msgspec.Raw(ruleset.encode(value)))
        raws[name] = last[1]
    return ruleset.encode(msgspec.structs.replace(state, **raws))


class Heads(Sequence[str]):
    """The chain hashes of ``records`` by index, each read where asked: ``GameStore.snapshots`` asks for
    the one at each snapshot's number (``heads``), a dozen in a game of 1,267 records, where a list of
    them all cost more than that."""

    __slots__ = ("records",)

    def __init__(self, records: Sequence[StoredEvent]):
        self.records = records

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [r.hash for r in self.records[index]]
        return self.records[index].hash


def index_row(store: Any, game: str) -> Any:
    """The games index's row for ``game`` (``GameStore.info``), None when it has none."""
    try:
        return store.info(game)
    except GameNotFound:
        return None


def missing_tail(game: str, stored: int, info: Any, snapshots: list[Any]) -> None:
    """DamagedStore naming the missing events when the games index (``info``, its row) or
    one of the game's ``snapshots`` says the game goes on past its last stored event (the
    ``stored`` events were just read): checked before the events are walked, so verify
    says exactly what is missing."""
    said = max([info.version if info is not None else 0, *(s.number for s in snapshots)])
    if said > stored:
        raise DamagedStore(game, stored + 1, f"events {stored + 1}-{said} are missing: the store holds {stored}, "
                                             f"the games index and snapshots say {said}")


def readable(store: Any, game: str) -> tuple[list[StoredEvent], DamagedStore | None]:
    """The game's events as far as they can be read, and the damage that
    stops there (None when there is none): an event that does not decode
    (the events before it are returned), or events the games index says the
    game holds and the store lacks (a cut-off tail).  For the commands that
    show what remains of a damaged game and then say where it is damaged
    (``trv log``, ``trv export``); nothing readable at all raises."""
    try:
        records = store.events(game)
    except DamagedStore as exc:
        if not exc.number or exc.number <= 1:
            raise
        return store.events(game, upto=exc.number - 1), exc
    try:
        said = store.info(game).version
    except GameNotFound:
        return records, None
    stored = len(records)
    if said > stored:
        return records, DamagedStore(game, stored + 1, f"events {stored + 1}-{said} are missing: the store holds "
                                                       f"{stored}, the games index says {said}")
    return records, None


class IncompleteExport(DamagedStore):
    """The export of a damaged game: ``text`` is the record (or packet) of
    the events that can be read, ``damage`` what stops the rest."""

    def __init__(self, damage: DamagedStore, text: str, events: int):
        super().__init__(damage.game, damage.number, f"{damage.detail}; the record holds events 1-{events} only")
        self.damage = damage
        self.text = text


def index_fields(info: Any, ruleset: Any, state: Any) -> list[str]:
    """What the games-index row ``info`` says wrong of the game folded to ``state``: every field the events
    decide as the store writes it (``GameStore._row``); created and last_used are the store's own times."""
    problems = []
    summary = ruleset.summary(state)
    over = summary.status == "over"
    status, winner = ("over" if over else "playing"), (summary.winner if over else None)
    if (info.status, info.winner) != (status, winner):
        problems.append(f"the games index says {info.status} (winner {info.winner}), the events say {status} "
                        f"(winner {winner})")
    for field, said, true in (("ruleset", info.ruleset, ruleset.name),
                              ("players", list(info.players), list(summary.players)),
                              ("round", info.round, summary.round)):
        if said != true:
            problems.append(f"the games index says its {field} is {said!r}, the events say {true!r}")
    return problems


def store_damage(store: Any, walker: Walker, info: Any, snapshots: list[Any], states: dict[int, bytes],
                 cached: Any = None) -> list[str]:
    """Every way the store disagrees with the events just verified ([] when none); ``info``: the
    game's row in the games index (:func:`index_row`), ``cached`` its copy of the game
    (``GameStore.index_state``), ``states``: the fold's state (encoded) after the snapshots' and the
    copy's numbers (:func:`walk_noting`)."""
    problems = [f"SQLite's integrity check: {p}" for p in store.integrity()]
    ruleset, number, head = walker.ruleset, walker.number, walker.head
    if info is None:
        problems.append("the games index has no row for it")
    elif info.version > number:
        problems.append(f"the games index says it has {info.version} events (head {str(info.head)[:16]}...), "
                        f"the store holds {number}: events {number + 1}-{info.version} are missing")
    elif info.version < number:
        problems.append(f"the games index says it has {info.version} events, the store holds {number}")
    elif info.head != head:
        problems.append(f"the games index says its head is {str(info.head)[:16]}..., the events' is {head[:16]}...")
    else:
        problems += index_fields(info, ruleset, walker.state)
    copies = [(f"the snapshot after event {s.number}", s) for s in snapshots]
    for where, snap in copies + ([(f"the games index's copy of the game after event {cached.number}", cached)]
                                 if cached is not None else []):
        fold = states.get(snap.number)
        if snap.number > number:
            problems.append(f"{where} is past the last stored event {number}: events {number + 1}-{snap.number} "
                            "are missing")
            continue
        if fold is not None and snap.engine == fold and snap.ruleset == ruleset.name and not snap.problem:
            continue  # the fold's own bytes (a snapshot read with decode=False): nothing to decode
        snap = decoded(snap)
        if snap.problem:
            problems.append(f"{where}: {snap.problem} (it is ignored)")
        elif snap.state is not None and fold is not None and ruleset.encode(snap.state) != fold:
            problems.append(f"{where} is not the fold of events 1-{snap.number}: it was edited")
    return problems
