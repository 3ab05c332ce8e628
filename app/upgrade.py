"""``trv store upgrade``: copy an older store's games and tournaments into a new store of the current
layout, never losing a record (docs/store.md, "Older stores").

1. **Every account of every game is compared before anything is written** (:func:`_check`).  A game is
   read as the older layout's reader reads it (its rows through the table's index, each record checked
   against the hash chain from the genesis), and that read must agree with the other accounts of it: the
   rows the table holds when scanned without its index (a damaged index hides rows from a read), the
   games index's row (its event count and head: a cut-off tail leaves it naming more), and the
   snapshots (none after the last event read).  Rows under an id no game or tournament names (a damaged
   header row), a header row that does not read, and a file that fails SQLite's integrity check are
   named too.  Anything that disagrees or cannot be read is a line naming the game, and the upgrade
   stops before it writes anything (:class:`UpgradeRefused`, exit 1); ``leave_out`` names games the
   user chooses not to bring over.
2. **The target appears only when complete** (:class:`_Target`).  An SQLite target is written as
   ``NAME.upgrading`` beside it, locked (``flock``) while it is written, and linked to its name only once
   every game and tournament in it was read back and compared with its source; a PostgreSQL target is
   written in a schema of its own (``NAME_upgrading``) renamed to ``NAME`` in one transaction at the end.
   An interrupted run leaves only the temporary one, which the next run removes and starts again from
   the beginning ("starting clean").  A target that already exists is left as it is: when it holds exactly
   the source's games and tournaments at the same heads (an upgrade done before), the run says so and
   succeeds; otherwise it is refused.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, NamedTuple

from trvendetta.core.errors import TrvError
from trvendetta.store import GameStore, location
from trvendetta.store.errors import StoreError

from .stores import Copied, SameStore, _copy_tournament, copy_game

#: what the temporary target's name adds (an SQLite file's name, a PostgreSQL schema's)
PENDING = "upgrading"
#: SQLite's application id an upgrade's temporary file carries ("TRVU"): a later run removes only such a file
MARK = 0x54525655
#: the comment on an upgrade's temporary PostgreSQL schema: a later run drops only a schema that carries it
SCHEMA_MARK = "trv store upgrade: temporary, dropped by the next run"


def _marked(fd: int) -> bool:
    """Whether the file open as ``fd`` is an SQLite file that carries :data:`MARK`."""
    head = os.pread(fd, 72, 0)
    return head[:16] == b"SQLite format 3\x00" and int.from_bytes(head[68:72], "big") == MARK


class UpgradeRefused(StoreError):
    """The older store cannot be upgraded whole: ``problems`` has a line for each game (or row) that
    cannot be read whole or disagrees with another account of it; nothing was written."""

    def __init__(self, problems: Sequence[str], summary: str):
        self.problems = list(problems)
        super().__init__(summary)


class _Game(NamedTuple):
    """A source game as its accounts agree it is: ``events`` records ending at ``head``; ``times``: when it
    was created and last used, as the old store's games index says (None: it says nothing that reads)."""

    name: str
    events: int
    head: str
    times: tuple[str, str] | None = None


def _times(row: dict) -> tuple[str, str] | None:
    """A games-index row's (created, last used), in the current index's form; None when either is not a
    time (a damaged or missing value: the new store's own time of the upgrade stands)."""
    from datetime import datetime, timezone

    try:
        created, used = (datetime.fromisoformat(str(row[k])) for k in ("created", "last_used"))
    except (KeyError, ValueError):
        return None
    if created.tzinfo is None or used.tzinfo is None:
        return None
    return tuple(t.astimezone(timezone.utc).isoformat(timespec="microseconds") for t in (created, used))  # type: ignore[return-value]


def upgrade_target(source: str) -> str:
    """Where ``trv store upgrade`` writes by default: beside an SQLite file (``x.sqlite`` ->
    ``x.v3.sqlite``: the layout's number), or a PostgreSQL schema of its own (``NAME`` -> ``NAME_v3``)."""
    from trvendetta.store.store import LAYOUT

    where = location.parse(source)
    if where.kind == "sqlite":
        path = Path(where.target).expanduser()
        return str(path.with_name(f"{path.stem}.v{LAYOUT}{path.suffix or '.sqlite'}"))
    if where.kind == "postgresql":
        schema = location.postgres_env(where.target)["POSTGRES_SCHEMA"] + f"_v{LAYOUT}"
        if len(schema) > 63:
            raise StoreError(f"the new store's schema would be {schema}, longer than PostgreSQL's 63 characters: "
                             "name the target with --to URL?schema=NAME")
        return _with_schema(where.target, schema)
    raise StoreError("an in-memory store has nothing to upgrade")


def _with_schema(url: str, schema: str) -> str:
    base, _, query = url.partition("?")
    params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
    params["schema"] = schema
    return base + "?" + "&".join(f"{k}={v}" for k, v in params.items())


