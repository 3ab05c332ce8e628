"""The club server's own tables, beside the games in the same database: players (a name
bound to a public key by its first login), single-use tokens (login challenges, sessions,
browser pairings, each kept as its SHA-256 only) and offers waiting for contributions.

Games stay the store's (``trvendetta.store``, through the application layer); nothing
here reads or writes them.  SQLite (``sqlite3``) for a store in an SQLite file, PostgreSQL
(psycopg) for one there, so several server processes share players, sessions and offers.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import contextmanager
from typing import Any, Iterator

from trvendetta.store import location

TABLES = [
    "CREATE TABLE IF NOT EXISTS trv_server_players (name TEXT PRIMARY KEY, public TEXT NOT NULL UNIQUE, "
    "email TEXT NOT NULL DEFAULT '', created BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS trv_server_tokens (digest TEXT PRIMARY KEY, kind TEXT NOT NULL, "
    "name TEXT NOT NULL, data TEXT NOT NULL, expires BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS trv_server_offers (game TEXT PRIMARY KEY, offer TEXT NOT NULL, "
    "joined TEXT NOT NULL, creator TEXT NOT NULL, created BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS trv_server_reminded (game TEXT NOT NULL, version BIGINT NOT NULL, "
    "PRIMARY KEY (game, version))",
    # browser keys this server certified (`trv login --browser`), and players' signed revocations of them
    "CREATE TABLE IF NOT EXISTS trv_server_delegations (name TEXT NOT NULL, key TEXT NOT NULL, "
    "certified BIGINT NOT NULL, PRIMARY KEY (name, key))",
    "CREATE TABLE IF NOT EXISTS trv_server_revocations (name TEXT NOT NULL, at BIGINT NOT NULL, "
    "signature TEXT NOT NULL, PRIMARY KEY (name, at))",
    # offers a player declined (or withdrew) before they became games, for their other players to see
    "CREATE TABLE IF NOT EXISTS trv_server_declined (game TEXT NOT NULL, name TEXT NOT NULL, "
    "players TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (game, at))",
]


def _connection_lost(exc: Exception, db: Any) -> bool:
    """Whether a PostgreSQL error means the connection is gone (not a statement's own error)."""
    import psycopg

    return isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)) and (
        db.closed or db.broken or isinstance(exc, psycopg.errors.AdminShutdown))


def _taken(exc: Exception) -> bool:
    """Whether a failed insert failed on a unique key (the row is there already); any other failure
    (a full disk, a lost database) is no answer about the row and goes on to the caller."""
    if isinstance(exc, sqlite3.IntegrityError):
        return True
    import sys

    psycopg = sys.modules.get("psycopg")  # imported only by a server on PostgreSQL
    return psycopg is not None and isinstance(exc, psycopg.errors.UniqueViolation)


class TransactionLost(Exception):
    """The connection to PostgreSQL was lost inside a transaction: none of it was kept (lost at its
    commit, perhaps all of it), so the caller reads again what it changes before making it again,
    whole, on the connection opened since."""


