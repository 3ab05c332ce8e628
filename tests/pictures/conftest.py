import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "store"))  # the toy ruleset

import toy_ruleset  # noqa: E402


@pytest.fixture
def toy_view():
    rs = toy_ruleset.register()
    state, _ = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 1))
    return rs.view(state)
