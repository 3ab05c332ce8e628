"""A claim on time posted to a club server is checked against the server's clock and stamps (the
reference in its games), and two server processes racing to end a game leave one end.

The cheater is a seated player whose own trv (the project's code) writes a claim into her copy of
the game and posts it as a packet; nothing the server refuses is written."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import httpx

from trvendetta.app.clock import parse_stamp


def _started(club):
    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1h")
    bob("join", "duel")
    silent = club.on_store(club.club.timing, "duel")["seat"]
    claimant = {"ann": bob, "bob": ann}[silent]
    claimant("show")  # her copy, brought up to the server's
    return ann, bob, silent, claimant


def _claim_in_copy(club, p, silent, **times):
    """``p``'s trv writes a claim into her copy (``times``: the claim's own, else her store's ``now``
    two hours fast), and returns the packet from the server's version on."""
    from trvendetta.app import outcome
    from trvendetta.app.clock import waiting
    from trvendetta.app.service import GameService
    from trvendetta.cli.identity import Keyring
    from trvendetta.cli.remote import mirror_path
    from trvendetta.store import CLAIM_KIND, Claim, GameStore, decode_charter
    import os

    saved = os.environ.get("TRV_HOME")
    os.environ["TRV_HOME"] = str(p.home)
    try:
        path = mirror_path(club.url)
    finally:
        os.environ.pop("TRV_HOME") if saved is None else os.environ.__setitem__("TRV_HOME", saved)
    with GameStore(path) as store:
        before = store.version("duel")
        keyring = Keyring(dict(decode_charter(store.header("duel").charter).seats), p.name, p.home)
        if times:
            w = waiting(store, "duel")
            record = Claim(silent, p.name, w.after, w.after_hash, w.unanswered, str(w.control), **times)
            outcome._append(store, "duel", CLAIM_KIND, record, p.name, keyring, w.after, w.after_hash)
        else:
            outcome.claim(store, "duel", keyring, datetime.now(timezone.utc) + timedelta(hours=2))
        return GameService(store).export("duel", since=before).encode()


def _auth(p):
    saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
    return {"Authorization": f"Bearer {saved['token']}"}


def _stamp(when):
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_claim_posted_to_the_server_is_checked_against_its_clock(club):
    ann, bob, silent, claimant = _started(club)
    record = club.club.export("duel", None)
    with httpx.Client(base_url=club.url, timeout=30) as http:
        # a claim from a clock two hours fast
        response = http.post("/api/games/duel/packet", content=_claim_in_copy(club, claimant, silent),
                             headers=_auth(claimant))
        assert response.status_code == 409 and "clock is fast" in response.json()["error"], response.text
        assert club.club.export("duel", None) == record
    # the next route: her clock set right, the claim's start made up an hour back (its deadline now)
    now = datetime.now(timezone.utc)
    for f in (claimant.home / "servers").glob("*.sqlite"):  # a fresh copy: the first holds the refused claim
        f.unlink()
    claimant("show")
    packet = _claim_in_copy(club, claimant, silent, since=_stamp(now - timedelta(hours=1)),
                            deadline=_stamp(now), at=_stamp(now))
    with httpx.Client(base_url=club.url, timeout=30) as http:
        response = http.post("/api/games/duel/packet", content=packet, headers=_auth(claimant))
    error = response.json()["error"]
    assert response.status_code == 409 and f"so by its clock {silent}'s deadline is" in error and \
        "the claim came before" in error, response.text
    assert club.club.export("duel", None) == record
    # the server's own claim, after the deadline by its clock, ends the game once
    deadline = parse_stamp(club.on_store(club.club.timing, "duel")["deadline"])
    assert club.on_store(club.club.tick, deadline + timedelta(seconds=1))["claimed"] == ["duel"]


def test_two_server_processes_racing_to_claim_leave_one_claim(two_processes):
    """Both processes see the deadline pass and claim at once (each its own Club on one database):
    the store takes one claim; the other finds the game moved on and writes nothing."""
    first, second = two_processes
    ann, bob = first.player("ann"), first.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1h")
    bob("join", "duel")
    deadline = parse_stamp(first.on_store(first.club.timing, "duel")["deadline"])
    from trvendetta.app import clock

    real = clock.waiting
    seen = {}

    def stale(store, game):  # each process reads the game before either appends
        if game not in seen:
            seen[game] = real(store, game)
        return seen[game]

    import trvendetta.app.outcome  # noqa: F401  (outcome.claim reads waiting through app.clock)
    clock.waiting = stale
    try:
        one = first.on_store(first.club.tick, deadline + timedelta(seconds=1))["claimed"]
        two = second.on_store(second.club.tick, deadline + timedelta(seconds=1))["claimed"]
    finally:
        clock.waiting = real
    assert sorted(one + two) == ["duel"]
    record = first.club.export("duel", None)
    assert record.count('"type":"trv-claim"') == 1 and record == second.club.export("duel", None)


def test_the_servers_tolerance_is_spent_once(club):
    """A 1h game (tolerance 2m30s): a claim whose deadline is 2m29s early and whose time is 2m29s ahead
    of the server's clock, posted 4m57s before the server's own deadline, is refused by its clock; the
    same claim posted within the tolerance of that deadline is taken."""
    ann, bob, silent, claimant = _started(club)
    t = club.on_store(club.club.timing, "duel")
    since, deadline = parse_stamp(t["since"]), parse_stamp(t["deadline"])
    early = timedelta(seconds=149)
    packet = _claim_in_copy(club, claimant, silent, since=_stamp(since - early), deadline=_stamp(deadline - early),
                            at=_stamp(deadline - early))
    record = club.club.export("duel", None)
    club.club.clock = lambda: (deadline - timedelta(seconds=297)).timestamp()
    with httpx.Client(base_url=club.url, timeout=30) as http:
        response = http.post("/api/games/duel/packet", content=packet, headers=_auth(claimant))
        error = response.json()["error"]
        assert response.status_code == 409 and f"4m57s before {silent}'s deadline by this store's clock" in error \
            and "it allows 2m30s" in error, response.text
        assert club.club.export("duel", None) == record
        club.club.clock = lambda: (deadline - timedelta(seconds=149)).timestamp()
        response = http.post("/api/games/duel/packet", content=packet, headers=_auth(claimant))
        assert response.status_code == 200, response.text
    assert '"type":"trv-claim"' in club.club.export("duel", None)
