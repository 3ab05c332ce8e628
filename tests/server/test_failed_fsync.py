"""A move posted again: the same signed body, its answer lost, is answered as recorded (``added: 0``),
never as a game that moved on."""

from __future__ import annotations

import base64

import httpx

from trvendetta.replays.signatures import message

from .test_recovery import duel  # noqa: F401  (the fixture)


def _signed(d: dict) -> tuple[str, dict]:
    """The mover and their signed body for the first option of their pending decision, as the page makes it."""
    http = d["http"]
    mover = http.get("/api/games/duel", headers=d["auth"]["ann"]).json()["pending"]["player"]
    doc = http.get("/api/games/duel", headers=d["auth"][mover]).json()
    action = doc["options"][0]["action"]
    sig = d["keys"][mover].sign(mover, message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
    return mover, {"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()}


def _post(d: dict, mover: str, body: dict) -> httpx.Response:
    return d["http"].post("/api/games/duel/act", headers=d["auth"][mover], json=body)


def _played(d: dict, moves: int) -> None:
    for _ in range(moves):
        response = _post(d, *_signed(d))
        assert response.status_code == 200, response.text


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
