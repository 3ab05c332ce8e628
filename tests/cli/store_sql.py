"""Stores edited behind trv's back, on SQLite or PostgreSQL, and `trv` run in-process against them."""

from click.testing import CliRunner

from trvendetta.cli.main import cli
from trvendetta.store import game_uuid
from trvendetta.store.store import PG_COMMANDS_TABLE


def trv(store, *args):
    env = {"TRV_STORE": store, "TRV_DB": None, "TRV_GAME": None, "NO_COLOR": "1"}
    return CliRunner().invoke(cli, list(args), env=env)


def ok(store, *args):
    result = trv(store, *args)
    assert result.exit_code == 0, (args, result.output)
    return result


class Sql:
    """Statements on a store's tables (``?`` placeholders; ``COMMANDS``: the commands table; ``key``: a
    game's key there)."""

    def __init__(self, store):
        self.pg = store.startswith("postgresql:")
        if self.pg:
            import psycopg

            base, self.schema = store.split("?schema=")
            self.connect = lambda: psycopg.connect(base, autocommit=True)
        else:
            import sqlite3

            self.connect = lambda: sqlite3.connect(store.removeprefix("sqlite:"), isolation_level=None)

    def key(self, game):
        return game_uuid(game) if self.pg else game

    def __call__(self, sql, params=()):
        if self.pg:
            sql = (sql.replace("?", "%s").replace("COMMANDS", f'"{self.schema}".{PG_COMMANDS_TABLE}')
                   .replace("trv_games", f'"{self.schema}".trv_games'))
        else:
            sql = sql.replace("COMMANDS", "stored_commands")
        con = self.connect()
        try:
            return con.execute(sql, params).fetchall() if sql.startswith("SELECT") else con.execute(sql, params)
        finally:
            con.close()
