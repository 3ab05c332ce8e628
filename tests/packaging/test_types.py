"""The type checker passes over its scope (pyproject.toml's ``[tool.mypy]``: the whole tree, the
engine package and the folders pyproject maps into it, under their installed names), so a landing
that breaks a type there fails here as it would in .ci/run; and the link tree that lets mypy see
those names (``.mypy_layout/trvendetta/``) is pyproject's package-dir mapping, no more, no less."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = ROOT / ".mypy_layout" / "trvendetta"


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_mypy_finds_no_error_in_its_scope():
    pytest.importorskip("mypy", reason="mypy comes with the test extra (pip install -e '.[test]')")
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir=/dev/null"], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]
    assert "Success: no issues found" in run.stdout


def test_the_layout_links_are_the_package_dir_mapping():
    mapped = {package.removeprefix("trvendetta."): folder
              for package, folder in _pyproject()["tool"]["setuptools"]["package-dir"].items()}
    links = {entry.name: os.readlink(entry) for entry in LAYOUT.iterdir()}
    assert links == {name: f"../../{folder}" for name, folder in mapped.items()}
    for name in links:  # each resolves to its folder, a package
        assert (LAYOUT / name / "__init__.py").resolve() == (ROOT / mapped[name] / "__init__.py").resolve()


def test_mypy_checks_the_engine_and_every_mapped_folder():
    config = _pyproject()["tool"]["mypy"]
    assert config["mypy_path"] == ".mypy_layout"
    assert set(config["files"]) == {"trvendetta", *(f".mypy_layout/trvendetta/{name}" for name in
                                                    (p.removeprefix("trvendetta.") for p in
                                                     _pyproject()["tool"]["setuptools"]["package-dir"]))}
    assert not any(key in config for key in ("ignore_errors", "disable_error_code"))
