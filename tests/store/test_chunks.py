"""Chunks: a save's records packed together (``store.chunks``): one row a chunk,
stored under its last record's version (mark 7, lean; mark 6, its fields as a
JSON list, when a field holds the lean frame's separator, and in stores
written before); marks 4 and 5 (a row a record, the chunk in its first row)
from stores written before that.

Every record keeps its number, hash, stamp and fields; only where its bytes
live changes.  Reads that start or end inside a chunk, damage to a chunk's
rows, and stamps that change inside a save are the cases that could break.
"""

import random
import sqlite3
import zlib
from datetime import datetime, timedelta, timezone

import msgspec
import pytest

from trvendetta.store import DamagedStore, GameStore, RawRecord, StoreError, chunks, game_uuid, packing
from trvendetta.store.quick import QuickReader

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


def _rows(db, game="g") -> list[tuple[int, bytes]]:
    """(version, state) of the game's record rows, in order."""
    con = sqlite3.connect(db)
    try:
        return [(v, bytes(s)) for v, s in con.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
            "AND originator_version > 1 ORDER BY originator_version", [game_uuid(game).bytes])]
    finally:
        con.close()


def _marks(db, game="g") -> list[bytes]:
    return [s[:1] for _, s in _rows(db, game)]


def _set(db, version: int, state: bytes | None, game="g") -> None:
    """Damage from outside, as a user with the sqlite3 shell would: a row's state replaced (None: deleted)."""
    con = sqlite3.connect(db)
    with con:
        if state is None:
            con.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                        [game_uuid(game).bytes, version])
        else:
            con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                        [state, game_uuid(game).bytes, version])
    con.close()


def _entries(state: bytes) -> list[chunks.Entry]:
    """A one-row chunk's records (mark 6 or 7), hashes set."""
    return chunks.unpack_lean(state)[0].entries() if state[:1] == chunks.MARK_7 else chunks.unpack_chunk(state)[0]


def _bare(entries: list[chunks.Entry]) -> list[chunks.Entry]:
    return [chunks.Entry(**{k: v for k, v in msgspec.structs.asdict(e).items() if k != "hash"}) for e in entries]


def _as_mark_6(db, game="g") -> None:
    """Rewrite the game's lean chunks as the store wrote them before lean chunks (mark 6: the fields a JSON
    list deflated against dictionary 1): the same records, rows and versions."""
    con = sqlite3.connect(db)
    with con:
        for version, state in _rows(db, game):
            if state[:1] == chunks.MARK_7:
                entries = _entries(state)
                con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                            [chunks.pack_row(state[2:10], [e.hash for e in entries], _bare(entries)),
                             game_uuid(game).bytes, version])
    con.close()


def _as_marks_4_and_5(db, game="g") -> None:
    """Rewrite the game's one-row chunks as the store wrote them before (marks 4 and 5: a row a record, the
    chunk in its first row): the same records, in the old layout."""
    con = sqlite3.connect(db)
    oid = game_uuid(game).bytes
    with con:
        for version, state in _rows(db, game):
            if state[:1] not in chunks.ONE_ROW:
                continue
            entries = _entries(state)
            rows = chunks.pack_chunk(state[2:10], [e.hash for e in entries], _bare(entries))
            first = version - len(entries) + 1
            con.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?", [oid, version])
            con.executemany("INSERT INTO stored_events VALUES (?, ?, 'trv:e', ?)",
                            [(oid, first + i, row) for i, row in enumerate(rows)])
    con.close()


def _reads_back_from_anywhere(s, toy, done, records) -> None:
    """Every range read, starting and ending anywhere (inside a chunk or not), gives the same records."""
    for n in range(0, done.version + 1, 7):
        later = s.events("g", since=n)  # a range starting inside a chunk
        assert later == records[n:]
        assert s.events_head("g", n) == (records[n - 1].hash if n else later[0].previous)
        assert s.events("g", since=n, upto=n + 5) == records[n:n + 5]  # and ending inside one
        assert s.events("g", upto=n) == records[:n]
        if n:
            at = s.load("g", at=n)
            assert at.head == records[n - 1].hash and at.state == toy.fold([r.event for r in records[:n]])


