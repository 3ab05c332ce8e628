"""Load on a club: `trv serve` processes on one store, simulated players (docs/server.md).

    python -m bench.server_load [--players 50] [--seconds 60] [--store sqlite|postgresql]
        [--servers N] [--route player|game] [--idle-streams N] [--compare OTHER_PYTHON] [--repeat N]

``--store postgresql`` needs $TRV_TEST_POSTGRES (a database it may make a schema in); every run
needs the server extra.  ``--compare`` runs the same load on servers started with another
checkout's interpreter (the previous main: ``git worktree add /tmp/oldmain ed00572`` and a venv
there), each run after the other, so both are measured on the same machine in one go.  Every
request goes to 127.0.0.1 only; the run is bounded (``--seconds``, then every game in play is
left where it is) and stops the servers it started.  One JSON line a run: moves a second, p50/p99
of a move's request, the servers' CPU per move (from /proc; on PostgreSQL also the CPU of the
database's backends serving them), lost/doubled/unverified moves.
Each simulated player has its own key,
logs in by signing the server's challenge, and plays as the page does: reads the game
(``GET /api/games/G``), picks a legal option (seeded), signs it over the game's chain and posts
it (``POST /api/games/G/act``).  With several servers, ``--route player`` (the default) gives each
player a process of their own (the two players of a game use different processes); ``--route game``
sends every request about a game to one process, picked by a hash of its name, as a proxy routing
on the game in the address would (docs/server.md, "Running it for a club").
When a game ends its players start another.  Afterwards every game's record is exported and
verified, and each one's actions are matched against the moves the players were told were
taken: none lost, none doubled.  Reports p50 and p99 of a move's request and moves a second.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Http:
    """One keep-alive connection to one server on 127.0.0.1."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.token = ""

    def call(self, method: str, path: str, body=None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = json.dumps(body).encode() if body is not None else None
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                return resp.status, json.loads(resp.read() or b"{}")
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt == 2:
                    raise
        raise AssertionError


def login_message(server: str, challenge: str) -> bytes:
    return b"trvendetta login 1\n%s\n%s" % (server.encode(), challenge.encode())


class Sim:
    def __init__(self, name: str, port: int, seed: int, ports: list[int] | None = None):
        self.name = name
        self.key = Ed25519PrivateKey.from_private_bytes(random.Random(seed).randbytes(32))
        self.public = self.key.public_key().public_bytes_raw().hex()
        self.http = Http(port)
        self.rng = random.Random(seed)
        #: ``--route game``: the servers, a game's requests going to one picked by its name
        self.ports = ports or []
        self._https = {port: self.http}

    def on(self, game: str) -> Http:
        """The connection a request about ``game`` goes through."""
        if not self.ports:
            return self.http
        port = self.ports[zlib.crc32(game.encode()) % len(self.ports)]
        if port not in self._https:
            self._https[port] = Http(port)
            self._https[port].token = self.http.token  # (sessions are the store's: any process knows them)
        return self._https[port]

    def login(self) -> None:
        _, got = self.http.call("GET", "/api/challenge")
        sig = self.key.sign(login_message(got["server"], got["challenge"]))
        status, out = self.http.call("POST", "/api/login", {"name": self.name, "public": self.public,
                                                            "challenge": got["challenge"],
                                                            "signature": base64.b64encode(sig).decode()})
        assert status == 200, out
        self.http.token = out["token"]

    def join(self, game: str) -> None:
        from trvendetta.app.messages import Contribution

        _, offer = self.on(game).call("GET", f"/api/offers/{game}")
        value = self.rng.randbytes(32).hex()
        # signed as `trv --server URL join` signs it: the offer's id and the host's commitment
        body = Contribution("trv-host-join", offer["id"], self.name, value, commit=offer["commit"]).body()
        status, out = self.on(game).call("POST", f"/api/offers/{game}/join",
                                     {"value": value, "signature": base64.b64encode(self.key.sign(body)).decode()})
        assert status == 200, out


def message(domain: str, number: int, previous: str, action: str) -> bytes:
    return b"trvendetta signature 1\n%s\n%d\n%s\n%s" % (domain.encode(), number, previous.encode(), action.encode())


def play_pair(a: Sim, b: Sim, n: int, end: float, results: dict, lock: threading.Lock) -> None:
    """Games between a and b until ``end``; a pair that fails is counted, and fails the run."""
    try:
        _play_pair(a, b, n, end, results, lock)
    except Exception as exc:  # noqa: BLE001 - counted and named: the run then says it failed
        with lock:
            results["errors"].append(f"{a.name}/{b.name}: {type(exc).__name__}: {exc}")


def _play_pair(a: Sim, b: Sim, n: int, end: float, results: dict, lock: threading.Lock) -> None:
    """Games between a and b until ``end``: whoever the game waits on reads, signs and posts."""
    players = {a.name: a, b.name: b}
    while time.monotonic() < end:
        game = f"load-{a.name}-{n}"
        n += 1
        status, out = a.on(game).call("POST", "/api/games", {"players": [f"{a.name}:red:cars", f"{b.name}:blue:cars"],
                                                         "name": game})
        assert status == 200, out
        a.join(game)
        b.join(game)
        taken: list[str] = []
        with lock:
            results["games"][game] = taken
        idle = 0
        while time.monotonic() < end:
            status, doc = a.on(game).call("GET", f"/api/games/{game}")
            if doc.get("over"):
                break
            mover = players[doc["pending"]["player"]]
            status, doc = mover.on(game).call("GET", f"/api/games/{game}")  # through the mover's own server
            if not doc.get("options"):
                idle += 1
                time.sleep(0.01 * min(idle, 10))
                continue
            idle = 0
            option = mover.rng.choice(doc["options"])
            sig = mover.key.sign(message(doc["domain"], doc["version"] + 1, doc["head"], option["action"]))
            t0 = time.perf_counter()
            status, out = mover.on(game).call("POST", f"/api/games/{game}/act",
                                          {"action": option["action"], "version": doc["version"],
                                           "signature": base64.b64encode(sig).decode()})
            took = time.perf_counter() - t0
            with lock:
                results["latency"].append(took)
                results["status"][status] = results["status"].get(status, 0) + 1
            if status == 200:
                taken.append(option["action"])


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), from /proc (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pg_backends(base: str, pids: list[int]) -> set[int]:
    """The PostgreSQL backends serving the processes ``pids`` (Linux, the database on this machine): their
    sockets' local ports matched with ``pg_stat_activity``'s client ports."""
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        inodes.add(link[8:-1])
        except OSError:
            continue
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        rows = conn.execute("SELECT pid, client_port FROM pg_stat_activity WHERE client_port IS NOT NULL").fetchall()
    return {pid for pid, port in rows if port in ports}


def idle_streams(port: int, game: str, n: int) -> list[socket.socket]:
    """``n`` event streams opened and left idle (as pages in background tabs): each reads nothing more."""
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        out.append(s)
    return out


def run(args: argparse.Namespace, python: str, label: str) -> dict:
    """One bounded run of ``args.servers`` server processes (``python -m trvendetta.cli.main serve``),
    ``args.players`` players; the figures."""
    base = os.environ.get("TRV_TEST_POSTGRES", "")
    tmp = Path(tempfile.mkdtemp(prefix="trv-load-"))
    schema = "load_" + uuid.uuid4().hex[:12]
    if args.store == "postgresql":
        url = f"{base}{'&' if '?' in base else '?'}schema={schema}"
    else:
        url = str(tmp / "club.sqlite")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRV_")}
    env.update(TRV_HOME=str(tmp / "club"), NO_COLOR="1")
    trv = [python, "-m", "trvendetta.cli.main"]
    serving = trv
    if args.profile:  # this checkout's bench/server_profile.py wraps the server (run by its path: bench/ on sys.path)
        serving = [python, str(Path(__file__).with_name("server_profile.py")),
                   f"{args.profile}-{label.split()[0]}-{{port}}.prof", "--"]
    # the servers run from the temporary folder: no checkout's trvendetta/ shadows the one installed
    subprocess.run([*trv, "id", "new", "club"], env=env, check=True, capture_output=True, cwd=tmp)
    ports = [free_port() for _ in range(args.servers)]
    # every simulated player signs up from 127.0.0.1: no limit of sign-ups a client (a checkout that has one)
    helped = subprocess.run([*trv, "serve", "--help"], env=env, capture_output=True, text=True, cwd=tmp).stdout
    unlimited = ["--sign-ups", "0"] if "--sign-ups" in helped else []
    procs = []
    try:
        # the first creates the tables; the others then open them
        for i, port in enumerate(ports):
            run_as = [a.format(port=port) for a in serving]
            procs.append(subprocess.Popen([*run_as, "--store", url, "serve", "--id", "club", "--port", str(port),
                                           "--clock", "3600", *unlimited], env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True, cwd=tmp))
            for _ in range(300):
                try:
                    if Http(port).call("GET", "/api/server")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                raise RuntimeError(f"server on port {port} did not start: {procs[-1].stderr.read()}")
        sims = [Sim(f"p{i:02d}", ports[i % len(ports)], i, ports if args.route == "game" else None)
                for i in range(args.players)]
        for s in sims:
            s.login()
        streams: list[socket.socket] = []
        if args.idle_streams:
            status, out = sims[0].http.call("POST", "/api/games", {"players": [f"{sims[0].name}:red:cars",
                                                                               f"{sims[1].name}:blue:cars"],
                                                                   "name": "idle"})
            assert status == 200, out
            for i, port in enumerate(ports):
                streams += idle_streams(port, "idle", args.idle_streams // len(ports)
                                        + (1 if i < args.idle_streams % len(ports) else 0))
        results: dict = {"latency": [], "status": {}, "games": {}, "errors": []}
        lock = threading.Lock()
        start = time.monotonic()
        end = start + args.seconds
        threads = [threading.Thread(target=play_pair, args=(sims[i], sims[i + 1], 0, end, results, lock))
                   for i in range(0, len(sims) - 1, 2)]
        cpu0 = os.times()
        server_cpu0 = sum(cpu_seconds(p.pid) for p in procs)
        backends0 = {b: cpu_seconds(b) for b in pg_backends(base, [p.pid for p in procs])} \
            if args.store == "postgresql" else {}
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.seconds + 120)
        wall = time.monotonic() - start
        server_cpu = sum(cpu_seconds(p.pid) for p in procs) - server_cpu0
        # (a backend that started during the run counts whole; one that ended during it is missed)
        db_cpu = sum(cpu_seconds(b) - backends0.get(b, 0.0) for b in pg_backends(base, [p.pid for p in procs])) \
            if args.store == "postgresql" else 0.0
        client_cpu = sum(os.times()[:2]) - sum(cpu0[:2])
        for s in streams:
            s.close()
        # every game's record, from the last server, verified; its actions matched
        from trvendetta import replays

        lost = doubled = bad = 0
        events = 0
        for game, taken in results["games"].items():
            conn = http.client.HTTPConnection("127.0.0.1", ports[-1], timeout=60)
            conn.request("GET", f"/api/games/{game}/record")
            record = conn.getresponse().read()
            conn.close()
            try:
                verified = replays.verify_file(replays.read_file(record, game))
                events += verified.events
            except Exception as exc:  # noqa: BLE001 - counted and named below
                bad += 1
                print(f"{game}: does not verify: {exc}", file=sys.stderr)
                continue
            # each accepted move is one record its player signed (an action, or the intent of one
            # that needs dice; the host signs the resolution): as many as the players were told
            signed = sum(1 for line in record.decode().splitlines() if line.startswith("+ p"))
            lost += max(0, len(taken) - signed)
            doubled += max(0, signed - len(taken))
        lat = sorted(results["latency"])
        moves = results["status"].get(200, 0)
        q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0] * 99
        return {
            "run": label, "store": args.store, "servers": args.servers, "players": args.players,
            "idle_streams": len(streams), "games": len(results["games"]), "seconds": round(wall, 1),
            "moves": moves, "moves_per_s": round(moves / wall, 1),
            "p50_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
            "p99_ms": round(q[98] * 1000, 1), "max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "server_cpu_ms_per_move": round(server_cpu / moves * 1000, 2) if moves else None,
            "db_cpu_ms_per_move": round(db_cpu / moves * 1000, 2) if moves and args.store == "postgresql" else None,
            "route": args.route,
            "statuses": results["status"], "events": events, "unverified": bad, "lost": lost, "doubled": doubled,
            "client_cpu_s": round(client_cpu, 1), "failed_pairs": len(results["errors"]),
            "errors": results["errors"][:5],
        }
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        if args.store == "postgresql":
            try:
                import psycopg

                with psycopg.connect(base, autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            except Exception:  # noqa: BLE001
                pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite",
                    help="An SQLite file, or a fresh schema in $TRV_TEST_POSTGRES.")
    ap.add_argument("--servers", type=int, default=1, help="Server processes on the one store.")
    ap.add_argument("--route", choices=("player", "game"), default="player",
                    help="With several servers: each player on a process of their own (a game's two players on "
                         "two), or each game on one process (a hash of its name), as a proxy routing on the game "
                         "in the address does.")
    ap.add_argument("--idle-streams", type=int, default=0, help="Event streams held open, idle, during the run.")
    ap.add_argument("--compare", metavar="PYTHON", action="append", default=[],
                    help="Also run the servers with this interpreter (another checkout's venv: the previous main's), "
                         "before this one's; repeat for more.")
    ap.add_argument("--repeat", type=int, default=1, help="Runs of each (interleaved), for the spread.")
    ap.add_argument("--profile", metavar="PREFIX", default="",
                    help="Run each server under cProfile in every thread (bench.server_profile): PREFIX-RUN-PORT.prof "
                         "(the profiler slows the server: its figures say where the time goes, not how much).")
    args = ap.parse_args(argv)
    if args.store == "postgresql" and not os.environ.get("TRV_TEST_POSTGRES"):
        print("set $TRV_TEST_POSTGRES (postgresql://USER@127.0.0.1:5432/DB) for --store postgresql", file=sys.stderr)
        return 2
    pythons = [(p, f"compare {p}") for p in args.compare] + [(sys.executable, "this checkout")]
    failed = False
    for _ in range(args.repeat):
        for python, label in pythons:
            try:
                out = run(args, python, label)
            except Exception as exc:  # noqa: BLE001 - a run that crashed says so, and the exit says it failed
                print(json.dumps({"run": label, "failed": f"{type(exc).__name__}: {exc}"}), flush=True)
                failed = True
                continue
            print(json.dumps(out), flush=True)
            if out["failed_pairs"] or not out["moves"]:
                print(f"{label}: the run FAILED ({out['failed_pairs']} of its player pairs stopped, {out['moves']} "
                      f"moves); its figures are no measurement", file=sys.stderr)
            failed = failed or bool(out["unverified"] or out["lost"] or out["doubled"] or out["failed_pairs"]
                                    or not out["moves"])
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
