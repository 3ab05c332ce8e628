"""What a server's bot game costs the other players (docs/server.md, "Bot seats").

    python -m bench.server_bots [--seconds 20] [--steps 1000] [--rounds 3]

A club server (in this process: uvicorn on a thread, 127.0.0.1) with one player, ann, playing a
game against a `search` bot seat as fast as she can (`POST /api/games/G/act`, her first option;
each answer waits for the bot's moves), while another player, bob, reads his games over and
over (`GET /api/me`: work on the server's store thread).  Three runs a round, each ``--seconds``:

* ``idle``: bob alone;
* ``bots thread``: the bot game beside him, its bot thinking on the server's own bots thread
  (what `trv serve` does);
* ``store thread``: the same, but the bot thinking on the store thread (the server's thinking
  pool replaced by its store pool for this run only), which is what it would cost if the search
  ran where the store's work runs.

Printed: bob's request time (median, min, max, p99 over every request of the run) and the bot's
decisions and their think time.  The clients run in this process too, so every figure shares the
GIL with the server: compare the runs with each other, not with a server in its own process.
"""

from __future__ import annotations

import argparse
import base64
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.server_load import Sim, free_port, message


def _server(tmp: Path, steps: int):
    import uvicorn

    from trvendetta.cli.identity import identities
    from trvendetta.cli.serve import club_maker
    from trvendetta.server.app import make_app

    home = tmp / "club"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRV_")}
    env.update(TRV_HOME=str(home), NO_COLOR="1")
    subprocess.run([sys.executable, "-m", "trvendetta.cli.main", "id", "new", "club"], env=env, check=True,
                   capture_output=True, cwd=tmp)
    public = identities(home)[0].public
    port = free_port()
    app = make_app(club_maker(str(tmp / "club.sqlite"), home, public, bot_games=1000, search_steps=steps),
                   sign_ups=0)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           access_log=False, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(600):
        if server.started:
            break
        time.sleep(0.05)
    return app.state.server, server, thread, port


def _ann(ann: Sim, stop: threading.Event, made: list) -> None:
    """ann's bot games, one after another, until ``stop``."""
    while not stop.is_set():
        game = f"bots-{len(made)}"
        made.append(game)
        status, out = ann.http.call("POST", "/api/games", {"players": ["ann:red:cars"], "name": game,
                                                           "bots": ["search:blue:cars:deep"]})
        assert status == 200, out
        ann.join(game)
        while not stop.is_set():
            status, doc = ann.http.call("GET", f"/api/games/{game}")
            if doc.get("over") or not doc.get("options"):
                break
            option = doc["options"][0]
            sig = ann.key.sign(message(doc["domain"], doc["version"] + 1, doc["head"], option["action"]))
            status, out = ann.http.call("POST", f"/api/games/{game}/act", {
                "action": option["action"], "version": doc["version"], "signature": base64.b64encode(sig).decode()})
            assert status == 200, out


def _bob(bob: Sim, seconds: float) -> list[float]:
    took = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        status, _ = bob.http.call("GET", "/api/me")
        took.append(time.perf_counter() - t0)
        assert status == 200
    return took


def run(seconds: float, steps: int, variant: str) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="trv-bots-"))
    srv, uv, thread, port = _server(tmp, steps)
    club = srv.club
    thinks: list[float] = []
    real = club.bot_think

    def timed(turn):  # the CPU time of the thread it runs on (the bots' thread, or the store's)
        t0 = time.thread_time()
        try:
            return real(turn)
        finally:
            thinks.append(time.thread_time() - t0)
    club.bot_think = timed
    own = srv._thinking
    if variant == "store thread":
        srv._thinking = srv._pool
    try:
        ann, bob = Sim("ann", port, 1), Sim("bob", port, 2)
        ann.login()
        bob.login()
        stop, made = threading.Event(), []
        player = threading.Thread(target=_ann, args=(ann, stop, made))
        if variant != "idle":
            player.start()
        took = _bob(bob, seconds)
        stop.set()
        if variant != "idle":
            player.join(120)
    finally:
        srv._thinking = own  # (the server shuts its own pools down)
        uv.should_exit = True
        thread.join(60)
    took.sort()
    return {"variant": variant, "requests": len(took), "median_ms": 1000 * statistics.median(took),
            "min_ms": 1000 * took[0], "max_ms": 1000 * took[-1], "p99_ms": 1000 * took[int(0.99 * (len(took) - 1))],
            "bot_decisions": len(thinks), "think_ms": 1000 * statistics.median(thinks) if thinks else 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--steps", type=int, default=1000, help="the search bot's budget (trv serve --search-steps)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    rows: dict[str, list[dict]] = {}
    for r in range(args.rounds):
        for variant in ("idle", "bots thread", "store thread"):
            got = run(args.seconds, args.steps, variant)
            rows.setdefault(variant, []).append(got)
            print(f"round {r + 1}: {variant}: bob's GET /api/me median {got['median_ms']:.1f} ms (min "
                  f"{got['min_ms']:.1f}, p99 {got['p99_ms']:.1f}, max {got['max_ms']:.1f}) over {got['requests']} "
                  f"requests; {got['bot_decisions']} bot decisions, {got['think_ms']:.0f} ms CPU each (median)",
                  flush=True)
    print("medians of the rounds' medians (min-max of the rounds' medians), and the largest p99 and max:")
    for variant, got in rows.items():
        meds = sorted(g["median_ms"] for g in got)
        print(f"  {variant}: {statistics.median(meds):.1f} ms ({meds[0]:.1f}-{meds[-1]:.1f}); p99 up to "
              f"{max(g['p99_ms'] for g in got):.1f} ms, max {max(g['max_ms'] for g in got):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
