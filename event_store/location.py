"""Where a store lives: an SQLite file, memory, or a PostgreSQL server.

A location is written the way a user types it after ``--store`` (or in
``$TRV_STORE``)::

    games.sqlite                        an SQLite file (also ``sqlite:games.sqlite``)
    :memory:                            in memory (demos, bots, tests)
    postgresql://USER@HOST:PORT/DB      a PostgreSQL database (also ``postgres://``);
        ?schema=NAME                    in that schema (created on first use; default public): lower-case
                                        letters, digits and _, not a word PostgreSQL reserves nor a
                                        system schema's name (information_schema, pg_*)

Light: the standard library only, so ``trv show`` can parse it for free.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import os
import re
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

from .errors import StoreError

MEMORY = ":memory:"
SQLITE_PREFIX = "sqlite:"
POSTGRES_SCHEMES = ("postgresql", "postgres")
#: what a PostgreSQL schema name may be (it is put into SQL as an identifier)
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
#: PostgreSQL's keywords that are not "unreserved" (``pg_get_keywords()``' categories R, T and C, of
#: PostgreSQL 15, and system_user of 16): as a schema's name unquoted they break the library's
#: statements (``CompositeInfo.fetch``); the server's own list is checked too (``store._prepare_postgres``)
RESERVED_WORDS = frozenset("""
    all analyse analyze and any array as asc asymmetric authorization between bigint binary bit boolean both
    case cast char character check coalesce collate collation column concurrently constraint create cross
    current_catalog current_date current_role current_schema current_time current_timestamp current_user dec
    decimal default deferrable desc distinct do else end except exists extract false fetch float for foreign
    freeze from full grant greatest group grouping having ilike in initially inner inout int integer intersect
    interval into is isnull join lateral leading least left like limit localtime localtimestamp national natural
    nchar none normalize not notnull null nullif numeric offset on only or order out outer overlaps overlay
    placing position precision primary real references returning right row select session_user setof similar
    smallint some substring symmetric system_user table tablesample then time timestamp to trailing treat trim
    true union unique user using values varchar variadic verbose when where window with xmlattributes
    xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable
""".split())


def check_schema(schema: str) -> str:
    """``schema`` when a store may live in it, else StoreError in one line saying what would do."""
    legal = "use lower-case letters, digits and _ (at most 63, not starting with a digit)"
    if not schema:
        raise StoreError(f"?schema= is empty: name the schema ({legal}), or leave ?schema out for public")
    if not _SCHEMA_NAME.fullmatch(schema):
        raise StoreError(f"schema {schema!r}: {legal}")
    if schema in RESERVED_WORDS:
        raise StoreError(f"schema {schema!r} is a word PostgreSQL reserves; choose another name ({legal})")
    if schema == "information_schema" or schema.startswith("pg_"):
        raise StoreError(f"schema {schema!r} is PostgreSQL's own (information_schema and pg_* are the system's); "
                         "choose another name")
    return schema


class Location(NamedTuple):
    """``kind`` is ``sqlite``, ``memory`` or ``postgresql``; ``target`` the file or URL."""

    kind: str
    target: str

    def __str__(self) -> str:
        return self.target if self.kind != "postgresql" else _without_password(self.target)


def parse(location: str | os.PathLike | None) -> Location:
    """Read a store location (see the module docstring)."""
    if location is None or str(location) == MEMORY:
        return Location("memory", MEMORY)
    text = os.fspath(location)
    scheme = text.split(":", 1)[0].lower() if "://" in text else ""
    if scheme in POSTGRES_SCHEMES:
        return Location("postgresql", text)
    if scheme:
        raise StoreError(
            f"unknown store {text!r}: give an SQLite file (PATH or sqlite:PATH) or postgresql://USER@HOST/DB"
        )
    if text.startswith(SQLITE_PREFIX):
        text = text[len(SQLITE_PREFIX):]
        if not text:
            raise StoreError("sqlite: needs a file name (sqlite:PATH)")
        if text == MEMORY:
            return Location("memory", MEMORY)
    return Location("sqlite", text)


def postgres_env(url: str) -> dict[str, str]:
    """The eventsourcing settings (``POSTGRES_*``) for a ``postgresql://`` URL."""
    parts = _split(url)
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(query) - {"schema"})
    if unknown:
        raise StoreError(f"unknown option {unknown[0]!r} in the store URL; the only one is ?schema=NAME")
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or not parts.hostname:
        raise StoreError(f"the store URL {_without_password(url)!r} needs a host and a database: "
                         "postgresql://USER@HOST:PORT/DB")
    if len(query.get("schema", [])) > 1:
        raise StoreError("the store URL names ?schema= more than once; give it once")
    schema = check_schema(query.get("schema", ["public"])[0])
    try:
        port = parts.port or 5432
    except ValueError:
        raise StoreError(f"the store URL {_without_password(url)!r} has a bad port") from None
    return {
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname,
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": unquote(parts.username or os.environ.get("USER", "postgres")),
        # the library insists on a password even where the server trusts the user
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_SCHEMA": schema,
    }


