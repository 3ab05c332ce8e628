"""The club page on loopback: its first paint and a move's round trip, in Chromium.

    python -m bench.page                      # the page of this checkout
    python -m bench.page --page OLD_DIR       # another page (its index.html, play.js, play.css)
                                              # served by this checkout's server: before/after

A club server on 127.0.0.1 (the tests' ``tests/server/conftest.py`` Club), ann on the CLI,
bob's page paired by `trv login --browser`.  First paint: the browser's first-contentful-paint
and the moment the board is on the page, after opening ``/play/GAME`` (median, min-max over
``--repeats`` loads).  Round trip: from bob's click on a decision's button to the page showing
the game's next version (a MutationObserver stamps it in the page), over the game's moves.
Wall-clock figures on a shared machine: compare runs made one after the other.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
from pathlib import Path

from .browser import Browser
from .common import ROOT


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _figure(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ms ({min(values):.0f}-{max(values):.0f}, n={len(values)})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", type=Path, help="a directory with another index.html, play.js, play.css")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args(argv)
    conftest = _load("trv_bench_club", ROOT / "tests" / "server" / "conftest.py")
    helpers = _load("trv_bench_browser", ROOT / "tests" / "server" / "test_browser.py")
    if args.page:
        from trvendetta.server import app

        app.PAGE = args.page.resolve()
    with tempfile.TemporaryDirectory(prefix="trv-bench-page-") as tmp:
        club = conftest.Club(Path(tmp), str(Path(tmp) / "club.sqlite"))
        try:
            with Browser() as browser:
                ann, _, page = helpers.duel(club, browser, 1366, 768)
                paint, board = [], []
                for _ in range(args.repeats):
                    page.open(f"{club.url}/play/duel")
                    got = page.js("""new Promise((resolve) => { const t = setInterval(() => {
                        if (!document.querySelector('#board svg')) return;
                        clearInterval(t);
                        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
                        resolve([fcp ? fcp.startTime : -1, performance.now()]); }, 5); })""")
                    if got[0] >= 0:  # (not always recorded yet when the board is)
                        paint.append(got[0])
                    board.append(got[1])
                trips = []
                for _ in range(args.moves):
                    row = json.loads(ann("games", "--json").stdout)["games"][0]
                    while row["status"] != "over" and row["waiting_on"] == "ann":
                        ann("act", json.dumps(json.loads(ann("legal", "--json").stdout)[0]))
                        row = json.loads(ann("games", "--json").stdout)["games"][0]
                    if row["status"] == "over":
                        break
                    helpers.until(page, f"document.body.dataset.version == '{row['version']}' && "
                                        "document.querySelector('#options button[data-action]')")
                    page.js("""window.t1 = null; new MutationObserver((_, o) => { window.t1 = performance.now();
                        o.disconnect(); }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
                        true""")
                    rect = page.js("""(() => { const e = document.querySelector('#options button[data-action]');
                        e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();
                        window.t0 = performance.now(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()""")
                    page.click(rect["x"], rect["y"])
                    helpers.until(page, "window.t1 !== null")
                    trips.append(page.js("window.t1 - window.t0"))
        finally:
            club.stop()
    print(f"page: {args.page or 'this checkout'}")
    print(f"first contentful paint: {_figure(paint)}")
    print(f"board on the page:      {_figure(board)}")
    print(f"a move's round trip:    {_figure(trips)}")


if __name__ == "__main__":
    main()
