"""CI installs every dependency at a pinned version (constraints.txt), so a new release of one
changes CI only through a commit; the README's test command installs the same way."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, eq, version = line.partition("==")
            assert eq and version, f"constraints.txt: {line!r} is not NAME==VERSION"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        reqs += [Requirement(r) for r in extra if not r.startswith("trvendetta")]
    return reqs


def test_every_dependency_is_pinned_within_what_pyproject_allows():
    pins = _pins()
    assert "trvendetta" not in pins
    for req in _requirements():
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in pins, f"constraints.txt pins no version of {req.name} (pyproject: {req})"
        assert req.specifier.contains(Version(pins[name]), prereleases=True), \
            f"constraints.txt pins {req.name}=={pins[name]}, outside pyproject's {req}"


def test_ci_and_the_readme_install_with_the_constraints():
    assert "pip install -c constraints.txt -e '.[test]'" in (ROOT / ".ci" / "run").read_text()
    assert "pip install -c constraints.txt -e '.[test]'" in (ROOT / "README.md").read_text()
