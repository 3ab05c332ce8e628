import pytest

import toy_ruleset


@pytest.fixture
def toy():
    return toy_ruleset.register()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite"
