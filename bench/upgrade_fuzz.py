"""Random bit flips over old stores, each upgraded with ``trv store upgrade``: what the upgrade did.

``python -m bench.upgrade_fuzz [--flips 150] [--seed 150] [FIXTURE ...]``

Each fixture of ``tests/store/fixtures`` (by default four: the first layout, chunks, mark 6 and layout 2)
gets ``--flips`` copies, each with one bit flipped at a random place past the file's header, and each copy
is upgraded in a folder of its own.  An outcome is one of: exit 0 with every game whole (the events and
head main read, ``FIXTURE.json``), exit 1 with the damage named and nothing written, exit 0 with a game
not whole (a lost record: must be 0), or a traceback (must be 0).  Also counted: which accounts named the
damage (a run can name several).  Not a timed figure; docs/store.md, "Older stores", quotes the counts.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections import Counter
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "store" / "fixtures"
DEFAULT = ["main-98de825", "main-582d785-chunks", "main-c748638-mark6", "main-55e2233-layout2"]
#: the start of each kind of line the upgrade names damage with
KINDS = {"the old store's file fails SQLite's integrity check": "integrity check",
         "the table holds rows": "index hides rows", "the games index": "games index",
         "its records cannot be read whole": "records unreadable", "a snapshot": "snapshot after the end",
         "belong to no game": "rows of no game", "the header row": "header row", "its rows cannot be read": "index",
         "the old store cannot be read": "file unreadable", "tournament": "tournament"}


def main(argv: list[str] | None = None) -> int:
    from click.testing import CliRunner

    from trvendetta.cli.main import cli
    from trvendetta.store import GameStore

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flips", type=int, default=150)
    parser.add_argument("--seed", type=int, default=150)
    parser.add_argument("fixtures", nargs="*", default=DEFAULT)
    args = parser.parse_args(argv)
    outcomes, kinds, bad = Counter(), Counter(), []
    env = {"TRV_STORE": None, "TRV_DB": None, "TRV_GAME": None}
    for name in args.fixtures:
        fixture = FIXTURES / f"{name}.sqlite"
        said = {g: (v["version"], v["head"]) for g, v in json.loads(fixture.with_suffix(".json").read_text()).items()}
        data, rng = fixture.read_bytes(), random.Random(args.seed)
        for _ in range(args.flips):
            position, bit = rng.randrange(100, len(data)), 1 << rng.randrange(8)
            with tempfile.TemporaryDirectory() as tmp:
                old = Path(tmp) / "old.sqlite"
                flipped = bytearray(data)
                flipped[position] ^= bit
                old.write_bytes(bytes(flipped))
                result = CliRunner().invoke(cli, ["--db", str(old), "store", "upgrade"], env=env)
                if result.exception is not None and not isinstance(result.exception, SystemExit):
                    outcomes["traceback"] += 1
                    bad.append(f"{name} byte {position} bit {bit}: {result.exception!r}"[:200])
                elif result.exit_code == 0:
                    with GameStore(Path(tmp) / "old.v3.sqlite") as s:
                        whole = {g.id: (g.version, g.head) for g in s.list_games()} == said
                    outcomes["exit 0, every game whole" if whole else "exit 0, a game NOT whole"] += 1
                    if not whole:
                        bad.append(f"{name} byte {position} bit {bit}: a game not whole")
                else:
                    outcomes[f"exit {result.exit_code}, damage named, nothing written"] += 1
                    lines = result.stderr.splitlines()[:-1]
                    kinds.update({kind for line in lines for start, kind in KINDS.items()
                                  if line.startswith(start) or line.split(": ", 1)[-1].startswith(start)})
    print(f"{args.flips} flips in each of {len(args.fixtures)} fixtures ({', '.join(args.fixtures)}):")
    for outcome, count in sorted(outcomes.items()):
        print(f"  {outcome}: {count}")
    print("  named by: " + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()))
    for line in bad[:20]:
        print("  BAD " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
