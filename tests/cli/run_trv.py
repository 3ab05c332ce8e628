"""Run `trv` in a real process, with an optional fault injected (tests only).

    python tests/cli/run_trv.py [trv args...]

$TRV_TEST_FAULT:
  pause-before-append  print READY to stderr once the game is loaded and the
                       events are decided, then wait for a line on stdin
  kill-in-insert       SIGKILL this process inside the command's transaction,
                       its rows and its index row written, before the commit
                       (on SQLite and PostgreSQL alike)
  kill-after-save      SIGKILL right after the commit (rows, index row and
                       any snapshot), before the command prints anything
"""

import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent / "store")]

import toy_ruleset  # noqa: E402

import trvendetta.store.store  # noqa: E402
from trvendetta.cli.main import main  # noqa: E402

toy_ruleset.register()
fault = os.environ.get("TRV_TEST_FAULT", "")

if fault == "pause-before-append":
    original = trvendetta.store.store.GameStore.append

    def append(self, *args, **kwargs):
        sys.stderr.write("READY\n")
        sys.stderr.flush()
        sys.stdin.readline()
        return original(self, *args, **kwargs)

    trvendetta.store.store.GameStore.append = append

elif fault == "kill-in-insert":
    from trvendetta.store.index import GameIndex

    put = GameIndex.put

    def killing_put(self, row, **kwargs):
        put(self, row, **kwargs)
        if kwargs.get("cursor") is not None:  # in the command's transaction: its rows and this one written
            os.kill(os.getpid(), signal.SIGKILL)

    GameIndex.put = killing_put

elif fault == "kill-after-save":
    write = trvendetta.store.store.GameStore._write

    def after_save(self, *args, **kwargs):  # the command committed (rows, index row, any snapshot)
        write(self, *args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)

    trvendetta.store.store.GameStore._write = after_save

elif fault:
    raise SystemExit(f"unknown TRV_TEST_FAULT {fault!r}")

main()
