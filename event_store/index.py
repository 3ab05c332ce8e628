"""The game index: a small read model (one row per game) for ``trv games``.

It lives in the same SQLite file as the events (table ``trv_games``), is
written after each successful save and can always be rebuilt from the events
(``GameStore.rebuild_index``): it is derived, never authoritative.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import sqlite_utils

TABLE = "trv_games"


def now() -> str:
    """Wall-clock time for the index only (never stored in a domain event)."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class GameInfo:
    """One row of ``trv games``."""

    id: str
    ruleset: str
    players: tuple[str, ...]
    round: int | None
    status: str  # playing | over
    winner: str | None
    version: int
    head: str
    created: str
    last_used: str

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "round": self.round,
            "status": self.status,
            "winner": self.winner,
            "version": self.version,
            "head": self.head,
            "created": self.created,
            "last_used": self.last_used,
        }


class GameIndex:
    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self.table = db.table(TABLE)
        if not self.table.exists():
            self.table.create(
                {
                    "id": str,
                    "ruleset": str,
                    "players": str,
                    "round": int,
                    "status": str,
                    "winner": str,
                    "version": int,
                    "head": str,
                    "created": str,
                    "last_used": str,
                },
                pk="id",
                if_not_exists=True,
            )
            self.table.create_index(["last_used"], if_not_exists=True)

    def put(self, row: dict, *, created: bool = False) -> None:
        stamp = now()
        row = dict(row, last_used=stamp)
        if created:
            row["created"] = stamp
        row["players"] = ",".join(row.get("players") or ())
        with self.db.conn:
            self.table.upsert(row, pk="id")

    def touch(self, game: str) -> None:
        with self.db.conn:
            self.db.execute(f"UPDATE {TABLE} SET last_used = ? WHERE id = ?", [now(), game])

    def get(self, game: str) -> GameInfo | None:
        rows = list(self.db.query(f"SELECT * FROM {TABLE} WHERE id = ?", [game]))
        return _info(rows[0]) if rows else None

    def all(self) -> list[GameInfo]:
        return [_info(r) for r in self.db.query(f"SELECT * FROM {TABLE} ORDER BY last_used DESC, id")]

    def latest(self) -> str | None:
        rows = list(self.db.query(f"SELECT id FROM {TABLE} ORDER BY last_used DESC, created DESC LIMIT 1"))
        return rows[0]["id"] if rows else None


def _info(row: dict) -> GameInfo:
    return GameInfo(
        id=row["id"],
        ruleset=row["ruleset"],
        players=tuple(p for p in (row["players"] or "").split(",") if p),
        round=row["round"],
        status=row["status"],
        winner=row["winner"],
        version=row["version"],
        head=row["head"],
        created=row["created"],
        last_used=row["last_used"],
    )
