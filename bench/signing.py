"""What signatures cost (issue 11): ``python -m bench.signing``.

The longest of a few greedy 4-player Vendetta games is stored twice in one
SQLite file, one command (action) per transaction as `trv turn` does: once
as a hot-seat game, once with all four seats bound to Ed25519 keys and
signed as the CLI signs (the last action of each seat's run;
``replays.signatures.sign_runs``).  Then

* verify: ``replays.verify_game`` on each (what ``trv verify GAME`` runs),
  alternating, ``--repeats`` times after a warm-up; the cost of checking is
  the difference of the medians, as a share of the signed game's verify,
  in wall time and in CPU time (this process's: what the shared machine's
  other work disturbs least); a third run of the signed game with every
  Ed25519 check answered at once splits it into the checks themselves and
  the bookkeeping around them;
* one check: each of the game's signatures checked by libsodium (what
  ``trv`` uses) and by OpenSSL through ``cryptography``, microseconds of CPU;
* signing: the time spent in Ed25519 signing while appending the signed game,
  as a share of that game's verify;
* the command: wall time of ``trv verify GAME`` in a subprocess (warm
  bytecode cache outside the repository), alternating between the two games:
  what a user waits for, start-up and imports (PyNaCl for the signed game
  only) included, and its CPU time (the child's user + system).

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


def _spread(values: list[float], scale: float = 1000.0) -> list[float]:
    """[median, min, max], scaled (ms by default)."""
    return [round(statistics.median(values) * scale, 1), round(min(values) * scale, 1),
            round(max(values) * scale, 1)]


def _child_cpu(cmd: list[str], env: dict) -> tuple[float, float]:
    """Wall and CPU time (user + system) of one subprocess: CPU time is what
    the command costs whatever else the shared machine runs."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def per_check(store: GameStore, keys: dict, repeats: int) -> dict:
    """One signature check, in microseconds of CPU time: each of the game's
    real signatures checked by libsodium (what ``trv`` uses) and by OpenSSL
    through ``cryptography`` (what it used before), alternating."""
    from trvendetta.replays import signatures

    loaded = store.header("signed")
    game_id = store.events_head("signed", 1)
    cases = []
    for r in store.events("signed", decode=False):
        for seat, sig in signatures.parse(r.sig) if r.sig else []:
            msg = signatures.message(signatures.domain_at(loaded.domain, game_id, r.number), r.number,
                                     r.previous, r.action)
            cases.append((keys[seat].public_key(), keys[seat].public_key().public_bytes_raw(), sig, msg))
    out: dict[str, list[float]] = {"libsodium": [], "openssl": []}
    for _ in range(repeats):
        t = time.process_time()
        assert all(signatures.valid(raw, sig, msg) for _, raw, sig, msg in cases)
        out["libsodium"].append((time.process_time() - t) / len(cases))
        t = time.process_time()
        for key, _, sig, msg in cases:
            key.verify(sig, msg)
        out["openssl"].append((time.process_time() - t) / len(cases))
    return {k: _spread(v, 1e6) for k, v in out.items()}


