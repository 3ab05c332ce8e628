"""Chunks: a save of many records packed together (``store.chunks``, marks 4 and 5).

Every record keeps its row, number, hash, stamp and fields; only where its
bytes live changes.  Reads that start inside a chunk, damage to a chunk's
rows, and stamps that change inside a save are the cases that could break.
"""

import random
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from trvendetta.store import DamagedStore, GameStore, RawRecord, StoreError, chunks, game_uuid, packing

PLAYERS = [("ann", "red", "cars"), ("bob", "blue", "cars")]


def _whole_game(toy, seed=7, target=100):
    """A toy game played to its end: set-up events, (action, events) steps, the states after each."""
    state, first = toy.new_game(toy.position_from_dict({"players": [list(p) for p in PLAYERS], "seed": seed,
                                                        "target": target}))
    rnd, steps, states = random.Random(seed), [], []
    while not toy.is_over(state):
        action = rnd.choice(toy.legal_actions(state))
        state, new = toy.apply(state, action)
        steps.append((action, new))
        states.append(state)
    return first, steps, states


def _marks(db, game="g") -> list[bytes]:
    con = sqlite3.connect(db)
    try:
        return [s[:1] for (s,) in con.execute("SELECT state FROM stored_events WHERE originator_id = ? "
                                              "AND originator_version > 1 ORDER BY originator_version",
                                              [game_uuid(game).bytes])]
    finally:
        con.close()


def _set(db, version: int, state: bytes, game="g") -> None:
    con = sqlite3.connect(db)
    with con:  # damage from outside, as a user with the sqlite3 shell would
        con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                    [state, game_uuid(game).bytes, version])
    con.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_game_stored_in_one_save_reads_back_the_same_from_any_event(toy, db, backend, request):
    where = db if backend == "sqlite" else request.getfixturevalue("pg_url")
    first, steps, states = _whole_game(toy)
    with GameStore(where) as s:
        done = s.create_game("g", "toy", first, steps=steps, state=states[-1], states=states)
        records = s.events("g")
        assert len(records) == done.version > 2 * chunks.CHUNK_MAX  # several chunks, the last one part-full
        assert s.verify("g") == done.head == records[-1].hash
        assert [r.payload for r in records] == [toy.encode(e) for e in [*first, *(e for _, ev in steps for e in ev)]]
        assert [r.action for r in records if r.action] == [toy.encode(a) for a, _ in steps]
        assert len({r.recorded_at for r in records}) == 1  # one save, one stamp
        for n in range(0, done.version + 1, 7):
            later = s.events("g", since=n)  # a range starting inside a chunk reads its chunk's first row
            assert later == records[n:]
            assert s.events_head("g", n) == (records[n - 1].hash if n else later[0].previous)
            at = s.load("g", at=n) if n else None
            if at is not None:
                assert at.head == records[n - 1].hash and at.state == toy.fold([r.event for r in records[:n]])
    if backend == "sqlite":
        marks = _marks(db)
        heads = [i for i, m in enumerate(marks) if m == chunks.MARK_4]
        assert set(marks) == {chunks.MARK_4, chunks.MARK_5} and heads[0] == 0
        assert all(0 < b - a <= chunks.CHUNK_MAX for a, b in zip(heads, heads[1:]))


def test_a_save_of_few_records_packs_each_alone(toy, db):
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        loaded = s.create_game("g", "toy", first[:1])
        few = steps[0]
        s.append("g", loaded.version, events=first[1:], steps=[few])
        assert s.version("g") < chunks.CHUNK_MIN
    assert set(_marks(db)) <= {packing.MARK_3, packing.MARK_2}


