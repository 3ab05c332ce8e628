"""A damaged store never passes for a sound one (issue 17).

Stores are damaged from outside, as a disk, a crash of another program or a
user with the sqlite3 shell would: tails cut off, bytes flipped in stored
events, in the games index and in snapshots, the file itself cut short.
Every time, `trv verify` names the damage (exit 1, one line), reads refuse
with one line naming the game, and no command appends on top of it.
"""

import json
import re
import shutil
import zlib

import pytest

from trvendetta.store.packing import pack, unpack

from tamper import chunk_body, row_holding, with_body  # tests/ is on sys.path (rootdir conftest)
from .helpers import play_random, rows, sql, stored_rows

#: a game in progress with a snapshot every 20 records, and a finished one
LIVE, OVER = "live", "g"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    db = tmp_path_factory.mktemp("pristine") / "trv.sqlite"
    play_random(db, LIVE, seed=5, actions=40, snapshot_interval=20)
    play_random(db, OVER, seed=3, actions=200)
    return db


@pytest.fixture
def store(pristine, tmp_path):
    db = tmp_path / "trv.sqlite"
    shutil.copy(pristine, db)
    return db


def gid(game: str) -> str:
    """The game's id as its snapshots hold it (32 hex characters)."""
    from trvendetta.store import game_uuid

    return game_uuid(game).hex


def eid(game: str) -> bytes:
    """The game's id as its events hold it (16 bytes, library.CompactIdsRecorder)."""
    from trvendetta.store import game_uuid

    return game_uuid(game).bytes


def test_the_pristine_store_verifies(trv, store):
    for game in (LIVE, OVER):
        assert trv("verify", game, db=store).stdout.startswith("OK: ")


@pytest.mark.parametrize("keep", [1, 10, 19, 20, 21, 41, 60, 70, 84])
def test_a_cut_off_tail_is_named_and_nothing_appends_on_top(trv, store, keep):
    sql(store, "DELETE FROM stored_events WHERE originator_id = ? AND originator_version > ?", eid(LIVE), keep + 1)
    left = _left(store, LIVE)  # a command's records share a row: the cut may take all of the last one kept
    assert left <= keep
    err = trv("verify", LIVE, db=store, code=1).stderr
    assert f"events {left + 1}-85 are missing" in err, err
    for args in (["show"], ["legal"], ["log"], ["undo", "--agreed"], ["turn", "--car", "small", "--assign", "1"]):
        result = trv("--game", LIVE, *args, db=store, code=None)
        assert result.exit_code != 0, (args, result.stdout)
        if args[0] in ("show", "legal", "log"):
            assert result.exit_code == 1 and "is damaged" in result.stderr, (args, result.stderr)
    assert _left(store, LIVE) == left  # nothing appended on top of the damage


def _left(db, game: str) -> int:
    """How many records of the game the store still holds (a row is stored under its last record's version)."""
    return rows(db, "SELECT max(originator_version) FROM stored_events WHERE originator_id = ?", eid(game))[0][0] - 1