def _last_actions_read_back(db, done, records) -> None:
    """``trv show``'s read-only path: the last action and its events, read from the end at many points."""
    with QuickReader.open(db) as quick:
        for n in range(done.version, done.version - 3 * chunks.CHUNK_MAX, -5):
            start = max(r.number for r in records[:n] if r.action)
            assert quick.last_action("g", n) == (records[start - 1].action.decode(),
                                                 [r.event for r in records[start - 1:n]])


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
        _reads_back_from_anywhere(s, toy, done, records)
    if backend == "sqlite":
        rows = _rows(db)
        versions = [v for v, _ in rows]  # each chunk under its last record's version (the Created record's is 1)
        assert {state[:1] for _, state in rows} == {chunks.MARK_7}
        assert versions[-1] == done.version + 1 and len(rows) == -(-done.version // chunks.CHUNK_MAX)
        assert [b - a for a, b in zip([1, *versions], versions)][:-1] == [chunks.CHUNK_MAX] * (len(rows) - 1)
        _last_actions_read_back(db, done, records)


def test_a_game_stored_in_marks_4_and_5_reads_back_the_same_from_any_event(toy, db):
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        done = s.create_game("g", "toy", first, steps=steps, state=states[-1], states=states)
        records = s.events("g")
    _as_marks_4_and_5(db)
    marks = _marks(db)
    assert marks[0] == chunks.MARK_4 and set(marks) == {chunks.MARK_4, chunks.MARK_5} and len(marks) == done.version
    with GameStore(db) as s:
        assert s.events("g") == records and s.verify("g") == done.head
        _reads_back_from_anywhere(s, toy, done, records)
    _last_actions_read_back(db, done, records)


def test_a_game_stored_in_mark_6_reads_back_the_same_from_any_event(toy, db):
    """Stores written before lean chunks hold mark-6 rows: they read as they always did."""
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        s.create_game("g", "toy", first[:1])
        done = s.append("g", 1, events=first[1:], steps=steps, state=states[-1], states=states)
        records = s.events("g")
    _as_mark_6(db)
    assert set(_marks(db)) == {chunks.MARK_6}
    with GameStore(db) as s:
        assert s.events("g") == records and s.verify("g") == done.head
        _reads_back_from_anywhere(s, toy, done, records)
    _last_actions_read_back(db, done, records)


def test_a_save_whose_field_holds_the_lean_separator_is_stored_as_mark_6(toy, db):
    """The lean frame splits on byte 0x01, which canonical JSON never holds raw; a signature given as raw bytes
    (an import) could: that chunk is stored as mark 6 and reads back the same."""
    first, steps, _ = _whole_game(toy)
    events = [*first, *(e for _, ev in steps[:3] for e in ev)]
    payloads = [toy.encode(e) for e in events]
    raws = [RawRecord(toy.event_kind(e), 1, p, sig=b"odd\x01sig" if i == 1 else b"") for i, (e, p) in
            enumerate(zip(events, payloads))]
    with GameStore(db) as s:
        s.create_game("g", "toy", records=raws)
        records = s.events("g")
        assert [r.payload for r in records] == payloads and records[1].sig == b"odd\x01sig"
    assert _marks(db) == [chunks.MARK_6]
    assert chunks.pack_lean(bytes(8), ["ab" * 32], "toy", 1, [b'{"type":"k"}', b"", b"\x01"]) is None


def test_a_lean_chunk_keeps_a_kind_as_its_payloads_opening_else_the_save_is_mark_6(toy, db):
    """A lean chunk stores no kind: a record's kind is what its payload opens with.  A record given with
    another kind (an import of a damaged record) is stored as given, in mark 6, and named when read; a lean row
    edited so that a payload opens with no kind is named too."""
    first, steps, _ = _whole_game(toy)
    events = [*first, *(e for _, ev in steps[:3] for e in ev)]
    raws = [RawRecord("not-" + toy.event_kind(e) if i == 2 else toy.event_kind(e), 1, toy.encode(e))
            for i, e in enumerate(events)]
    with GameStore(db) as s:
        s.create_game("g", "toy", records=raws)
    assert _marks(db) == [chunks.MARK_6]
    with GameStore(db) as s, pytest.raises(DamagedStore) as found:
        s.events("g")
    assert found.value.number == 3 and "is not its payload's" in found.value.detail
    with GameStore(db) as s:
        s.create_game("h", "toy", records=[r._replace(kind=toy.event_kind(e)) for r, e in zip(raws, events)])
    (version, state), = _rows(db, "h")
    (_, _, fields, raw, count), _ = chunks.unpack_lean(state)
    fields = fields[2:]
    fields[3] = b'{"typ":' + fields[3][8:]  # record 2's payload
    hashes = [raw[32 * i:32 * i + 32].hex() for i in range(count)]
    _set(db, version, chunks.pack_lean(state[2:10], hashes, "toy", 1, fields), "h")
    with GameStore(db) as s, pytest.raises(DamagedStore) as found:
        s.events("h")
    assert found.value.number == 2 and "does not open with its kind" in found.value.detail


def test_a_read_without_stamps_is_the_same_records_and_still_names_a_stamp_that_does_not_read(toy, db):
    """``events(stamped=False)`` (``trv verify``'s read) leaves a lean chunk's ``recorded_at`` None and
    nothing else; a stamp past what a datetime holds is damage either way."""
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        s.create_game("g", "toy", first[:1])
        s.append("g", 1, events=first[1:], steps=steps[:40], state=states[39], states=states[:40])
        stamped, bare = s.events("g"), s.events("g", stamped=False)
    assert [r._replace(recorded_at=None) for r in stamped] == bare and all(r.recorded_at for r in stamped)
    assert {r.recorded_at for r in bare} == {None}
    version, state = _rows(db)[-1]
    _set(db, version, state[:2] + (253_402_300_800_000_000).to_bytes(8, "big") + state[10:])  # 10000-01-01
    with GameStore(db) as s:
        for stamps in (True, False):
            with pytest.raises(DamagedStore) as found:
                s.events("g", stamped=stamps)
            assert found.value.number == version - state[1] and "does not decode" in found.value.detail


def test_every_save_is_one_row_a_save_of_one_record_too(toy, db):
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        loaded = s.create_game("g", "toy", first[:1])
        loaded = s.append("g", loaded.version, events=first[1:], steps=steps[:2])
        loaded = s.append("g", loaded.version, steps=[steps[2]])  # a toy action makes one event
        records = s.events("g")
        assert s.verify("g") == loaded.head and [r.payload for r in records] == [
            toy.encode(e) for e in [*first, *steps[0][1], *steps[1][1], *steps[2][1]]]
    assert _marks(db) == [chunks.MARK_7] * 3
    assert [v for v, _ in _rows(db)] == [2, len(first) + 3, len(first) + 4]  # a row under its last record's version


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
    rows = _rows(db)
    assert {state[:1] for _, state in rows} == {chunks.MARK_7}
    assert [v for v, _ in rows] == [min(n, len(payloads)) + 1 for n in range(5, len(payloads) + 5, 5)]


def _stored(toy, db):
    first, steps, states = _whole_game(toy)
    with GameStore(db) as s:
        return s.create_game("g", "toy", first, steps=steps, state=states[-1], states=states)


def _move(db, version: int, to: int, game="g") -> None:
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE stored_events SET originator_version = ? WHERE originator_id = ? AND originator_version = ?",
                    [to, game_uuid(game).bytes, version])
    con.close()


