"""A damaged store never passes for a sound one (issue 17).

Stores are damaged from outside, as a disk, a crash of another program or a
user with the sqlite3 shell would: tails cut off, bytes flipped in stored
events, in the games index and in snapshots, the file itself cut short.
Every time, `trv verify` names the damage (exit 1, one line), reads refuse
with one line naming the game, and no command appends on top of it.
"""

import json
import shutil
import zlib

import msgspec
import pytest

from trvendetta.store.records import COPY_INTERVAL
from trvendetta.store.rows import Snap, pack

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
    """The game's id as its snapshots' rows hold it (32 hex characters)."""
    from trvendetta.store import game_uuid

    return game_uuid(game).hex


def eid(game: str) -> str:
    """The key of the game's rows in the commands table: its name."""
    return game


def test_the_pristine_store_verifies(trv, store):
    for game in (LIVE, OVER):
        assert trv("verify", game, db=store).stdout.startswith("OK: ")


@pytest.mark.parametrize("keep", [1, 10, 19, 20, 21, 41, 60, 70, 84])
def test_a_cut_off_tail_is_named_and_nothing_appends_on_top(trv, store, keep):
    held = row_holding(store, eid(LIVE), keep + 1)[0]  # a command's records share a row: cut from its first
    sql(store, "DELETE FROM stored_commands WHERE originator_id = ? AND originator_version >= ?", eid(LIVE), held)
    left = _left(store, LIVE)
    assert left == held - 1 <= keep
    err = trv("verify", LIVE, db=store, code=1).stderr
    assert f"events {left + 1}-85 are missing" in err, err
    for args in (["show"], ["legal"], ["log"], ["undo", "--agreed"], ["turn", "--car", "small", "--assign", "1"]):
        result = trv("--game", LIVE, *args, db=store, code=None)
        assert result.exit_code != 0, (args, result.stdout)
        if args[0] in ("show", "legal", "log"):
            assert result.exit_code == 1 and "is damaged" in result.stderr, (args, result.stderr)
    assert _left(store, LIVE) == left  # nothing appended on top of the damage


def _left(db, game: str) -> int:
    """How many records of the game the store still holds (a row is stored under its first record's number)."""
    version, state = rows(db, "SELECT originator_version, state FROM stored_commands WHERE originator_id = ? "
                              "ORDER BY originator_version DESC LIMIT 1", eid(game))[0]
    return version + len(msgspec.msgpack.decode(zlib.decompress(state))[2]) - 1 if version else 0


@pytest.mark.parametrize("damage", ["cut-off", "undecodable"])
def test_log_and_export_show_what_remains_and_say_where_the_game_is_damaged(trv, store, tmp_path, damage):
    """A damaged game is not hidden: `log` and `export` print the events that
    can be read, then one line on stderr naming the damage, and exit 1 (the
    output is not the whole game); the incomplete record still verifies."""
    held, state, place = row_holding(store, eid(LIVE), 42)
    first = held  # the first record of the row holding event 42
    if damage == "cut-off":
        sql(store, "DELETE FROM stored_commands WHERE originator_id = ? AND originator_version >= ?", eid(LIVE), held)
        says = f"event {first}: events {first}-85 are missing"
    else:  # bytes that are not a row at all
        sql(store, "UPDATE stored_commands SET state = ? WHERE originator_id = ? AND originator_version = ?",
            b"not a record", eid(LIVE), held)
        says = f"event {first}: it cannot be read"
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


def _flip_targets(db, game: str, numbers: list[int], step: int) -> list[tuple[int, int]]:
    """(record number, byte offset) pairs over the records' payloads in their rows' inflated bytes
    (``tamper.chunk_body``)."""
    out = []
    for number in numbers:
        held, state, place = row_holding(db, eid(game), number)
        start, end = chunk_body(state)[1][place]
        out += [(number, k) for k in range(start, end, step)]
    return out


