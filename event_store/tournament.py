"""Tournaments in the game store: one event-sourced aggregate per tournament, beside the games, through
the eventsourcing application the :class:`GameStore` opened (never SQL on its tables). Its topics,
ids, records and hash chain: docs/tournament.md, "Events and storage"."""

from __future__ import annotations

from typing import Any, NamedTuple
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from trvendetta.tournament import events as tev
from trvendetta.tournament import model

from .store import notifications, utc_now
from .errors import ChainBroken, StoreError
from .records import GENESIS, STORE_SCHEMA, chain

_NAMESPACE = uuid5(NAMESPACE_URL, "https://trvendetta/tournaments/")
#: payload schema of the tournament events (raise it with an upcaster if one changes shape)
EVENT_SCHEMA = 1


def tournament_uuid(name: str) -> UUID:
    return uuid5(_NAMESPACE, name)


class TournamentNotFound(StoreError):
    def __init__(self, name: str, known: list[str]):
        text = f"no tournament {name!r} in this store"
        text += "; tournaments: " + ", ".join(known[:10]) if known else \
            "; create one with `trv tournament new NAME --rounds N`"
        super().__init__(text)


class TournamentExists(StoreError):
    def __init__(self, name: str):
        super().__init__(f"a tournament called {name!r} already exists; choose another name")


class TournamentMovedOn(StoreError):
    def __init__(self, name: str):
        super().__init__(f"tournament {name!r} moved on since this command loaded it; run the command again")


class Tournament(Aggregate):
    """A tournament: its name, head hash, event count and folded state."""

    TOPIC = "trvendetta:tournament"

    class Event(Aggregate.Event):
        TOPIC = "trvendetta:tournament:event"
        create_timestamp = staticmethod(utc_now)

    class Created(Event, Aggregate.Created):
        TOPIC = "trvendetta:tournament:created"
        name: str
        store_schema: int

    class Recorded(Event):
        TOPIC = "trvendetta:tournament:recorded"
        kind: str
        schema: int
        payload: str
        hash: str

        def apply(self, t: "Tournament") -> None:
            # checked before it is folded: nothing folds or appends on top of a damaged log
            expected = chain(t.head, self.payload.encode())
            if self.hash != expected:
                raise ChainBroken(t.name, t.count + 1, expected, self.hash, what="tournament")
            t.count += 1
            t.head = self.hash
            t.state = model.evolve(t.state, tev.decode(self.payload))

    def __init__(self, name: str, store_schema: int):
        self.name = name
        self.store_schema = store_schema
        self.count = 0
        self.head = GENESIS
        self.state = model.State()

    def record(self, event: tev.TournamentEvent) -> None:
        payload = tev.encode(event)
        self.trigger_event(self.Recorded, kind=tev.kind(event), schema=EVENT_SCHEMA, payload=payload.decode(),
                           hash=chain(self.head, payload))


class TournamentLoaded(NamedTuple):
    name: str
    state: model.State
    version: int  # number of tournament events
    head: str


class TournamentRecord(NamedTuple):
    """One stored tournament event, numbered from 1."""

    number: int
    kind: str
    payload: bytes  # canonical JSON, exactly as hashed
    hash: str
    previous: str


class TournamentLog:
    """Create, load, append to, list and check tournaments in a GameStore."""

    def __init__(self, store: Any):
        self.app = store.app

    def create(self, name: str, events: list[tev.TournamentEvent]) -> TournamentLoaded:
        agg = Tournament._create(Tournament.Created, id=tournament_uuid(name), name=name,
                                 store_schema=STORE_SCHEMA)
        return self._save(agg, events, TournamentExists(name))

    def append(self, name: str, expected_version: int, events: list[tev.TournamentEvent]) -> TournamentLoaded:
        """Append a command's events atomically; TournamentMovedOn if another appended since."""
        agg = self._get(name)
        if agg.count != expected_version:
            raise TournamentMovedOn(name)
        return self._save(agg, events, TournamentMovedOn(name))

    def _save(self, agg: Tournament, events: list[tev.TournamentEvent], conflict: StoreError) -> TournamentLoaded:
        """Record a command's events on ``agg`` and save them in one transaction (``conflict``: what a
        version already stored means)."""
        for event in events:
            agg.record(event)
        try:
            self.app.save(agg)
        except IntegrityError:
            raise conflict from None
        return self._loaded(agg)

    def load(self, name: str) -> TournamentLoaded:
        return self._loaded(self._get(name))

    def exists(self, name: str) -> bool:
        return bool(list(self.app.events.get(tournament_uuid(name), limit=1)))

    def records(self, name: str) -> list[TournamentRecord]:
        """Every stored tournament event, with its chain link, numbered from 1."""
        stored = list(self.app.events.get(tournament_uuid(name)))
        if not stored:
            raise TournamentNotFound(name, self.names())
        out: list[TournamentRecord] = []
        previous = GENESIS
        for env in stored[1:]:  # after its Created event
            out.append(TournamentRecord(env.originator_version - Tournament.INITIAL_VERSION, env.kind,
                                        env.payload.encode(), env.hash, previous))
            previous = env.hash
        return out

    def verify(self, name: str) -> str:
        """The head, the chain recomputed from the stored bytes as the aggregate folds them (or ChainBroken)."""
        return self._get(name).head

    def names(self) -> list[str]:
        """Every tournament, oldest first: the ``Created`` records of the notification log, selected by
        topic (the games' records are not read)."""
        created = notifications(self.app.recorder, Tournament.Created.TOPIC)
        return [self.app.mapper.to_domain_event(n).name for n in created]

    def _get(self, name: str) -> Tournament:
        try:
            return self.app.repository.get(tournament_uuid(name))
        except AggregateNotFoundError:
            raise TournamentNotFound(name, self.names()) from None
        except msgspec.ValidationError as exc:
            raise StoreError(f"tournament {name!r}: a stored event does not decode: {exc}") from None

    @staticmethod
    def _loaded(agg: Tournament) -> TournamentLoaded:
        return TournamentLoaded(agg.name, agg.state, agg.count, agg.head)
