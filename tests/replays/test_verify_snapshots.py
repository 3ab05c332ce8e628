"""What ``trv verify`` says of each way a stored snapshot can disagree with the events it follows: the
walk encodes the fold at each snapshot's number (a game's components once a walk, ``integrity.encoded``)
and each snapshot's head is read where it is asked (``integrity.Heads``), the same words either way."""

import shutil
import sqlite3
import zlib

import msgspec
import pytest

from trvendetta import replays, rulesets
from trvendetta.bots import new_position, simulate
from trvendetta.store import DamagedStore, GameStore, game_uuid
from trvendetta.store import packing
from trvendetta.store.packing import pack, unpack


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("snapshots") / "g.sqlite"
    rs = rulesets.get("vendetta")
    steps: list = []
    simulate(rs, 4, 3, ["random"], steps_out=steps)
    with GameStore(str(path)) as store:
        state, first = rs.new_game(new_position(rs, 4, 3))
        version = store.create_game("g", rs.name, first).version
        for action, events, after in steps:  # turn by turn, as `trv turn` stores a game
            version = store.append("g", version, steps=[(action, events)], state=after).version
    return path, version


def _rows(db) -> list[tuple[int, dict]]:
    con = sqlite3.connect(db)
    try:
        found = con.execute("SELECT originator_version, state FROM stored_snapshots WHERE originator_id = ? "
                            "ORDER BY originator_version", (game_uuid("g").hex,)).fetchall()
    finally:
        con.close()
    return [(v, msgspec.json.decode(unpack(s))) for v, s in found]


def _put(db, version: int, snap: dict) -> None:
    con = sqlite3.connect(db)
    try:
        con.execute("UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND originator_version = ?",
                    (pack(msgspec.json.encode(snap)), game_uuid("g").hex, version))
        con.commit()
    finally:
        con.close()


def _verify(db):
    with GameStore(str(db)) as store:
        return replays.verify_game(store, "g")


def _another_engine(engine: str) -> str:
    """The engine JSON with one number changed (a value the fold does not have)."""
    at = next(i for i, c in enumerate(engine) if c.isdigit())
    return engine[:at] + ("7" if engine[at] != "7" else "3") + engine[at + 1:]


def _edit_head(snap):
    snap["head"] = "ab" * 32


def _edit_engine(snap):
    snap["engine"] = _another_engine(snap["engine"])


def _edit_engine_and_checksum(snap):
    _edit_engine(snap)
    snap["engine_crc"] = zlib.crc32(snap["engine"].encode())


@pytest.mark.parametrize("edit, says", [
    (_edit_head, "the snapshot after event {n}: its head is not the hash of the stored event {n} (it is ignored)"),
    (_edit_engine, "the snapshot after event {n}: its engine state does not match its checksum (it is ignored)"),
    (_edit_engine_and_checksum, "the snapshot after event {n} is not the fold of events 1-{n}: it was edited"),
])
@pytest.mark.parametrize("which", [0, -1])
def test_an_edited_snapshot_is_named_exactly(stored, tmp_path, edit, says, which):
    path, events = stored
    db = tmp_path / "g.sqlite"
    shutil.copy(path, db)
    found = _rows(db)
    assert len(found) >= 2
    assert _verify(db).events == events
    version, snap = found[which]
    edit(snap["state"])
    _put(db, version, snap)
    with pytest.raises(DamagedStore) as caught:
        _verify(db)
    assert str(caught.value).endswith(f"events 1-{events} verify, but " + says.format(n=version - 1))


def _packed_rows(db) -> list[tuple[int, bytes]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT originator_version, state FROM stored_snapshots WHERE originator_id = ? "
                           "ORDER BY originator_version", (game_uuid("g").hex,)).fetchall()
    finally:
        con.close()


def _put_packed(db, version: int, data: bytes) -> None:
    con = sqlite3.connect(db)
    try:
        con.execute("UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND originator_version = ?",
                    (data, game_uuid("g").hex, version))
        con.commit()
    finally:
        con.close()


def _damaged(data: bytes):
    """A mark-3 snapshot row damaged in each part of its layout (``packing``: mark, 1 hash, 3 stamps, deflate)."""
    assert data[:1] == b"\x03" and data[1] == 1 and data[34] == 3
    yield "as stored", data
    yield "a stamp past year 9999", data[:35] + b"\xff" * 8 + data[43:]
    yield "a stamp of zero", data[:43] + bytes(8) + data[51:]
    yield "two stamps said", data[:34] + b"\x02" + data[35:]
    yield "four stamps said", data[:34] + b"\x04" + data[35:]
    yield "no hash said", data[:1] + b"\x00" + data[2:]
    yield "a byte of the deflated text", data[:70] + bytes([data[70] ^ 0x20]) + data[71:]
    yield "cut in its stamps", data[:50]
    yield "cut after its stamps", data[:59]
    yield "the head's hash changed", data[:2] + bytes(32) + data[34:]
    text = packing.inflate(memoryview(data)[59:])
    moved = text.replace(b'"_data_":"\x02"', b'"_data_":""', 1).replace(b'\\"seed\\"', b'\\"se\x02ed\\"', 1)
    assert moved.count(b"\x02") == 3 and moved != text
    yield "a stamp's place inside the engine's JSON", data[:59] + packing.deflate(moved)
    yield "a second place for the hash", data[:59] + packing.deflate(text.replace(b'"parent":"', b'"parent":"\x01', 1))
    yield "no place for the hash", data[:59] + packing.deflate(text.replace(b"\x01", b"", 1))


def test_a_snapshot_read_for_verify_says_what_unpack_says_of_every_damaged_row(stored, tmp_path, monkeypatch):
    """``GameReader.snapshots`` reads a row without its stamps (``parts.unstamped``): whatever is wrong with
    a row, it says what reading the whole row says, and reads an undamaged one the same."""
    from trvendetta.store import reader

    path, events = stored
    db = tmp_path / "g.sqlite"
    shutil.copy(path, db)
    version, data = _packed_rows(db)[1]
    problems, lean = set(), reader.unstamped
    for what, damaged in _damaged(data):
        _put_packed(db, version, damaged)
        read = []
        for how in (lean, unpack):
            monkeypatch.setattr(reader, "unstamped", how)
            with GameStore(str(db)) as store:
                read.append([store.snapshots("g", decode=decode) for decode in (False, True)])
        assert read[0] == read[1], what
        problems.add(read[0][0][1].problem)
    assert None in problems and len(problems) >= 5  # the damage reaches several different words
