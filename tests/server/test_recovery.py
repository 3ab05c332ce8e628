"""No game freezes: a server that stops after a player's intent is stored but before the host
rolls it (a crash, a full disk) answers what it recorded, and finishes the roll by itself at its
next start, on its clock, or when the same packet is posted again.

The crash is injected between the two steps: the host's resolution (``GameService.answer_host``)
fails as a full disk makes it fail, after the player's records were stored."""

from __future__ import annotations

import base64
import json
import sqlite3

import httpx
import pytest

from trvendetta import replays
from trvendetta.cli.identity import Keyring
from trvendetta.replays.signatures import message

from .conftest import Club


def _session(p) -> dict:
    saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
    return {"Authorization": f"Bearer {saved['token']}"}


@pytest.fixture
def entropy_label() -> bytes:
    """A game in which a move needs the host's dice before it ends: playing each seat's first legal
    option ends some games in round 1 without a roll (this is one that rolls; the offer's bytes, and
    so the seed, follow the offer's fields)."""
    return b"a move needs the host's dice 2"


@pytest.fixture
def duel(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    http = httpx.Client(base_url=club.url, timeout=60)
    keys = {p.name: Keyring({p.name: club.club.accounts.player(p.name)[1]}, p.name, p.home) for p in (ann, bob)}
    yield {"club": club, "http": http, "ann": ann, "bob": bob, "auth": {"ann": _session(ann), "bob": _session(bob)},
           "keys": keys}
    http.close()


def _act(d: dict, game: str = "duel"):
    """The mover plays their first legal option over HTTP, as the page does; the response."""
    http = d["http"]
    doc = http.get(f"/api/games/{game}", headers=d["auth"]["ann"]).json()
    mover = doc["pending"]["player"]
    doc = http.get(f"/api/games/{game}", headers=d["auth"][mover]).json()
    action = doc["options"][0]["action"]
    sig = d["keys"][mover].sign(mover, message(doc["domain"], doc["version"] + 1, doc["head"], action.encode()))
    return http.post(f"/api/games/{game}/act", headers=d["auth"][mover],
                     json={"action": action, "version": doc["version"], "signature": base64.b64encode(sig).decode()})


def _disk_fills_before_the_roll(club) -> list:
    """The host's roll fails (a full disk) whenever a draw is open: the intent is stored, the roll is not."""
    service = club.club.service
    real = service.answer_host
    failed: list = []

    def answer_host(game, host, **bots):
        if service.waiting(game):
            failed.append(game)
            raise sqlite3.OperationalError("database or disk is full")
        return real(game, host, **bots)
    service.answer_host = answer_host
    return failed


def _frozen(d: dict) -> dict:
    """Moves until one stores an intent whose roll the full disk stops; the 503 answer's JSON."""
    failed = _disk_fills_before_the_roll(d["club"])
    for _ in range(200):
        response = _act(d)
        if failed:
            assert response.status_code == 503, (response.status_code, response.text)
            return response.json()
        assert response.status_code == 200, response.text
    raise AssertionError("no move needed the host's dice")


def test_a_move_whose_roll_failed_says_what_was_recorded(duel):
    answer = _frozen(duel)
    club = duel["club"]
    assert "your move is recorded" in answer["error"] and "\n" not in answer["error"]
    assert answer["recorded"] == club.club.store.version("duel")
    doc = duel["http"].get("/api/games/duel").json()
    assert doc["waiting_for_dice"] and doc["version"] == answer["recorded"]


def test_a_restarted_server_rolls_the_dice_a_crash_left_waiting(duel, tmp_path):
    answer = _frozen(duel)
    club = duel["club"]
    club.stop()
    again = Club(tmp_path, club.store, home=club.home)  # the next start of the same club
    try:
        doc = httpx.get(f"{again.url}/api/games/duel", timeout=60).json()
        assert not doc["waiting_for_dice"] and doc["version"] > answer["recorded"]
        record = again.club.export("duel", None)
        replays.verify_file(replays.read_file(record.encode(), "duel.trv"))
    finally:
        again.stop()


def test_the_servers_clock_rolls_the_dice_a_failure_left_waiting(duel):
    answer = _frozen(duel)
    club = duel["club"]
    del club.club.service.answer_host  # the disk has room again
    out = club.on_store(club.club.tick)
    assert out["resolved"] == ["duel"]
    assert club.club.store.version("duel") > answer["recorded"]
    assert not duel["http"].get("/api/games/duel").json()["waiting_for_dice"]
    assert club.on_store(club.club.tick)["resolved"] == []  # once


def test_the_same_packet_posted_again_rolls_the_dice(duel):
    """The CLI's route: its packet was stored, the answer lost; it posts the packet again."""
    answer = _frozen(duel)
    club = duel["club"]
    del club.club.service.answer_host
    packet = club.club.export("duel", answer["recorded"] - 1)
    who = next(p for p in ("ann", "bob") if f"+ {p}:" in packet)
    response = duel["http"].post("/api/games/duel/packet", content=packet.encode(), headers=duel["auth"][who])
    assert response.status_code == 200, response.text
    assert response.json()["version"] > answer["recorded"]
    assert not duel["http"].get("/api/games/duel").json()["waiting_for_dice"]


def test_the_server_survives_its_postgresql_connections_being_dropped(tmp_path, pg_url, monkeypatch):
    """As a PostgreSQL restart does to it, without restarting the cluster other tests use: every
    connection of this server (and only its: named by application_name) is terminated."""
    import uuid

    import psycopg

    name = f"trv-test-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("PGAPPNAME", name)  # the server's connections, made in this process from now on
    club = Club(tmp_path, pg_url)
    try:
        ann, bob = club.player("ann"), club.player("bob")
        ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
        base = pg_url.split("?")[0]
        with psycopg.connect(base, autocommit=True, application_name="trv-test-killer") as conn:
            killed = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                                  (name,)).fetchall()
        assert killed, "no connection of the server's to drop"
        club.player("carl")  # a challenge and a login, after the drop
        assert "duel" in bob("games").stdout  # an authenticated request: the accounts and the store
        bob("join", "duel")  # a write to both
        ann("show")  # the game, read through the server after the drop
        assert httpx.get(f"{club.url}/api/games", timeout=60).status_code == 200
    finally:
        club.stop()


