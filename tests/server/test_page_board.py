"""The page is a board you play on (docs/server.md, "The page"): bob, in Chromium, moves by
clicking his vehicle, a die, and a space the server's reach API marks; the path is previewed
and only sent when confirmed (a take-back sends nothing); he offers a game from the page; the
deadline counts down; a lost connection is said in words.  ann plays from the CLI."""

from __future__ import annotations

import json

import pytest

from bench.browser import chromium, read_png
from .test_browser import browser, click, duel, pair, until  # noqa: F401  (browser: the fixture)

pytestmark = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed here (.ci/run installs it)")


def click_svg(page, selector: str) -> None:
    """A real mouse click on an element of the board's drawing (scrolled into view first).

    The click must land on the element: if the page's layout moved between measuring and clicking
    (the header's status or connection line re-wrapping on a phone, a stream message), the mouse
    hits something else, so the element is measured again and clicked again, as a player would."""
    for _ in range(3):
        rect = page.js(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            e.scrollIntoView({{block: "center", inline: "center"}}); const r = e.getBoundingClientRect();
            const x = r.x + r.width / 2, y = r.y + r.height / 2, top = document.elementFromPoint(x, y);
            window.__hit = false;
            e.addEventListener("click", () => {{ window.__hit = true; }}, {{once: true, capture: true}});
            return {{x, y, seen: !!top && (top === e || e.contains(top))}}; }})()""")
        assert rect["seen"], f"{selector} is not visible where it is: a player cannot click it"
        page.click(rect["x"], rect["y"])
        if page.js("window.__hit"):
            return
    raise AssertionError(f"three clicks on {selector} all landed elsewhere: the page kept moving under the mouse")


def shot(page) -> bytes:
    """What the screen shows (the viewport as it is laid out, not the whole page)."""
    import base64

    return base64.b64decode(page.call("Page.captureScreenshot", {"format": "png"})["data"])


def ann_moves(ann) -> dict:
    """ann plays (her first option that is not fatal) while the game waits on her; the game's row after."""
    while True:
        row = json.loads(ann("games", "--json").stdout)["games"][0]
        if row["status"] == "over" or row["waiting_on"] != "ann":
            return row
        options = json.loads(ann("legal", "--json").stdout)
        lines = ann("legal").stdout.splitlines()[1:]  # one line per option, unless summarised
        safe = [n for n, line in enumerate(lines) if "fatal" not in line] if len(lines) == len(options) else []
        ann("act", json.dumps(options[safe[0] if safe else 0]))  # her first option that is not fatal


def bob_moves_on_the_board(page, version: int, take_back: bool, keep=None, chance: bool = False) -> str:
    """One decision of bob's, by clicking the board when it can be; returns how it was made (``chance``:
    a space where chance decides is clicked when one is marked)."""
    until(page, f"document.body.dataset.ready == '{version}' && document.body.dataset.yours")
    if page.js("!!document.querySelector('#board g.vehicle.movable')"):
        click_svg(page, "#board g.vehicle.movable")
        until(page, "document.querySelector('#board g.vehicle.selected') && document.querySelector('[data-option]')")
        click(page, "[data-option]")
        until(page, "document.querySelector('#board .reach') || "
                    "/reaches no space/.test(document.getElementById('picked').textContent)")
    elif page.js("!document.querySelector('#board .reach, #board .place')"):
        click(page, "#options button[data-action]")
        until(page, f"document.body.dataset.version != '{version}'")
        return "button"
    mark = "#board .reach" if page.js("!!document.querySelector('#board .reach')") else "#board .place"
    if chance and page.js("!!document.querySelector('#board .reach.chance')"):
        click_svg(page, "#board .reach.chance")
        until(page, "document.getElementById('confirm')")
        assert "there chance decides: " in page.js("document.getElementById('preview').textContent")
        click(page, "#send")
        until(page, f"document.body.dataset.version != '{version}' && "
                    "/chance decided what followed/.test(document.getElementById('status').textContent)")
        return "chance"
    if not page.js(f"!!document.querySelector({json.dumps(mark)})"):
        click(page, "#options button[data-action]")
        until(page, f"document.body.dataset.version != '{version}'")
        return "button"
    click_svg(page, mark)
    until(page, "document.getElementById('confirm')")
    if mark == "#board .reach":
        assert page.js("document.querySelectorAll('#board .path').length") == 1  # the path, previewed
    if take_back:
        if keep is not None:
            keep.write_bytes(shot(page))  # the path previewed, not sent
        click(page, "#takeback")
        until(page, "!document.getElementById('confirm') && !document.querySelector('#board .path')")
        assert page.js("document.body.dataset.version") == str(version)  # nothing was sent
        click_svg(page, mark)
        until(page, "document.getElementById('confirm')")
    click(page, "#send")
    until(page, f"document.body.dataset.version != '{version}'")
    return "board"