@pytest.mark.parametrize("damage", ["cut-off", "undecodable"])
def test_log_and_export_show_what_remains_and_say_where_the_game_is_damaged(trv, store, tmp_path, damage):
    """A damaged game is not hidden: `log` and `export` print the events that
    can be read, then one line on stderr naming the damage, and exit 1 (the
    output is not the whole game); the incomplete record still verifies."""
    held, state, place = row_holding(store, eid(LIVE), 42)
    first = 42 - (place or 0)  # the first record of the row holding event 42
    if damage == "cut-off":
        sql(store, "DELETE FROM stored_events WHERE originator_id = ? AND originator_version >= ?", eid(LIVE), held)
        says = f"event {first}: events {first}-85 are missing"
    else:  # bytes that are not a record (nor a chunk) at all
        sql(store, "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            state[:1] + b"not a record", eid(LIVE), held)
        says = f"event {first}: the stored record does not decode"
    line = f"Error: game 'live' is damaged at event {first}: run trv verify"
    log = trv("log", "--game", LIVE, db=store, code=1)
    numbers = [int(line.split(".")[0]) for line in log.stdout.splitlines()]
    assert numbers[0] == 1 and numbers[-1] == first - 1 and log.stderr.strip() == line, log.stderr
    assert [row["n"] for row in json.loads(trv("log", "--json", "--game", LIVE, db=store, code=1).stdout)] == \
        list(range(1, first))
    export = trv("export", LIVE, db=store, code=1)
    assert f'[Events "{first - 1}"]' in export.stdout and export.stdout.endswith("% end\n")
    assert export.stderr.strip() == line, export.stderr
    assert f"game 'live' is damaged: {says}" in trv("verify", LIVE, db=store, code=1).stderr
    out = tmp_path / "salvaged.trv"
    written = trv("export", LIVE, "-o", out, db=store, code=1)
    assert written.stderr.strip() == f"{line} (written to {out})", written.stderr
    assert out.read_text() == export.stdout
    assert trv("verify", out, db=tmp_path / "other.sqlite").stdout.startswith("OK: 41 events")


def _state(db, game: str, version: int) -> bytes:
    return rows(db, "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                eid(game), version)[0][0]


def _chunk_of(db, game: str, version: int) -> tuple[int, int, bytes, list[tuple[int, int]]] | None:
    """For a record stored in a chunk (``chunks``: a save's records): the version of its chunk's first record,
    the version of the row holding the chunk, that row's state, and each record's span in the chunk's inflated
    records (``tamper.chunk_body``)."""
    held, head, place = row_holding(db, eid(game), version - 1)
    if place is None:
        return None
    return version - place, held, head, chunk_body(head)[1]


def _flip_targets(db, game: str, versions: list[int], step: int) -> list[tuple[int, int]]:
    """(version, byte offset) pairs over the stored records' JSON (records are
    stored packed: ``packing``; a chunk's, over that record's part of the
    chunk's JSON), skipping the wall-clock timestamp's digits (unhashed
    metadata, see the module doc)."""
    out = []
    for version in versions:
        chunk = _chunk_of(db, game, version)
        if chunk is not None:
            first, _, _, spans = chunk
            start, end = spans[version - first]
            out += [(version, k) for k in range(start, end, step)]
            continue
        state = unpack(_state(db, game, version))
        stamp = re.search(rb'"_data_":"([^"]*)"', state).span(1)
        out += [(version, k) for k in range(0, len(state), step) if not stamp[0] <= k < stamp[1]]
    return out


def _flip(db, game: str, version: int, offset: int) -> None:
    chunk = _chunk_of(db, game, version)
    if chunk is not None:  # the chunk's row holds the record
        _, held, head, _ = chunk
        body = bytearray(chunk_body(head)[0])
        body[offset] ^= 0x01
        sql(db, "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            with_body(head, bytes(body)), eid(game), held)
        return
    damaged = bytearray(unpack(_state(db, game, version)))
    damaged[offset] ^= 0x01
    sql(db, "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
        pack(bytes(damaged)), eid(game), version)


def _flipped_events(pristine, tmp_path, trv, step: int) -> tuple[int, int]:
    tried = named = 0
    for version, offset in _flip_targets(pristine, OVER, [2, 3, 60, 121, 145], step):
        db = tmp_path / f"f{version}-{offset}.sqlite"
        shutil.copy(pristine, db)
        chunk = _chunk_of(db, OVER, version)
        _flip(db, OVER, version, offset)
        result = trv("verify", OVER, db=db, code=None)
        tried += 1
        assert result.exit_code == 1, (version, offset, result.stdout)
        # the record changed, or, when its chunk no longer reads, the chunk's first record
        named_as = {version - 1} if chunk is None else {version - 1, chunk[0] - 1}
        assert any(f"event {n}" in result.stderr for n in named_as), (version, offset, result.stderr)
        named += 1
        db.unlink()
    return tried, named


def test_a_flipped_byte_in_an_event_is_named_by_verify(pristine, tmp_path, trv):
    tried, named = _flipped_events(pristine, tmp_path, trv, step=23)
    assert tried == named >= 100


@pytest.mark.slow
def test_every_flipped_byte_in_an_event_is_named_by_verify(pristine, tmp_path, trv):
    tried, named = _flipped_events(pristine, tmp_path, trv, step=1)
    assert tried == named > 2000


@pytest.mark.parametrize("change, says", [
    ("version = version + 5", "events 86-90 are missing"),
    ("version = version - 1", "the games index says it has 84 events"),
    ("head = '" + "ab" * 32 + "'", "the games index says its head is abababab"),
    ("status = 'over', winner = 'ann'", "the games index says over (winner ann)"),
])
def test_a_damaged_index_row_is_named_by_verify(trv, store, change, says):
    sql(store, f"UPDATE trv_games SET {change} WHERE id = ?", LIVE)
    assert says in trv("verify", LIVE, db=store, code=1).stderr


def test_a_missing_index_row_is_named_by_verify(trv, store):
    sql(store, "DELETE FROM trv_games WHERE id = ?", LIVE)
    assert "the games index has no row for it" in trv("verify", LIVE, db=store, code=1).stderr


def _latest_snapshot(db, game: str) -> tuple[int, dict]:
    version, state = rows(db, "SELECT originator_version, state FROM stored_snapshots WHERE originator_id = ? "
                              "ORDER BY originator_version DESC LIMIT 1", gid(game))[0]
    return version, json.loads(unpack(state))


def _put_snapshot(db, game: str, version: int, snap: dict) -> None:
    sql(db, "UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND originator_version = ?",
        pack(json.dumps(snap, separators=(",", ":")).encode()), gid(game), version)


def _revive(engine: str) -> str:
    """The engine state with every eliminated car marked operational."""
    data = json.loads(engine)
    changed = json.dumps(data).replace('"eliminated"', '"operational"')
    assert changed != json.dumps(data), "the snapshot has no eliminated car to revive"
    return json.dumps(json.loads(changed), separators=(",", ":"))


@pytest.mark.parametrize("keep_crc", [False, True])
def test_an_edited_snapshot_is_ignored_on_load_and_named_by_verify(trv, store, keep_crc):
    before = trv("show", "--game", OVER, "--json", db=store).stdout
    version, snap = _latest_snapshot(store, OVER)
    snap["state"]["engine"] = _revive(snap["state"]["engine"])
    if keep_crc:  # a deliberate edit, checksum and all: only the fold can tell
        snap["state"]["engine_crc"] = zlib.crc32(snap["state"]["engine"].encode())
    _put_snapshot(store, OVER, version, snap)
    err = trv("verify", OVER, db=store, code=1).stderr
    assert f"the snapshot after event {version - 1}" in err
    assert ("is not the fold of events" if keep_crc else "checksum") in err
    # a checksum anyone can recompute proves nothing: show uses the latest snapshot only when
    # folding the events from the snapshot before it gives the same state
    shown = trv("show", "--game", OVER, "--json", db=store)
    assert shown.stdout == before and shown.stderr == ""


def _snapshots(db, game: str) -> list[tuple[int, dict]]:
    return [(v, json.loads(unpack(s))) for v, s in rows(
        db, "SELECT originator_version, state FROM stored_snapshots WHERE originator_id = ? "
            "ORDER BY originator_version", gid(game))]


def test_the_snapshot_before_the_latest_edited_is_not_used_either(trv, store):
    """The load starts from the latest snapshot, which the one before must fold to: editing the one
    before (checksum recomputed) makes them disagree, and the game is replayed from its events."""
    before = trv("show", "--game", LIVE, "--json", db=store).stdout
    (version, snap), _ = _snapshots(store, LIVE)[-2:]
    assert '"bob"' in snap["state"]["engine"]
    snap["state"]["engine"] = snap["state"]["engine"].replace('"bob"', '"zed"')  # a name no event changes
    snap["state"]["engine_crc"] = zlib.crc32(snap["state"]["engine"].encode())
    _put_snapshot(store, LIVE, version, snap)
    assert trv("show", "--game", LIVE, "--json", db=store).stdout == before
    assert f"the snapshot after event {version - 1} is not the fold" in trv("verify", LIVE, db=store, code=1).stderr


def test_an_edited_shared_part_is_not_used_and_named_by_verify(trv, store):
    """Components are stored once, apart, by their hash: a part edited in place no longer matches
    its address, so no snapshot naming it is used."""
    before = trv("show", "--game", OVER, "--json", db=store).stdout
    (addr, data), = rows(store, "SELECT originator_id, state FROM stored_snapshots WHERE topic = 'trv:part'")
    parts = json.loads(unpack(data))
    changed = json.dumps(parts, separators=(",", ":")).replace('"6"', '"1"', 1)
    assert changed != json.dumps(parts, separators=(",", ":"))
    sql(store, "UPDATE stored_snapshots SET state = ? WHERE originator_id = ?", pack(changed.encode()), addr)
    assert trv("show", "--game", OVER, "--json", db=store).stdout == before
    assert "does not match its address" in trv("verify", OVER, db=store, code=1).stderr


@pytest.mark.parametrize("field, value", [("head", "cd" * 32), ("count", 3), ("ruleset", "classic")])
def test_a_snapshot_moved_or_relabelled_is_ignored_and_named(trv, store, field, value):
    before = trv("show", "--game", LIVE, "--json", db=store).stdout
    version, snap = _latest_snapshot(store, LIVE)
    snap["state"][field] = value
    _put_snapshot(store, LIVE, version, snap)
    assert "the snapshot after event" in trv("verify", LIVE, db=store, code=1).stderr
    assert trv("show", "--game", LIVE, "--json", db=store).stdout == before


def test_flipped_bytes_in_a_snapshot_are_ignored_or_named(trv, pristine, tmp_path):
    before = trv("show", "--game", LIVE, "--json", db=pristine).stdout
    version, _ = _latest_snapshot(pristine, LIVE)
    (state,) = rows(pristine, "SELECT state FROM stored_snapshots WHERE originator_id = ? AND originator_version = ?",
                    gid(LIVE), version)[0]
    state = unpack(state)
    stamp = re.search(rb'"_data_":"([^"]*)"', state).span(1)
    for offset in range(0, len(state), 97):
        if stamp[0] <= offset < stamp[1]:
            continue
        db = tmp_path / f"s{offset}.sqlite"
        shutil.copy(pristine, db)
        damaged = bytearray(state)
        damaged[offset] ^= 0x01
        sql(db, "UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND originator_version = ?",
            pack(bytes(damaged)), gid(LIVE), version)
        shown = trv("show", "--game", LIVE, "--json", db=db, code=None)
        assert shown.exit_code == 0 and shown.stdout == before, offset  # the snapshot is a cache: ignored
        result = trv("verify", LIVE, db=db, code=None)
        # a flip the snapshot still decodes the same after (a key's case, say) is harmless
        assert result.exit_code == 0 or "the snapshot after event" in result.stderr, (offset, result.stderr)
        db.unlink()


@pytest.mark.parametrize("keep", [0.9, 0.5])
def test_a_file_cut_short_is_one_line(trv, store, keep):
    size = store.stat().st_size
    with open(store, "r+b") as fh:
        fh.truncate(int(size * keep) // 4096 * 4096)
    for args in (["verify", LIVE], ["show", "--game", LIVE], ["games"], ["log", "--game", OVER]):
        result = trv(*args, db=store, code=None)
        assert result.exit_code in (0, 1), (args, result.stderr)
    assert trv("verify", OVER, db=store, code=None).exit_code == 1 or trv("verify", LIVE, db=store,
                                                                           code=None).exit_code == 1


def test_sqlites_integrity_check_is_part_of_verify(trv, store):
    sql(store, "CREATE INDEX idx_probe ON trv_games (last_used)")
    # an index that no longer matches its table: only the integrity check sees it
    import sqlite3

    con = sqlite3.connect(store)
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_master SET sql = replace(sql, '(last_used)', '(created)') "
                "WHERE name = 'idx_probe'")
    con.commit()
    con.close()
    err = trv("verify", LIVE, db=store, code=1).stderr
    assert "integrity check" in err, err
    assert stored_rows(store) > 0
