"""Signing up (the first login of a name, as the page does it in the browser) is an anonymous write:
so many a client address an hour, refused past that with the time to wait and nothing written;
and a name is one name whatever its letter case (annie and Annie cannot both sign up)."""

from __future__ import annotations

import base64

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.browser import chromium
from trvendetta.server import app
from trvendetta.server.club import login_message
from .test_browser import browser  # noqa: F401  (the fixture)


def _login(http: httpx.Client, key: Ed25519PrivateKey, name: str) -> httpx.Response:
    got = http.get("/api/challenge").json()
    return http.post("/api/login", json={
        "name": name, "public": key.public_key().public_bytes_raw().hex(), "challenge": got["challenge"],
        "signature": base64.b64encode(key.sign(login_message(got["server"], got["challenge"]))).decode()})


def _rows(club) -> list:
    return club.on_store(club.club.accounts.all, "SELECT name, public FROM trv_server_players ORDER BY name")


def _tokens(club) -> list:
    return club.on_store(club.club.accounts.all, "SELECT digest FROM trv_server_tokens ORDER BY digest")


def test_sign_ups_from_one_address_are_limited_and_a_refusal_writes_nothing(club):
    http = httpx.Client(base_url=club.url, timeout=30)
    keys = [Ed25519PrivateKey.generate() for _ in range(app.SIGN_UPS + 1)]
    for n, key in enumerate(keys[:-1]):
        assert _login(http, key, f"p{n}").status_code == 200
    before = (_rows(club), _tokens(club))
    refused = _login(http, keys[-1], "onetoomany")
    assert refused.status_code == 429, refused.text
    said = refused.json()["error"]
    assert f"{app.SIGN_UPS} may sign up an hour" in said and "try again in" in said, said
    assert (_rows(club), _tokens(club)) == before  # no player, no session, no used challenge
    # the next route around it: a player already signed up is no sign-up, and logs in as often as they like
    for _ in range(3):
        assert _login(http, keys[0], "p0").status_code == 200
    # and another name for a key that has one is refused as before (not counted, not bound)
    again = _login(http, keys[0], "p0again")
    assert again.status_code == 403 and "log in as that name" in again.json()["error"]


def test_a_sign_up_under_the_name_of_a_bot_seat_in_an_open_game_is_refused(club):
    """A person signing up as ``robo`` while robo is a bot seat in an open offer or game would make
    the name mean two seats there: refused, in any letter case, nothing written; free again once
    the game is over."""
    ann = club.player("ann")
    bob = club.player("bob")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--bot", "random:green:cars:robo",
        "--name", "offered")
    http = httpx.Client(base_url=club.url, timeout=30)
    before = (_rows(club), _tokens(club))
    for name in ("robo", "ROBO"):
        refused = _login(http, Ed25519PrivateKey.generate(), name)
        assert refused.status_code == 403, refused.text
        assert "'%s' is a bot seat in offered" % name in refused.json()["error"], refused.text
    assert (_rows(club), _tokens(club)) == before
    # the offer becomes a game: still refused while it is open
    bob("join", "offered")
    assert club.club.store.exists("offered")
    refused = _login(http, Ed25519PrivateKey.generate(), "robo")
    assert refused.status_code == 403 and "bot seat in offered" in refused.json()["error"], refused.text
    # once the game is over the name is free (the old record binds robo to the server's key)
    ann("resign", "--game", "offered")
    assert _login(http, Ed25519PrivateKey.generate(), "robo").status_code == 200
    # and a bot seat is then not named like that player (the rule the other way round)
    ann("new", "--player", "ann:red:cars", "--bot", "random:green:cars:robo", code=1)
    http.close()


def test_the_throttle_counts_each_address_and_gives_a_token_back_in_time():
    now = [0.0]
    limit = app.Throttle(3, clock=lambda: now[0])
    assert [limit.wait("1.2.3.4") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.wait("1.2.3.4") == 1200.0  # one back every 3600 / 3 seconds
    assert limit.wait("5.6.7.8") == 0.0  # another address has its own
    now[0] = 1199.0
    assert 0 < limit.wait("1.2.3.4") < 1.001
    now[0] = 1200.0
    assert limit.wait("1.2.3.4") == 0.0 and limit.wait("1.2.3.4") > 0
    assert all(app.Throttle(0).wait("x") == 0.0 for _ in range(100))  # 0: no limit


def test_names_differing_only_in_letter_case_are_one_name(club):
    http = httpx.Client(base_url=club.url, timeout=30)
    annie, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    assert _login(http, annie, "annie").status_code == 200
    before = (_rows(club), _tokens(club))
    for name in ("Annie", "ANNIE", "aNNie"):
        refused = _login(http, other, name)
        assert refused.status_code == 403, refused.text
        said = refused.json()["error"]
        assert f"the name {name!r} is taken: 'annie' plays on this server" in said, said
        assert "letter case" in said and "choose another name" in said
    mine = _login(http, annie, "Annie")  # her own key under another case: told her name
    assert mine.status_code == 403 and "log in as 'annie'" in mine.json()["error"], mine.text
    assert (_rows(club), _tokens(club)) == before
    assert _login(http, annie, "annie").status_code == 200


def test_a_store_holding_two_names_of_one_spelling_still_opens(tmp_path):
    """A store made before the rule may hold annie and Annie: both stay players, new ones are refused."""
    from trvendetta.server.accounts import Accounts

    where = str(tmp_path / "old.sqlite")
    old = Accounts(where)
    old.run("DROP INDEX trv_server_players_folded")
    old.run("INSERT INTO trv_server_players (name, public, created) VALUES ('annie', 'a1', 1), ('Annie', 'a2', 2)")
    old.close()
    accounts = Accounts(where)
    assert accounts.player("Annie") == ("Annie", "a2") and accounts.register("annie", "a1", 3)
    assert not accounts.register("ANNIE", "a3", 3) and accounts.player("ANNIE") is None


@pytest.mark.skipif(chromium() is None, reason="Chromium is not installed here (.ci/run installs it)")
def test_the_page_says_why_a_sign_up_is_refused_and_keeps_nothing(club, browser):
    """In the browser: a name taken but for its letter case is refused in words, the page keeps no
    key for it and stays on the sign-up form; another name then signs up."""
    from .test_browser import click, until

    club.player("ann")
    page = browser.page(390, 844)
    page.open(club.url + "/")
    until(page, "document.getElementById('signup-name')")
    page.js("document.getElementById('signup-name').value = 'ANN'; true")
    click(page, "#signup-send")
    until(page, "/is taken/.test(document.getElementById('status').textContent)")
    said = page.js("document.getElementById('status').textContent")
    assert "'ann' plays on this server" in said and "letter case" in said, said
    assert page.js("kept('me').then((me) => me === undefined)")
    assert page.js("!!document.getElementById('signup-name')")
    page.js("document.getElementById('signup-name').value = 'annette'; true")
    click(page, "#signup-send")
    until(page, "document.getElementById('waiting') && document.getElementById('export')")
    assert [r[0] for r in _rows(club)] == ["ann", "annette"]