def upgrade_store(source: str, target: str, leave_out: Sequence[str] = (),
                  warn: Callable[[str], None] | None = None) -> Iterator[Copied]:
    """Copy every game (but ``leave_out``) and tournament of the older store at ``source`` into a new
    store of the current layout at ``target``, one :class:`Copied` a game as the result is iterated
    (``done`` "copied", or "already there" when ``target`` is this upgrade done before).  ``source``
    is left as it is: an SQLite file is read from a copy taken with SQLite's backup API, a PostgreSQL
    schema only read.  Raises :class:`SameStore` or StoreError at once (the source of the current
    layout), :class:`UpgradeRefused` before anything is written (see the module's docstring).  ``warn``
    is told of damage to the old file that no game's accounts show (``PRAGMA integrity_check``): with
    every game whole by all of them, the upgrade goes on, and its new file is without it; without
    ``warn`` such damage refuses the upgrade too."""
    from trvendetta.store.store import OldStore

    if location.parse(source) == location.parse(target):
        raise SameStore("the source and the target are the same store")
    where = location.parse(source)
    if where.kind == "sqlite" and not Path(where.target).expanduser().is_file():
        raise StoreError(f"no store at {where} to upgrade (give the old store with --db or --store)")
    try:
        GameStore(source).close()
    except OldStore:
        pass
    else:
        raise StoreError(f"the store {location.parse(source)} is already in the current layout: nothing to upgrade")
    return _upgrade(source, target, list(leave_out), warn)


def _upgrade(source: str, target: str, leave_out: list[str], warn: Callable[[str], None] | None) -> Iterator[Copied]:
    from trvendetta.store.legacy.layout2 import Layout2Store, is_layout2
    from trvendetta.store.legacy.store import GameStore as LegacyStore
    from trvendetta.store.tournament import TournamentLog

    where = location.parse(source)
    _remove_leftovers()
    with tempfile.TemporaryDirectory(prefix=TEMP_PREFIX) as tmp, ExitStack() as stack:
        read_from = source
        if where.kind == "sqlite":
            _hold(stack, Path(tmp))
            read_from = str(Path(tmp) / "old.sqlite")
            _backup(Path(where.target).expanduser(), read_from)
        layout2 = is_layout2(read_from)
        old = stack.enter_context((Layout2Store if layout2 else LegacyStore)(read_from))
        games, tournaments = _check(old, read_from, layout2, leave_out, warn)
        pending = _Target.of(target)
        done = pending.existing(games, tournaments)
        if done is not None:
            pending.close()
            yield from done
            return
        with pending as new:
            logs = (TournamentLog(old), TournamentLog(new))
            copies, problems = [], []
            for game in games:
                copied = copy_game(old, new, game.name)
                if (copied.events, copied.head) != (game.events, game.head):  # read again: the same as checked
                    raise StoreError(f"game {game.name!r} read {copied.events} events the second time, "
                                     f"{game.events} the first; nothing was upgraded")
                problem = _replayed(new, game.name)
                if problem:
                    problems.append(f"game {game.name!r}: {problem}")
                    continue
                if game.times is not None:  # when it was last played, as the old store says: the latest game stays
                    new.index.set_times(game.name, *game.times)
                _written(game.name)
                copies.append(copied)
            if problems:
                pending.discard()
                raise UpgradeRefused(problems, f"the old store cannot be upgraded whole ({len(problems)} problem"
                                               f"{'s' * (len(problems) > 1)} above); nothing was written. Leave a "
                                               "damaged game out with --leave-out GAME, or repair the old store first")
            yield from copies
            for name, head in tournaments.items():
                copied = _copy_tournament(*logs, name, "copy", 0)
                if copied.head != head:
                    raise StoreError(f"tournament {name!r} read another head the second time; nothing was upgraded")
                yield copied
            pending.publish(games, tournaments)


def _replayed(store: GameStore, game: str) -> str:
    """Why the copy of ``game`` does not re-execute, action by action, to its records ("" when it does): a
    tail cut in the middle of an action still chains, and only the rules tell (``trv verify``)."""
    from trvendetta.replays import verify_game

    try:
        verify_game(store, game)
    except TrvError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return f"its actions do not re-execute to its records ({first}): was its tail cut?"
    return ""


def _written(game: str) -> None:
    """Called after each game is written into the temporary target (a test injects its fault here)."""


#: the temporary folder an upgrade copies the old SQLite file into, and the file it holds locked there
TEMP_PREFIX, TEMP_LOCK = "trv-upgrade-", "trv-upgrade.lock"