def postgres_store_missing(url: str) -> bool:
    """Whether the schema ``url`` names holds no store of any layout (it does not exist, or holds none of
    a store's tables): a command that only reads then says so rather than create it."""
    env = postgres_env(url)
    conn = pg_connect(env)
    try:
        return not conn.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                "WHERE n.nspname = %s AND c.relkind = 'r' AND (c.relname LIKE 'trvstore\\_%%' OR "
                                "c.relname LIKE 'trvgames\\_%%' OR c.relname = 'trv_games')",
                                [env["POSTGRES_SCHEMA"]]).fetchone()[0]
    except Exception as exc:
        if is_server_error(exc):
            raise StoreError(f"cannot open the PostgreSQL store {_without_password(url)}: {one_line(exc)}") from None
        raise
    finally:
        conn.close()


def one_line(exc: BaseException) -> str:
    """An error's message on one line (libpq's span several: ``connection to server ... failed: ...\\n\\tIs
    the server running ...``), its class's name when it has none."""
    return " ".join(str(exc).split()) or type(exc).__name__


def is_server_error(exc: BaseException) -> bool:
    """Whether ``exc`` is psycopg's (the server or the connection to it), not a damaged row's."""
    return type(exc).__module__.startswith("psycopg")


def pg_connect(env: dict[str, str], **options: Any) -> Any:
    """A psycopg connection (autocommit) to the server the ``POSTGRES_*`` settings name; a StoreError
    in one line when psycopg is missing or the server cannot be reached or refuses."""
    try:
        import psycopg
    except ImportError:
        raise StoreError("a PostgreSQL store needs psycopg: pip install 'trvendetta[postgres]'") from None
    where = f"{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
    try:
        return psycopg.connect(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                               user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"],
                               connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT") or 10), autocommit=True,
                               **options)
    except psycopg.Error as exc:
        raise StoreError(f"cannot open the PostgreSQL store {where}: {one_line(exc)}") from None


def _split(url: str) -> Any:
    """``urlsplit`` of a store URL whose user or password may hold ``[`` or ``]`` (urlsplit
    takes them for an IPv6 host's brackets): they are percent-encoded first, and read back
    by ``unquote`` as typed.  A URL that still does not split is a StoreError."""
    scheme, sep, rest = url.partition("://")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    user, at, host = rest[:end].rpartition("@")
    if at:
        rest = user.replace("[", "%5B").replace("]", "%5D") + at + host + rest[end:]
    try:
        return urlsplit(scheme + sep + rest)
    except ValueError as exc:
        raise StoreError(f"the store URL is not one: {exc} (postgresql://USER:PASSWORD@HOST:PORT/DB)") from None


def _without_password(url: str) -> str:
    parts = _split(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def cannot_write(path: Path) -> str | None:
    """Why this process cannot write the SQLite file at ``path`` (None when it can): the file, or its
    folder, where SQLite makes its ``-wal`` and ``-shm`` files beside it."""
    if not os.access(path, os.W_OK):
        return "you cannot write the file"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return "you cannot write its folder, where SQLite keeps its -wal and -shm files"
    return None


def read_uri(path: Path) -> str:
    """A URI that reads the SQLite file at ``path`` and leaves no file of this process beside it:
    ``mode=ro`` when this process may write there (a ``-wal`` or ``-shm`` it makes is its own, removed on
    close) or when another's ``-wal`` and ``-shm`` are there already (a writer has the file open: read
    through them); else ``immutable=1`` (no writer has it open: nothing to read but the file).  A
    StoreError when only a ``-wal`` is there, with changes not yet in the file, which cannot be read
    without its ``-shm``."""
    path = path.expanduser()
    uri = path.resolve().as_uri()
    wal, shm = (path.with_name(path.name + end) for end in ("-wal", "-shm"))
    if cannot_write(path) is None or shm.exists():
        return uri + "?mode=ro"
    if wal.exists() and wal.stat().st_size > 0:
        raise StoreError(f"cannot read the game store {path}: {cannot_write(path)} and its write-ahead log "
                         f"{wal.name} holds changes not yet in the database file; open it where it can be "
                         "written (or copy the folder there)")
    return uri + "?mode=ro&immutable=1"


def default_db_path(environ: dict[str, str] | None = None) -> Path:
    """``$TRV_DB``, else ``$XDG_DATA_HOME/trvendetta/trv.sqlite`` (``~/.local/share`` when unset)."""
    env = os.environ if environ is None else environ
    if env.get("TRV_DB"):
        return Path(env["TRV_DB"]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path("~/.local/share").expanduser())
    return Path(base).expanduser() / "trvendetta" / "trv.sqlite"
