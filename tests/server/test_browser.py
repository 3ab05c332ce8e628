"""A whole game on one club server: bob in Chromium (the project's DevTools client: clicks on
the page's controls), ann from the CLI.  Bob's browser is paired by `trv login --browser` (a
real process), signs every move with its own key under bob's delegation, follows ann's moves
through the event stream, and the game ends in the same state on the page, in both players'
copies and on the server; its record verifies offline, delegated signatures included."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from trvendetta import replays
from bench.browser import Browser, CDPError, chromium, read_png

pytestmark = pytest.mark.skipif(chromium() is None, reason="Chromium is not installed here (.ci/run installs it)")


def until(page, condition: str, ms: int = 30000) -> None:
    """Wait in the page (no sleep here) until the JavaScript ``condition`` holds (again after the
    page navigated, which ends a wait)."""
    for _ in range(5):
        try:
            return _until(page, condition, ms)
        except CDPError as exc:
            if "navigated" not in str(exc):
                raise
    raise AssertionError(f"the page kept navigating while waiting for {condition}")


def _until(page, condition: str, ms: int) -> None:
    ok = page.js(f"""new Promise((resolve) => {{
        const end = Date.now() + {ms};
        const t = setInterval(() => {{
            let ok = false; try {{ ok = !!({condition}); }} catch (e) {{}}
            if (ok || Date.now() > end) {{ clearInterval(t); resolve(ok); }}
        }}, 25);
    }})""")
    if not ok:  # what the player sees beside the board, and what the page's script threw
        side = page.js("(document.querySelector('.side') || document.body).innerText")
        status = page.js("(document.getElementById('status') || {}).textContent")
        raise AssertionError(f"the page never showed: {condition}; status {status!r}; it says "
                             f"{side[:800]!r}; errors {page.errors()!r}")


def click(page, selector: str) -> str:
    """A real mouse click in the middle of the element; returns its text."""
    rect = page.js(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
        e.scrollIntoView({{block: "center"}}); const r = e.getBoundingClientRect();
        const x = r.x + r.width / 2, y = r.y + r.height / 2, top = document.elementFromPoint(x, y);
        return {{x, y, text: e.textContent, seen: !!top && (top === e || e.contains(top))}}; }})()""")
    # what the player sees there is the control (not hidden by its box's overflow, nor covered)
    assert rect["seen"], f"{selector} ({rect['text']!r}) is not visible where it is: a player cannot click it"
    page.click(rect["x"], rect["y"])
    return rect["text"]


def pair(club, bob, page) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRV_")}
    env.update(TRV_HOME=str(bob.home), NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "trvendetta.cli.main", "login", club.url, "--browser", "--yes"],
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:
            if "open this address in your browser: " in line:
                address = line.split(": ", 1)[1].strip()
                break
        else:
            raise AssertionError(proc.stderr.read())
        page.open(address)
        until(page, "document.getElementById('fingerprint')")
        shown = page.js("document.getElementById('fingerprint').textContent")
        code = page.js("document.getElementById('code').textContent")  # the player types the page's code
        out, err = proc.communicate(code + "\n", timeout=120)
        assert proc.returncode == 0, err
        assert f"the page's key is {shown}" in out  # the fingerprint the CLI certified is the page's
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def browser():
    try:
        b = Browser()
    except (CDPError, OSError) as exc:
        pytest.skip(f"Chromium does not start here: {exc}")
    with b:
        yield b


def duel(club, browser, width: int, height: int):
    """ann (the CLI) offers a game called duel, bob joins it on his paired page: (ann, bob, page)."""
    ann = club.player("ann")
    bob = club.player("bob", login=False)
    page = browser.page(width, height)
    pair(club, bob, page)
    until(page, "document.getElementById('waiting')")
    ann("new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--name", "duel")
    until(page, "document.querySelector('[data-join=duel]')")
    assert click(page, "[data-join=duel]") == "Join duel"
    until(page, "location.pathname === '/play/duel' && document.body.dataset.version")
    # the join's answer came after the game started, so the server's version is the one the page will
    # settle on: wait until it is drawn and marked, so no later redraw (a stream message for a version
    # the page's first read missed) wipes a question a test is about to answer
    version = club.on_store(club.club.version, "duel")
    until(page, f"document.body.dataset.ready == '{version}'")
    return ann, bob, page