def start(club, browser, width: int, height: int, ruleset: str, bob_crew: str):
    """ann (the CLI) offers ``ruleset``'s game called duel; bob joins it on his paired page."""
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    page = browser.page(width, height)
    pair(club, bob, page)
    until(page, "document.getElementById('waiting')")
    ann("new", "--ruleset", ruleset, "--player", "ann:red:cars", "--player", f"bob:blue:{bob_crew}", "--name", "duel")
    until(page, "document.querySelector('[data-join=duel]')")
    click(page, "[data-join=duel]")
    until(page, "location.pathname === '/play/duel' && document.body.dataset.version")
    return ann, bob, page


@pytest.mark.parametrize("ruleset, bob_crew, width, height", [
    ("vendetta", "cars", 1366, 768), ("vendetta", "bigrig", 390, 844), ("carnival", "cars", 390, 844)])
def test_a_whole_game_moved_on_the_board(club, browser, tmp_path, ruleset, bob_crew, width, height):
    ann, bob, page = start(club, browser, width, height, ruleset, bob_crew)
    ways: dict[str, int] = {}
    for n in range(3000):
        row = ann_moves(ann)
        if row["status"] == "over":
            break
        before = club.on_store(club.club.version, "duel")
        way = bob_moves_on_the_board(page, row["version"], take_back=not ways.get("board"),
                                     keep=tmp_path / "preview.png", chance=not ways.get("chance"))
        ways[way] = ways.get(way, 0) + 1
        if ways.get("board") == 1 and way == "board":
            (tmp_path / "moved.png").write_bytes(shot(page))
        assert club.on_store(club.club.version, "duel") > before  # the server has the move
    else:
        raise AssertionError("the game did not end")
    assert ways.get("board", 0) >= 2, ways  # moves made by clicking spaces, not buttons
    until(page, f"document.getElementById('turn').textContent.startsWith('Game over: ')")
    screen = shot(page)
    (tmp_path / "over.png").write_bytes(screen)
    assert read_png(screen)[:2] == (width, height)
    board = page.js("(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); "
                    "return [r.width, r.height]; })()")
    assert board[0] >= 300 and board[1] >= 300, board  # the board is there, on a phone too
    seen = page.js("(() => { const r = document.getElementById('board').getBoundingClientRect(); "
                   "return (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height; })()")
    assert seen >= 0.5, seen  # the game's end shows its last position: the board is on the screen
    assert not page.errors()
    for route in ("options", "reach?option=0"):  # a game over lists no move: it says it is over
        said = page.js(f"api('GET', '/api/games/duel/{route}').then(() => 'listed', (e) => e.message)")
        assert said.startswith("duel is over (") and "nothing moves" in said, (route, said)
    (tmp_path / "duel.trv").write_text(club.on_store(club.club.export, "duel", None))
    assert ann("verify", tmp_path / "duel.trv", server=False).stdout.startswith("OK:")


# the smallest label of the board (space names, row numbers, lane letters, tile names) as drawn on
# the screen: its font size in the drawing times the drawing's scale, in CSS pixels
SMALLEST_LABEL = """(() => { const svg = document.querySelector('#board svg'), scale = svg.getScreenCTM().a;
    const sizes = Array.from(svg.querySelectorAll('text.lbl, text.tile'), (t) => [
        parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent]).sort((a, b) => a[0] - b[0]);
    return {count: sizes.length, smallest: sizes[0]}; })()"""


