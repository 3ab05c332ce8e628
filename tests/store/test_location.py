"""Store locations as a user types them (``--store`` / ``$TRV_STORE``)."""

import pytest

from trvendetta.store import StoreError, location


@pytest.mark.parametrize("text, kind, target", [
    ("games.sqlite", "sqlite", "games.sqlite"),
    ("sqlite:/tmp/a b.sqlite", "sqlite", "/tmp/a b.sqlite"),
    ("sqlite::memory:", "memory", ":memory:"),
    (":memory:", "memory", ":memory:"),
    ("C:games.sqlite", "sqlite", "C:games.sqlite"),
    ("postgresql://ann@db:5433/club", "postgresql", "postgresql://ann@db:5433/club"),
    ("postgres://ann@db/club", "postgresql", "postgres://ann@db/club"),
])
def test_parse(text, kind, target):
    assert location.parse(text) == (kind, target)


def test_postgres_settings_for_the_library():
    env = location.postgres_env("postgresql://ann:s%40cret@db.example:5433/club?schema=spring_cup")
    assert env == {"POSTGRES_DBNAME": "club", "POSTGRES_HOST": "db.example", "POSTGRES_PORT": "5433",
                   "POSTGRES_USER": "ann", "POSTGRES_PASSWORD": "s@cret", "POSTGRES_SCHEMA": "spring_cup"}
    assert location.postgres_env("postgresql://ann@db/club")["POSTGRES_SCHEMA"] == "public"
    assert str(location.parse("postgresql://ann:pw@db/club")) == "postgresql://ann:***@db/club"


@pytest.mark.parametrize("text, message", [
    ("mysql://db/x", "unknown store 'mysql://db/x'"),
    ("sqlite:", "sqlite: needs a file name"),
])
def test_bad_locations(text, message):
    with pytest.raises(StoreError, match=message):
        location.parse(text)


@pytest.mark.parametrize("url, message", [
    ("postgresql://ann@db/", "needs a host and a database"),
    ("postgresql://ann@db/club?schema=Drop;Table", "schema 'Drop;Table': use lower-case letters"),
    ("postgresql://ann@db/club?sslmode=off", "unknown option 'sslmode'"),
    ("postgresql://ann@db:port/club", "has a bad port"),
])
def test_bad_postgres_urls(url, message):
    with pytest.raises(StoreError, match=message):
        location.postgres_env(url)
