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


def test_quick_steps_aside_for_unknown_games_and_folds_retractions_as_the_store_does(toy, db, tmp_path):
    assert QuickReader.open(tmp_path / "none.sqlite") is None
    with GameStore(db, snapshot_interval=4) as s:
        new(s, toy)
        game = play(s, toy, "g", 3)
        last = game.version
        s.retract("g", last, Retraction(last, last, "ann", True))
        before = s.load("g", at=last - 1).state
    with QuickReader.open(db) as q:
        assert q.load("nope") is None
        assert q.latest() == "g"
    # the same reader and the same fold of retractions: the retracted event is not in the state
    assert same(db, "g").state == before


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


def test_trv_show_of_a_vendetta_game_imports_only_what_it_needs(tmp_path):
    """No eventsourcing, no data-file reading (tomllib, importlib.resources),
    no OpenSSL (hashlib) on the read path: the game is read from the games
    index's copy and the records after it, each checked against its hash
    with the interpreter's own sha256, not re-made."""
    from trvendetta import rulesets
    from trvendetta.bots import new_position

    db = tmp_path / "v.sqlite"
    rs = rulesets.get("vendetta")
    state, first = rs.new_game(new_position(rs, 2, 4))
    with GameStore(db) as s:
        version = s.create_game("duel", "vendetta", first).version
        for _ in range(3):  # records after the index's copy (made after the first command): show checks them
            action = rs.legal_actions(state)[0]
            state, events = rs.apply(state, action)
            version = s.append("duel", version, steps=[(action, events)], state=state).version
        assert s.info("duel").version == version > len(first)
    code = (
        "import sys\nfrom trvendetta.cli.main import cli\n"
        "try:\n    cli(['--db', sys.argv[1], 'show'], prog_name='trv')\n"
        "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('eventsourcing', 'tomllib', "
        "'psycopg', 'hashlib', '_hashlib') or m.startswith('importlib.resources')))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "NO_COLOR": "1"}).stdout
    assert out.strip().splitlines()[-1] == "[]", out


def test_the_light_game_key_is_the_game_uuid():
    from uuid import NAMESPACE_URL, uuid5

    from trvendetta.store.records import game_key, game_uuid

    namespace = uuid5(NAMESPACE_URL, "https://trvendetta/games/")
    for name in ("duel", "x", "sim-vendetta-4p-12", "ünïcode ♞", ""):
        assert game_key(name) == uuid5(namespace, name).hex
        assert game_uuid(name) == uuid5(namespace, name)


def test_the_short_reads_sha256_is_openssls():
    import hashlib

    from trvendetta.store.records import sha256_for

    for count in (1, 256, 257, 100_000):
        for data in (b"", b"x", bytes(range(256)) * 9):
            assert sha256_for(count)(data).digest() == hashlib.sha256(data).digest()
    assert sha256_for(1) is not sha256_for(257)  # the short read's is the interpreter's own
