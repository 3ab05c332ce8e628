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
from trvendetta.store.rows import Snap, pack


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("snapshots") / "g.sqlite"
    rs = rulesets.get("vendetta")
    steps: list = []
    simulate(rs, 4, 3, ["random"], steps_out=steps)
    with GameStore(str(path), snapshot_interval=100) as store:
        state, first = rs.new_game(new_position(rs, 4, 3))
        version = store.create_game("g", rs.name, first).version
        for action, events, after in steps:  # turn by turn, as `trv turn` stores a game
            version = store.append("g", version, steps=[(action, events)], state=after).version
    return path, version


def _rows(db) -> list[tuple[int, Snap]]:
    con = sqlite3.connect(db)
    try:
        found = con.execute("SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                            "AND originator_version > 0 ORDER BY originator_version", (game_uuid("g").hex,)).fetchall()
    finally:
        con.close()
    return [(v, msgspec.msgpack.decode(zlib.decompress(s), type=Snap)) for v, s in found]


def _put(db, version: int, snap: Snap) -> None:
    con = sqlite3.connect(db)
    try:
        con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                    (pack(snap), game_uuid("g").hex, version))
        con.commit()
    finally:
        con.close()


def _verify(db):
    with GameStore(str(db)) as store:
        return replays.verify_game(store, "g")


def _another_engine(engine: bytes) -> bytes:
    """The engine JSON with one number changed (a value the fold does not have)."""
    at = next(i for i, c in enumerate(engine) if chr(c).isdigit())
    return engine[:at] + (b"7" if engine[at:at + 1] != b"7" else b"3") + engine[at + 1:]


def _edit_head(snap):
    snap.head = bytes.fromhex("ab" * 32)


def _edit_engine(snap):
    snap.engine = _another_engine(snap.engine)


@pytest.mark.parametrize("edit, says", [
    (_edit_head, "the snapshot after event {n}: its head is not the stored hash of its last event (it is ignored)"),
    (_edit_engine, "the snapshot after event {n} is not the fold of events 1-{n}: it was edited"),
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
    edit(snap)
    _put(db, version, snap)
    with pytest.raises(DamagedStore) as caught:
        _verify(db)
    assert str(caught.value).endswith(f"events 1-{events} verify, but " + says.format(n=version))
