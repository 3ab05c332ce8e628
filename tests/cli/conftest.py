import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "store"))  # the toy ruleset lives with the store tests
sys.path.insert(0, str(HERE.parent / "plugins"))  # the dunes: a board and a crew kept outside the package

import dunes  # noqa: E402,F401  (registers itself: every CLI test sees the same rulesets, whatever ran before)
import toy_ruleset  # noqa: E402

from trvendetta.cli.main import cli  # noqa: E402


class Trv:
    """Run `trv` in-process against one database; ``ok=False`` expects a failure."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()
        self.env = {"TRV_GAME": None, "TRV_DB": None, "TRV_STORE": None, "NO_COLOR": "1"}

    def __call__(self, *args: str, code: int = 0, env: dict | None = None):
        result = self.runner.invoke(cli, ["--db", str(self.db), *args], env={**self.env, **(env or {})},
                                    catch_exceptions=False)
        assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        if code == 1:
            assert "Traceback" not in result.stderr
            assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
        return result

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def trv(tmp_path):
    toy_ruleset.register()
    return Trv(tmp_path / "trv.sqlite")
