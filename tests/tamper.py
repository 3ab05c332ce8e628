"""Editing a stored record behind the store's back, as an attacker with the sqlite3 shell would.

A record is stored in its command's row (``rows.Save``: MessagePack, zlib-compressed, in the commands
table under the game's name and its first record's number); :func:`edit_record` edits one in place, :func:`row_holding` finds the
row that holds a record, :func:`chunk_body` and :func:`with_body` give a row's bytes inflated and
put them back.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path

import msgspec

from trvendetta.store.rows import Rec, Save, pack

_save = msgspec.msgpack.Decoder(Save)


def edit_record(db: Path, hash_: str, edit: Callable[[dict], None]) -> int:
    """Apply ``edit`` to the fields (``schema``, ``payload``, ``action``, ``sig``: text) of the stored
    record whose chain hash is ``hash_``, in an SQLite store's commands table, and write its row back as
    it was stored (its check left as it was); returns how many records were edited."""
    from trvendetta.store import GameStore

    found = []
    with GameStore(db) as store:
        for info in store.list_games():
            found += [(info.id, r.number) for r in store.events(info.id, decode=False) if r.hash == hash_]
    con = sqlite3.connect(db)
    try:
        for game, number in found:
            version, state, _ = row_holding(db, game, number)
            with con:
                con.execute("UPDATE stored_commands SET state = ? WHERE originator_id = ? AND originator_version = ?",
                            [edited_state(state, version, number, edit), game, version])
    finally:
        con.close()
    return len(found)


def edited_state(blob: bytes, version: int, number: int, edit: Callable[[dict], None]) -> bytes | None:
    """A stored row's state (the row at ``version``) with ``edit`` applied to its record ``number`` (None
    when the row does not hold it): what :func:`edit_record` writes back, for a store of any backend."""
    if version == 0:  # the header
        return None
    save = _save.decode(zlib.decompress(bytes(blob)))
    if not version <= number < version + len(save.records):
        return None
    r = save.records[number - version]
    doc = {"schema": r.schema, "payload": r.payload.decode(), "action": r.action.decode(), "sig": r.sig.decode()}
    edit(doc)
    save.records[number - version] = Rec(doc["schema"], doc["payload"].encode(), doc["action"].encode(),
                                         doc["sig"].encode())
    return pack(save)


def row_holding(db: Path, game: str, number: int) -> tuple[int, bytes, int]:
    """The row of an SQLite store's commands table that holds record ``number`` of ``game``: its version
    (its first record's number), its state and the record's place in it."""
    con = sqlite3.connect(db)
    try:
        version, state = con.execute("SELECT originator_version, state FROM stored_commands WHERE originator_id = ? "
                                     "AND originator_version <= ? ORDER BY originator_version DESC LIMIT 1",
                                     [game, number]).fetchone()
        return version, state, number - version
    finally:
        con.close()


def chunk_body(state: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    """A row's MessagePack, inflated, and each of its records' payload span in it."""
    body = zlib.decompress(state)
    spans, at = [], 0
    for r in _save.decode(body).records:
        start = body.index(r.payload, at)
        spans.append((start, start + len(r.payload)))
        at = start + len(r.payload)
    return body, spans


def with_body(state: bytes, body: bytes) -> bytes:
    """The row ``state`` with its inflated bytes replaced by ``body``."""
    return zlib.compress(body)


def pg_index_row(pg_url: str, game: str) -> dict:
    """PostgreSQL: the game's row of the games index, as stored (``pg_url``: a test's, ``?schema=``)."""
    import psycopg
    from psycopg.rows import dict_row

    schema = pg_url.rsplit("schema=", 1)[1]
    with psycopg.connect(pg_url.split("?")[0], autocommit=True, row_factory=dict_row) as conn:
        return conn.execute(f'SELECT * FROM "{schema}".trv_games WHERE id = %s', (game,)).fetchone()


def pg_take_back(pg_url: str, key: object, game: str, after: int, index_row: dict) -> None:
    """What a crash of PostgreSQL does to commits it had not flushed, done on another connection: the
    game's rows (its commands' table, under ``key``) after record ``after`` gone, and its games index row
    as it was then (``index_row``, from :func:`pg_index_row`)."""
    import psycopg
    from psycopg.sql import SQL, Identifier

    from trvendetta.store.store import PG_COMMANDS_TABLE

    schema = Identifier(pg_url.rsplit("schema=", 1)[1])
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn, conn.transaction():
        assert conn.execute(SQL("DELETE FROM {}.{} WHERE originator_id = %s AND originator_version > %s").format(
            schema, Identifier(PG_COMMANDS_TABLE)), (key, after)).rowcount
        columns = list(index_row)
        conn.execute(SQL("UPDATE {}.trv_games SET ({}) = ROW({}) WHERE id = %s").format(
            schema, SQL(", ").join(map(Identifier, columns)), SQL(", ").join([SQL("%s")] * len(columns))),
            [*index_row.values(), game])
