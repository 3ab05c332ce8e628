"""Writers wait for each other instead of failing with "database is locked" (issue 17).

SQLite gives up at once, whatever the busy timeout, in two cases the store
used to meet: a transaction that read and then writes after another process
committed (its read snapshot is stale: it cannot be upgraded), and switching
a new file to WAL mode while other processes open it too.  So every write
transaction writes first, and a new file is put in WAL mode, with retries,
before the library opens it.
"""

import multiprocessing
import re
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import toy_ruleset  # noqa: E402

from trvendetta.store import GameStore, Retraction  # noqa: E402
from trvendetta.store import store as store_module  # noqa: E402

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.I)


@pytest.fixture
def traced(monkeypatch):
    """Every SQL statement run on a connection opened from here on, per connection."""
    statements: dict[int, list[str]] = {}
    connect = sqlite3.connect

    def tracing(*args, **kwargs):
        con = connect(*args, **kwargs)
        log = statements.setdefault(id(con), [])
        con.set_trace_callback(log.append)
        return con

    monkeypatch.setattr(sqlite3, "connect", tracing)
    return statements


def _transactions(statements: list[str]) -> list[list[str]]:
    out, current = [], None
    for s in statements:
        word = s.strip().split()[0].upper()
        if word == "BEGIN":
            current = []
        elif word in ("COMMIT", "ROLLBACK") and current is not None:
            out.append(current)
            current = None
        elif current is not None:
            current.append(s)
    return out


def _play(store, name):
    toy = toy_ruleset.RULESET
    state, events = toy.new_game(toy.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 3))
    loaded = store.create_game(name, "toy", events)
    for _ in range(6):
        action = toy.legal_actions(loaded.state)[0]
        _, new = toy.apply(loaded.state, action)
        loaded = store.append(name, loaded.version, steps=[(action, new)])
    return loaded


def test_every_write_transaction_writes_first(traced, tmp_path):
    with GameStore(tmp_path / "trv.sqlite", snapshot_interval=4) as store:
        loaded = _play(store, "a")
        _play(store, "b")
        store.touch("a")  # a is not the latest: its row is stamped
        store.touch("a")  # it is: nothing changes
        store.retract("a", loaded.version, Retraction(loaded.version, loaded.version, "ann"))
        store.rebuild_index()
    writes = [t for log in traced.values() for t in _transactions(log) if any(WRITE.match(s) for s in t)]
    assert len(writes) >= 10
    read_first = [t[:2] for t in writes if not WRITE.match(t[0])]
    assert read_first == [], read_first


def test_a_new_store_file_is_in_wal_mode_before_the_library_opens_it(traced, tmp_path):
    path = tmp_path / "new.sqlite"
    with GameStore(path):
        pass
    switches = [s for log in traced.values() for s in log if s.replace(" ", "").upper().startswith("PRAGMAJOURNAL_MODE=WAL")]
    # only ours (retried on "locked"); the library's own switch ("...=WAL;") never ran: it found the file in WAL mode
    assert switches == ["PRAGMA journal_mode=WAL"], switches
    assert path.read_bytes()[18:20] == b"\x02\x02"


def _open_new_store(path: str, n: int, prepare: bool, results) -> None:
    """What every process does first with a store: open it as the library does
    (it switches a file not in WAL mode), make the tables, write."""
    from eventsourcing.sqlite import SQLiteDatastore

    try:
        if prepare:
            store_module._prepare_sqlite(Path(path), 10)
        datastore = SQLiteDatastore(path, lock_timeout=10)
        with datastore.transaction(commit=True) as c:
            c.execute("CREATE TABLE IF NOT EXISTS t (n INTEGER PRIMARY KEY)")
        with datastore.transaction(commit=True) as c:
            c.execute("INSERT INTO t VALUES (?)", [n])
        datastore.close()
        results.put("ok")
    except Exception as exc:  # noqa: BLE001 - the failure is the result
        results.put(f"{type(exc).__name__}: {exc}")


def race(tmp_path, rounds: int, prepare: bool) -> list[str]:
    """``rounds`` times, 16 processes open the same new store file at once; their failures."""
    ctx = multiprocessing.get_context("fork")
    failures = []
    for round_ in range(rounds):
        path = str(tmp_path / f"r{round_}-{prepare}.sqlite")
        results = ctx.Queue()
        procs = [ctx.Process(target=_open_new_store, args=(path, n, prepare, results)) for n in range(16)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        failures += [r for r in (results.get() for _ in procs) if r != "ok"]
    return failures


@pytest.mark.slow
def test_sixteen_processes_opening_a_new_store_at_once_never_fail(tmp_path):
    """Without ``_prepare_sqlite`` about 1 process in 600 failed here with
    "database is locked" at the library's switch to WAL (``race(..., False)``)."""
    assert race(tmp_path, 150, prepare=True) == []


def test_prepare_leaves_a_store_already_in_wal_mode_unopened(tmp_path, traced):
    path = tmp_path / "trv.sqlite"
    with GameStore(path):
        pass
    traced.clear()
    store_module._prepare_sqlite(path, 1)
    assert traced == {}  # only its header was read