def test_the_boards_labels_are_readable_on_a_laptop_and_a_phone(club, browser):
    """The Carnival's arena is the board with the most labels (every space's name): at 1366x768 and at
    390x844 none is drawn smaller than 10 CSS pixels (the board scrolls on a phone rather than shrink)."""
    ann, bob, page = start(club, browser, 1366, 768, "carnival", "cars")
    version = club.on_store(club.club.version, "duel")
    phone = browser.page(390, 844)  # the same browser: the key in its IndexedDB is bob's already
    phone.open(club.url + "/play/duel")
    for screen in (page, phone):
        until(screen, f"document.body.dataset.ready == '{version}'")
        labels = screen.js(SMALLEST_LABEL)
        assert labels["count"] > 200, labels  # the arena's spaces are named
        assert labels["smallest"][0] >= 10, labels  # (font size, text) of the smallest
    assert not page.errors() and not phone.errors()


def test_the_path_is_previewed_and_taken_back_before_it_is_sent(club, browser):
    ann, _, page = duel(club, browser, 390, 844)
    row = ann_moves(ann)
    until(page, f"document.body.dataset.version == '{row['version']}' && document.querySelector('#board g.vehicle.movable')")
    assert page.js("document.querySelector('#board svg').getBoundingClientRect().height") > 300  # the board is there
    click_svg(page, "#board g.vehicle.movable")
    until(page, "document.querySelector('[data-option]')")
    click(page, "[data-option]")
    until(page, "document.querySelector('#board .reach')")
    click_svg(page, "#board .reach")
    until(page, "document.querySelector('#board .path') && document.getElementById('confirm')")
    preview = page.js("document.getElementById('preview').textContent")
    road_die = page.js("current.view.road_die")  # the road die's option says the game's value, not a rule of thumb
    assert page.js("words('road-die')") == f"road-die: add the road die ({road_die}) to this move"
    click(page, "#takeback")
    until(page, "!document.getElementById('confirm')")
    assert "nothing was sent" in page.js("document.getElementById('status').textContent")
    assert club.on_store(club.club.version, "duel") == row["version"]
    click_svg(page, "#board .reach")
    until(page, "document.getElementById('confirm')")
    assert page.js("document.getElementById('preview').textContent") == preview
    click(page, "#send")
    until(page, f"document.body.dataset.version != '{row['version']}' && "
                "/recorded/.test(document.getElementById('status').textContent)")
    assert club.on_store(club.club.version, "duel") > row["version"]
    log = page.js("document.getElementById('log').textContent")
    assert " F" in log or "moves" in log
    assert not page.errors()


def test_a_game_offered_from_the_page(club, browser):
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    page = browser.page(1366, 768)
    pair(club, bob, page)
    until(page, "document.getElementById('offer-others')")
    page.js("""document.getElementById('offer-me').value = 'bob:blue:cars';
               document.getElementById('offer-others').value = 'ann:red:cars';
               document.getElementById('offer-name').value = 'fromthepage'; true""")
    click(page, "#offer-send")
    until(page, "/joined fromthepage; waiting for ann/.test(document.getElementById('status').textContent)")
    offers = json.loads(ann("games", "--json").stdout)["offers"]
    assert [(o["game"], o["joined"]) for o in offers] == [("fromthepage", ["bob"])]
    ann("join", "fromthepage")
    until(page, "document.querySelector('a[href=\"/play/fromthepage\"]')")
    assert not page.errors()


def test_the_deadline_counts_down(club, browser):
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    page = browser.page(1366, 768)
    pair(club, bob, page)
    until(page, "document.getElementById('waiting')")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel", "--time", "3d")
    until(page, "document.querySelector('[data-join=duel]')")
    click(page, "[data-join=duel]")
    until(page, "location.pathname === '/play/duel' && document.getElementById('clock') && "
                "document.getElementById('clock').dataset.left")
    first = int(page.js("document.getElementById('clock').dataset.left"))
    assert 3 * 86400 - 120 < first <= 3 * 86400
    assert "left" in page.js("document.getElementById('clock').textContent")
    until(page, f"Number(document.getElementById('clock').dataset.left) < {first}")  # it ticks


