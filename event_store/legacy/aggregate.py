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

import binascii
from typing import Any

from eventsourcing.domain import Aggregate, Snapshot
from eventsourcing.utils import register_topic

from trvendetta import rulesets

from ..store import utc_now
from .parts import split, split_state

from ..records import (  # noqa: F401  (re-exported: the light half lives in records.py)
    GENESIS,
    RETRACTION_KIND,
    STORE_KINDS,
    STORE_SCHEMA,
    Retraction,
    chain,
    decode_bots,
    decode_payload,
    decode_retraction,
    encode_bots,
    encode_retraction,
    event_schema,
    game_uuid,
    game_genesis,
)

class Game(Aggregate):
    """A game: its name, ruleset, head hash, event count and engine state."""

    TOPIC = "trvendetta:game"

    class Event(Aggregate.Event):
        TOPIC = "trvendetta:game:event"
        create_timestamp = staticmethod(utc_now)

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
        #: the seats bound to public keys (``records.Charter`` JSON, "" for none); the chain starts from it
        charter: str = ""
        #: the game its signatures name, when not event 1's hash (a fork of a signed game)
        domain: str = ""

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
        #: the record's signatures (``seat:base64`` separated by spaces), inside the chain
        sig: str = ""

        def apply(self, game: "Game") -> None:
            game.note(self.ruleset, self.schema, self.kind, self.payload, self.hash)

    class Entry(Recorded):
        """The same record under a short topic, the one written now (the topic
        is stored in every row; 23 bytes less a record)."""

        TOPIC = "trv:e"

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
        charter: str = "",
        domain: str = "",
    ):
        self.name = name
        self.ruleset = ruleset
        self.rules_version = rules_version
        self.store_schema = store_schema
        self.parent = parent
        self.parent_at = parent_at
        self.parent_head = parent_head
        self.bots = bots
        self.charter = charter
        self.domain = domain
        self.count = 0
        self.head = game_genesis(charter, bots, store_schema)
        self.engine: Any = None
        #: ranges of retracted record numbers, and whether ``engine`` needs a refold
        self.retracted: list[list[int]] = []
        self.stale = False

    def note(self, ruleset: str, schema: int, kind: str, payload: str | bytes, hash_: str, event: Any = None,
             rules: Any = None, *, fold: bool = True) -> None:
        """What one record does to the game: counted, chained, and folded into
        the engine state (``event``: the payload already decoded; ``fold``
        False when the caller has the state after it).  A retraction only notes
        the retracted range: the store refolds the live events
        (``GameStore._fresh``: ``reader.fold_live``)."""
        self.count += 1
        self.head = hash_
        if isinstance(payload, str):
            payload = payload.encode()
        if kind == RETRACTION_KIND:
            r = decode_retraction(payload)
            self.retracted = [*self.retracted, [r.first, r.last]]
            self.engine = None
            self.stale = True
            return
        if self.stale or kind in STORE_KINDS or not fold:
            return  # refolded by the store (reader.fold_live), a store record, or the caller has the state
        rules = rules or rulesets.get(ruleset)
        if event is None:
            event = decode_payload(rules, kind, schema, payload)
        self.engine = rules.evolve(self.engine, event) if self.engine is not None else rules.fold([event], None)

    @classmethod
    def restore(cls, folded: Any) -> "Game":
        """The aggregate of a game read by ``reader.GameReader.load`` (a
        ``Folded``), as the library rebuilds one from a snapshot (its public
        ``Snapshot.mutate``): ready to record and save the next events."""
        h = folded.header
        created = h.created
        state = {
            "_created_on": created,
            "_modified_on": folded.modified or created,
            "name": h.name, "ruleset": h.ruleset, "rules_version": h.rules_version, "store_schema": h.store_schema,
            "parent": h.parent, "parent_at": h.parent_at, "parent_head": h.parent_head, "bots": h.bots,
            "charter": h.charter, "domain": h.domain,
            "count": folded.count, "head": folded.head, "engine": folded.state,
            "retracted": [list(r) for r in folded.retracted], "stale": False,
        }
        return Snapshot(originator_id=game_uuid(h.name), originator_version=folded.count + cls.INITIAL_VERSION,
                        timestamp=created, topic=cls.TOPIC, state=state).mutate(None)  # type: ignore[return-value]  # Game's topic: a Game


class GameSnapshot(Snapshot):
    """A small snapshot: the game's fields plus the encoded engine state."""

    TOPIC = "trvendetta:game:snapshot"
    create_timestamp = staticmethod(utc_now)

    @classmethod
    def take(cls, aggregate: Any) -> "GameSnapshot":
        ruleset = rulesets.get(aggregate.ruleset)
        return cls._holding(aggregate, ruleset, b"" if aggregate.stale else ruleset.encode(aggregate.engine))

    @classmethod
    def _holding(cls, aggregate: Any, ruleset: Any, engine: bytes) -> Any:
        """The snapshot of ``aggregate`` holding ``engine`` (JSON) as its engine state."""
        snap = super().take(aggregate)
        state = dict(snap.state)
        state["engine"] = engine.decode()
        state["engine_rules"] = ruleset.rules_version
        #: checked on load (reader.GameReader.snapshot_problem): a damaged snapshot is ignored
        state["engine_crc"] = binascii.crc32(engine)
        object.__setattr__(snap, "state", state)
        return snap


class PartedSnapshot(GameSnapshot):
    """A snapshot whose engine JSON leaves out the ruleset's ``shared_state``
    fields, named instead by address in ``parts`` (``{field: address}``) and
    stored once each (``parts.py``); ``engine_crc`` is the CRC of what it
    holds.  Every snapshot taken now; its own topic, so that a
    reader that knows only whole snapshots never takes one for a whole state."""

    TOPIC = "trv:s"

    @classmethod
    def take_parted(cls, aggregate: Any) -> tuple["PartedSnapshot", dict[str, bytes]]:
        """The snapshot, and the parts it names (``{address: JSON}``) to store."""
        ruleset = rulesets.get(aggregate.ruleset)
        parts: dict[str, tuple[bytes, str]]  # a part's name -> (its JSON, its address)
        if aggregate.stale:  # no engine state: split's answer (a ruleset with shared parts takes no snapshot)
            rest, parts = split(b"", ruleset.shared_state)[0], {}
        else:
            rest, parts = split_state(ruleset.encode, aggregate.engine, ruleset.shared_state)
        snap = cls._holding(aggregate, ruleset, rest)
        snap.state["parts"] = {name: addr for name, (_, addr) in parts.items()}
        return snap, {addr: data for data, addr in parts.values()}


register_topic(GameSnapshot.TOPIC, GameSnapshot)
register_topic(PartedSnapshot.TOPIC, PartedSnapshot)
Game.Snapshot = GameSnapshot
