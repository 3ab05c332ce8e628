"""Where a store lives: an SQLite file, memory, or a PostgreSQL server.

A location is written the way a user types it after ``--store`` (or in
``$TRV_STORE``)::

    games.sqlite                        an SQLite file (also ``sqlite:games.sqlite``)
    :memory:                            in memory (demos, bots, tests)
    postgresql://USER@HOST:PORT/DB      a PostgreSQL database (also ``postgres://``);
        ?schema=NAME                    in that schema (created on first use; default public)

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
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


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
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - {"schema"})
    if unknown:
        raise StoreError(f"unknown option {unknown[0]!r} in the store URL; the only one is ?schema=NAME")
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or not parts.hostname:
        raise StoreError(f"the store URL {_without_password(url)!r} needs a host and a database: "
                         "postgresql://USER@HOST:PORT/DB")
    schema = query.get("schema", ["public"])[-1]
    if not _SCHEMA_NAME.match(schema):
        raise StoreError(f"schema {schema!r}: use lower-case letters, digits and _ (at most 63)")
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


def default_db_path(environ: dict[str, str] | None = None) -> Path:
    """``$TRV_DB``, else ``$XDG_DATA_HOME/trvendetta/trv.sqlite`` (``~/.local/share`` when unset)."""
    env = os.environ if environ is None else environ
    if env.get("TRV_DB"):
        return Path(env["TRV_DB"]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path("~/.local/share").expanduser())
    return Path(base).expanduser() / "trvendetta" / "trv.sqlite"
