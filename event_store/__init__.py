"""The append-only event store of trvendetta games, on SQLite, PostgreSQL or memory: ``GameStore``
(``store.py``, whose docstring shows the API in use) and the records it reads and writes (``records.py``).
The rows: docs/store.md."""

from typing import TYPE_CHECKING, Any

from .errors import (ChainBroken, DamagedStore, GameExists, GameMovedOn, GameNotFound, NotAfter, SchemaError, StoreError,
                     StoreReadOnly, StoreUnsynced)
from .location import MEMORY, default_db_path
# the store's own records and types, and the fair-play records it stores (trvendetta.core.fairplay)
from .records import (BOTS_CHAINED, CLAIM_KIND, GENESIS, HOST_REVEAL_KIND, INTENT_KIND, RESIGN_KIND,
                      RETRACTION_KIND, REVEAL_KIND, REVOKE_KIND, STORE_KINDS, STORE_SCHEMA, Charter, Claim, GameHeader, HostReveal,
                      Intent, Loaded, RawRecord, Resign, Retraction, Reveal, Revoke, StoredEvent, chain,
                      decode_charter, decode_draw, decode_outcome, decode_retraction, decode_revoke, describe_store_record,
                      encode_charter, encode_draw, encode_retraction, game_uuid, genesis)

if TYPE_CHECKING:
    from .store import GameStore


def __getattr__(name: str) -> Any:
    """``GameStore`` is imported on first use: it brings eventsourcing, which a
    read-only command (``trvendetta.store.quick``) does without."""
    if name == "GameStore":
        from .store import GameStore

        return GameStore
    raise AttributeError(f"module 'event_store' has no attribute {name!r}")
