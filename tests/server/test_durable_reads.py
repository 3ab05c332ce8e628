"""Nothing is shown that is not on disk: a read waits until every commit before it is fsynced, and after
a failed fsync answers 503 instead of showing a version the disk may have lost.  The attack: a player
whose move opens a host draw sees the roll although the move's fsync failed; the disk really lost it (the
store rolled back to a copy from before the move); after the restart the player picks the other option
knowing the roll.  Here the roll is never shown, by any route."""

from __future__ import annotations

import base64
import sqlite3
from pathlib import Path

import httpx
import pytest

from trvendetta.replays.signatures import message

from .conftest import Club
from .test_recovery import duel  # noqa: F401  (the fixture)


def _copy(src: str, dst: str) -> None:
    """The store as it is now (SQLite's backup: whole, the log folded in), into ``dst``'s files."""
    for ext in ("", "-wal", "-shm"):
        Path(dst + ext).unlink(missing_ok=True)
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()


def _position(http: httpx.Client, auth: dict) -> tuple[str, dict]:
    mover = http.get("/api/games/duel", headers=auth["ann"]).json()["pending"]["player"]
    return mover, http.get("/api/games/duel", headers=auth[mover]).json()


def _body(keys: dict, mover: str, doc: dict, action: str) -> dict:
    sig = keys[mover].sign(mover, message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
    return {"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()}


def _to_a_roll(d: dict, snap: str) -> tuple[str, dict, dict]:
    """Plays on until a move with another legal option opens a host draw (the host rolls in its answer):
    the store copied into ``snap`` just before that move, its mover, the position and the body played."""
    http, store = d["http"], d["club"].store
    for _ in range(80):
        mover, doc = _position(http, d["auth"])
        _copy(store, snap)
        body = _body(d["keys"], mover, doc, doc["options"][0]["action"])
        answer = http.post("/api/games/duel/act", headers=d["auth"][mover], json=body)
        assert answer.status_code == 200, answer.text
        if len(doc["options"]) > 1 and answer.json()["version"] > doc["version"] + 1:
            return mover, doc, body
    pytest.fail("no move opened a host draw with another option legal")


def _restart(d: dict, store_from: str, tmp_path: Path, name: str) -> Club:
    """The server stopped and started again on ``store_from``'s copy of the store (a disk that lost what
    was not fsynced)."""
    club = d["club"]
    club.stop()
    _copy(store_from, club.store)
    return Club(tmp_path / name, club.store, home=club.home)


def _unshown(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert "\n" not in error and "until it is restarted" in error and "Input/output error" in error, error


def test_a_roll_whose_fsync_failed_is_never_shown_and_the_rollback_shows_no_choice(duel, disk, tmp_path):  # noqa: F811
    snap = str(tmp_path / "before.sqlite")
    mover, doc, body = _to_a_roll(duel, snap)
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    again = _restart(duel, snap, tmp_path, "b")  # back to the position before that move
    try:
        with httpx.Client(base_url=again.url, timeout=60) as http:
            auth = duel["auth"]
            disk["failing"] = True
            try:
                moved = http.post("/api/games/duel/act", headers=auth[mover], json=body)
            finally:
                disk["failing"] = False
            assert moved.status_code == 503 and moved.json()["recorded"] > body["version"] + 1, moved.text
            assert again.club.store.version("duel") == moved.json()["recorded"]  # the roll is committed ...
            for who in ("ann", "bob", None):  # ... and shown to no one, by any route
                _unshown(http.get("/api/games/duel", headers=auth[who] if who else None))
            _unshown(http.get("/api/games/duel/record"))
            _unshown(http.get("/api/games/duel/record?since=0"))
            _unshown(http.get("/api/games/duel/options", headers=auth[mover]))
            _unshown(http.get("/api/games"))
            _unshown(http.get("/api/me", headers=auth[mover]))
            assert http.get("/replay/duel").status_code == 503
            with http.stream("GET", "/api/games/duel/events") as stream:
                assert stream.status_code == 503
    finally:
        again.stop()
    last = _restart(duel, snap, tmp_path, "c")  # the disk lost the move and its roll
    try:
        with httpx.Client(base_url=last.url, timeout=60) as http:
            mover2, now = _position(http, duel["auth"])
            assert (mover2, now["version"], now["head"]) == (mover, doc["version"], doc["head"])
            other = now["options"][1]["action"]
            assert other != body["action"]
            played = http.post("/api/games/duel/act", headers=duel["auth"][mover],
                               json=_body(duel["keys"], mover, now, other))
            assert played.status_code == 200, played.text  # legal: but the roll it follows was never seen
    finally:
        last.stop()


def test_reads_wait_for_the_fsync_of_what_they_show(duel):  # noqa: F811
    """The group commit held: a move is committed, not yet fsynced; a read of its game waits for that
    fsync (it is answered once the fsync has run, never before), and shows the move."""
    import threading

    server = duel["club"].app.state.server
    syncer = server._syncer
    gate, entered = threading.Event(), threading.Event()
    real = syncer._sync

    def held() -> None:
        entered.set()
        assert gate.wait(60)
        real()
    syncer._sync = held
    http, auth = duel["http"], duel["auth"]
    mover, doc = _position(http, auth)
    body = _body(duel["keys"], mover, doc, doc["options"][0]["action"])
    results: dict = {}
    moving = threading.Thread(target=lambda: results.update(move=http.post(
        "/api/games/duel/act", headers=auth[mover], json=body)))
    moving.start()
    assert entered.wait(60)  # the move is committed; its fsync is held
    committed = duel["club"].on_store(duel["club"].club.store.version, "duel")
    assert committed > doc["version"]
    with httpx.Client(base_url=duel["club"].url, timeout=60) as reader:
        reading = threading.Thread(target=lambda: results.update(read=reader.get("/api/games/duel")))
        reading.start()
        with syncer._cond:  # the read waits on the held fsync too (or was answered: the failure)
            assert syncer._cond.wait_for(lambda: len(syncer._waiting) >= 2 or "read" in results, 60)
        assert "read" not in results  # not answered while the fsync is held
        syncer._sync = real
        gate.set()
        reading.join(60)
    moving.join(60)
    assert results["move"].status_code == 200, results["move"].text
    assert results["read"].status_code == 200 and results["read"].json()["version"] == committed