def test_a_lost_connection_is_said_in_words(club, browser):
    ann, _, page = duel(club, browser, 1366, 768)
    until(page, "document.getElementById('conn').dataset.state === 'live'")
    page.call("Network.enable")
    page.call("Network.emulateNetworkConditions",
              {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        page.js("show('duel').catch((e) => say(e.message, true)); true")
        until(page, "document.getElementById('conn').dataset.state === 'lost'")
        said = page.js("document.getElementById('status').textContent")
        assert "connection is lost" in said and "Failed to fetch" not in said
    finally:
        page.call("Network.emulateNetworkConditions",
                  {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    page.js("show('duel'); true")
    until(page, "document.getElementById('conn').dataset.state === 'live'")


def test_reach_is_the_rulesets_own():
    """The API's ways are legal actions of the ruleset played in order: each one, applied to the
    game, leaves the vehicle on the space the way names."""
    from trvendetta.core.rng import NoDice
    from trvendetta.game import Game
    from trvendetta.server.page_api import reach

    game = Game.new("vendetta", [("ann", "red", "cars"), ("bob", "blue", "cars")], seed=5)
    rules, state = game.ruleset, game.state
    found = reach(rules, state, 0)
    spaces = found["vehicles"]["red-small"]
    assert spaces
    for at, way in spaces.items():
        now = state
        for action in way["actions"]:
            now, _ = rules.apply(now, rules.decode_action(action.encode()), NoDice())
        where = {v["id"]: v["at"] for v in rules.view(now)["vehicles"]}
        assert where["red-small"] == at
    with pytest.raises(Exception, match="option=99"):
        reach(rules, state, 99)


def test_a_reach_search_stops_at_its_time_bound_and_says_so():
    """One search never holds the store thread (every other game) for long: the routes bound its
    time, and a search stopped by the bound answers what it found, marked ``truncated``."""
    from trvendetta.game import Game
    from trvendetta.server import page_api

    game = Game.new("vendetta", [("ann", "red", "cars"), ("bob", "blue", "cars")], seed=5)
    whole = page_api.reach(game.ruleset, game.state, 0)
    assert whole["vehicles"] and not whole["truncated"]
    stopped = page_api.reach(game.ruleset, game.state, 0, seconds=0)
    assert stopped["truncated"] and not stopped["vehicles"]
    assert 0 < page_api.SECONDS <= 5



def test_a_player_signs_up_in_the_browser(club, browser):
    """No Python: the page makes the player's key, logs in with it (the name is bound to it), and
    every signature it sends is the player's own (no delegation), which the record verifies."""
    ann = club.player("ann")
    page = browser.page(390, 844)
    page.open(club.url + "/")
    until(page, "document.getElementById('signup-name')")
    page.js("document.getElementById('signup-name').value = 'bob'; true")
    click(page, "#signup-send")
    until(page, "document.getElementById('waiting') && document.getElementById('export')")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    until(page, "document.querySelector('[data-join=duel]')")
    click(page, "[data-join=duel]")
    until(page, "location.pathname === '/play/duel' && document.body.dataset.version")
    row = ann_moves(ann)
    until(page, f"document.body.dataset.ready == '{row['version']}' && document.querySelector('#options button[data-action]')")
    click(page, "#options button[data-action]")
    until(page, f"document.body.dataset.version != '{row['version']}'")
    record = club.on_store(club.club.export, "duel", None)
    bob_lines = [line for line in record.splitlines() if line.startswith("+ bob:")]
    assert bob_lines and all(len(line) == len("+ bob:") + 88 for line in bob_lines)  # 64 bytes: his own key
    assert not page.errors()


def test_a_game_with_a_bot_seat_offered_from_the_page(club, browser):
    """The page's offer form takes bot seats (the server plays them): the game starts at bob's
    contribution, nobody else's is awaited, and it opens on the page."""
    bob = club.player("bob", login=False)
    page = browser.page(1366, 768)
    pair(club, bob, page)
    until(page, "document.getElementById('offer-bots')")
    page.js("""document.getElementById('offer-me').value = 'bob:blue:cars';
               document.getElementById('offer-bots').value = 'greedy:red:cars:robo';
               document.getElementById('offer-name').value = 'withabot'; true""")
    click(page, "#offer-send")
    until(page, "location.pathname === '/play/withabot' && document.getElementById('board')")
    from trvendetta.store import decode_charter

    charter = decode_charter(club.on_store(lambda: club.club.store.header("withabot").charter))
    assert charter.bots == {"robo": "greedy"} and charter.seats["robo"] == club.public
    assert not page.errors()
