"""event_store.quick: the read-only fast path gives exactly what GameStore.load gives (or steps aside)."""

import subprocess
import sys
from pathlib import Path

from trvendetta.store import GameStore, Retraction
from trvendetta.store.quick import QuickReader
from test_store import new, play

ROOT = Path(__file__).resolve().parents[2]


def same(db, name):
    with GameStore(db) as s:
        full = s.load(name)
    with QuickReader.open(db) as q:
        quick = q.load(name)
    assert quick is not None
    assert quick == full._replace(bots=full.bots or {})
    return quick


def test_quick_equals_the_store_with_and_without_snapshots(toy, db):
    with GameStore(db, snapshot_interval=7) as s:
        new(s, toy, "short")
        new(s, toy, "long", seed=3)
        play(s, toy, "long", 40)
    same(db, "short")
    loaded = same(db, "long")
    assert loaded.version > 7  # past at least one snapshot


def test_quick_steps_aside_for_unknown_games_and_retractions(toy, db, tmp_path):
    assert QuickReader.open(tmp_path / "none.sqlite") is None
    with GameStore(db, snapshot_interval=1000) as s:
        new(s, toy)
        game = play(s, toy, "g", 3)
        last = game.version
        s.retract("g", last, Retraction(last, last, "ann", True))
    with QuickReader.open(db) as q:
        assert q.load("nope") is None
        assert q.load("g") is None  # a retraction: GameStore refolds the live events
        assert q.latest() == "g"


def test_trv_show_does_not_import_eventsourcing(toy, db):
    with GameStore(db) as s:
        new(s, toy)
    code = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import toy_ruleset; toy_ruleset.register()\n"
        "from trvendetta.cli.main import cli\n"
        "try:\n    cli(['--db', sys.argv[3], 'show'], prog_name='trv')\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('eventsourcing', 'sqlite_utils', 'trvendetta.replays', "
        "'trvendetta.bots'))))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(ROOT), str(ROOT / "tests" / "store"), str(db)],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]", out