def _hold(stack: ExitStack, folder: Path) -> None:
    """Mark ``folder`` as this run's own while it runs: a lock file held (``flock``) until the end."""
    import fcntl

    fd = os.open(folder / f"{TEMP_LOCK}.new", os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    stack.callback(os.close, fd)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(folder / f"{TEMP_LOCK}.new", folder / TEMP_LOCK)  # (locked before another run may see it)


def _remove_leftovers() -> None:
    """Remove the temporary folders of upgrades that were killed (each holds a full copy of an old store):
    only a folder of this user's that carries the lock file an upgrade made, which no run holds."""
    import fcntl
    import shutil
    import stat

    base = Path(tempfile.gettempdir())
    try:
        found = [p for p in base.iterdir() if p.name.startswith(TEMP_PREFIX)]
    except OSError:
        return
    for folder in found:
        try:
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
                continue
            fd = os.open(folder / TEMP_LOCK, os.O_RDWR | os.O_NOFOLLOW)
        except OSError:
            continue  # not an upgrade's (or not this user's)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # a run that is going on
        finally:
            os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)


#: SQLite's result codes that a write gives (the temporary copy's disk, not the old file): FULL, and IOERR
#: but its READ and SHORT_READ
_WRITE_ERRORS = {13, 10}
_READ_IOERRS = {266, 522}


def _backup(path: Path, to: str) -> None:
    """A copy of the SQLite file at ``path`` taken with SQLite's backup API, opened so that it makes no
    file beside it (``location.read_uri``: the reader may not own the folder)."""
    old_file = sqlite3.connect(location.read_uri(path), uri=True)
    copy = sqlite3.connect(to)
    try:
        old_file.backup(copy)
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorcode", 0)
        if code & 0xFF in _WRITE_ERRORS and code not in _READ_IOERRS:
            raise StoreError(f"cannot write the temporary copy of the old store in {Path(to).parent.parent} "
                             f"({location.one_line(exc)}): it needs room for {path.stat().st_size} bytes; free "
                             "some there, or set TMPDIR to a folder with room, and run the upgrade again "
                             "(nothing was written)") from None
        raise UpgradeRefused([f"the file {path} cannot be read whole: {location.one_line(exc)}"],
                             "the old store cannot be read; nothing was written") from None
    finally:
        copy.close()
        old_file.close()


# ------------------------------------------------------------------------------------------- the accounts
class _Rows(NamedTuple):
    """The rows of the older store's events table under one id: through the table's index and scanned
    without it, and the header row (its topic and state) when there is one."""

    indexed: list[int]
    scanned: list[int]
    header: tuple[str, bytes] | None
    order: int  # where its first row is in the table (the games are upgraded in that order)
    problem: str = ""  # why its rows cannot be read through the index


def _check(old: Any, read_from: str, layout2: bool, leave_out: list[str],
           warn: Callable[[str], None] | None = None) -> tuple[list[_Game], dict[str, str]]:
    """Every game and tournament of ``old`` read whole and compared with every other account of it (the
    module's docstring); UpgradeRefused naming each that is not, before anything is written."""
    from trvendetta.store.legacy.reader import CREATED_TOPIC
    from trvendetta.store.records import game_key
    from trvendetta.store.tournament import Tournament, TournamentLog, tournament_uuid

    problems: list[str] = []
    scan = _Scan.of(read_from, layout2)
    try:
        rows, snapshots = scan.rows(), scan.snapshots()
        damage = scan.integrity()
    except Exception as exc:  # noqa: BLE001  a damaged file can raise almost anything
        raise UpgradeRefused([f"the old store cannot be read whole: {location.one_line(exc)}"],
                             "the old store cannot be read; nothing was written") from None
    finally:
        scan.close()
    header_version, header_topic = (0, "trv:game") if layout2 else (1, CREATED_TOPIC)
    names: dict[str, str] = {}  # id -> game
    for key, found in sorted(rows.items(), key=lambda item: item[1].order):
        if found.header is None or found.header[0] != header_topic:
            continue
        try:
            name = _name_of(old, layout2, key, header_version, *found.header)
        except Exception as exc:  # noqa: BLE001
            detail = getattr(exc, "detail", None) or location.one_line(exc)
            problems.append(f"the header row of the game stored under id {key} cannot be read "
                            f"({detail[:200]}); its records cannot be upgraded")
            names[key] = ""
            continue
        if game_key(name) != key:
            problems.append(f"the header row under id {key} names game {name!r}, whose id is {game_key(name)}: "
                            "a damaged row")
            names[key] = ""
            continue
        names[key] = name
    try:
        tournament_names = TournamentLog(old).names()
    except Exception as exc:  # noqa: BLE001
        tournament_names = []
        problems.append(f"the tournaments cannot be listed ({location.one_line(exc)[:200]})")
    tournaments: dict[str, str] = {}
    for name in tournament_names:
        key = tournament_uuid(name).hex
        names[key] = f"tournament {name}"
        try:
            log = TournamentLog(old)
            records, head = log.records(name), log.verify(name)
            seen = rows.get(key)
            versions = list(range(Tournament.INITIAL_VERSION, Tournament.INITIAL_VERSION + len(records) + 1))
            if seen is None or seen.scanned != versions or seen.indexed != versions:
                problems.append(f"tournament {name!r}: {len(records)} events read, but the table holds rows "
                                f"{_span(seen.scanned if seen else [])}: rows were lost or hidden")
                continue
            tournaments[name] = head
        except Exception as exc:  # noqa: BLE001
            problems.append(f"tournament {name!r} cannot be read whole ({location.one_line(exc)[:200]})")
    for key, found in rows.items():
        if key not in names:
            problems.append(f"rows {_span(found.scanned)} under id {key} belong to no game or tournament of the "
                            "store (a damaged header row, or a damaged id)")
    games = []
    for key, name in names.items():
        if not name or name.startswith("tournament ") or name in leave_out:
            continue
        problem, game = _check_game(old, layout2, name, rows[key], snapshots.get(key, []))
        if problem is not None:
            problems.append(f"game {name!r}: {problem}")
        elif game is not None:
            games.append(game)
    unknown = [g for g in leave_out if g not in names.values()]
    if unknown:
        problems.append(f"--leave-out {unknown[0]!r}: no such game in the old store")
    if problems or (damage and warn is None):
        problems = damage + problems
        raise UpgradeRefused(problems, f"the old store cannot be upgraded whole ({len(problems)} "
                                       f"problem{'s' * (len(problems) > 1)} above); nothing was written. Leave "
                                       "a damaged game out with --leave-out GAME, or repair the old store first")
    for line in damage:  # no game's accounts show it: the new file is without it
        assert warn is not None
        warn(f"{line}; every game's accounts agree, so the upgrade goes on (its new file is without it)")
    return games, tournaments