def main(argv: list[str] | None = None) -> int:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from trvendetta.replays import signatures

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--seeds", type=int, default=10, help="greedy games to choose the longest from")
    args = parser.parse_args(argv)
    rs = rulesets.get("vendetta")
    seed, _events, actions = longest_greedy_game(rs, range(args.seeds))
    keys = {f"p{i}": Ed25519PrivateKey.generate() for i in range(1, 5)}
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "signing.sqlite")
        plain = store_game(store, "plain", rs, seed, actions, None)
        signed = store_game(store, "signed", rs, seed, actions, keys)
        for name in ("plain", "signed"):
            replays.verify_game(store, name)  # warm: imports, component data
        # "bookkeeping": the signed game verified with every Ed25519 check answered True
        # at once, so signed - bookkeeping is the checks, bookkeeping - plain the rest
        real_valid = signatures.valid
        kinds = ("plain", "signed", "bookkeeping")
        times: dict[str, list[float]] = {k: [] for k in kinds}
        cpu: dict[str, list[float]] = {k: [] for k in kinds}
        try:
            for _ in range(args.repeats):
                for kind in kinds:
                    signatures.valid = (lambda *a: True) if kind == "bookkeeping" else real_valid
                    t, c = time.perf_counter(), time.process_time()
                    result = replays.verify_game(store, "plain" if kind == "plain" else "signed")
                    times[kind].append(time.perf_counter() - t)
                    cpu[kind].append(time.process_time() - c)
        finally:
            signatures.valid = real_valid
        result = replays.verify_game(store, "signed")
        assert result.signed and sum(result.signed.values()) == signed["signatures"], result.signed
        checks = per_check(store, keys, args.repeats)
        store.close()
        env = dict({k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, NO_COLOR="1",
                   PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        cmd = {name: [sys.executable, "-m", "trvendetta.cli.main", "--db", str(Path(tmp) / "signing.sqlite"),
                      "verify", name] for name in ("plain", "signed")}
        wall(cmd["plain"], env), wall(cmd["signed"], env)  # bytecode cache, file cache
        walls: dict[str, list[float]] = {"plain": [], "signed": []}
        cmd_cpu: dict[str, list[float]] = {"plain": [], "signed": []}
        for _ in range(args.repeats):
            for name in ("plain", "signed"):
                w, c = _child_cpu(cmd[name], env)
                walls[name].append(w)
                cmd_cpu[name].append(c)
    load.append(os.getloadavg()[0])

    def share(d: dict[str, list[float]], part: float) -> float:
        return round(part / statistics.median(d["signed"]), 3)

    med = {k: statistics.median(v) for k, v in cpu.items()}
    out = {
        "seed": seed,
        "events": signed["events"],
        "actions": signed["actions"],
        "signatures": signed["signatures"],
        "verify_plain_ms": _spread(times["plain"]),
        "verify_signed_ms": _spread(times["signed"]),
        "verify_plain_cpu_ms": _spread(cpu["plain"]),
        "verify_signed_cpu_ms": _spread(cpu["signed"]),
        "verify_bookkeeping_cpu_ms": _spread(cpu["bookkeeping"]),
        "checking_share": share(times, statistics.median(times["signed"]) - statistics.median(times["plain"])),
        "checking_share_cpu": share(cpu, med["signed"] - med["plain"]),
        "ed25519_share_cpu": share(cpu, med["signed"] - med["bookkeeping"]),
        "bookkeeping_share_cpu": share(cpu, med["bookkeeping"] - med["plain"]),
        "check_us": checks,
        "signing_ms": round(signed["signing_s"] * 1000, 1),
        "signing_share": round(signed["signing_s"] / statistics.median(times["signed"]), 3),
        "trv_verify_plain_ms": _spread(walls["plain"]),
        "trv_verify_signed_ms": _spread(walls["signed"]),
        "trv_verify_plain_cpu_ms": _spread(cmd_cpu["plain"]),
        "trv_verify_signed_cpu_ms": _spread(cmd_cpu["signed"]),
        "command_share": share(walls, statistics.median(walls["signed"]) - statistics.median(walls["plain"])),
        "command_share_cpu": share(cmd_cpu, statistics.median(cmd_cpu["signed"]) - statistics.median(cmd_cpu["plain"])),
        "load": load,
        "repeats": args.repeats,
    }

    def ms(key: str) -> str:
        m, lo, hi = out[key]
        return f"{m} ms (min {lo}, max {hi})"

    print(f"greedy game seed {seed}: {out['events']} events, {out['actions']} actions, "
          f"{out['signatures']} signatures (one per run of a seat's actions); load {load[0]:.1f}-{load[1]:.1f}")
    print(f"verify unsigned: {ms('verify_plain_ms')}, CPU {ms('verify_plain_cpu_ms')}")
    print(f"verify signed:   {ms('verify_signed_ms')}, CPU {ms('verify_signed_cpu_ms')}")
    print(f"  the same, every Ed25519 check skipped (bookkeeping only): CPU {ms('verify_bookkeeping_cpu_ms')}")
    print(f"checking signatures: {out['checking_share']:.1%} of the signed verify (CPU: {out['checking_share_cpu']:.1%}: "
          f"Ed25519 {out['ed25519_share_cpu']:.1%}, bookkeeping {out['bookkeeping_share_cpu']:.1%}); "
          f"signing them all: {out['signing_ms']} ms = {out['signing_share']:.1%} of it")
    for lib, (m, lo, hi) in checks.items():
        print(f"one check, {lib}: {m} us CPU (min {lo}, max {hi})")
    print(f"`trv verify` command: unsigned {ms('trv_verify_plain_ms')}, signed {ms('trv_verify_signed_ms')}: "
          f"signatures {out['command_share']:.1%} of the command")
    print(f"  CPU: unsigned {ms('trv_verify_plain_cpu_ms')}, signed {ms('trv_verify_signed_cpu_ms')}: "
          f"signatures {out['command_share_cpu']:.1%} of the command")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