K = chunks.CHUNK_MAX


@pytest.mark.parametrize("damage, number, says", [
    (lambda db, rows: _set(db, K + 1, rows[0][1][:40]), 1, "does not decode"),  # cut off in its hashes
    (lambda db, rows: _set(db, K + 1, rows[0][1][:1] + b"\x03" + rows[0][1][2:]), 1, "does not decode"),  # 3 records
    (lambda db, rows: _set(db, K + 1, None), 1, "event 1 is missing"),  # the first chunk's row deleted
    (lambda db, rows: _set(db, 2 * K + 1, None), K + 1, f"event {K + 1} is missing"),  # a later one
    (lambda db, rows: _move(db, 2 * K + 1, 2 * K - 4), K - 4, "stored in one row after event"),  # overlap
    (lambda db, rows: _set(db, 2 * K + 1, rows[0][1]), K + 1, ""),  # another chunk's row: its hashes do not chain
])
def test_a_damaged_chunk_row_is_named_and_nothing_appends_on_top(toy, db, damage, number, says):
    done = _stored(toy, db)
    damage(db, _rows(db))
    with GameStore(db) as s:
        with pytest.raises(StoreError) as found:
            s.verify("g")
        assert found.value.number == number and says in getattr(found.value, "detail", str(found.value))
        with pytest.raises(StoreError):
            s.append("g", done.version, events=[])


