"""Benchmarks of issue 14 (pictures): ``python -m bench.pictures``.

1. show --svg: wall time of ``trv show --svg FILE`` against ``trv show`` on a
   finished game (the greedy 4-player Vendetta game of seed 35, about 1,000 events,
   stored with ``trv sim --store``), both in subprocesses with a warm
   bytecode cache, interleaved so drift hits both alike; target <= 2x.
2. the HTML of that game (``trv replay --html``): its size (target under
   2 MB), the time to write it, and the time Chromium takes to show its last
   event (``performance.now()`` when the page has drawn it, from navigation
   start; target under 1 s), over fresh tabs of one headless Chromium.

Every figure is a median with its min and max.  Prints a table and writes
``bench/results/pictures.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_SEED = 35  # greedy bots, 4 players: about 1,000 events (1,030 in the runs reported)


def wall(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def spread(values: list[float], digits: int = 3) -> dict:
    return {"median": round(statistics.median(values), digits), "min": round(min(values), digits),
            "max": round(max(values), digits), "runs": [round(v, digits) for v in values]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--loads", type=int, default=7, help="page loads in Chromium")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="trv-bench-pictures-"))
    db, game = tmp / "games.sqlite", f"sim-vendetta-4p-{GAME_SEED}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TRV_DB", "TRV_GAME")}
    env.update(NO_COLOR="1", PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
    trv = [sys.executable, "-m", "trvendetta.cli.main", "--db", str(db)]
    subprocess.run([*trv, "sim", "--games", "1", "--players", "4", "--seed", str(GAME_SEED), "--bot", "greedy",
                    "--store", "-q"], env=env, check=True, stdout=subprocess.DEVNULL)
    events = json.loads(subprocess.run([*trv, "--game", game, "show", "--json"], env=env, check=True,
                                       capture_output=True).stdout)["version"]

    show = [*trv, "--game", game, "show"]
    svg = [*trv, "--game", game, "show", "--svg", str(tmp / "board.svg")]
    wall(show, env), wall(svg, env)  # bytecode cache, file cache
    shows, svgs = [], []
    for _ in range(args.repeats):
        shows.append(wall(show, env))
        svgs.append(wall(svg, env))
    ratios = [b / a for a, b in zip(shows, svgs)]

    # in-process: drawing the picture against the text board, for the same state
    from trvendetta import pictures, rulesets
    from trvendetta.bots.sim import simulate

    rs, played = rulesets.get("vendetta"), []
    simulate(rs, 4, GAME_SEED, ["greedy"], events_out=played)
    state = rs.fold(played)
    draws, texts = [], []
    for _ in range(50):
        t = time.perf_counter()
        pictures.svg(rs.view(state))
        draws.append(time.perf_counter() - t)
        t = time.perf_counter()
        rs.render(state)
        texts.append(time.perf_counter() - t)

    html = tmp / "game.html"
    writes = [wall([*trv, "replay", game, "--html", str(html)], env) for _ in range(3)]
    size = html.stat().st_size

    opened, loads = [], []
    try:
        from .browser import Browser, chromium

        if chromium() is None:
            raise RuntimeError("no chromium")
        with Browser() as browser:
            for _ in range(args.loads):
                page = browser.page(1600, 1200)
                t = time.perf_counter()
                page.open(html.as_uri())
                loads.append(time.perf_counter() - t)
                assert int(page.js("document.body.dataset.event")) == events
                opened.append(page.js("window.trvShownMs") / 1000)
                page.call("Page.close")
    except Exception as exc:  # the browser figure is optional: say why it is missing
        opened, note = [], f"not measured: {exc}"
    else:
        note = ""

    result = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0],
                    "load_avg": os.getloadavg()[0]},
        "game": {"name": game, "events": events},
        "show_s": spread(shows), "show_svg_s": spread(svgs),
        "svg_over_show": spread(ratios, 2) | {"target": "<= 2"},
        "view_and_svg_ms": spread([d * 1000 for d in draws], 2), "render_text_ms": spread([d * 1000 for d in texts], 2),
        "html_bytes": size, "html_target": "< 2,000,000",
        "html_write_s": spread(writes),
        "last_event_shown_s": spread(opened) if opened else note,
        "page_load_s": spread(loads) if loads else note,
    }
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "pictures.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"game {game}: {events} events; load average {result['machine']['load_avg']:.2f}")
    for label, key in (("trv show", "show_s"), ("trv show --svg", "show_svg_s"), ("ratio svg/show", "svg_over_show"),
                       ("view + svg in-process (ms)", "view_and_svg_ms"), ("text board in-process (ms)", "render_text_ms"),
                       ("replay --html (write)", "html_write_s"), ("last event shown (page)", "last_event_shown_s"),
                       ("navigate to load event", "page_load_s")):
        v = result[key]
        print(f"  {label:<26} " + (f"median {v['median']}  min {v['min']}  max {v['max']}" if isinstance(v, dict)
                                    else v))
    print(f"  {'HTML size':<26} {size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
