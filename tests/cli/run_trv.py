"""Run `trv` in a real process, with an optional fault injected (tests only).

    python tests/cli/run_trv.py [trv args...]

$TRV_TEST_FAULT:
  pause-before-append  print READY to stderr once the game is loaded and the
                       events are decided, then wait for a line on stdin
  kill-in-insert       SIGKILL this process inside the save transaction,
                       after the rows are inserted and before the commit
                       (SQLite: after the index row too)
  kill-after-save      SIGKILL right after the commit (events, index row and
                       snapshots are written in it), before the command
                       prints anything
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
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    def killing(original_insert):
        def insert(self, cursor, stored_events, **kwargs):
            original_insert(self, cursor, stored_events, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)

        return insert

    # the commands' table: on SQLite inside its transaction, its rows written, before the commit
    SQLiteAggregateRecorder._insert_events = killing(SQLiteAggregateRecorder._insert_events)
    if "postgresql://" in " ".join(sys.argv):
        from eventsourcing.postgres import PostgresAggregateRecorder

        def killed(self, cursor, stored_events, **kwargs):
            # on PostgreSQL the insert is one statement, autocommitted (all its rows or none, by the
            # server): the process can die before it is sent or after it is done
            os.kill(os.getpid(), signal.SIGKILL)

        PostgresAggregateRecorder._insert_stored_events = killed

elif fault == "kill-after-save":

    def after_save(self, *args, **kwargs):  # the events committed; its snapshot and index row not written
        os.kill(os.getpid(), signal.SIGKILL)

    trvendetta.store.store.GameStore._snapshot = after_save

elif fault:
    raise SystemExit(f"unknown TRV_TEST_FAULT {fault!r}")

main()
