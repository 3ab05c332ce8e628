"""Reading a store of layout 2 (one row a command in the application's table, snapshots in the
library's snapshots table, ids as uuids, each row's whole 32-byte chain hash), for ``trv store
upgrade`` only: :class:`Layout2Store` is a ``GameStore`` whose reads decode those rows."""

import zlib
from pathlib import Path
from typing import Any

import msgspec

from .. import location
from ..records import game_uuid
from ..rows import Reader, Rec, Save, Snap, _head
from ..store import PG_EVENTS_TABLE, GameStore, _select


class _Save(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    first: int
    stamp: int
    head: bytes
    records: list[Rec]


class _Snap(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    count: int
    head: bytes
    rules: str
    engine: bytes
    retracted: list[list[int]]


_save, _snap = msgspec.msgpack.Decoder(_Save), msgspec.msgpack.Decoder(_Snap)


class Layout2Reader(Reader):
    head_topic = "trv:game"

    def save_of(self, version: int, topic: str, state: bytes) -> Save:
        save = _save.decode(zlib.decompress(state))
        if topic != "trv:save" or save.first != version or len(save.head) != 32 or not save.records:
            raise ValueError(f"a {topic!r} row of records {save.first}+ stored at {version}")
        return Save(save.stamp, save.head, save.records)

    def snap_of(self, version: int, topic: str, state: bytes) -> Snap:
        snap = _snap.decode(zlib.decompress(state))
        if topic != "trv:snap" or snap.count != version or len(snap.head) != 32:
            raise ValueError(f"a {topic!r} row after {snap.count} stored at {version}")
        return Snap(snap.head, snap.rules, snap.engine, snap.retracted)


class Layout2Store(GameStore):
    """A store of layout 2, read only (``create``: make its tables, for tests that build one)."""

    LAYOUT_ENV: dict[str, str] = {}
    name_topic = "trv:game"

    def __init__(self, path: Any, create: bool = False):
        self._create = create
        super().__init__(path)

    def _prepare(self, env: dict[str, str], lock_timeout: float) -> Any:
        if not self._create:
            env["CREATE_TABLE"] = "n"

    def _open(self) -> None:
        snapshots = self.app.factory.aggregate_recorder("snapshots")
        self.reader = Layout2Reader(_select(self.app.recorder, game_uuid), _select(snapshots, game_uuid))

    def _check_layout(self) -> None:
        pass

    @staticmethod
    def name_of(state: bytes) -> str:
        return _head.decode(zlib.decompress(state)).name



def is_layout2(store: str) -> bool:
    """Whether the older store at ``store`` is of layout 2 (SQLite: its ``trv_layout`` table; PostgreSQL:
    the application's table of that layout's name), not of the layouts ``legacy.store`` reads."""
    where = location.parse(store)
    if where.kind == "sqlite":
        import sqlite3

        con = sqlite3.connect(f"{Path(where.target).expanduser().resolve().as_uri()}?mode=ro", uri=True)
        try:
            return con.execute("SELECT 1 FROM sqlite_master WHERE name = 'trv_layout'").fetchone() is not None
        finally:
            con.close()
    env = location.postgres_env(where.target)
    with location.pg_connect(env) as conn:
        found = conn.execute("SELECT to_regclass(%s)", [f'"{env["POSTGRES_SCHEMA"]}".{PG_EVENTS_TABLE}'])
        return found.fetchone()[0] is not None
