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
        return sum(con.execute(f"select count(*) from {t}").fetchone()[0]
                   for t in ("stored_events", "stored_commands") if t in tables)
    finally:
        con.close()


class Trv:
    """`trv` against one database; ``code`` is the expected exit code (None: any).

    Every failure must be one line starting ``Error:`` (usage errors: click's
    usage text then one ``Error:`` line; verify's divergence shows the
    recorded and recomputed events under it), never a traceback."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()
        self.env = {"TRV_GAME": None, "TRV_DB": None, "NO_COLOR": "1"}

    def __call__(self, *args, code: int | None = 0, db: Path | None = None, input: str | None = None):
        result = self.runner.invoke(cli, ["--db", str(db or self.db), *map(str, args)], env=self.env,
                                    input=input, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            import traceback

            shown = [a if len(str(a)) < 200 else f"{str(a)[:100]}...({len(str(a))} chars)" for a in args]
            raise AssertionError(f"traceback from trv {shown}:\n" + "".join(
                traceback.format_exception(result.exception))[-3000:])
        if code is not None:
            assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        if result.exit_code == 1:
            assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr, result.stderr
            if not result.stderr.startswith("Error: event ") or " differs from the rules' result" not in result.stderr:
                assert result.stderr.count("\n") == 1, result.stderr  # one line (verify's divergence: two sides)
        if result.exit_code == 2:
            assert "\nError: " in result.stderr and "Traceback" not in result.stderr, result.stderr
        return result


def play_random(db: Path, name: str = "g", seed: int = 3, actions: int = 60, snapshot_interval: int = 100,
                ruleset: str = "vendetta"):
    """A game played by the random bot for both seats through the store's
    API, ``actions`` actions or to its end; returns the last ``Loaded``."""
    from trvendetta import rulesets
    from trvendetta.bots import get_bot
    from trvendetta.core.rng import Rng
    from trvendetta.store import GameStore

    rs = rulesets.get(ruleset)
    state, events = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], seed))
    bot = get_bot("random")
    with GameStore(db, snapshot_interval=snapshot_interval) as store:
        loaded = store.create_game(name, rs.name, events)
        for i in range(actions):
            if rs.is_over(loaded.state):
                break
            action = bot.choose(rs, loaded.state, Rng(seed, 1000 + i), rs.pending(loaded.state))
            _, new = rs.apply(loaded.state, action)
            loaded = store.append(name, loaded.version, steps=[(action, new)])
    return loaded


def sql(db: Path, statement: str, *params) -> None:
    """Damage the file from outside, as a user with the sqlite3 shell would."""
    con = sqlite3.connect(db)
    try:
        con.execute(statement, params)
        con.commit()
    finally:
        con.close()


def rows(db: Path, statement: str, *params) -> list:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(statement, params).fetchall()
    finally:
        con.close()
