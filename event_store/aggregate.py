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
from typing import Annotated, Any
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


def chain(previous: str, payload: bytes, action: bytes = b"") -> str:
    """The hash chain link of one record, hex.

    ``hash_n = sha256(hash_{n-1} as 32 raw bytes + payload_n)`` for a record
    without an action; a record that carries the action that produced it
    hashes ``action + b"\\n" + payload`` instead (canonical JSON never holds a
    raw newline, so the two forms cannot be confused).
    """
    body = action + b"\n" + payload if action else payload
    return hashlib.sha256(bytes.fromhex(previous) + body).hexdigest()


#: the kind (and payload tag) of a retraction record, written by ``trv undo``
RETRACTION_KIND = "trv-retraction"


class Retraction(msgspec.Struct, frozen=True, tag_field="type", tag=RETRACTION_KIND, forbid_unknown_fields=True):
    """Events ``first..last`` (one action's) are taken back; they stay stored."""

    first: Annotated[int, msgspec.Meta(ge=1)]
    last: Annotated[int, msgspec.Meta(ge=1)]
    player: Annotated[str, msgspec.Meta(max_length=200)] | None
    agreed: bool = False


_retraction_dec = msgspec.json.Decoder(Retraction)
_retraction_enc = msgspec.json.Encoder()


def encode_retraction(retraction: Retraction) -> bytes:
    return _retraction_enc.encode(retraction)


def decode_retraction(payload: bytes) -> Retraction:
    return _retraction_dec.decode(payload)


def encode_bots(bots: "dict[str, str] | None") -> str:
    """The ``bots`` field of a ``Created`` record: canonical JSON, seats sorted."""
    return msgspec.json.encode(dict(sorted(bots.items()))).decode() if bots else ""


def decode_bots(text: str) -> dict[str, str]:
    return dict(msgspec.json.decode(text, type=dict[str, str])) if text else {}


def event_schema(ruleset: Any) -> int:
    """The payload schema version a ruleset writes (``event_schema``, default 1)."""
    return int(getattr(ruleset, "event_schema", 1))


def decode_payload(ruleset: Any, kind: str, schema: int, payload: bytes) -> Any:
    """Decode a stored record (an engine event, upcasting older schemas through
    the ruleset, or a :class:`Retraction`).

    A ruleset that changes an event's shape raises ``event_schema`` and
    provides ``upcast_event(data: dict, schema: int) -> dict`` that lifts a
    decoded payload of an older schema to the current one.
    """
    if kind == RETRACTION_KIND:
        return decode_retraction(payload)
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
        #: a fork's parent game, the event it branched after and that event's hash
        parent: str = ""
        parent_at: int = 0
        parent_head: str = ""
        #: the seats played by bots: canonical JSON ``{"player": "bot kind", ...}`` ("" for none)
        bots: str = ""

    class Recorded(Event):
        """One record: an engine event (``payload``: its canonical JSON) or a
        retraction; ``action`` is the canonical JSON of the player action that
        produced it, on the first event of each action only."""

        TOPIC = "trvendetta:game:engine-event"
        ruleset: str
        schema: int
        kind: str
        payload: str
        hash: str
        action: str = ""

        def apply(self, game: "Game") -> None:
            game.count += 1
            game.head = self.hash
            if self.kind == RETRACTION_KIND:
                r = decode_retraction(self.payload.encode())
                game.retracted = [*game.retracted, [r.first, r.last]]
                game.engine = None  # the store refolds the live events (GameStore._fresh)
                game.stale = True
                return
            if game.stale:
                return
            ruleset = rulesets.get(self.ruleset)
            event = decode_payload(ruleset, self.kind, self.schema, self.payload.encode())
            game.engine = ruleset.fold([event], game.engine)

    def __init__(
        self,
        name: str,
        ruleset: str,
        rules_version: str,
        store_schema: int,
        parent: str = "",
        parent_at: int = 0,
        parent_head: str = "",
        bots: str = "",
    ):
        self.name = name
        self.ruleset = ruleset
        self.rules_version = rules_version
        self.store_schema = store_schema
        self.parent = parent
        self.parent_at = parent_at
        self.parent_head = parent_head
        self.bots = bots
        self.count = 0
        self.head = GENESIS
        self.engine: Any = None
        #: ranges of retracted record numbers, and whether ``engine`` needs a refold
        self.retracted: list[list[int]] = []
        self.stale = False

    def record(self, ruleset: Any, event: Any, action: Any = None) -> None:
        """Append one engine event (canonical bytes, chained to the head), with
        the action that produced it when it is that action's first event."""
        payload = ruleset.encode(event)
        self.record_raw(ruleset.name, event_schema(ruleset), ruleset.event_kind(event), payload,
                        b"" if action is None else ruleset.encode(action))

    def record_raw(self, ruleset: str, schema: int, kind: str, payload: bytes, action: bytes = b"") -> None:
        """Append one record given as canonical bytes (imports, forks, retractions)."""
        self.trigger_event(
            self.Recorded,
            ruleset=ruleset,
            schema=schema,
            kind=kind,
            payload=payload.decode(),
            hash=chain(self.head, payload, action),
            action=action.decode(),
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
        state["engine"] = "" if aggregate.stale else ruleset.encode(aggregate.engine).decode()
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
            state["engine"] = ruleset.decode_state(state["engine"].encode()) if state["engine"] else None
            for key, default in (("retracted", []), ("stale", False), ("parent", ""), ("parent_at", 0),
                                 ("parent_head", ""), ("bots", "")):
                state.setdefault(key, default)
            state["retracted"] = [list(r) for r in state["retracted"]]
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
