import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli


class Trv:
    """Run `trv` in-process against one database; ``code=1`` expects a one-line error."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()
        self.env = {"TRV_GAME": None, "TRV_DB": None, "NO_COLOR": "1"}

    def __call__(self, *args: str, code: int = 0, env: dict | None = None):
        result = self.runner.invoke(cli, ["--db", str(self.db), *map(str, args)], env={**self.env, **(env or {})},
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
    return Trv(tmp_path / "trv.sqlite")


@pytest.fixture
def toy(tmp_path):
    """`trv` with the toy ruleset (tests/store/toy_ruleset.py: short games) and
    an identity home of its own ($TRV_HOME)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))
    import toy_ruleset

    toy_ruleset.register()
    t = Trv(tmp_path / "toy.sqlite")
    t.env = {**t.env, "TRV_HOME": str(tmp_path / "home"), "TRV_AS": None}
    return t
