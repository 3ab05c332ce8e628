import pytest

from .helpers import Trv


@pytest.fixture
def trv(tmp_path):
    return Trv(tmp_path / "trv.sqlite")
