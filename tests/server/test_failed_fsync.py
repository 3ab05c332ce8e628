"""An fsync of the server's store that fails (the disk's EIO, injected: ``os.fsync`` raises while the test
says so), then works again.  The request it covered was committed: its 503 says what was recorded; the
same request posted again is answered as recorded, never as a game that moved on; and the process takes
no more writes, since a later fsync that succeeds says nothing of the pages the failed one lost, until
it is restarted, reading its store as it is on disk."""

from __future__ import annotations

import base64

import httpx
import pytest

from trvendetta import replays
from trvendetta.replays.signatures import message

from .conftest import Club
from .test_recovery import duel  # noqa: F401  (the fixture)


def _signed(d: dict) -> tuple[str, dict]:
    """The mover and their signed body for the first option of their pending decision, as the page makes it."""
    http = d["http"]
    mover = http.get("/api/games/duel", headers=d["auth"]["ann"]).json()["pending"]["player"]
    doc = http.get("/api/games/duel", headers=d["auth"][mover]).json()
    action = doc["options"][0]["action"]
    sig = d["keys"][mover].sign(mover, message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
    return mover, {"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()}


def _signed_from_store(d: dict) -> tuple[str, dict]:
    """``_signed``, the position read on the server's store thread (its reads answer 503 after a failed fsync)."""
    club = d["club"]
    mover = club.on_store(club.club.game_doc, "duel", "ann")["pending"]["player"]
    doc = club.on_store(club.club.game_doc, "duel", mover)
    action = doc["options"][0]["action"]
    sig = d["keys"][mover].sign(mover, message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
    return mover, {"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()}


def _post(d: dict, mover: str, body: dict) -> httpx.Response:
    return d["http"].post("/api/games/duel/act", headers=d["auth"][mover], json=body)


def _played(d: dict, moves: int) -> None:
    for _ in range(moves):
        response = _post(d, *_signed(d))
        assert response.status_code == 200, response.text


def _fsync_fails_once(d: dict, disk: dict) -> tuple[str, dict, dict]:
    """Two moves, then one whose fsync fails (the disk works again after it): its mover, body, answer."""
    _played(d, 2)
    mover, body = _signed(d)
    disk["failing"] = True
    try:
        response = _post(d, mover, body)
    finally:
        disk["failing"] = False
    assert disk["failed"] and response.status_code == 503, response.text
    return mover, body, response.json()


def test_a_failed_fsync_says_the_move_is_recorded_but_not_known_on_disk(duel, disk):  # noqa: F811
    mover, body, answer = _fsync_fails_once(duel, disk)
    store = duel["club"].club.store
    assert answer["recorded"] == store.version("duel") > body["version"]  # the move (and its roll) committed
    error = answer["error"]
    assert "\n" not in error and f"recorded (the game is at event {answer['recorded']})" in error, error
    assert "not known to be on disk" in error and "Input/output error" in error and "restarted" in error, error
    shown = duel["http"].get("/api/games/duel")  # a reader is not shown what may not be on disk
    assert shown.status_code == 503 and "until it is restarted" in shown.json()["error"], shown.text


def test_the_same_action_posted_again_is_answered_as_recorded(duel):  # noqa: F811
    """Its answer lost: the same signed body again adds nothing and says where the game is, also once the
    game moved on past it; another action signed at the same point is still a move too late."""
    _played(duel, 2)
    mover, body = _signed(duel)
    first = _post(duel, mover, body)
    assert first.status_code == 200, first.text
    store = duel["club"].club.store
    at = store.version("duel")
    again = _post(duel, mover, body)
    assert again.status_code == 200, again.text
    assert again.json() == {"game": "duel", "version": at, "added": 0}
    _played(duel, 2)
    now = store.version("duel")
    again = _post(duel, mover, body)
    assert again.status_code == 200 and again.json() == {"game": "duel", "version": now, "added": 0}, again.text
    assert store.version("duel") == now  # nothing added
    other = "ann" if mover == "bob" else "bob"
    stale = _post(duel, other, body)  # the other player posting the mover's signed action: not theirs
    assert stale.status_code == 409 and "moved on" in stale.json()["error"], stale.text
    changed = dict(body, action='{"not":"the action"}')
    assert _post(duel, mover, changed).status_code == 409


def test_after_a_failed_fsync_no_write_is_taken_until_a_restart(duel, disk):  # noqa: F811
    """The next route round it: the disk works again, yet the server stores nothing more (a later fsync
    that succeeds proves nothing of the pages the failed one lost), and shows no game (test_durable_reads);
    what shows none goes on."""
    mover, body, answer = _fsync_fails_once(duel, disk)
    store = duel["club"].club.store
    fsyncs = disk["failed"]
    refused = _post(duel, *_signed_from_store(duel))  # the next move
    assert refused.status_code == 503, refused.text
    error = refused.json()["error"]
    assert "\n" not in error and "no more moves or other writes until it is restarted" in error, error
    assert "fsync" in error and "Input/output error" in error, error
    assert store.version("duel") == answer["recorded"]  # nothing written
    again = _post(duel, mover, body)  # the failed request again: still not known to be on disk
    assert again.status_code == 503 and again.json()["recorded"] == answer["recorded"], again.text
    # an anonymous write (a sign-up) and a new offer are refused the same way
    newcomer = duel["club"].player("cat", login=False)
    failed = newcomer("login", duel["club"].url, server=False, code=1)
    assert "no more moves or other writes" in failed.stderr, failed.stderr
    offer = duel["http"].post("/api/games", headers=duel["auth"]["ann"],
                              json={"players": ["ann:red:cars", "bob:blue:cars"], "name": "later"})
    assert offer.status_code == 503 and "until it is restarted" in offer.json()["error"], offer.text
    assert duel["club"].club.accounts.offer("later") is None
    # reads that show a game's version are refused the same way; a challenge shows none
    for path in ("/api/games/duel", "/api/games/duel/record", "/api/games", "/api/me"):
        shown = duel["http"].get(path, headers=duel["auth"]["ann"])
        assert shown.status_code == 503 and "until it is restarted" in shown.json()["error"], (path, shown.text)
    assert duel["http"].get("/api/challenge").status_code == 200
    assert store.version("duel") == answer["recorded"] and disk["failed"] == fsyncs  # and no fsync tried


def test_after_a_failed_fsync_the_clock_claims_nothing(duel, disk):  # noqa: F811
    """The clock's round is a writer too: a game whose player ran out of time is not claimed, and the
    round fails as a whole (said once on stderr by the clock), not as one game's failure."""
    from datetime import timedelta

    from trvendetta.app.clock import parse_stamp
    from trvendetta.store import StoreUnsynced

    club = duel["club"]
    duel["ann"]("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "late", "--time", "1h")
    duel["bob"]("join", "late")
    deadline = parse_stamp(club.on_store(club.club.timing, "late")["deadline"])
    _fsync_fails_once(duel, disk)
    version = club.club.store.version("late")
    with pytest.raises(StoreUnsynced):
        club.on_store(club.club.tick, deadline + timedelta(seconds=1))
    assert club.club.store.version("late") == version


def test_a_restart_after_a_failed_fsync_reads_the_store_and_plays_on(duel, disk, tmp_path):  # noqa: F811
    mover, body, answer = _fsync_fails_once(duel, disk)
    club = duel["club"]
    club.stop()
    again = Club(tmp_path, club.store, home=club.home)  # the next start, reading the file as it is on disk
    try:
        with httpx.Client(base_url=again.url, timeout=60) as http:
            d = {**duel, "club": again, "http": http}
            repost = _post(d, mover, body)
            assert repost.status_code == 200, repost.text
            assert repost.json() == {"game": "duel", "version": answer["recorded"], "added": 0}
            _played(d, 2)  # both players, on top of it
            assert again.club.store.version("duel") > answer["recorded"]
        record = again.club.export("duel", None)
        replays.verify_file(replays.read_file(record.encode(), "duel.trv"))
    finally:
        again.stop()