def digest(token: str) -> str:
    """What the tables keep of a token: its SHA-256 (a copy of the table gives no session)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """The server's tables over one connection (a server process runs its store work on one
    thread, so one connection serves it)."""

    def __init__(self, where: str):
        loc = location.parse(where)
        self.postgres = loc.kind == "postgresql"
        self._target = loc.target
        #: why these tables take no more writes (the store's failed fsync: ``GameStore.sync``), raised by each
        self.stopped: Exception | None = None
        self._in_transaction = False
        if self.postgres:
            self.db: Any = self._connect()
        else:
            self.db = sqlite3.connect(":memory:" if loc.kind == "memory" else loc.target, isolation_level=None,
                                      check_same_thread=False, timeout=30)
        for sql in TABLES:
            self.db.execute(sql)
        try:  # two names differing only in letter case are one name (a store made before may hold both: kept)
            self.db.execute("CREATE UNIQUE INDEX IF NOT EXISTS trv_server_players_folded "
                            "ON trv_server_players (lower(name))")
        except Exception as exc:
            if not _taken(exc):
                raise
        # a revocation made before keys were marked revoked in place: the keys certified before its time
        self.run("UPDATE trv_server_delegations SET certified = -1 - certified WHERE certified >= 0 AND certified < "
                 "(SELECT MAX(at) FROM trv_server_revocations r WHERE r.name = trv_server_delegations.name)")

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Statements that land together or not at all."""
        if self.stopped is not None:
            raise self.stopped
        if self.postgres:
            self._in_transaction = True
            try:
                with self.db.transaction():
                    yield
            except Exception as exc:
                if _connection_lost(exc, self.db):  # nothing of it was kept; the next request opens another
                    self._reconnect()
                    raise TransactionLost(f"the database connection was lost inside a transaction: {exc}") from exc
                raise
            finally:
                self._in_transaction = False
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _connect(self) -> Any:
        import psycopg

        env = location.postgres_env(self._target)
        return psycopg.connect(
            dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"] or None, autocommit=True,
            connect_timeout=10, options=f"-c search_path={env['POSTGRES_SCHEMA']}")

    def close(self) -> None:
        self.db.close()

    def _q(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def _execute(self, sql: str, args: tuple) -> Any:
        """One statement; on PostgreSQL a connection the database dropped (a restart, a terminated
        backend) is opened again and the statement run once more (each is one autocommitted statement,
        and one that failed with its connection was not committed)."""
        try:
            return self.db.execute(self._q(sql), args)
        except Exception as exc:
            # inside a transaction a statement is never run again on a new connection: it would be
            # committed alone, without the statements before it (which the database dropped)
            if not self.postgres or self._in_transaction or not _connection_lost(exc, self.db):
                raise
        self._reconnect()
        return self.db.execute(self._q(sql), args)

    def _reconnect(self) -> None:
        try:
            self.db.close()
        except Exception:  # noqa: BLE001  closing a dead connection may fail too
            pass
        self.db = self._connect()

    def one(self, sql: str, *args: Any) -> Any:
        return self._execute(sql, args).fetchone()

    def all(self, sql: str, *args: Any) -> list[Any]:
        return list(self._execute(sql, args).fetchall())

    def run(self, sql: str, *args: Any) -> int:
        """A write (``stopped``: refused, nothing written)."""
        if self.stopped is not None:
            raise self.stopped
        return self._execute(sql, args).rowcount

    # ------------------------------------------------------------ players
    def player(self, name: str) -> tuple[str, str] | None:
        """(name, public key) of a registered player."""
        row = self.one("SELECT name, public FROM trv_server_players WHERE name = ?", name)
        return (row[0], row[1]) if row else None

    def player_folded(self, name: str) -> tuple[str, str] | None:
        """(name, public key) of the registered player whose name is ``name`` but for letter case
        (names are ASCII: ``lower`` is the same in SQLite and PostgreSQL)."""
        row = self.one("SELECT name, public FROM trv_server_players WHERE lower(name) = lower(?) "
                       "ORDER BY name = ? DESC, created LIMIT 1", name, name)
        return (row[0], row[1]) if row else None

    def player_by_key(self, public: str) -> str | None:
        row = self.one("SELECT name FROM trv_server_players WHERE public = ?", public)
        return row[0] if row else None

    def register(self, name: str, public: str, now: int) -> bool:
        """Bind ``name`` to ``public`` if neither is taken; whether it was bound now or before."""
        known = self.player(name)
        if known is not None:
            return known[1] == public
        if self.player_folded(name) is not None:
            return False  # the name is another player's but for letter case
        try:
            self.run("INSERT INTO trv_server_players (name, public, created) VALUES (?, ?, ?)", name, public, now)
        except Exception as exc:  # another process bound it first (a unique key): the binding decides
            if not _taken(exc):
                raise
            known = self.player(name)
            return known is not None and known[1] == public
        return True

    def set_email(self, name: str, email: str) -> None:
        self.run("UPDATE trv_server_players SET email = ? WHERE name = ?", email, name)

    def email(self, name: str) -> str:
        row = self.one("SELECT email FROM trv_server_players WHERE name = ?", name)
        return row[0] if row else ""

    # ------------------------------------------------------------- tokens
    def put_token(self, token: str, kind: str, name: str, data: dict, expires: int) -> None:
        self.run("INSERT INTO trv_server_tokens (digest, kind, name, data, expires) VALUES (?, ?, ?, ?, ?)",
                 digest(token), kind, name, json.dumps(data, sort_keys=True), expires)

    def token(self, token: str, kind: str, now: int) -> tuple[str, dict] | None:
        """(name, data) of a live token of ``kind``."""
        row = self.one("SELECT name, data FROM trv_server_tokens WHERE digest = ? AND kind = ? AND expires > ?",
                       digest(token), kind, now)
        return (row[0], json.loads(row[1])) if row else None

    def take_token(self, token: str, kind: str, now: int) -> tuple[str, dict] | None:
        """A single-use token: (name, data) if it was live, and it is gone (a second use finds nothing,
        whichever process it reaches: the delete decides)."""
        found = self.token(token, kind, now)
        if found is None:
            return None
        if self.run("DELETE FROM trv_server_tokens WHERE digest = ? AND kind = ?", digest(token), kind) != 1:
            return None
        return found

    def use_once(self, token: str, expires: int) -> bool:
        """Mark a single-use token used (a login's challenge): False if it was already, by any process
        (the insert of its digest decides)."""
        try:
            return self.run("INSERT INTO trv_server_tokens (digest, kind, name, data, expires) VALUES (?, ?, ?, ?, ?)",
                            digest(token), "used", "", "{}", expires) == 1
        except Exception as exc:  # the unique digest: used already
            if not _taken(exc):
                raise
            return False

    def update_token(self, token: str, kind: str, data: dict) -> None:
        self.run("UPDATE trv_server_tokens SET data = ? WHERE digest = ? AND kind = ?",
                 json.dumps(data, sort_keys=True), digest(token), kind)

    def forget_expired(self, now: int) -> None:
        self.run("DELETE FROM trv_server_tokens WHERE expires <= ?", now)

    # ------------------------------------------------------------- offers
    def put_offer(self, game: str, offer: str, creator: str, now: int) -> bool:
        """A new offer; False if the game's name is taken by another offer."""
        try:
            self.run("INSERT INTO trv_server_offers (game, offer, joined, creator, created) VALUES (?, ?, ?, ?, ?)",
                     game, offer, "{}", creator, now)
        except Exception as exc:  # the game's name: another offer's
            if not _taken(exc):
                raise
            return False
        return True

    def offer(self, game: str) -> tuple[str, dict] | None:
        """(offer file, {seat: contribution file}) of an offer."""
        row = self.one("SELECT offer, joined FROM trv_server_offers WHERE game = ?", game)
        return (row[0], json.loads(row[1])) if row else None

    def offers(self) -> list[tuple[str, str, dict]]:
        return [(r[0], r[1], json.loads(r[2])) for r in
                self.all("SELECT game, offer, joined FROM trv_server_offers ORDER BY created, game")]

    def offers_of(self, name: str) -> list[tuple[str, str, dict]]:
        """(game, offer file, {seat: contribution file}) of the offers ``name`` made or contributed to:
        the ones that are theirs (an offer that merely names them is another player's)."""
        rows = [(r[0], r[1], json.loads(r[2]), r[3]) for r in
                self.all("SELECT game, offer, joined, creator FROM trv_server_offers ORDER BY created, game")]
        return [(game, offer, joined) for game, offer, joined, creator in rows if creator == name or name in joined]

    def add_contribution(self, game: str, seat: str, contribution: str, before: dict) -> bool:
        """Add a seat's contribution if the offer still holds exactly ``before`` (another process's
        join in between: False, and the caller reads the offer again)."""
        after = dict(before, **{seat: contribution})
        return self.run("UPDATE trv_server_offers SET joined = ? WHERE game = ? AND joined = ?",
                        json.dumps(after, sort_keys=True), game, json.dumps(before, sort_keys=True)) == 1

    def drop_offer(self, game: str) -> None:
        self.run("DELETE FROM trv_server_offers WHERE game = ?", game)

    def decline_offer(self, game: str, name: str, players: list[str], before: dict, now: int) -> bool:
        """Drop an offer ``name`` declined if it still holds exactly the contributions ``before`` (a
        join in between: False), and note who declined it, in one transaction."""
        try:
            with self.transaction():
                if self.run("DELETE FROM trv_server_offers WHERE game = ? AND joined = ?",
                            game, json.dumps(before, sort_keys=True)) != 1:
                    return False
                self.run("DELETE FROM trv_server_declined WHERE game = ? AND at = ?", game, now)
                self.run("INSERT INTO trv_server_declined (game, name, players, at) VALUES (?, ?, ?, ?)",
                         game, name, json.dumps(players), now)
        except TransactionLost:
            return False  # the caller reads the offer again (gone: declined) and declines it again
        return True

    def declined(self, name: str, since: int) -> list[tuple[str, str, int]]:
        """(game, who declined it, when) of the offers ``name`` was in that were declined since ``since``."""
        return [(r[0], r[1], r[3]) for r in self.all(
            "SELECT game, name, players, at FROM trv_server_declined WHERE at >= ? ORDER BY at, game", since)
            if name in json.loads(r[2])]

    # ----------------------------------------------------------- reminders
    # ------------------------------------------------------- delegated keys
    def certified(self, name: str, key: str, now: int) -> None:
        """Record that this server certified ``key`` for ``name`` at ``now`` (a pairing's delegation)."""
        if self.one("SELECT 1 FROM trv_server_delegations WHERE name = ? AND key = ?", name, key) is None:
            self.run("INSERT INTO trv_server_delegations (name, key, certified) VALUES (?, ?, ?)", name, key, now)

    def certified_at(self, name: str, key: str) -> int | None:
        """When this server certified ``key`` for ``name`` (None: never); a revoked key's time is negative."""
        row = self.one("SELECT certified FROM trv_server_delegations WHERE name = ? AND key = ?", name, key)
        return int(row[0]) if row else None

    def revoke(self, name: str, at: int, signature: str) -> int:
        """``name``'s signed revocation (made at ``at`` by their clock): every browser key certified for
        them before it arrived here is revoked (marked in place, whatever the clocks say: a key certified
        in the same second after it is not), and the sessions their pairings opened end, together.
        How many keys it revoked."""
        with self.transaction():
            if self.one("SELECT 1 FROM trv_server_revocations WHERE name = ? AND at = ?", name, at) is None:
                self.run("INSERT INTO trv_server_revocations (name, at, signature) VALUES (?, ?, ?)", name, at,
                         signature)
            keys = self.run("UPDATE trv_server_delegations SET certified = -1 - certified WHERE name = ? AND "
                            "certified >= 0", name)
            self.run("DELETE FROM trv_server_tokens WHERE kind = 'session' AND name = ? AND data LIKE ?", name,
                     '%"pairing"%')
        return keys

    def revoked_until(self, name: str) -> int | None:
        """The time of ``name``'s latest revocation (by their clock), None if they never revoked."""
        row = self.one("SELECT MAX(at) FROM trv_server_revocations WHERE name = ?", name)
        return int(row[0]) if row and row[0] is not None else None

    def remind_once(self, game: str, version: int) -> bool:
        """Whether this process is the first to remind about ``game`` at ``version``."""
        try:
            return self.run("INSERT INTO trv_server_reminded (game, version) VALUES (?, ?)", game, version) == 1
        except Exception as exc:  # reminded already (the unique key)
            if not _taken(exc):
                raise
            return False
