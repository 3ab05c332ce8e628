"""Hostile input and damaged stores (issue 17): run `trv` in-process and count
what a refused command left in the store."""

import sqlite3
from pathlib import Path

from click.testing import CliRunner

from trvendetta.cli.main import cli


def stored_rows(db: Path) -> int:
    """Every stored event record in the file (0 when there is no file yet)."""
    if not db.exists():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
        return con.execute("select count(*) from stored_events").fetchone()[0] if "stored_events" in tables else 0
    finally:
        con.close()


class Trv:
    """`trv` against one database; ``code`` is the expected exit code (None: any).

    Every failure must be one line starting ``Error:`` (usage errors: click's
    usage text then one ``Error:`` line), never a traceback."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()
        self.env = {"TRV_GAME": None, "TRV_DB": None, "NO_COLOR": "1"}

    def __call__(self, *args, code: int | None = 0, db: Path | None = None, input: str | None = None):
        result = self.runner.invoke(cli, ["--db", str(db or self.db), *map(str, args)], env=self.env,
                                    input=input, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            import traceback

            raise AssertionError(f"traceback from trv {args}:\n" + "".join(
                traceback.format_exception(result.exception)))
        if code is not None:
            assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        if result.exit_code == 1:
            assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
        if result.exit_code == 2:
            assert result.stderr.splitlines()[-1].startswith("Error: "), result.stderr
        return result
