"""The replay viewer in a real browser: Debian's Chromium, driven over the
DevTools protocol (bench/browser.py; .ci/run installs Chromium).

Loads the page of a 1,000-event game from file://, drives the slider, the
arrow keys and a click on a sentence, checks the board and the highlighted
sentence follow, checks the in-page hash chain, counts the car shapes of
each colour in a screenshot, and fails on any page error.  The time to show
the last event is recorded (``record_property``), not asserted; the bench
reports it (docs/performance.md).
"""

from __future__ import annotations

import json

import pytest

from bench.browser import Browser, CDPError, blobs, chromium, read_png
from trvendetta.pictures.svg import PALETTE
from trvendetta.store import GameStore

from .test_show_pictures import run

pytestmark = pytest.mark.skipif(
    chromium() is None,
    reason="Chromium is not installed here (`apt-get install chromium`; .ci/run installs it where it can)")

GAME = "sim-vendetta-4p-35"  # greedy bots, seed 35: about 1,000 events (1,030 when written)


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("viewer")
    db = tmp / "trv.sqlite"
    run(db, "sim", "--games", "1", "--players", "4", "--seed", "35", "--bot", "greedy", "--store", "-q")
    run(db, "replay", GAME, "--html", tmp / "game.html")
    with GameStore(db) as store:
        records = store.events(GAME)
        ruleset = store.ruleset_of(GAME)
    views, state = [], ruleset.initial_state()
    for r in records:
        state = ruleset.evolve(state, r.event)
        views.append(ruleset.view(state))
    return tmp / "game.html", views


@pytest.fixture(scope="module")
def browser():
    try:
        b = Browser()
    except (CDPError, OSError) as exc:
        pytest.skip(f"Chromium does not start here: {exc}")
    with b:
        yield b


def shown(page) -> int:
    return int(page.js("document.body.dataset.event"))


def board_matches(page, view: dict) -> None:
    """The vehicles in the page's board are the view's, at its places; the
    highlighted sentence is the shown event's."""
    drawn = json.loads(page.js("JSON.stringify(Array.from(document.querySelectorAll('#layer g.vehicle'), "
                               "g => [g.dataset.id, g.dataset.at]))"))
    assert sorted(drawn) == sorted([v["id"], v["at"]] for v in view["vehicles"] if v["at"])
    n = shown(page)
    assert page.js("document.querySelectorAll('#events li.current').length") == 1
    assert int(page.js("document.querySelector('#events li.current').dataset.n")) == n
    sentence = page.js(f"document.querySelector('#events li[data-n=\"{n}\"] .s').textContent")
    assert page.js("document.getElementById('current').textContent").endswith(f"{n}. {sentence}")
    top = json.loads(page.js("JSON.stringify([document.querySelector('aside').getBoundingClientRect(), "
                             "document.querySelector('#events li.current').getBoundingClientRect()])"))
    assert top[0]["top"] <= top[1]["top"] and top[1]["bottom"] <= top[0]["bottom"]  # scrolled into the list's view


