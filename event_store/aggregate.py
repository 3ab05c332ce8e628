"""The one aggregate: a game, as an eventsourcing aggregate with stable topics.

Every stored event is an envelope around one engine event: the engine event's
canonical JSON (``payload``), its tag (``kind``), the payload schema version,
the ruleset name and the hash chain link.  The aggregate folds the engine
events with the game's ruleset, so ``repository.get`` yields the engine state.

Topics are explicit strings and must never change: old databases name them.
The wall-clock ``timestamp`` eventsourcing adds is metadata; it is never part
of the payload nor of the hash.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.utils import register_topic

from trvendetta import rulesets

from .errors import SchemaError

#: version of the envelope format described in docs/store.md
STORE_SCHEMA = 1
#: the hash "before" event 1
GENESIS = "0" * 64
_NAMESPACE = uuid5(NAMESPACE_URL, "https://trvendetta/games/")


def game_uuid(game: str) -> UUID:
    """The aggregate id of the game called ``game`` (names are unique per store)."""
    return uuid5(_NAMESPACE, game)


def chain(previous: str, payload: bytes) -> str:
    """hash_n = sha256(hash_{n-1} as 32 raw bytes + canonical bytes of event n), hex."""
    return hashlib.sha256(bytes.fromhex(previous) + payload).hexdigest()


def event_schema(ruleset: Any) -> int:
    """The payload schema version a ruleset writes (``event_schema``, default 1)."""
    return int(getattr(ruleset, "event_schema", 1))


def decode_payload(ruleset: Any, kind: str, schema: int, payload: bytes) -> Any:
    """Decode a stored engine event, upcasting older schemas through the ruleset.

    A ruleset that changes an event's shape raises ``event_schema`` and
    provides ``upcast_event(data: dict, schema: int) -> dict`` that lifts a
    decoded payload of an older schema to the current one.
    """
    current = event_schema(ruleset)
    if schema == current:
        return ruleset.decode_event(payload)
    upcast = getattr(ruleset, "upcast_event", None)
    if schema > current or upcast is None:
        raise SchemaError(
            f"{kind} event stored with schema {schema}; ruleset {ruleset.name!r} reads schema {current}"
        )
    data = msgspec.json.decode(payload)
    data = upcast(data, schema)
    return ruleset.decode_event(msgspec.json.encode(data))


class Game(Aggregate):
    """A game: its name, ruleset, head hash, event count and engine state."""

    TOPIC = "trvendetta:game"

    class Event(Aggregate.Event):
        TOPIC = "trvendetta:game:event"

    class Created(Event, Aggregate.Created):
        TOPIC = "trvendetta:game:created"
        name: str
        ruleset: str
        rules_version: str
        store_schema: int

    class Recorded(Event):
        """One engine event (``payload``: its canonical JSON)."""

        TOPIC = "trvendetta:game:engine-event"
        ruleset: str
        schema: int
        kind: str
        payload: str
        hash: str

        def apply(self, game: "Game") -> None:
            ruleset = rulesets.get(self.ruleset)
            payload = self.payload.encode()
            event = decode_payload(ruleset, self.kind, self.schema, payload)
            game.engine = ruleset.fold([event], game.engine)
            game.count += 1
            game.head = self.hash

    def __init__(self, name: str, ruleset: str, rules_version: str, store_schema: int):
        self.name = name
        self.ruleset = ruleset
        self.rules_version = rules_version
        self.store_schema = store_schema
        self.count = 0
        self.head = GENESIS
        self.engine: Any = None

    def record(self, ruleset: Any, event: Any) -> None:
        """Append one engine event (canonical bytes, chained to the head)."""
        payload = ruleset.encode(event)
        self.trigger_event(
            self.Recorded,
            ruleset=ruleset.name,
            schema=event_schema(ruleset),
            kind=ruleset.event_kind(event),
            payload=payload.decode(),
            hash=chain(self.head, payload),
        )


class SnapshotIncompatible(Exception):
    """A snapshot whose engine state no longer decodes; load replays instead."""


class GameSnapshot(Snapshot):
    """A small snapshot: the game's fields plus the encoded engine state."""

    TOPIC = "trvendetta:game:snapshot"

    @classmethod
    def take(cls, aggregate: Any) -> "GameSnapshot":
        snap = super().take(aggregate)
        state = dict(snap.state)
        ruleset = rulesets.get(aggregate.ruleset)
        state["engine"] = ruleset.encode(aggregate.engine).decode()
        state["engine_rules"] = ruleset.rules_version
        object.__setattr__(snap, "state", state)
        return snap

    def mutate(self, _: None) -> Game:
        state = dict(self.state)
        rules = state.pop("engine_rules", None)
        ruleset = rulesets.get(state["ruleset"])
        if rules != ruleset.rules_version:
            raise SnapshotIncompatible(f"snapshot of rules {rules}, now {ruleset.rules_version}")
        try:
            state["engine"] = ruleset.decode_state(state["engine"].encode())
        except msgspec.DecodeError as exc:
            raise SnapshotIncompatible(str(exc)) from None
        shell = Snapshot(
            originator_id=self.originator_id,
            originator_version=self.originator_version,
            timestamp=self.timestamp,
            topic=self.topic,
            state=state,
        )
        return shell.mutate(None)


register_topic(GameSnapshot.TOPIC, GameSnapshot)
Game.Snapshot = GameSnapshot  # type: ignore[misc]
