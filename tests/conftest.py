"""The PostgreSQL server the PostgreSQL tests run against, if any.

``$TRV_TEST_POSTGRES`` names it (``postgresql://USER@HOST:PORT/DB``; `.ci/run`
sets it).  Each test gets a schema of its own (``?schema=t_...``), dropped
afterwards, so tests stay isolated when run in parallel.  Without the
variable, or when the server does not answer, those tests are skipped with
the reason printed in pytest's header and summary; with
``$TRV_TEST_POSTGRES_REQUIRED`` set (as in CI) they fail instead.
"""

from __future__ import annotations

import os
import uuid
from functools import cache

import pytest

ENV = "TRV_TEST_POSTGRES"


@cache
def postgres_problem() -> str | None:
    """Why the PostgreSQL tests cannot run here (None when they can)."""
    url = os.environ.get(ENV)
    if not url:
        return f"PostgreSQL tests skipped: ${ENV} is not set (e.g. postgresql://postgres@127.0.0.1:5432/test)"
    try:
        import psycopg
    except ImportError:
        return "PostgreSQL tests skipped: psycopg is not installed (pip install -e '.[test]')"
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL tests skipped: {url} does not answer: {str(exc).strip().splitlines()[0]}"
    return None


def pytest_report_header(config: pytest.Config) -> str:
    problem = postgres_problem()
    return problem or f"PostgreSQL tests against {os.environ[ENV]}"


@pytest.fixture
def pg_url():
    """A ``postgresql://`` store location in a fresh schema of its own (dropped after)."""
    problem = postgres_problem()
    if problem:
        if os.environ.get("TRV_TEST_POSTGRES_REQUIRED"):
            pytest.fail(problem.replace("skipped", "required (TRV_TEST_POSTGRES_REQUIRED)"))
        pytest.skip(problem)
    import psycopg

    base = os.environ[ENV]
    schema = "t_" + uuid.uuid4().hex[:16]
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}schema={schema}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
