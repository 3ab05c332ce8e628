"""What signatures cost (issue 11): ``python -m trvendetta.bench.signing``.

The longest of a few greedy 4-player Vendetta games is stored twice in one
SQLite file, one command (action) per transaction as `trv turn` does: once
as a hot-seat game, once with all four seats bound to Ed25519 keys and
signed as the CLI signs (the last action of each seat's run;
``replays.signatures.sign_runs``).  Then

* verify: ``replays.verify_game`` on each (what ``trv verify GAME`` runs),
  alternating, ``--repeats`` times after a warm-up; the cost of checking is
  the difference of the medians, as a share of the signed game's verify;
* signing: the time spent in Ed25519 signing while appending the signed game,
  as a share of that game's verify;
* the command: wall time of ``trv verify GAME`` in a subprocess (warm
  bytecode cache outside the repository), alternating between the two games:
  what a user waits for, start-up and imports (``cryptography`` for the
  signed game only) included.

Prints the figures (median, min, max) and writes
``bench/results/signing.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from trvendetta import replays, rulesets
from trvendetta.bots import new_position
from trvendetta.replays.signatures import sign_runs
from trvendetta.store import Charter, GameStore, encode_charter

from .run import longest_greedy_game, wall

RESULTS = Path(__file__).resolve().parent / "results" / "signing.json"


def store_game(store: GameStore, name: str, rs, seed: int, actions: list, keys: dict | None) -> dict:
    """Append the game one action per save; with ``keys``, signed. Returns counts and signing time."""
    state, first = rs.new_game(new_position(rs, 4, seed))
    charter = encode_charter(Charter({s: k.public_key().public_bytes_raw().hex() for s, k in keys.items()})) \
        if keys else ""
    loaded = store.create_game(name, rs.name, first, charter=charter)
    game_id = store.events_head(name, 1)
    version = loaded.version
    spent = [0.0, 0]

    def sign(seat: str, msg: bytes) -> bytes:
        t = time.perf_counter()
        out = keys[seat].sign(msg)
        spent[0] += time.perf_counter() - t
        spent[1] += 1
        return out

    for action in actions:
        seat = rs.pending(state).player
        state, new = rs.apply(state, action)
        steps = [(action, new)]
        if keys:
            nxt = rs.pending(state)
            if nxt is None or nxt.player != seat:  # the end of the seat's run (a `trv turn`)
                steps = sign_runs(steps, [seat], set(keys), sign, "", game_id)
        version = store.append(name, version, steps=steps).version
    return {"events": version, "actions": len(actions), "signatures": spent[1], "signing_s": spent[0]}


def main(argv: list[str] | None = None) -> int:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--seeds", type=int, default=10, help="greedy games to choose the longest from")
    args = parser.parse_args(argv)
    rs = rulesets.get("vendetta")
    seed, _events, actions = longest_greedy_game(rs, range(args.seeds))
    keys = {f"p{i}": Ed25519PrivateKey.generate() for i in range(1, 5)}
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "signing.sqlite")
        plain = store_game(store, "plain", rs, seed, actions, None)
        signed = store_game(store, "signed", rs, seed, actions, keys)
        for name in ("plain", "signed"):
            replays.verify_game(store, name)  # warm: imports, component data
        times: dict[str, list[float]] = {"plain": [], "signed": []}
        for _ in range(args.repeats):
            for name in ("plain", "signed"):
                t = time.perf_counter()
                result = replays.verify_game(store, name)
                times[name].append(time.perf_counter() - t)
        assert result.signed and all(result.signed.values()), result.signed
        store.close()
        env = dict({k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, NO_COLOR="1",
                   PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        cmd = {name: [sys.executable, "-m", "trvendetta.cli.main", "--db", str(Path(tmp) / "signing.sqlite"),
                      "verify", name] for name in ("plain", "signed")}
        wall(cmd["plain"], env), wall(cmd["signed"], env)  # bytecode cache, file cache
        walls: dict[str, list[float]] = {"plain": [], "signed": []}
        for _ in range(args.repeats):
            for name in ("plain", "signed"):
                walls[name].append(wall(cmd[name], env))
    wmed = {k: statistics.median(v) for k, v in walls.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    checking = med["signed"] - med["plain"]
    out = {
        "seed": seed,
        "events": signed["events"],
        "actions": signed["actions"],
        "signatures": signed["signatures"],
        "verify_plain_ms": [round(med["plain"] * 1000, 1), round(min(times["plain"]) * 1000, 1),
                            round(max(times["plain"]) * 1000, 1)],
        "verify_signed_ms": [round(med["signed"] * 1000, 1), round(min(times["signed"]) * 1000, 1),
                             round(max(times["signed"]) * 1000, 1)],
        "checking_share": round(checking / med["signed"], 3),
        "signing_ms": round(signed["signing_s"] * 1000, 1),
        "signing_share": round(signed["signing_s"] / med["signed"], 3),
        "trv_verify_plain_ms": [round(wmed["plain"] * 1000, 1), round(min(walls["plain"]) * 1000, 1),
                                round(max(walls["plain"]) * 1000, 1)],
        "trv_verify_signed_ms": [round(wmed["signed"] * 1000, 1), round(min(walls["signed"]) * 1000, 1),
                                 round(max(walls["signed"]) * 1000, 1)],
        "command_share": round((wmed["signed"] - wmed["plain"]) / wmed["signed"], 3),
        "load": os.getloadavg()[0],
        "repeats": args.repeats,
    }
    print(f"greedy game seed {seed}: {out['events']} events, {out['actions']} actions, "
          f"{out['signatures']} signatures (one per run of a seat's actions)")
    print(f"verify unsigned: {out['verify_plain_ms'][0]} ms (min {out['verify_plain_ms'][1]}, "
          f"max {out['verify_plain_ms'][2]})")
    print(f"verify signed:   {out['verify_signed_ms'][0]} ms (min {out['verify_signed_ms'][1]}, "
          f"max {out['verify_signed_ms'][2]})")
    print(f"checking signatures: {out['checking_share']:.1%} of the signed verify; "
          f"signing them all: {out['signing_ms']} ms = {out['signing_share']:.1%} of it")
    print(f"`trv verify` command: unsigned {out['trv_verify_plain_ms'][0]} ms "
          f"(min {out['trv_verify_plain_ms'][1]}, max {out['trv_verify_plain_ms'][2]}), signed "
          f"{out['trv_verify_signed_ms'][0]} ms (min {out['trv_verify_signed_ms'][1]}, "
          f"max {out['trv_verify_signed_ms'][2]}): signatures {out['command_share']:.1%} of the command")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
