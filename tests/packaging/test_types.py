"""The type checker passes over its scope (pyproject.toml's ``[tool.mypy]``:
the whole engine package, the public API, the core, the bots and every
ruleset's rules), so a landing that breaks a type there fails here as it
would in .ci/run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_its_scope():
    pytest.importorskip("mypy", reason="mypy comes with the test extra (pip install -e '.[test]')")
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir=/dev/null"], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]
    assert "Success: no issues found" in run.stdout
