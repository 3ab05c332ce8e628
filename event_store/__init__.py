"""The append-only event store of trvendetta games (eventsourcing + SQLite).

See docs/store.md for the format.  The API::

    from event_store import GameStore
    with GameStore(path) as store:
        store.create_game(name, ruleset_name, events)
        game = store.load(name)               # .state .version .head .ruleset
        store.append(name, game.version, new_events)
        store.events(name, upto=None)          # [StoredEvent]
        store.list_games()                     # [GameInfo]
"""

from .aggregate import GENESIS, STORE_SCHEMA, chain, game_uuid
from .errors import ChainBroken, GameExists, GameMovedOn, GameNotFound, SchemaError, StoreError
from .index import GameInfo
from .store import MEMORY, SNAPSHOT_INTERVAL, GameStore, Loaded, StoredEvent, default_db_path

__all__ = [
    "GENESIS",
    "MEMORY",
    "SNAPSHOT_INTERVAL",
    "STORE_SCHEMA",
    "ChainBroken",
    "GameExists",
    "GameInfo",
    "GameMovedOn",
    "GameNotFound",
    "GameStore",
    "Loaded",
    "SchemaError",
    "StoreError",
    "StoredEvent",
    "chain",
    "default_db_path",
    "game_uuid",
]
