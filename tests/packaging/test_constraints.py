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


def test_the_readme_test_command_is_what_ci_runs():
    """Every step of .ci/run's install and test (what runs in the venv) is in the README's second
    command, and nothing else is; what .ci/run adds (PostgreSQL, Chromium) the README names."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    readme_steps = [step.strip() for step in block[1].split("&&")]
    ci = [line.split("#", 1)[0].strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    ci_steps = [step.strip() for line in ci if ".venv" in line for step in line.split("&&")]
    assert ci_steps == readme_steps, (ci_steps, readme_steps)
    assert "TRV_TEST_POSTGRES" in readme and "Chromium" in readme
