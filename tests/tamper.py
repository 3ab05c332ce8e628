"""Editing a stored record behind the store's back, as an attacker with the sqlite3 shell would.

A record is stored in a chunk (``chunks``: one row holding the fields of up
to 32 records, stored under its last record's version: lean, mark 7, or mark
6), or, in stores written before, packed alone (``packing``: its library
JSON) or in the first row of a save's chunk (marks 4 and 5); :func:`edit_record` edits either in place, so a test of what
verify finds does not depend on how the record was packed; :func:`row_holding`
finds the row that holds a record.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import msgspec

from trvendetta.store import chunks, packing

_FIELDS = ("ruleset", "schema", "kind", "payload", "action", "sig", "hash")


def edit_record(db: Path, hash_: str, edit: Callable[[dict], None]) -> int:
    """Apply ``edit`` to the fields (``ruleset``, ``schema``, ``kind``,
    ``payload``, ``action``, ``sig``, ``hash``) of the stored record whose
    chain hash is ``hash_``, in an SQLite store's events table, and write it
    back packed as it was; returns how many records were edited."""
    con = sqlite3.connect(db)
    edited = 0
    try:
        for rowid, blob in con.execute("SELECT rowid, state FROM stored_events WHERE topic = 'trv:e'").fetchall():
            state = edited_state(blob, hash_, edit)
            if state is None:
                continue
            edited += 1
            with con:
                con.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", [state, rowid])
    finally:
        con.close()
    return edited


def edited_state(blob: bytes, hash_: str, edit: Callable[[dict], None]) -> bytes | None:
    """A stored row's state with ``edit`` applied to the fields of its record whose chain hash is ``hash_``,
    packed as it was (None when the row holds no such record): what :func:`edit_record` writes back, for a
    store of any backend."""
    blob = bytes(blob)
    if blob[:1] == chunks.MARK_5:
        return None  # its chunk's first row holds it
    if blob[:1] in (chunks.MARK_4, chunks.MARK_6, chunks.MARK_7):
        lean = blob[:1] == chunks.MARK_7
        entries = chunks.unpack_lean(blob)[0].entries() if lean else chunks.unpack_chunk(blob)[0]
        if all(e.hash != hash_ for e in entries):
            return None
        docs = [msgspec.structs.asdict(e) for e in entries]
        for doc in docs:
            if doc["hash"] == hash_:
                edit(doc)
        hashes = [d["hash"] for d in docs]
        if lean:  # written back as the store writes a lean chunk (a kind is its payload's opening)
            fields = [str(d[k]).encode() for d in docs for k in ("payload", "action", "sig")]
            return chunks.pack_lean(blob[2:10], hashes, docs[0]["ruleset"], docs[0]["schema"], fields)
        body = msgspec.json.encode([chunks.Entry(**{k: d[k] for k in _FIELDS[:-1]}) for d in docs])
        return blob[:10] + bytes.fromhex("".join(hashes)) + packing.deflate(body)
    doc = msgspec.json.decode(packing.unpack(blob))
    if doc["hash"] != hash_:
        return None
    edit(doc)
    return packing.pack(msgspec.json.encode(doc))


def row_holding(db: Path, oid: bytes, number: int) -> tuple[int, bytes, int | None]:
    """The row of an SQLite store's events table that holds record ``number`` of the game whose id is ``oid``
    (16 bytes): its version, its state and the record's place in its chunk (None: a record packed alone).  A
    record of a mark-5 row is held by its chunk's first row."""
    con = sqlite3.connect(db)
    try:
        version, state = con.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                                     "AND originator_version > ? ORDER BY originator_version LIMIT 1",
                                     [oid, number]).fetchone()
        mark = state[:1]
        if mark in chunks.ONE_ROW:
            return version, state, number + 1 - (version - state[1] + 1)
        if mark == chunks.MARK_5:
            back = chunks.back_of(state)
            (state,) = con.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                                   [oid, version - back]).fetchone()
            return version - back, state, back
        return version, state, 0 if mark == chunks.MARK_4 else None
    finally:
        con.close()


def chunk_body(state: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    """A chunk row's records as stored, inflated (mark 6: the JSON list; mark 7: the lean frame), and each
    record's span in it (its hash, stored apart, left out)."""
    count = state[1]
    if state[:1] == chunks.MARK_7:
        body = chunks.inflate_lean(memoryview(state)[10 + 32 * count:])
        # ruleset SEP schema, then SEP payload SEP action SEP sig for each record
        starts = [i + 1 for i, byte in enumerate(body) if byte == chunks.SEP[0]]
        spans = [(starts[1 + 3 * n], (starts[4 + 3 * n] - 1) if 4 + 3 * n < len(starts) else len(body))
                 for n in range(count)]
        return body, spans
    entries, _ = chunks.unpack_chunk(state)
    spans, at = [], 1  # msgspec writes the list as "[" + the records joined by "," + "]"
    for entry in entries:
        size = len(msgspec.json.encode(msgspec.structs.replace(entry, hash="")))
        spans.append((at, at + size))
        at += size + 1
    return packing.inflate(memoryview(state)[10 + 32 * count:]), spans


def with_body(state: bytes, body: bytes) -> bytes:
    """The chunk row ``state`` with its records' inflated bytes replaced by ``body``, deflated as its mark is."""
    head = state[:10 + 32 * state[1]]
    return head + (chunks.deflate_lean(body) if state[:1] == chunks.MARK_7 else packing.deflate(body))