def _name_of(old: Any, layout2: bool, key: str, version: int, topic: str, state: bytes) -> str:
    if layout2:
        return str(old.name_of(state))
    return str(old.reader._header(key, version, topic, state).name)


def _check_game(old: Any, layout2: bool, game: str, rows: _Rows, snapshots: list[int]) -> tuple[str | None, Any]:
    """(the problem, None) or (None, the game as its accounts agree it is)."""
    if rows.problem:
        return f"its rows cannot be read through the table's index ({rows.problem})", None
    try:
        stored = old.events(game, decode=False)  # each record checked against the chain from the genesis
        head = old.verify(game)
    except TrvError as exc:
        said = _said(old, game)
        last_row = max(rows.scanned, default=0) - (0 if layout2 else 1)
        if said is not None and isinstance(said.get("version"), int) and said["version"] > last_row:
            return (f"the games index says {said['version']} events, its rows end at event {last_row}: records "
                    "were lost"), None  # (a cut-off tail, whatever the reader tripped on first)
        return f"its records cannot be read whole ({str(exc).removesuffix(': run trv verify')})", None
    except Exception as exc:  # noqa: BLE001  a damaged row can raise almost anything
        return f"its records cannot be read whole ({location.one_line(exc)[:200]})", None
    count = len(stored)
    if [e.number for e in stored] != list(range(1, count + 1)) or (stored and stored[-1].hash != head):
        return "its records do not run on from 1 to the head", None
    if rows.indexed != rows.scanned:
        hidden = sorted(set(rows.scanned) - set(rows.indexed))
        return (f"the table holds rows {_span(rows.scanned)}, its index finds {_span(rows.indexed)} "
                f"(rows {_span(hidden)} hidden: a damaged index)"), None
    last_row = max(rows.scanned, default=0) - (0 if layout2 else 1)  # (the older layouts: record n at n + 1)
    if (last_row > count) or (not layout2 and last_row != count):
        return f"{count} events read, but its last row is of event {last_row}", None
    beyond = [n - (0 if layout2 else 1) for n in snapshots if n - (0 if layout2 else 1) > count]
    if beyond:
        return f"{count} events read, but a snapshot is stored after event {beyond[-1]}: records were lost", None
    try:
        from trvendetta.store.index import GameIndex

        index = GameIndex(old._index_db.transaction, old.schema)
        row = index.row(game) if "version" in index.columns() else {"version": count, "head": head}
    except Exception as exc:  # noqa: BLE001
        return f"its games-index row cannot be read ({location.one_line(exc)[:200]})", None
    if row is None:
        return f"the games index has no row for it ({count} events read): was it cut off?", None
    if row.get("version") != count or row.get("head") != head:
        said = row.get("version")
        why = "records were lost" if isinstance(said, int) and said > count else \
            "its games-index row was edited or damaged (the records chain whole from the genesis)"
        return (f"the games index says {said!r} events, head {str(row.get('head'))[:16]}..., its "
                f"records {count}, head {head[:16]}...: {why}"), None
    return None, _Game(game, count, head, _times(row))


def _said(old: Any, game: str) -> dict | None:
    """The old games index's row for ``game`` (None: none, or none that reads)."""
    from trvendetta.store.index import GameIndex

    try:
        index = GameIndex(old._index_db.transaction, old.schema)
        return index.row(game) if "version" in index.columns() else None
    except Exception:  # noqa: BLE001  a damaged index can raise almost anything
        return None


def _span(versions: Sequence[int]) -> str:
    return f"{versions[0]}-{versions[-1]} ({len(versions)})" if versions else "none"


