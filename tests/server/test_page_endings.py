"""Ending a game or an offer from the page (docs/server.md, "The page"): bob resigns, claims on
time and declines an offer by clicking, each after a confirmation that can be cancelled (nothing
is sent then), and the outcome is said in words; the API refuses a decline that is not the
player's to make.  The reach API refuses the search of every option at once."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from bench.browser import chromium
from trvendetta.server.club import Refused
from .test_browser import browser, click, duel, pair, until  # noqa: F401  (browser: the fixture)

browser_needed = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed here (.ci/run installs it)")


def _session(p) -> dict:
    saved = json.loads(next((p.home / "servers").glob("*.json")).read_text())
    return {"Authorization": f"Bearer {saved['token']}"}


def _cancel_then_confirm(page, button: str) -> None:
    """The button asks first: cancelled once (nothing is sent), then confirmed."""
    click(page, button)
    until(page, "document.getElementById('ask-no')")
    click(page, "#ask-no")
    until(page, "!document.getElementById('ask') && "
                "/nothing was sent/.test(document.getElementById('status').textContent)")
    click(page, button)
    until(page, "document.getElementById('ask-yes')")
    click(page, "#ask-yes")


@browser_needed
def test_a_player_resigns_from_the_page(club, browser):
    ann, _, page = duel(club, browser, 390, 844)
    until(page, "document.getElementById('resign')")
    version = club.on_store(club.club.version, "duel")
    click(page, "#resign")
    until(page, "document.getElementById('ask-no')")
    assert "You lose the game" in page.js("document.getElementById('question').textContent")
    click(page, "#ask-no")
    until(page, "!document.getElementById('ask')")
    assert club.on_store(club.club.version, "duel") == version  # cancelled: nothing was sent
    _cancel_then_confirm(page, "#resign")
    until(page, "/you resigned duel: bob resigned/.test(document.getElementById('status').textContent) && "
                "document.getElementById('turn').textContent.startsWith('Game over: ')")
    assert not page.js("document.getElementById('resign')")  # a game over has nothing to resign
    assert "bob resigned" in json.loads(ann("games", "--json").stdout)["games"][0]["ended"]
    assert not page.errors()


@browser_needed
def test_a_player_claims_on_time_from_the_page(club, browser):
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    page = browser.page(1366, 768)
    pair(club, bob, page)
    until(page, "document.getElementById('waiting')")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "1h")
    until(page, "document.querySelector('[data-join=duel]')")
    click(page, "[data-join=duel]")
    until(page, "location.pathname === '/play/duel' && document.body.dataset.version")
    for _ in range(50):  # bob plays (his first options) until the game waits on ann
        version = club.on_store(club.club.version, "duel")
        until(page, f"document.body.dataset.ready == '{version}'")
        if club.on_store(club.club.timing, "duel")["seat"] == "ann":
            break
        click(page, "#options button[data-action]")
        until(page, f"document.body.dataset.version != '{version}'")
    until(page, "document.getElementById('claim')")
    click(page, "#claim")
    until(page, "document.getElementById('ask-yes')")
    click(page, "#ask-yes")  # too early: the server's refusal, in words
    until(page, "document.getElementById('status').className === 'error' && "
                "/not passed yet/.test(document.getElementById('status').textContent)")
    assert not page.js("/Game over/.test(document.getElementById('turn').textContent)")
    club.club.clock = lambda: (datetime.now(timezone.utc) + timedelta(hours=2)).timestamp()
    _cancel_then_confirm(page, "#claim")
    until(page, "/claimed on time: ann lost on time/.test(document.getElementById('status').textContent) && "
                "document.getElementById('turn').textContent.startsWith('Game over: ')")
    assert "ann lost on time" in json.loads(ann("games", "--json").stdout)["games"][0]["ended"]
    assert [e for e in page.errors() if "409" not in e] == []  # (the early claim's refusal, logged by the browser)


@browser_needed
def test_an_offer_declined_from_the_page(any_club, browser):
    club = any_club
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    page = browser.page(1366, 768)
    pair(club, bob, page)
    until(page, "document.getElementById('waiting')")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    until(page, "document.querySelector('[data-decline=duel]')")
    _cancel_then_confirm(page, "[data-decline=duel]")
    until(page, "/you declined duel/.test(document.getElementById('status').textContent) && "
                "!document.querySelector('[data-join=duel]')")
    listed = json.loads(ann("games", "--json").stdout)
    assert listed["offers"] == []
    me = httpx.get(f"{club.url}/api/me", headers=_session(ann), timeout=30).json()
    assert [(d["game"], d["by"]) for d in me["declined"]] == [("duel", "bob")]  # ann sees who declined it
    until(page, "document.querySelector('[data-declined=duel]')")
    assert not page.errors()


def test_a_decline_is_the_offers_players_own_and_only_before_the_game(any_club):
    club = any_club
    ann, bob, eve = club.player("ann"), club.player("bob"), club.player("eve")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    http = httpx.Client(base_url=club.url, timeout=30)
    assert http.post("/api/offers/duel/decline").status_code == 401  # no session, nothing written
    refused = http.post("/api/offers/duel/decline", headers=_session(eve))
    assert refused.status_code == 403 and "eve is not among the players" in refused.json()["error"]
    assert [o["game"] for o in http.get("/api/games").json()["offers"]] == ["duel"]
    bob("join", "duel")  # the game starts: nothing left to decline
    refused = http.post("/api/offers/duel/decline", headers=_session(bob))
    assert refused.status_code == 404 and "resign" not in refused.json()["error"]
    assert club.on_store(club.club.version, "duel") >= 0
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "again")
    out = http.post("/api/offers/again/decline", headers=_session(ann))  # the one who offered withdraws it
    assert out.status_code == 200 and out.json() == {"game": "again", "declined": "ann"}
    assert http.get("/api/offers/again").status_code == 404


def test_reach_without_an_option_is_refused_naming_option(club):
    from trvendetta.server.page_api import reach_doc

    ann, bob = club.player("ann"), club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    bob("join", "duel")
    seat = club.on_store(club.club.game_doc, "duel", None)["pending"]["player"]
    who = ann if seat == "ann" else bob
    response = httpx.get(f"{club.url}/api/games/duel/reach", headers=_session(who), timeout=30)
    assert response.status_code == 400 and "option=N" in response.json()["error"], response.text
    with pytest.raises(Refused, match="option=N"):
        club.on_store(reach_doc, club.club, "duel", seat, None)
    one = httpx.get(f"{club.url}/api/games/duel/reach?option=0", headers=_session(who), timeout=30)
    assert one.status_code == 200 and one.json()["vehicles"], one.text
    # a digit that is not an ASCII one (str.isdigit() says yes, int() says no) is the client's error
    for odd in ("%C2%B2", "%D9%A1"):
        bad = httpx.get(f"{club.url}/api/games/duel/reach?option={odd}", headers=_session(who), timeout=30)
        assert bad.status_code == 400 and "not an option's number" in bad.json()["error"], bad.text


def test_a_decline_whose_connection_drops_inside_it_lands_whole(tmp_path, pg_url):
    """The server's connection to PostgreSQL is terminated inside the decline's transaction (after
    the offer's row is deleted, before the note of who declined it is written): nothing of that
    transaction is kept, no statement of it is run again outside it on a new connection, and the
    decline is made again, whole, on the new one."""
    import psycopg

    from .conftest import Club

    club = Club(tmp_path, pg_url)
    try:
        ann, bob = club.player("ann"), club.player("bob")
        ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
        accounts = club.club.accounts
        real, dropped = accounts.run, []

        def run(sql, *args):
            if sql.startswith("INSERT INTO trv_server_declined") and not dropped:
                with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
                    conn.execute("SELECT pg_terminate_backend(%s)", (accounts.db.info.backend_pid,))
                dropped.append(sql)
            return real(sql, *args)
        accounts.run = run
        out = httpx.post(f"{club.url}/api/offers/duel/decline", headers=_session(bob), timeout=60)
        assert dropped, "the decline never reached its note"
        assert out.status_code == 200 and out.json() == {"game": "duel", "declined": "bob"}, out.text
        me = httpx.get(f"{club.url}/api/me", headers=_session(ann), timeout=60).json()
        assert me["offers"] == [] and [(d["game"], d["by"]) for d in me["declined"]] == [("duel", "bob")]
        rows = club.on_store(accounts.all, "SELECT game, name FROM trv_server_declined")
        assert rows == [("duel", "bob")]  # one note, not one from the first try and one from the second
    finally:
        club.stop()