def test_the_viewer_follows_the_slider_keys_and_clicks(page_file, browser, record_property):
    path, views = page_file
    size = path.stat().st_size
    record_property("html_bytes", size)
    assert len(views) > 500 and size * 1000 / len(views) < 2_000_000  # under 2 MB per 1,000 events
    page = browser.page(1600, 1200)
    page.open(path.as_uri())
    assert shown(page) == len(views)  # opens on the last event
    record_property("last_event_shown_ms", page.js("window.trvShownMs"))
    board_matches(page, views[-1])
    chain = page.js("new Promise(r => { const t = () => document.body.dataset.chain ? "
                    "r(document.body.dataset.chain) : setTimeout(t, 5); t(); })")
    assert chain == "ok", page.js("document.getElementById('chain').textContent")
    assert f"{len(views)} events" in page.js("document.getElementById('chain').textContent")

    for _ in range(3):
        page.key("ArrowLeft", 37)
    assert shown(page) == len(views) - 3
    board_matches(page, views[-4])
    page.key("ArrowRight", 39)
    assert shown(page) == len(views) - 2

    rect = json.loads(page.js("JSON.stringify(document.getElementById('slider').getBoundingClientRect())"))
    page.click(rect["x"] + rect["width"] * 0.25, rect["y"] + rect["height"] / 2)
    n = shown(page)
    assert abs(n - len(views) * 0.25) < len(views) * 0.05
    assert int(page.js("document.getElementById('slider').value")) == n
    board_matches(page, views[n - 1])
    page.key("ArrowRight", 39)  # the slider has the focus now: still one event per key
    assert shown(page) == n + 1
    board_matches(page, views[n])

    # a clean moment to count cars: every car on its own space, no chopper over one
    def clean(view):
        places = [v["at"] for v in view["vehicles"] if v["at"]]
        return len(places) == len(set(places)) and not any(c["at"] for c in view["choppers"])

    target = max((i for i in range(len(views)) if clean(views[i])),
                 key=lambda i: (sum(1 for v in views[i]["vehicles"] if v["at"] not in (None, "start")), -i))
    page.js(f"document.querySelector('#events li[data-n=\"{target + 1}\"]').scrollIntoView()")
    row = json.loads(page.js(f"JSON.stringify(document.querySelector('#events li[data-n=\"{target + 1}\"]')"
                             ".getBoundingClientRect())"))
    page.click(row["x"] + 40, row["y"] + row["height"] - 4)
    assert shown(page) == target + 1
    board_matches(page, views[target])

    clip = json.loads(page.js(
        "(() => { const r = document.getElementById('board').getBoundingClientRect();"
        " const b = document.querySelector('#layer g.road').getBBox();"
        " return JSON.stringify({x: r.x + window.scrollX + 1 + b.x, y: r.y + window.scrollY + 1 + b.y,"
        " width: b.width, height: b.height}); })()"))
    image = read_png(page.screenshot(clip))
    colours = {p["name"]: p["color"] for p in views[target]["players"]}
    for owner, colour in colours.items():
        want = sum(1 for v in views[target]["vehicles"] if v["owner"] == owner and v["at"])
        assert page.js(f"document.querySelectorAll('#layer g.vehicle[data-owner=\"{owner}\"]').length") == want
        hexa = PALETTE[colour]
        rgb = tuple(int(hexa[i:i + 2], 16) for i in (1, 3, 5))
        found = blobs(image, rgb, min_area=80)  # a car is 130 to 450 pixels of its colour; a stray edge a few
        assert len(found) == want, (owner, colour, target + 1)
    assert page.errors() == []


def chain_in(page, path) -> str:
    page.open(path.as_uri())
    result = page.js("new Promise(r => { const t = () => document.body.dataset.chain ? "
                     "r(document.body.dataset.chain) : setTimeout(t, 5); t(); })")
    assert page.errors() == []
    return result


def test_the_page_checks_a_signed_chain_and_catches_an_edit(browser, tmp_path):
    from .test_viewer import signed_page

    signed = signed_page(tmp_path)
    page = browser.page()
    assert chain_in(page, signed) == "ok"
    html = signed.read_text(encoding="utf-8")
    edited = tmp_path / "edited.html"
    # someone edits the first roll in the mailed page: the page's own check catches it
    at = html.index('"payload":"{', html.index('"records":[')) + len('"payload":"{')
    edited.write_text(html[:at] + " " + html[at:], encoding="utf-8")
    assert chain_in(page, edited) == "bad"
    assert "broken at event 1" in page.js("document.getElementById('chain').textContent")


@pytest.mark.parametrize("width, height", [(1400, 1000), (1400, 900)])
def test_the_whole_board_fits_the_window_and_the_caption_says_each_thing_once(page_file, browser, width, height):
    path, views = page_file
    page = browser.page(width, height)
    page.open(path.as_uri())
    for n in (1, len(views) // 2, len(views)):
        page.js(f"document.getElementById('slider').value = {n}; "
                "document.getElementById('slider').dispatchEvent(new Event('input'))")
        box = json.loads(page.js("JSON.stringify(document.getElementById('board').getBoundingClientRect())"))
        assert box["bottom"] <= height and box["right"] <= width, (n, box)  # the first rounds' rows too
        aside, row = json.loads(page.js("JSON.stringify([document.querySelector('aside').getBoundingClientRect(), "
                                        "document.querySelector('#events li.current').getBoundingClientRect()])"))
        assert aside["bottom"] <= height and row["bottom"] <= height, (n, aside, row)  # its sentence in view
        caption = page.js("document.getElementById('current').textContent")
        sentence = page.js(f"document.querySelector('#events li[data-n=\"{n}\"] .s').textContent")
        assert caption == f"{n}. {sentence}"  # not the action and then the same thing again
