"""Players at a distance: each with their own store and identity home."""

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "store"))  # the toy ruleset lives with the store tests

import toy_ruleset  # noqa: E402

from trvendetta.cli.main import cli  # noqa: E402

FIXTURES = HERE / "fixtures"


class Player:
    """`trv` as one player runs it: their own database and $TRV_HOME."""

    def __init__(self, root: Path, name: str):
        self.name = name
        self.db = root / f"{name}.sqlite"
        self.home = root / f"home-{name}"
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int = 0, env: dict | None = None, multiline: bool = False):
        base = {"TRV_GAME": None, "TRV_DB": None, "TRV_AS": None, "NO_COLOR": "1", "TRV_HOME": str(self.home)}
        result = self.runner.invoke(cli, ["--db", str(self.db), *map(str, args)], env={**base, **(env or {})},
                                    catch_exceptions=False)
        assert result.exit_code == code, (self.name, args, result.exit_code, result.stdout, result.stderr)
        if code == 1:
            assert "Traceback" not in result.stderr
            assert result.stderr.startswith("Error: ") and (multiline or result.stderr.count("\n") == 1), \
                result.stderr
        return result

    def pending(self) -> str | None:
        out = self("legal").stdout.splitlines()
        return None if out[0].startswith("the game is over") else out[0].split(":")[0]

    def first_legal(self) -> str:
        return self("legal").stdout.splitlines()[1].strip()


@pytest.fixture
def players(tmp_path):
    toy_ruleset.register()

    def make(*names, root=None):
        """Players with their own stores and homes, each public key as ``NAME.pub``, under
        ``root`` (default: the test's tmp_path; another root holds another game's players)."""
        root = root or tmp_path
        root.mkdir(parents=True, exist_ok=True)
        out = [Player(root, n) for n in names]
        for p in out:
            p("id", "new", p.name)
            (root / f"{p.name}.pub").write_text(p("id", "show", p.name).stdout)
        return out

    return make


@pytest.fixture(autouse=True)
def seeded_entropy(monkeypatch):
    """Secret randomness (keys, exchange secrets, a host's seed and salt, contributions) from a
    counter instead of the operating system, for every fair-play test: each plays the same game on
    every run, so a test cannot pass or fail by the luck of the dice."""
    from fairplay_helpers import counter_entropy

    counter_entropy(monkeypatch)