def test_one_game_the_host_cannot_roll_stops_no_other_game(duel, capsys):
    """A game whose open draw cannot be rolled for a reason that is no refusal (its seed file left
    empty by a power loss: ``host_secret`` raises ValueError) is named once on stderr; the clock
    still claims another game whose player ran out of time."""
    from datetime import timedelta

    from trvendetta.app.clock import parse_stamp

    _frozen(duel)
    club = duel["club"]

    def answer_host(game, host, **bots):
        raise ValueError("not enough values to unpack (expected 2, got 0)")  # host_secret on an empty file
    club.club.service.answer_host = answer_host
    duel["ann"]("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "late", "--time", "1h")
    duel["bob"]("join", "late")
    deadline = parse_stamp(club.on_store(club.club.timing, "late")["deadline"])
    capsys.readouterr()
    out = club.on_store(club.club.tick, deadline + timedelta(seconds=1))
    assert out["claimed"] == ["late"] and out["resolved"] == []
    assert club.on_store(club.club.tick, deadline + timedelta(seconds=2))["claimed"] == []
    err = capsys.readouterr().err
    assert err.count("'duel' waits on the host") == 1 and "ValueError" in err, err
    assert club.club.store.list_games() and duel["http"].get("/api/games/duel").json()["waiting_for_dice"]


def test_a_draw_the_hosts_ledger_refuses_is_named_once_not_skipped(duel, capsys):
    """A game whose open draw the host cannot resolve because its ledger refuses it (a crash took back
    the intent whose draw the host had revealed, and the player chose another option: ``OneReveal``) is
    named once on stderr, with the refusal, at every round that finds it so; it still waits for its dice."""
    from trvendetta.app.ledger import OneReveal

    answer = _frozen(duel)
    club = duel["club"]
    refusal = ("the host revealed draw 3 for bob's 'F' (game duel, event 65) and refuses bob's 'FR'")

    def answer_host(game, host, **bots):
        raise OneReveal(refusal)
    club.club.service.answer_host = answer_host
    capsys.readouterr()
    assert club.on_store(club.club.resolve_open) == []
    assert club.on_store(club.club.resolve_open) == []
    err = capsys.readouterr().err
    assert err.count("'duel' waits on the host and the host refuses its step (OneReveal: " + refusal) == 1, err
    doc = duel["http"].get("/api/games/duel").json()
    assert doc["waiting_for_dice"] and doc["version"] == answer["recorded"]