def _flip(db, game: str, number: int, offset: int) -> None:
    held, state, _ = row_holding(db, eid(game), number)
    body = bytearray(chunk_body(state)[0])
    body[offset] ^= 0x01
    sql(db, "UPDATE stored_commands SET state = ? WHERE originator_id = ? AND originator_version = ?",
        with_body(state, bytes(body)), eid(game), held)


def _flipped_events(pristine, tmp_path, trv, step: int) -> tuple[int, int]:
    tried = named = 0
    for number, offset in _flip_targets(pristine, OVER, [1, 2, 59, 120, 144], step):
        db = tmp_path / f"f{number}-{offset}.sqlite"
        shutil.copy(pristine, db)
        first = row_holding(db, eid(OVER), number)[0]
        _flip(db, OVER, number, offset)
        result = trv("verify", OVER, db=db, code=None)
        tried += 1
        assert result.exit_code == 1, (number, offset, result.stdout)
        # the record changed, or, when its row no longer reads, the row's first record
        assert any(f"event {n}" in result.stderr for n in {number, first}), (number, offset, result.stderr)
        named += 1
        db.unlink()
    return tried, named


def test_a_flipped_byte_in_an_event_is_named_by_verify(pristine, tmp_path, trv):
    tried, named = _flipped_events(pristine, tmp_path, trv, step=7)
    assert tried == named >= 60


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


_snap = msgspec.msgpack.Decoder(Snap)


