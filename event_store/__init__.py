"""The append-only event store of trvendetta games (eventsourcing + SQLite).

See docs/store.md for the format.  The API::

    from trvendetta.store import GameStore
    with GameStore(path) as store:
        store.create_game(name, ruleset_name, events)
        game = store.load(name)               # .state .version .head .ruleset
        store.append(name, game.version, steps=[(action, events)])
        store.events(name, upto=None)          # [StoredEvent]
        store.list_games()                     # [GameInfo]
"""

from typing import TYPE_CHECKING, Any

from .errors import (ChainBroken, DamagedStore, GameExists, GameMovedOn, GameNotFound, SchemaError, StoreError,
                     StoreReadOnly)
from .index import GameInfo
from .records import (
    GENESIS,
    MEMORY,
    Charter,
    INTENT_KIND,
    RETRACTION_KIND,
    REVEAL_KIND,
    HOST_REVEAL_KIND,
    CLAIM_KIND,
    RESIGN_KIND,
    OUTCOME_KINDS,
    Claim,
    Resign,
    decode_outcome,
    HostReveal,
    SNAPSHOT_INTERVAL,
    STORE_KINDS,
    Intent,
    Reveal,
    decode_draw,
    describe_store_record,
    encode_draw,
    BOTS_CHAINED,
    STORE_SCHEMA,
    GameHeader,
    Loaded,
    RawRecord,
    Retraction,
    StoredEvent,
    chain,
    decode_retraction,
    decode_charter,
    default_db_path,
    encode_charter,
    encode_retraction,
    game_uuid,
    game_genesis,
    genesis,
)

if TYPE_CHECKING:
    from .store import GameStore


def __getattr__(name: str) -> Any:
    """``GameStore`` is imported on first use: it brings eventsourcing, which a
    read-only command (``trvendetta.store.quick``) does without."""
    if name == "GameStore":
        from .store import GameStore

        return GameStore
    raise AttributeError(f"module 'event_store' has no attribute {name!r}")
