import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "store"))  # the toy ruleset lives with the store tests

import toy_ruleset  # noqa: E402

from trvendetta.cli.main import cli  # noqa: E402

class Trv:
    """Run `trv` in-process; ``code`` is the expected exit code."""

    def __init__(self):
        self.runner = CliRunner()
        self.env = {"TRV_GAME": None, "TRV_DB": None, "NO_COLOR": "1"}

    def __call__(self, db, *args: str, code: int = 0):
        result = self.runner.invoke(cli, ["--db", str(db), *map(str, args)], env=self.env, catch_exceptions=False)
        assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        if code == 1:
            assert "Traceback" not in result.stderr
            assert result.stderr.startswith("Error: "), result.stderr
        return result


@pytest.fixture
def trv():
    toy_ruleset.register()
    return Trv()


@pytest.fixture
def toy():
    return toy_ruleset.register()