def test_a_chunk_ends_where_the_stamp_changes_and_every_stamp_reads_back_exactly(toy, db):
    """Records copied with their own stamps (``trv store copy``, imports) share a chunk only with records of
    the same stamp; a stamp on a whole second (which mark 3 cannot cut out) reads back too."""
    first, steps, _ = _whole_game(toy)
    payloads = [toy.encode(e) for e in first] + [toy.encode(e) for _, ev in steps for e in ev]
    base = datetime(2026, 12, 1, 9, 30, tzinfo=timezone.utc)
    stamps = [base + timedelta(seconds=i // 5) for i in range(len(payloads))]  # five records a stamp
    kinds = [toy.event_kind(e) for e in first] + [toy.event_kind(e) for _, ev in steps for e in ev]
    raws = [RawRecord(k, 1, p, recorded_at=t) for k, p, t in zip(kinds, payloads, stamps)]
    with GameStore(db) as s:
        s.create_game("g", "toy", records=raws)
        assert [r.recorded_at for r in s.events("g")] == stamps
        assert [r.payload for r in s.events("g")] == payloads
    marks = _marks(db)
    assert marks[::5] == [chunks.MARK_4] * len(marks[::5])
    assert all(m == chunks.MARK_5 for i, m in enumerate(marks) if i % 5)


def _stored(toy, db):
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        return s.create_game("g", "toy", first, steps=steps, state=states[-1], states=states)


@pytest.mark.parametrize("damage, number", [
    (lambda first, member: [(3, chunks.MEMBERS[3])], 2),  # a row that says its chunk starts at itself's - 3
    (lambda first, member: [(2 + chunks.CHUNK_MAX, chunks.MEMBERS[1])], 1 + chunks.CHUNK_MAX),  # across chunks
    (lambda first, member: [(3, b"\x05")], 2),  # cut short
    (lambda first, member: [(2, first[:40])], 1),  # the chunk's first row cut off in its hashes
    (lambda first, member: [(2, first[:1] + b"\x03" + first[2:])], 1),  # it says it holds 3 records
    (lambda first, member: [(2, member)], 1),  # the first row replaced by another row's
])
def test_a_damaged_chunk_is_named_and_nothing_appends_on_top(toy, db, damage, number):
    done = _stored(toy, db)
    con = sqlite3.connect(db)
    first, member = (bytes(r[0]) for r in con.execute(
        "SELECT state FROM stored_events WHERE originator_version IN (2, 3) ORDER BY originator_version"))
    con.close()
    for version, state in damage(first, member):
        _set(db, version, state)
    with GameStore(db) as s:
        with pytest.raises(DamagedStore) as found:
            s.verify("g")
        assert found.value.number == number and "does not decode" in str(found.value)
        with pytest.raises(StoreError):
            s.append("g", done.version, events=[])


def test_unpack_refuses_a_chunks_rows_in_one_line(toy, db):
    _stored(toy, db)
    con = sqlite3.connect(db)
    first, member = (bytes(r[0]) for r in con.execute(
        "SELECT state FROM stored_events WHERE originator_version IN (2, 3) ORDER BY originator_version"))
    con.close()
    for row in (first, member):
        with pytest.raises(Exception, match="read with its chunk"):
            packing.unpack(row)


def test_a_chunk_refuses_what_it_cannot_hold():
    entry = chunks.Entry("toy", 1, "k", '{"type":"k"}')
    stamp = (1).to_bytes(8, "big")
    with pytest.raises(ValueError):
        chunks.pack_chunk(stamp, ["ab" * 32] * (chunks.CHUNK_MAX + 1), [entry] * (chunks.CHUNK_MAX + 1))
    with pytest.raises(ValueError):
        chunks.pack_chunk(stamp, ["ab" * 32], [entry, entry])
    rows = chunks.pack_chunk(stamp, ["ab" * 32, "cd" * 32], [entry, entry])
    assert rows[1] == chunks.MARK_5 + b"\x01" and chunks.back_of(rows[1]) == 1
    entries, when = chunks.unpack_chunk(rows[0])
    assert [e.hash for e in entries] == ["ab" * 32, "cd" * 32] and when == datetime(1970, 1, 1, 0, 0, 0, 1,
                                                                                        tzinfo=timezone.utc)
