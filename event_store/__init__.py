"""The append-only event store of trvendetta games (eventsourcing + SQLite).

See docs/store.md for the format.  The API::

    from event_store import GameStore
    with GameStore(path) as store:
        store.create_game(name, ruleset_name, events)
        game = store.load(name)               # .state .version .head .ruleset
        store.append(name, game.version, steps=[(action, events)])
        store.events(name, upto=None)          # [StoredEvent]
        store.list_games()                     # [GameInfo]
"""

from .aggregate import GENESIS, RETRACTION_KIND, STORE_SCHEMA, Retraction, chain, decode_retraction, encode_retraction, game_uuid
from .errors import ChainBroken, GameExists, GameMovedOn, GameNotFound, SchemaError, StoreError
from .index import GameInfo
from .store import (
    MEMORY,
    SNAPSHOT_INTERVAL,
    GameHeader,
    GameStore,
    Loaded,
    RawRecord,
    StoredEvent,
    default_db_path,
)

__all__ = [
    "GENESIS",
    "MEMORY",
    "SNAPSHOT_INTERVAL",
    "STORE_SCHEMA",
    "ChainBroken",
    "GameExists",
    "GameHeader",
    "GameInfo",
    "GameMovedOn",
    "GameNotFound",
    "GameStore",
    "Loaded",
    "RETRACTION_KIND",
    "RawRecord",
    "Retraction",
    "SchemaError",
    "StoreError",
    "StoredEvent",
    "chain",
    "decode_retraction",
    "encode_retraction",
    "default_db_path",
    "game_uuid",
]
