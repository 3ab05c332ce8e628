"""Bytes per packet of host games through `trv` (docs/fair-play.md, host mode): the host and each
player with their own home and store, random decisions each mailed as its own armoured `trv send`
packet, the host's replies mailed on.  Secrets come from a counter (as in the fair-play tests), so
each run of a seed plays the same game.

    python -m bench.host_packets [--decisions 40] [--seeds 1 2 3] [--players 2 3]

Prints, per player count, the median (min-max over the seeds) of the bytes of a packet, of a
packet's header (everything before its events) and of the whole game's mail."""

from __future__ import annotations

import argparse
import hashlib
import itertools
import random
import statistics
import tempfile
from pathlib import Path

from click.testing import CliRunner


def _seeded() -> None:
    from trvendetta.cli import entropy

    counter = itertools.count()

    def random_bytes(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(b"bench host packets %d" % next(counter)).digest()
        return out[:n]

    entropy.random_bytes = random_bytes


class Party:
    def __init__(self, root: Path, name: str):
        from trvendetta.cli.main import cli

        self.cli, self.name, self.db, self.home = cli, name, root / f"{name}.sqlite", root / f"home-{name}"
        self.runner = CliRunner()

    def __call__(self, *args: object) -> str:
        env = {"TRV_GAME": None, "TRV_DB": None, "TRV_AS": None, "NO_COLOR": "1", "TRV_HOME": str(self.home)}
        result = self.runner.invoke(self.cli, ["--db", str(self.db), *map(str, args)], env=env, catch_exceptions=False)
        if result.exit_code:
            raise RuntimeError(f"{self.name} {args}: {result.stdout}{result.stderr}")
        return result.stdout


def one_game(seed: int, players: int, decisions: int) -> list[tuple[int, int]]:
    """(packet bytes, header bytes) of every packet mailed in one game."""
    _seeded()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        names = ["ann", "bob", "cyd"][:players]
        org, humans = Party(root, "org"), [Party(root, n) for n in names]
        for p in (org, *humans):
            p("id", "new", p.name)
            (root / f"{p.name}.pub").write_text(p("id", "show", p.name))
        args = ["host", "offer", "--name", "cup", "-o", root / "offer.json"]
        for p, colour in zip(humans, ["red", "blue", "green"]):
            args += ["--player", f"{p.name}:{colour}", "--key", f"{p.name}={root / (p.name + '.pub')}"]
        org(*args)
        joins = []
        for p in humans:
            p("host", "join", root / "offer.json", "-o", root / f"{p.name}.json")
            joins += ["--join", root / f"{p.name}.json"]
        org("host", "new", root / "offer.json", *joins)
        sizes: list[tuple[int, int]] = []
        stores = [org, *humans]
        n = itertools.count()

        def mail(packet: Path, sender: Party) -> None:
            sizes.append((len(packet.read_bytes()), 0))
            queue = [(packet, sender)]
            while queue:
                packet, sender = queue.pop(0)
                for p in stores:
                    if p is not sender:
                        reply = root / f"reply-{next(n)}.trv"
                        if "wrote the reply packet" in p("import", packet, "--reply", reply):
                            sizes.append((len(reply.read_bytes()), 0))
                            queue.append((reply, p))

        first = root / f"p{next(n)}.trv"
        org("send", "-o", first)
        mail(first, org)
        by_name = {p.name: p for p in humans}
        chooser = random.Random(seed)
        for _ in range(decisions):
            legal = org("legal").splitlines()
            if legal[0].startswith("the game is over"):
                break
            p = by_name[legal[0].split(":")[0]]
            p("decide", chooser.choice(legal[1:]).strip())
            packet = root / f"p{next(n)}.trv"
            p("send", "-o", packet)
            mail(packet, p)
        head = len(org("export", "cup").split("% events")[0].encode())  # the header a packet carries too
        return [(size, head) for size, _ in sizes]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    args = parser.parse_args()
    for players in args.players:
        per_game, heads, totals = [], [], []
        for seed in args.seeds:
            sizes = one_game(seed, players, args.decisions)
            per_game.append(statistics.median(s for s, _ in sizes))
            heads.append(sizes[-1][1])
            totals.append(sum(s for s, _ in sizes))
        def spread(xs: list) -> str:
            return f"{statistics.median(xs):,.0f} ({min(xs):,.0f}-{max(xs):,.0f})"
        print(f"{players} players: bytes a packet, armoured {spread(per_game)}; a record's header (a plain packet's is alike) "
              f"{spread(heads)}; the game's mail {spread(totals)}")


if __name__ == "__main__":
    main()
