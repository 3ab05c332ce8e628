"""The ledger of a secret is safe across processes (app/ledger.py): two processes revealing the
same draws at once, each for its own intent (a player's two stores racing), never both pass for
one draw; the second meets the first's line and is refused, and kept as evidence.

No sleeping: each worker says READY on stdout once its imports are done, then waits for a line
on stdin; the parent releases both once it has read both READYs (as tests/cli/test_cli_processes.py)."""

import json
import subprocess
import sys

WORKER = r"""
import json, sys
from pathlib import Path
from trvendetta.app.ledger import IntentRef, Ledger, OneReveal, claim
folder, who = Path(sys.argv[1]), sys.argv[2]
print("READY", flush=True)
sys.stdin.readline()  # released by the parent
won = []
for draw in range(2, 102):
    ref = IntentRef("duel", "a" * 64, draw, "ann", draw, (who * 64)[:64], "0" * 64, '{"type":"pass"}', "", who)
    try:
        claim(Ledger(folder), "c" * 64, "bob", ref)
        won.append(draw)
    except OneReveal:
        pass
print(json.dumps(won))
"""


def test_two_processes_revealing_the_same_draws_never_both_pass(tmp_path):
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / "secrets"), who],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for who in ("d", "e")]
    assert [w.stdout.readline() for w in workers] == ["READY\n", "READY\n"]  # both up, imports done
    for w in workers:  # released together
        w.stdin.write("go\n")
        w.stdin.flush()
    won = [set(json.loads(w.communicate(timeout=120)[0])) for w in workers]
    assert all(w.returncode == 0 for w in workers)
    assert not won[0] & won[1]  # no draw revealed for both intents
    assert won[0] | won[1] == set(range(2, 102))  # and each for one
    lines = [json.loads(line) for line in (tmp_path / "secrets" / f"{'c' * 64}.ledger").read_text().splitlines()]
    kept = [e for e in lines if "draw" in e and not e.get("refused")]
    assert sorted(e["draw"] for e in kept) == list(range(2, 102))
    assert len([e for e in lines if e.get("refused")]) == 100  # every loser's intent is evidence