def test_a_whole_game_between_the_browser_and_the_cli(club, browser, tmp_path):
    ann, bob, page = duel(club, browser, 1366, 768)
    (tmp_path / "start.png").write_bytes(page.screenshot())
    clicks = 0
    for _ in range(2000):
        row = json.loads(ann("games", "--json").stdout)["games"][0]
        if row["status"] == "over":
            break
        if row["waiting_on"] == "ann":
            ann("act", json.dumps(json.loads(ann("legal", "--json").stdout)[0]))
            continue
        # bob's move: the page got ann's moves from the event stream and lists bob's options
        until(page, f"document.body.dataset.version == '{row['version']}' && "
                    "document.querySelectorAll('#options button').length > 0")
        names = page.js("Array.from(document.querySelectorAll('#options button'), b => b.textContent)")
        assert click(page, "#options button") == names[0]
        clicks += 1
        until(page, f"document.body.dataset.version != '{row['version']}'")
        if clicks == 3:
            (tmp_path / "playing.png").write_bytes(page.screenshot())
    else:
        raise AssertionError("the game did not end")
    assert clicks > 3
    until(page, f"document.body.dataset.version == '{row['version']}' && "
                "document.getElementById('turn').textContent.startsWith('Game over: ')")
    shot = page.screenshot()
    (tmp_path / "over.png").write_bytes(shot)
    width, height, _ = read_png(shot)
    assert (width, height) == (1366, 768)
    assert not page.errors()
    # the same state everywhere: the page's log is the CLI's, and every copy's record is the server's
    page_log = page.js("document.getElementById('log').textContent")
    assert page_log.splitlines() == ann("log").stdout.splitlines()
    record = club.club.export("duel", None)
    assert ann("export", "duel").stdout == record
    (tmp_path / "duel.trv").write_text(record)
    bob_copy = bob("--db", tmp_path / "bob.sqlite", "import", tmp_path / "duel.trv", server=False)
    assert "imported game into duel" in bob_copy.stdout
    assert ann("verify", tmp_path / "duel.trv", server=False).stdout.startswith("OK:")
    result = replays.verify_file(replays.read_file(record.encode(), "duel.trv"))
    assert result.signed.get("bob", 0) >= 1 and result.signed.get("ann", 0) >= 1
    assert "\n+ bob:" in record and all(len(line) == len("+ bob:") + 224 for line in record.splitlines()
                                        if line.startswith("+ bob:"))  # every bob signature: delegated


# the page's fetch, wrapped: the answer to the next GET of the game's document is held back
# until the game has moved on (``window.release()``), as a slow answer would arrive
HOLD_BACK = """(() => {
    const real = window.fetch;
    let armed = true, release;
    window.held = false; window.late = false;
    window.release = () => release();
    window.fetch = async (path, init) => {
        const answer = await real(path, init);
        if (armed && path === "/api/games/duel" && (init || {}).method === "GET") {
            armed = false; window.held = true;
            await new Promise((ok) => { release = ok; });
            window.late = true;
        }
        return answer;
    };
    window.lateShow = show("duel");
    return true;
})()"""


def test_an_answer_that_arrives_late_never_takes_the_page_back(club, browser):
    """Two requests for the game's document in flight (a stream message and a move): the older
    one's answer, arriving last, is not drawn over the newer."""
    ann, _, page = duel(club, browser, 1024, 768)
    row = json.loads(ann("games", "--json").stdout)["games"][0]
    until(page, f"document.body.dataset.version == '{row['version']}'")
    assert page.js(HOLD_BACK)
    until(page, "window.held")  # the server answered with the game as it is now; the page has not seen it
    if row["waiting_on"] == "ann":
        ann("act", json.dumps(json.loads(ann("legal", "--json").stdout)[0]))
    else:
        until(page, "document.querySelectorAll('#options button').length > 0")
        click(page, "#options button")
    for _ in range(200):  # the page's move is posted by the page: wait until the server has it
        after = json.loads(ann("games", "--json").stdout)["games"][0]["version"]
        if after > row["version"]:
            break
    else:
        raise AssertionError("the move was not taken")
    until(page, f"document.body.dataset.version == '{after}'")  # the stream's message, or the move's own show
    page.js("window.release()")
    assert page.js("window.lateShow.then(() => window.late)")  # the late answer, handled by its show()
    assert page.js("document.body.dataset.version") == str(after)
    assert not page.errors()
