"""`trv replay --html`: one self-contained page of the whole game (issue 14)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from html import unescape
from html.parser import HTMLParser

import pytest

from trvendetta import pictures, replays, rulesets
from trvendetta.store import GameStore

from .helpers import EXAMPLES
from .test_show_pictures import run


class Outside(HTMLParser):
    """Everything in a page that would reach outside the file."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "poster", "srcset") or (value and re.search(r"https?:|//", value)
                                                                          and name not in ("xmlns",)):
                self.found.append((tag, name, value))
        if tag in ("link", "iframe", "object", "embed", "img", "audio", "video"):
            self.found.append((tag, "", ""))


def data_of(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def rows_of(html: str) -> list[tuple[int, str, str]]:
    """(number, class, sentence) of each event row."""
    out = []
    for m in re.finditer(r'<li (?:class="(\w+)" )?data-n="(\d+)">(.*?)</li>', html):
        text = re.sub(r"<span class=\"act\">.*?</span>", "", m.group(3))
        out.append((int(m.group(2)), m.group(1) or "", unescape(re.sub(r"<[^>]+>", "", text))))
        assert '<span class="s">' in text
    return out


@pytest.fixture
def stored(tmp_path):
    db = tmp_path / "trv.sqlite"
    run(db, "sim", "--games", "1", "--players", "3", "--seed", "4", "--store", "-q")
    return db, "sim-vendetta-3p-4"


def test_the_page_holds_every_event_and_needs_nothing_outside(stored, tmp_path):
    db, game = stored
    out = tmp_path / "game.html"
    run(db, "replay", game, "--html", out)
    html = out.read_text(encoding="utf-8")
    outside = Outside()
    outside.feed(html)
    assert outside.found == []
    assert "@import" not in html and "url(http" not in html and "@font-face" not in html
    data = data_of(html)
    with GameStore(db) as store:
        records = store.events(game)
        ruleset = store.ruleset_of(game)
    assert len(data["frames"]) == len(records) == len(data["records"]) == len(rows_of(html))
    assert [r["hash"] for r in data["records"]] == [r.hash for r in records]
    assert data["head"] == records[-1].hash and data["verified"]["ok"] is True
    assert [s for _, _, s in rows_of(html)] == [f"{r.number}. {ruleset.describe(r.event)}" for r in records]
    # each frame is the picture of the view after its event, drawn by the one drawing code
    state = ruleset.initial_state()
    for r, frame in zip(records, data["frames"]):
        state = ruleset.evolve(state, r.event)
        if r.number % 50 and r.number != len(records):
            continue
        view = ruleset.view(state)
        last = pictures.last_of(ruleset, view, r.number, [r.event], ruleset.describe(r.event))
        assert [data["pieces"][i] for i in frame["p"]] == pictures.scene(view, last, caption=False).pieces


def chain_holds(data: dict) -> bool:
    """What the page's JavaScript recomputes (the browser test runs the JavaScript itself)."""
    import hashlib

    previous = data["genesis"]
    for r in data["records"]:
        body = r["payload"]
        if r.get("sig"):
            body = r["sig"] + "\n" + body
        if r["action"]:
            body = r["action"] + "\n" + body
        previous = hashlib.sha256(bytes.fromhex(previous) + body.encode("utf-8")).hexdigest()
        if previous != r["hash"]:
            return False
    return previous == data["head"]


def test_the_chain_in_the_page_is_the_stores(stored, tmp_path):
    db, game = stored
    run(db, "replay", game, "--html", tmp_path / "g.html")
    data = data_of((tmp_path / "g.html").read_text(encoding="utf-8"))
    assert chain_holds(data) and any(r["action"] for r in data["records"])
    data["records"][3]["payload"] = data["records"][3]["payload"].replace(":", ": ", 1)
    assert not chain_holds(data)


FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fairplay" / "fixtures").glob("*.trv"))


@pytest.mark.parametrize("path", [p for p in FIXTURES if "packet" not in p.name], ids=lambda p: p.stem)
def test_records_of_before_make_pages(path, tmp_path):
    run(tmp_path / "x.sqlite", "replay", "--html", tmp_path / "old.html", path)
    html = (tmp_path / "old.html").read_text(encoding="utf-8")
    data = data_of(html)
    assert data["verified"]["ok"] and chain_holds(data) and len(data["frames"]) == len(data["records"])


def signed_page(tmp_path) -> Path:
    """The page of a short game whose seats are bound to keys (signed records)."""
    home = tmp_path / "home"
    db = tmp_path / "s.sqlite"
    env = {"TRV_HOME": str(home), "TRV_AS": None}
    for who in ("ann", "bob"):
        run(db, "id", "new", who, env=env)
    run(db, "new", "--player", "ann:red:cars", "--player", "bob:blue:cars", "--seed", "7", "--name", "s",
        "--key", "ann=ann", "--key", "bob=bob", env=env)
    for _ in range(3):
        who = json.loads(run(db, "show", "--json").stdout)["pending"]["player"]
        option = run(db, "legal").stdout.splitlines()[1].strip()
        run(db, "decide", option, env={**env, "TRV_AS": who})
    run(db, "replay", "s", "--html", tmp_path / "s.html", env=env)
    return tmp_path / "s.html"


def test_the_text_replay_of_a_signed_game_walks_from_its_charter(tmp_path):
    signed_page(tmp_path)
    env = {"TRV_HOME": str(tmp_path / "home")}
    out = run(tmp_path / "s.sqlite", "replay", "s", env=env).stdout
    assert "1. " in out and "waiting on" in out
    run(tmp_path / "s.sqlite", "export", "s", "-o", tmp_path / "s.trv", env=env)
    assert run(tmp_path / "s.sqlite", "replay", tmp_path / "s.trv", env=env).stdout == out  # the record file too


def test_a_signed_game_makes_a_page_whose_chain_holds(tmp_path):
    html = signed_page(tmp_path).read_text(encoding="utf-8")
    data = data_of(html)
    assert any(r.get("sig") for r in data["records"]) and data["genesis"] != "0" * 64
    assert chain_holds(data) and data["verified"]["ok"] and "signatures checked" in data["verified"]["text"]


def test_a_record_file_makes_the_same_page(stored, tmp_path):
    db, game = stored
    run(db, "export", game, "-o", tmp_path / "g.trv")
    run(db, "replay", game, "--html", tmp_path / "from-store.html")
    run(tmp_path / "other.sqlite", "replay", "--html", tmp_path / "from-file.html", tmp_path / "g.trv")
    a, b = (data_of((tmp_path / n).read_text(encoding="utf-8")) for n in ("from-store.html", "from-file.html"))
    assert a["frames"] == b["frames"] and a["pieces"] == b["pieces"] and a["records"] == b["records"]
    assert b["verified"]["ok"] is True


def test_retracted_events_are_struck_through(tmp_path):
    db = tmp_path / "trv.sqlite"
    run(db, "new", "--position", next(p for p in EXAMPLES if p.stem.startswith("vendetta")), "--name", "u")
    before = json.loads(run(db, "show", "--json").stdout)["version"]
    run(db, "decide", "assign 4 to red-large")
    run(db, "undo")
    run(db, "replay", "--html", tmp_path / "u.html")
    rows = rows_of((tmp_path / "u.html").read_text(encoding="utf-8"))
    marked = [n for n, cls, _ in rows if cls == "retracted"]
    assert marked and marked[0] == before + 1 and marked[-1] == rows[-1][0]
    assert "takes back" in rows[-1][2]


def test_a_tampered_record_is_refused_in_one_line(stored, tmp_path):
    db, game = stored
    run(db, "export", game, "-o", tmp_path / "g.trv")
    data = (tmp_path / "g.trv").read_bytes()
    line = next(l for l in data.split(b"\n") if l.startswith(b"5 "))
    (tmp_path / "bad.trv").write_bytes(data.replace(line, line.replace(b'":', b'": ', 1)))
    result = run(db, "replay", "--html", tmp_path / "bad.html", tmp_path / "bad.trv", code=1)
    assert "event 5" in result.stderr
    assert not (tmp_path / "bad.html").exists()


def test_a_turn_packet_is_not_a_whole_game(stored, tmp_path):
    db, game = stored
    run(db, "export", game, "--since", 10, "-o", tmp_path / "p.trv")
    result = run(db, "replay", "--html", tmp_path / "p.html", tmp_path / "p.trv", code=1)
    assert "turn packet" in result.stderr


def test_html_takes_no_range(stored, tmp_path):
    db, game = stored
    result = run(db, "replay", game, "--html", tmp_path / "x.html", "--from", 3, code=2)
    assert "--html writes the whole game" in result.stderr


def test_a_record_that_does_not_follow_from_the_rules_says_so_in_the_page():
    from trvendetta.cli.viewer import _verification

    def diverge():
        raise replays.Divergence(7, b'{"a":1}', b'{"a":2}', "In the x event, a is 1 in the record but 2.")

    v = _verification(diverge)
    assert not v.ok and "does NOT follow" in v.text and "event 7" in v.text
    rs = rulesets.get("vendetta")
    state, events = rs.new_game(rs.position_from_dict(
        __import__("tomllib").loads(next(p for p in EXAMPLES if p.stem.startswith("vendetta")).read_text())))
    from trvendetta.pictures.viewer import page
    from trvendetta.store import GENESIS, StoredEvent, chain

    head, records = GENESIS, []
    for n, e in enumerate(events, 1):
        payload = rs.encode(e)
        head = chain(head, payload)
        records.append(StoredEvent(n, rs.event_kind(e), "vendetta", 1, payload, head, "", None, e))
    html = page(rs, records, title="t", facts=[], verification=v)
    assert 'id="reexec" class="bad"' in html and "does NOT follow" in html