def _latest_snapshot(db, game: str) -> tuple[int, Snap]:
    version, state = rows(db, "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                              "AND originator_version > 0 ORDER BY originator_version DESC LIMIT 1", gid(game))[0]
    return version, _snap.decode(zlib.decompress(state))


def _put_snapshot(db, game: str, version: int, snap: Snap) -> None:
    sql(db, "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
        pack(snap), gid(game), version)


def _revive(engine: bytes) -> bytes:
    """The engine state with every eliminated car marked operational."""
    changed = engine.replace(b'"eliminated"', b'"operational"')
    assert changed != engine, "the snapshot has no eliminated car to revive"
    return changed


def _loaded(db, game: str) -> bytes:
    """The game as a command that appends loads it (from its snapshots, never the index's copy), encoded."""
    from trvendetta.store import GameStore

    with GameStore(db) as s:
        loaded = s.load(game)
        return loaded.ruleset.encode(loaded.state)


def _head(db, game: str, at: int) -> str:
    """The chain hash after event ``at``, as a load up to it checks it."""
    from trvendetta.store import GameStore

    with GameStore(db) as s:
        return s.load(game, at).head


def test_an_edited_snapshot_is_ignored_on_load_and_named_by_verify(trv, store):
    """zlib's checksum is recomputed by anyone who edits: a load uses the latest snapshot only when folding
    the events from the snapshot before it gives the same state."""
    before, loaded = trv("show", "--game", OVER, "--json", db=store).stdout, _loaded(store, OVER)
    version, snap = _latest_snapshot(store, OVER)
    snap.engine = _revive(snap.engine)
    _put_snapshot(store, OVER, version, snap)
    err = trv("verify", OVER, db=store, code=1).stderr
    assert f"the snapshot after event {version} is not the fold of events" in err
    shown = trv("show", "--game", OVER, "--json", db=store)
    assert shown.stdout == before and shown.stderr == "" and _loaded(store, OVER) == loaded


def _snapshots(db, game: str) -> list[tuple[int, Snap]]:
    return [(v, _snap.decode(zlib.decompress(s))) for v, s in rows(
        db, "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
            "AND originator_version > 0 ORDER BY originator_version", gid(game))]


def test_the_snapshot_before_the_latest_edited_is_not_used_either(trv, store):
    """The load starts from the latest snapshot, which the one before must fold to: editing the one
    before makes them disagree, and the game is replayed from its events."""
    before, loaded = trv("show", "--game", LIVE, "--json", db=store).stdout, _loaded(store, LIVE)
    (version, snap), _ = _snapshots(store, LIVE)[-2:]
    assert b'"bob"' in snap.engine
    snap.engine = snap.engine.replace(b'"bob"', b'"zed"')  # a name no event changes
    _put_snapshot(store, LIVE, version, snap)
    assert trv("show", "--game", LIVE, "--json", db=store).stdout == before and _loaded(store, LIVE) == loaded
    assert f"the snapshot after event {version} is not the fold" in trv("verify", LIVE, db=store, code=1).stderr


@pytest.mark.parametrize("field, value", [("head", bytes.fromhex("cd" * 32)), ("version", 3)])
def test_a_snapshot_moved_or_relabelled_is_ignored_and_named(trv, store, field, value):
    before = trv("show", "--game", LIVE, "--json", db=store).stdout
    version, snap = _latest_snapshot(store, LIVE)
    if field == "version":  # the snapshot stored under another record's number
        sql(store, "UPDATE stored_events SET originator_version = ? WHERE originator_id = ? AND "
                   "originator_version = ?", value, gid(LIVE), version)
    else:
        setattr(snap, field, value)
        _put_snapshot(store, LIVE, version, snap)
    assert "the snapshot after event" in trv("verify", LIVE, db=store, code=1).stderr
    assert trv("show", "--game", LIVE, "--json", db=store).stdout == before


def test_flipped_bytes_in_a_snapshot_are_ignored_or_named(trv, pristine, tmp_path):
    before = trv("show", "--game", LIVE, "--json", db=pristine).stdout
    version, _ = _latest_snapshot(pristine, LIVE)
    (state,) = rows(pristine, "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                    gid(LIVE), version)[0]
    state = zlib.decompress(state)
    for offset in range(0, len(state), 97):
        db = tmp_path / f"s{offset}.sqlite"
        shutil.copy(pristine, db)
        damaged = bytearray(state)
        damaged[offset] ^= 0x01
        sql(db, "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            zlib.compress(bytes(damaged)), gid(LIVE), version)
        shown = trv("show", "--game", LIVE, "--json", db=db, code=None)
        assert shown.exit_code == 0 and shown.stdout == before, offset  # the snapshot is a cache: ignored
        result = trv("verify", LIVE, db=db, code=None)
        # a flip the snapshot still decodes the same after is harmless
        assert result.exit_code == 0 or "the snapshot after event" in result.stderr, (offset, result.stderr)
        db.unlink()


def _index_copy(db, game: str) -> tuple[int, Snap]:
    """The games index's copy of ``game``: the record it is after, and the copy."""
    at, state = rows(db, "SELECT COALESCE(state_at, version), state FROM trv_games WHERE id = ?", game)[0]
    return at, _snap.decode(zlib.decompress(state))


def test_show_starts_from_the_index_copy_whose_head_the_last_row_stores(trv, store):
    """The games index holds a copy of the game after a command of the last COPY_INTERVAL records; show
    and legal start from it, reading the header, the row ending at its record (which stores its head) and
    the rows after it."""
    before = trv("show", "--game", LIVE, "--json", db=store).stdout
    version, copy = _index_copy(store, LIVE)
    assert 0 < json.loads(before)["version"] - version < COPY_INTERVAL
    assert copy.head.hex() == _head(store, LIVE, version)
    first = rows(store, "SELECT min(originator_version) FROM stored_commands WHERE originator_id = ? "
                        "AND originator_version > 0", eid(LIVE))[0][0]
    sql(store, "DELETE FROM stored_commands WHERE originator_id = ? AND originator_version = ?", eid(LIVE), first)
    assert trv("show", "--game", LIVE, "--json", db=store).stdout == before  # a row it does not read
    assert "is damaged at event 1" in trv("log", "--game", LIVE, db=store, code=1).stderr


@pytest.mark.parametrize("change", ["head", "version", "rules", "behind"])
def test_an_index_copy_that_does_not_match_the_last_row_is_not_used(trv, store, change):
    """A copy with another head, under another number, of other rules, or left behind by a crash
    between a command's commit and its index write (the game moved on): show folds the rows instead."""
    before = trv("show", "--game", LIVE, "--json", db=store).stdout
    version, copy = _index_copy(store, LIVE)
    if change == "behind":
        copy = _snapshots(store, LIVE)[-1][1]  # an older state, its own head: the index row is stale
        sql(store, "UPDATE trv_games SET state = ? WHERE id = ?", pack(copy), LIVE)
    else:
        copy.engine = _revive_live(copy.engine)
        if change == "head":
            copy.head = bytes.fromhex("cd" * 32)
        elif change == "rules":
            copy.rules = "0"
        sql(store, "UPDATE trv_games SET state = ?, state_at = ? WHERE id = ?", pack(copy),
            version - 1 if change == "version" else version, LIVE)
    assert trv("show", "--game", LIVE, "--json", db=store).stdout == before


def _revive_live(engine: bytes) -> bytes:
    changed = engine.replace(b'"bob"', b'"zed"')
    assert changed != engine
    return changed


@pytest.mark.parametrize("where", ["last", "copied"])
def test_an_index_copy_edited_with_its_head_kept_is_named_by_verify(trv, store, where):
    """The route around the head check: the copy's state edited, its head and checksum kept right, as a
    copy of the game after its last record (show prints it: it folds nothing) or where the copy was taken
    (show folds the records after it; an edit they cannot fold on from makes show fold the rows instead,
    never a traceback).  `trv verify` folds every event and names it; a command that appends loads from
    the snapshots and the rows, never the copy."""
    loaded, shown = _loaded(store, LIVE), json.loads(trv("show", "--game", LIVE, "--json", db=store).stdout)
    version, copy = _index_copy(store, LIVE)
    if where == "last":
        version, copy.engine, copy.head = shown["version"], loaded, bytes.fromhex(shown["head"])
    copy.engine = _revive_live(copy.engine)
    sql(store, "UPDATE trv_games SET state = ?, state_at = ? WHERE id = ?", pack(copy), version, LIVE)
    show = trv("show", "--game", LIVE, "--json", db=store).stdout
    assert ("zed" in show) == (where == "last")
    err = trv("verify", LIVE, db=store, code=1).stderr
    assert f"the games index's copy of the game after event {version} is not the fold of events 1-{version}" in err
    assert _loaded(store, LIVE) == loaded


def test_flipped_bytes_in_the_index_copy_are_ignored_or_named(trv, pristine, tmp_path):
    before = trv("show", "--game", LIVE, "--json", db=pristine).stdout
    (state,) = rows(pristine, "SELECT state FROM trv_games WHERE id = ?", LIVE)[0]
    for offset in range(0, len(state), 41):
        db = tmp_path / f"s{offset}.sqlite"
        shutil.copy(pristine, db)
        damaged = bytearray(state)
        damaged[offset] ^= 0x04
        sql(db, "UPDATE trv_games SET state = ? WHERE id = ?", bytes(damaged), LIVE)
        shown = trv("show", "--game", LIVE, "--json", db=db, code=None)
        assert shown.exit_code == 0 and shown.stdout == before, offset  # zlib's checksum: not used
        result = trv("verify", LIVE, db=db, code=None)
        assert result.exit_code == 0 or "the games index's copy" in result.stderr, (offset, result.stderr)
        db.unlink()


def test_an_index_made_before_the_copies_gets_them_from_the_first_store_to_open_it(trv, store):
    """A store whose games index has no state column (written before it): show folds the rows; the
    first command that opens the store to write adds the column and a copy for every game."""
    before = trv("show", "--game", OVER, "--json", db=store).stdout
    sql(store, "ALTER TABLE trv_games DROP COLUMN state")
    assert trv("show", "--game", OVER, "--json", db=store).stdout == before
    trv("games", db=store)
    assert {g for g, s in rows(store, "SELECT id, state FROM trv_games") if s} == {LIVE, OVER}
    assert trv("show", "--game", OVER, "--json", db=store).stdout == before
    trv("verify", OVER, db=store)


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
