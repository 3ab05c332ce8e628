"""Under load and on odd storage (issue 17): reads never write, so they never
fail on a lock; default names never collide; refused writes leave nothing."""

import sqlite3
import subprocess
import sys
from pathlib import Path

from .helpers import play_random, rows

RUN_TRV = str(Path(__file__).resolve().parents[1] / "cli" / "run_trv.py")


def test_reads_work_while_another_process_holds_the_write_lock(trv, tmp_path):
    play_random(trv.db, "g", seed=3, actions=10)
    play_random(trv.db, "h", seed=4, actions=5)  # h is the current game; reading g must not switch to it
    writer = sqlite3.connect(trv.db, timeout=0, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process in the middle of a save
    try:
        before = rows(trv.db, "SELECT id, last_used FROM trv_games ORDER BY id")
        for args in (["show"], ["show", "--json"], ["legal"], ["log"], ["log", "--all"], ["games"],
                     ["verify", "g"], ["export", "g"], ["replay", "g", "--to", "3"]):
            trv("--game", "g", *args)
        assert rows(trv.db, "SELECT id, last_used FROM trv_games ORDER BY id") == before  # nothing written
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_looking_at_a_game_does_not_make_it_current(trv):
    play_random(trv.db, "g", seed=3, actions=3)
    play_random(trv.db, "h", seed=4, actions=3)
    trv("show", "--game", "g")
    assert trv("show", "--json").stdout.count('"game": "h"') == 1


def test_sixteen_processes_creating_games_without_a_name_never_collide(tmp_path):
    db = tmp_path / "trv.sqlite"
    subprocess.run([sys.executable, RUN_TRV, "--db", str(db), "games"], check=True, capture_output=True)
    procs = [subprocess.Popen([sys.executable, RUN_TRV, "--db", str(db), "new", "--player", "ann:red",
                               "--player", "bob:blue", "--seed", str(i)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(16)]
    names = []
    for proc in procs:
        out, err = proc.communicate()
        assert proc.returncode == 0, err
        names.append(out.splitlines()[0])
    assert len(set(names)) == 16 and all(n.startswith("vendetta-") for n in names)
    assert len(rows(db, "SELECT id FROM trv_games")) == 16