@pytest.mark.parametrize("damage, number", [
    (lambda first, member: [(3, chunks.MEMBERS[3])], 2),  # a row that says its chunk starts at itself's - 3
    (lambda first, member: [(2 + chunks.CHUNK_MAX, chunks.MEMBERS[1])], 1 + chunks.CHUNK_MAX),  # across chunks
    (lambda first, member: [(3, b"\x05")], 2),  # cut short
    (lambda first, member: [(2, first[:40])], 1),  # the chunk's first row cut off in its hashes
    (lambda first, member: [(2, first[:1] + b"\x03" + first[2:])], 1),  # it says it holds 3 records
    (lambda first, member: [(2, member)], 1),  # the first row replaced by another row's
])
def test_a_damaged_chunk_of_marks_4_and_5_is_named_and_nothing_appends_on_top(toy, db, damage, number):
    done = _stored(toy, db)
    _as_marks_4_and_5(db)
    con = sqlite3.connect(db)
    first, member = (bytes(r[0]) for r in con.execute(
        "SELECT state FROM stored_events WHERE originator_version IN (2, 3) ORDER BY originator_version"))
    con.close()
    for version, state in damage(first, member):
        _set(db, version, state)
    with GameStore(db) as s:
        with pytest.raises(DamagedStore) as found:
            s.verify("g")
        assert found.value.number == number and "does not decode" in found.value.detail
        with pytest.raises(StoreError):
            s.append("g", done.version, events=[])


def test_unpack_refuses_a_chunks_rows_in_one_line(toy, db):
    _stored(toy, db)
    one_row = _rows(db)[0][1]
    _as_marks_4_and_5(db)
    con = sqlite3.connect(db)
    first, member = (bytes(r[0]) for r in con.execute(
        "SELECT state FROM stored_events WHERE originator_version IN (2, 3) ORDER BY originator_version"))
    con.close()
    for row in (one_row, first, member):
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
    with pytest.raises(ValueError):
        chunks.pack_row(stamp, ["ab" * 32] * (chunks.CHUNK_MAX + 1), [entry] * (chunks.CHUNK_MAX + 1))
    row = chunks.pack_row(stamp, ["ab" * 32, "cd" * 32], [entry, entry])
    assert row[:1] == chunks.MARK_6 and row[1:] == rows[0][1:]  # one row, laid out as a mark-4 first row
    for packed in (rows[0], row):
        entries, when = chunks.unpack_chunk(packed)
        assert [e.hash for e in entries] == ["ab" * 32, "cd" * 32] and when == datetime(1970, 1, 1, 0, 0, 0, 1,
                                                                                            tzinfo=timezone.utc)
    with pytest.raises(Exception):
        chunks.unpack_chunk(chunks.MARK_5 + row[1:])
    with pytest.raises(ValueError):
        chunks.pack_lean(stamp, ["ab" * 32] * (chunks.CHUNK_MAX + 1), "toy", 1, [b"k"] * 3 * (chunks.CHUNK_MAX + 1))
    with pytest.raises(ValueError):
        chunks.pack_lean(stamp, ["ab" * 32], "toy", 1, [b'{"type":"k"}', b""])  # two fields, not three
    lean = chunks.pack_lean(stamp, ["ab" * 32, "cd" * 32], "toy", 1, [b'{"type":"k"}', b"", b""] * 2)
    assert lean[:1] == chunks.MARK_7 and lean[1:42] == row[1:42]  # the count, the stamp and the hashes as mark 6
    read, when = chunks.unpack_lean(lean)
    assert read.entries() == chunks.unpack_chunk(row)[0] and when == datetime(1970, 1, 1, 0, 0, 0, 1,
                                                                                tzinfo=timezone.utc)
    for damaged in (lean[:-1], lean + b"\x00", lean[:1] + b"\x03" + lean[2:], lean[:40]):
        with pytest.raises(Exception):
            chunks.unpack_lean(damaged)
    extra = lean[:74] + chunks.deflate_lean(chunks.SEP.join([b"toy", b"1", *[b'{"type":"k"}', b"", b""] * 2, b"x"]))
    with pytest.raises(zlib.error, match="a chunk of 2 records holds 7 fields, not 6"):
        chunks.unpack_lean(extra)