class _Scan:
    """The older store's rows read straight from its tables, with SQL of their own: each id's row
    versions through the table's index and scanned without it, its header row, its snapshots' versions,
    and (SQLite) ``PRAGMA integrity_check``."""

    def __init__(self, run: Callable[[str, Sequence[Any], bool], list[tuple]], events: str, snapshots: str,
                 header_version: int, close: Callable[[], None], sqlite: bool):
        self.run, self.events, self.snapshot_table, self.header_version = run, events, snapshots, header_version
        self.close, self.sqlite = close, sqlite

    @classmethod
    def of(cls, read_from: str, layout2: bool) -> _Scan:
        header = 0 if layout2 else 1
        where = location.parse(read_from)
        if where.kind == "sqlite":
            con = sqlite3.connect(where.target)

            def run(sql: str, params: Sequence[Any], indexed: bool) -> list[tuple]:
                return con.execute(sql.replace(" NOT INDEXED", "") if indexed else sql, params).fetchall()

            return cls(run, "stored_events", "stored_snapshots", header, con.close, True)
        env = location.postgres_env(where.target)
        conn = location.pg_connect(env)
        schema = env["POSTGRES_SCHEMA"]
        prefix = "trvstore" if layout2 else "trvgames"

        def pg(sql: str, params: Sequence[Any], indexed: bool) -> list[tuple]:
            with conn.transaction():
                for setting in ("enable_indexscan", "enable_bitmapscan", "enable_indexonlyscan"):
                    conn.execute(f"SET LOCAL {setting} = {'on' if indexed else 'off'}")
                conn.execute(f"SET LOCAL enable_seqscan = {'off' if indexed else 'on'}")
                return conn.execute(sql.replace(" NOT INDEXED", "").replace("?", "%s"), params).fetchall()

        return cls(pg, f'"{schema}".{prefix}_events', f'"{schema}".{prefix}_snapshots', header, conn.close, False)

    def rows(self) -> dict[str, _Rows]:
        out: dict[str, _Rows] = {}
        order = "rowid" if self.sqlite else "notification_id"  # (the order the rows were written in)
        scanned = self.run(f"SELECT originator_id, originator_version, topic, CASE WHEN originator_version = ? "
                           f"THEN state END FROM {self.events} NOT INDEXED ORDER BY {order}",
                           [self.header_version], False)
        for i, (oid, version, topic, state) in enumerate(scanned):
            key = _key(oid)
            found = out.setdefault(key, _Rows([], [], None, i))
            found.scanned.append(version)
            if version == self.header_version:
                out[key] = found._replace(header=(topic, state))
        for key, found in out.items():
            if self.sqlite:
                ids: list[Any] = [bytes.fromhex(key), key] if _is_hex(key) else [key]
            else:
                ids = [key] if _is_hex(key) else []
            marks = ", ".join("?" if self.sqlite else "?::uuid" for _ in ids) or "NULL"
            try:
                found.indexed.extend(v for (v,) in self.run(f"SELECT originator_version FROM {self.events} WHERE "
                                                            f"originator_id IN ({marks})", ids, True))
            except Exception as exc:  # noqa: BLE001  a damaged index can raise almost anything
                out[key] = found._replace(problem=location.one_line(exc)[:200])
            found.indexed.sort()
            found.scanned.sort()
        return out

    def snapshots(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for oid, version in self.run(f"SELECT originator_id, originator_version FROM {self.snapshot_table} "
                                     "NOT INDEXED", [], False):
            out.setdefault(_key(oid), []).append(version)
        return {key: sorted(v) for key, v in out.items()}

    def integrity(self) -> list[str]:
        if not self.sqlite:
            return []
        try:
            found = [str(r[0]) for r in self.run("PRAGMA integrity_check(20)", [], False)]
        except sqlite3.DatabaseError as exc:
            found = [location.one_line(exc)]
        if found == ["ok"]:
            return []
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return [f"the old store's file fails SQLite's integrity check: {found[0][:200]}{more}"]


def _key(oid: Any) -> str:
    """A stored id as 32 hex digits (16 bytes, hex text or a uuid), or as it is shown when it is none."""
    if isinstance(oid, (bytes, bytearray)):
        return bytes(oid).hex() if len(oid) == 16 else f"{bytes(oid)!r}"
    text = str(oid)
    plain = text.replace("-", "").lower()
    return plain if _is_hex(plain) else repr(text)


def _is_hex(text: str) -> bool:
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


# --------------------------------------------------------------------------------------------- the target
class _Target:
    """The new store, written under a temporary name and published whole (the module's docstring)."""

    def __init__(self, target: str):
        self.target = target
        self.where = location.parse(target)
        self.pending = target
        self.store: GameStore | None = None

    @staticmethod
    def of(target: str) -> _Target:
        where = location.parse(target)
        if where.kind == "sqlite":
            return _SQLiteTarget(target)
        if where.kind == "postgresql":
            return _PostgresTarget(target)
        return _Target(target)

    def exists(self) -> bool:
        return False

    def existing(self, games: list[_Game], tournaments: dict[str, str]) -> list[Copied] | None:
        """When the target exists already: what it holds, when it is exactly this upgrade (None: it does
        not exist); else StoreError, leaving it as it is."""
        if not self.exists():
            return None
        from trvendetta.store.tournament import TournamentLog

        try:
            with GameStore(self.target) as there:
                held = {g.id: (g.version, g.head) for g in there.list_games()}
                log = TournamentLog(there)
                logs = {name: log.verify(name) for name in log.names()}
                wanted = {g.name: (g.events, g.head) for g in games}
                same = held == wanted and logs == tournaments and all(there.verify(g) == h for g, (_, h) in held.items())
                part = not same and held.items() <= wanted.items() and logs.items() <= tournaments.items()
                moved = sorted(g for g in held if held[g] != wanted.get(g))
                played_on = moved if not (same or part) and set(held) == set(wanted) and \
                    logs.keys() == tournaments.keys() and \
                    all(held[g][0] > wanted[g][0] and there.events_head(g, wanted[g][0]) == wanted[g][1]
                        for g in moved) else []
        except Exception as exc:  # noqa: BLE001  whatever is there is not this upgrade: left as it is
            raise StoreError(f"the target store {location.parse(self.target)} already exists and cannot be read "
                             f"as a store ({location.one_line(exc)[:200]}); name a new one with --to") from None
        if part:  # an upgrade with --leave-out, or what one of an earlier trv, stopped half-way, left
            raise StoreError(f"the target store {location.parse(self.target)} already exists and holds {len(held)} of "
                             f"the old store's {len(wanted)} games, at the same heads (an upgrade with --leave-out, "
                             "or one an earlier trv stopped half-way); remove it (or name a new one with --to) and "
                             "upgrade again")
        if played_on:  # the upgrade was done, and games were played on in the new store since
            raise StoreError(f"the target store {location.parse(self.target)} already exists and holds every game of "
                             f"the old store, {len(played_on)} of them played on since ({', '.join(played_on[:5])}): "
                             f"the upgrade was done; play on in {location.parse(self.target)}")
        if not same:
            raise StoreError(f"the target store {location.parse(self.target)} already exists and holds other games "
                             "than the old store's; name a new one with --to")
        return [Copied(g.name, g.events, g.head, "already there") for g in games] + \
            [Copied(f"tournament {name}", 0, head, "already there") for name, head in tournaments.items()]

    def __enter__(self) -> GameStore:
        self.store = GameStore(self.pending)
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

    def discard(self) -> None:
        """Close the new store and remove what was written of it (a refused upgrade)."""
        self.close()

    def publish(self, games: list[_Game], tournaments: dict[str, str]) -> None:
        """Check the whole new store once more, close it and give it its name."""
        from trvendetta.store.tournament import TournamentLog

        assert self.store is not None
        held = {g.id: (g.version, g.head) for g in self.store.list_games()}
        if held != {g.name: (g.events, g.head) for g in games} or \
                set(TournamentLog(self.store).names()) != set(tournaments):
            raise StoreError("the new store does not hold exactly the old store's games; nothing was upgraded")
        self.store.close()  # (SQLite: the last connection, which moves the write-ahead log into the file)
        self.store = None
        self._rename()

    def _rename(self) -> None:
        """Give the closed, complete new store its name (memory: it has it)."""


class _SQLiteTarget(_Target):
    def __init__(self, target: str):
        super().__init__(target)
        self.path = Path(self.where.target).expanduser()
        self.temp = self.path.with_name(f"{self.path.name}.{PENDING}")
        self.pending = str(self.temp)
        self.lock: int | None = None

    def exists(self) -> bool:
        return self.path.exists()

    def existing(self, games: list[_Game], tournaments: dict[str, str]) -> list[Copied] | None:
        if self.exists():
            why = self._not_a_store()
            if why:
                raise StoreError(f"the target {self.path} already exists and is not a game store ({why}): it was "
                                 "left as it is; name a new one with --to")
        done = super().existing(games, tournaments)
        if done is not None and self.temp.exists():  # a run killed between its link and its unlink: the same file
            import fcntl

            fd = os.open(self.temp, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if os.fstat(fd).st_ino == self.path.stat().st_ino:
                    self.temp.unlink()
            except BlockingIOError:
                pass  # another run is writing it
            finally:
                os.close(fd)
        return done

    def _not_a_store(self) -> str:
        """Why the existing file at the target's name is not a store of the current layout ("" when it
        is one), found reading it only: opening another program's database as a store would add the
        store's tables to it."""
        from trvendetta.store.store import LAYOUT

        if not self.path.is_file():
            return "not a regular file"
        if self.path.stat().st_size == 0:
            return "an empty file"
        try:
            con = sqlite3.connect(location.read_uri(self.path), uri=True)
            try:
                version = con.execute("PRAGMA user_version").fetchone()[0]
                tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                con.close()
        except sqlite3.DatabaseError as exc:
            return f"it cannot be read as an SQLite database: {location.one_line(exc)}"
        if not {"stored_events", "stored_commands"} <= tables:
            return "an SQLite database without a store's tables"
        if version != LAYOUT:
            return f"a store of layout {version}, not {LAYOUT}"
        return ""

    def __enter__(self) -> GameStore:
        import fcntl
        import sys

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except PermissionError as exc:
            raise StoreError(f"cannot write the new store {self.path} ({exc.strerror}: {exc.filename}); name one "
                             "where you can write with --to") from None
        self.lock, fresh = self._open_temp()
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.lock)
            self.lock = None
            raise StoreError(f"another `trv store upgrade` is writing {self.path} (into {self.temp.name}); "
                             "let it finish") from None
        if self.exists():  # published by a run that finished while this one checked
            self._unlock(remove=fresh)
            raise StoreError(f"the target store {self.path} appeared while the old store was read; run the "
                             "upgrade again to compare it")
        if not fresh and os.fstat(self.lock).st_size and not _marked(self.lock):
            self._unlock()
            raise StoreError(f"{self.temp} exists and is not a file an upgrade of trv left (it carries no mark of "
                             "one): it was left as it is; remove it yourself, or name another target with --to")
        leftovers = [p for p in self._files() if p.exists() and (p != self.temp or p.stat().st_size)]
        if leftovers:  # an earlier run stopped before it finished: start clean
            print(f"starting clean: removing {', '.join(p.name for p in leftovers)} left by an upgrade that did "
                  "not finish", file=sys.stderr)
        os.ftruncate(self.lock, 0)  # (our own regular file: checked by _open_temp)
        for p in self._files()[1:]:
            p.unlink(missing_ok=True)  # (unlink never follows a symbolic link)
        self._mark()
        store = super().__enter__()
        self._same_file()
        return store

    def _open_temp(self) -> tuple[int, bool]:
        """The temporary file, opened without following a symbolic link: created by this run (True), or
        an earlier one's leftover that is a regular file of this user's with no other name (False); any
        other file of that name is refused and left as it is (a planted link to another store, say)."""
        import stat

        try:
            return os.open(self.temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666), True
        except FileExistsError:
            pass
        except PermissionError as exc:
            raise StoreError(f"cannot write the new store {self.path} ({exc.strerror}: {exc.filename}); name one "
                             "where you can write with --to") from None
        try:
            fd = os.open(self.temp, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as exc:
            fd = -1
            why = exc.strerror if exc.errno != errno.ELOOP else "a symbolic link"
        else:
            info = os.fstat(fd)
            why = ("not a regular file" if not stat.S_ISREG(info.st_mode) else
                   "a file of another user's" if info.st_uid != os.geteuid() else
                   "a file with another name too (a hard link)" if info.st_nlink != 1 else "")
            if not why:
                return fd, False
            os.close(fd)
        raise StoreError(f"{self.temp} exists and is {why}, not a file an upgrade of trv left: it was left as "
                         "it is; remove it yourself, or name another target with --to")

    def _mark(self) -> None:
        """Mark the (empty) temporary file as an upgrade's own before anything else is written into it:
        SQLite's application id in its header, so that a later run removes only a file that carries it."""
        con = sqlite3.connect(self.temp)
        try:
            con.execute(f"PRAGMA application_id = {MARK}")
            con.commit()
        finally:
            con.close()
        self._same_file()

    def _same_file(self) -> None:
        """The temporary name still names the file this run opened (not one put in its place)."""
        assert self.lock is not None
        try:
            there = os.lstat(self.temp)
        except OSError:
            there = None
        mine = os.fstat(self.lock)
        if there is None or (there.st_dev, there.st_ino) != (mine.st_dev, mine.st_ino):
            raise StoreError(f"{self.temp} was replaced by another file while the upgrade wrote it; nothing was "
                             "upgraded")

    def _files(self) -> list[Path]:
        return [self.temp, self.temp.with_name(self.temp.name + "-wal"), self.temp.with_name(self.temp.name + "-shm"),
                self.temp.with_name(self.temp.name + "-journal")]

    def close(self) -> None:
        super().close()  # (the lock stays until then: closing a file drops SQLite's locks on it too)
        self._unlock()

    def discard(self) -> None:
        _Target.close(self)
        if self.lock is not None:
            self._same_file()
            for p in self._files()[1:]:
                p.unlink(missing_ok=True)
        self._unlock(remove=True)

    def _unlock(self, remove: bool = False) -> None:
        if self.lock is not None:
            if remove:
                self.temp.unlink(missing_ok=True)
            os.close(self.lock)
            self.lock = None

    def _rename(self) -> None:
        if any(p.exists() and p.stat().st_size for p in self._files()[1:2]):
            raise StoreError(f"{self.temp} could not take in its write-ahead log when it was closed (is the disk "
                             "full?); nothing was upgraded: make room and run it again (it starts clean)")
        assert self.lock is not None
        os.fsync(self.lock)
        self._same_file()
        try:
            try:  # the very file this run holds open, whatever its name names now (never over a file)
                os.link(f"/proc/self/fd/{self.lock}", self.path, follow_symlinks=True)
            except FileExistsError:
                raise
            except OSError:
                os.link(self.temp, self.path)  # (no /proc: checked by _same_file just before)
        except FileExistsError:
            raise StoreError(f"the target store {self.path} appeared while the upgrade wrote {self.temp.name}; "
                             "run the upgrade again to compare them") from None
        except OSError:  # a file system without hard links
            if self.path.exists():
                raise
            os.rename(self.temp, self.path)
        for p in self._files():
            p.unlink(missing_ok=True)
        directory = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
        self._unlock()


class _PostgresTarget(_Target):
    def __init__(self, target: str):
        from trvendetta.store.store import PG_COMMANDS_TABLE, PG_EVENTS_TABLE

        super().__init__(target)
        self.env = location.postgres_env(target)
        self.schema = self.env["POSTGRES_SCHEMA"]
        temp = f"{self.schema}_{PENDING}"
        if len(temp) > 63:
            temp = f"trv_{PENDING}_" + hashlib.sha256(self.schema.encode()).hexdigest()[:16]
        self.temp_schema = temp
        self.pending = _with_schema(target, temp)
        self.tables = (PG_EVENTS_TABLE, PG_COMMANDS_TABLE)
        self.lock: Any = None

    def _holds(self, conn: Any) -> bool:
        """Whether the target schema holds any table."""
        return bool(conn.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                 "WHERE n.nspname = %s", [self.schema]).fetchone()[0])

    def exists(self) -> bool:
        """Whether the target schema holds a store (StoreError when it holds tables of something else)."""
        conn = location.pg_connect(self.env)
        try:
            if not self._holds(conn):
                return False
            if conn.execute("SELECT to_regclass(%s)", [f'"{self.schema}".{self.tables[1]}']).fetchone()[0] is None:
                raise StoreError(f"the target schema {self.schema} already holds tables that are not a game store's; "
                                 "name a new one with --to")
            return True
        finally:
            conn.close()

    def __enter__(self) -> GameStore:
        import sys

        self.lock = location.pg_connect(self.env)
        if not self.lock.execute("SELECT pg_try_advisory_lock(hashtext(%s))",
                                 [f"trvendetta upgrade:{self.temp_schema}"]).fetchone()[0]:
            self._unlock()
            raise StoreError(f"another `trv store upgrade` is writing schema {self.schema} (into "
                             f"{self.temp_schema}); let it finish")
        found = self.lock.execute("SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = %s",
                                  [self.temp_schema]).fetchone()
        if found is not None and found[0] != SCHEMA_MARK:
            self._unlock()
            raise StoreError(f"the schema {self.temp_schema} exists and is not one an upgrade of trv left (it carries "
                             "no mark of one): it was left as it is; name another target with --to")
        try:
            with self.lock.transaction():
                if found is not None:
                    print(f"starting clean: dropping schema {self.temp_schema} left by an upgrade that did not "
                          "finish", file=sys.stderr)
                    self.lock.execute(f'DROP SCHEMA "{self.temp_schema}" CASCADE')
                self.lock.execute(f'CREATE SCHEMA "{self.temp_schema}"')  # marked before anything is in it
                self.lock.execute(f"COMMENT ON SCHEMA \"{self.temp_schema}\" IS '{SCHEMA_MARK}'")
            return super().__enter__()
        except BaseException:
            self._unlock()
            raise

    def close(self) -> None:
        super().close()
        self._unlock()

    def discard(self) -> None:
        _Target.close(self)
        if self.lock is not None:
            self.lock.execute(f'DROP SCHEMA IF EXISTS "{self.temp_schema}" CASCADE')  # (the marked one it made)
        self._unlock()

    def _unlock(self) -> None:
        if self.lock is not None:
            self.lock.close()  # (its session's advisory lock with it)
            self.lock = None

    def _rename(self) -> None:
        assert self.lock is not None
        conn = self.lock
        with conn.transaction():  # all or nothing: the schema is renamed, or the target is as it was
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"trvendetta:{self.schema}"])
            if self._holds(conn):
                raise StoreError(f"the target schema {self.schema} was written while the upgrade wrote "
                                 f"{self.temp_schema}; run the upgrade again to compare them")
            conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}"')  # (an empty one: RESTRICT)
            conn.execute(f'ALTER SCHEMA "{self.temp_schema}" RENAME TO "{self.schema}"')
            conn.execute(f'COMMENT ON SCHEMA "{self.schema}" IS NULL')  # (a store now, no upgrade's leftover)
            # the library's insert function names its table by the schema's name, in its body's text
            for (definition,) in conn.execute("SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n "
                                              "ON n.oid = p.pronamespace WHERE n.nspname = %s", [self.schema]):
                conn.execute(definition.replace(f'"{self.temp_schema}".', f'"{self.schema}".')
                             .replace(f"{self.temp_schema}.", f"{self.schema}."))
        self._unlock()
