"""The ledger of a secret is safe across processes (app/ledger.py): two processes revealing the
same draws at once, each for its own intent (a player's two stores racing), never both pass for
one draw; the second meets the first's line and is refused, and kept as evidence."""

import json
import subprocess
import sys
import time

WORKER = r"""
import json, sys, time
from pathlib import Path
from trvendetta.app.ledger import IntentRef, Ledger, OneReveal, claim
folder, who, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
while not go.exists():
    time.sleep(0.001)
won = []
for draw in range(2, 42):
    ref = IntentRef("duel", "a" * 64, draw, "ann", draw, (who * 64)[:64], "0" * 64, '{"type":"pass"}', "", who)
    try:
        claim(Ledger(folder), "c" * 64, "bob", ref)
        won.append(draw)
    except OneReveal:
        pass
print(json.dumps(won))
"""


def test_two_processes_revealing_the_same_draws_never_both_pass(tmp_path):
    go = tmp_path / "go"
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / "secrets"), who, str(go)],
                                stdout=subprocess.PIPE, text=True) for who in ("d", "e")]
    time.sleep(0.5)  # both started (interpreter up, imports done) and waiting
    go.touch()
    won = [set(json.loads(w.communicate(timeout=120)[0])) for w in workers]
    assert all(w.returncode == 0 for w in workers)
    assert not won[0] & won[1]  # no draw revealed for both intents
    assert won[0] | won[1] == set(range(2, 42))  # and each for one
    lines = [json.loads(line) for line in (tmp_path / "secrets" / f"{'c' * 64}.ledger").read_text().splitlines()]
    kept = [e for e in lines if "draw" in e and not e.get("refused")]
    assert sorted(e["draw"] for e in kept) == list(range(2, 42))
    assert len([e for e in lines if e.get("refused")]) == 40  # every loser's intent is evidence
