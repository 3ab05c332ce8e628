"""The installed ``trv`` finds a ruleset and a crew kept in another installed distribution.

The toy ruleset of ``tests/plugins/dunes.py`` is built as a distribution of its own
(``trv-dunes``, a package in a temporary directory whose ``pyproject.toml`` declares the
``trvendetta.rulesets`` and ``trvendetta.crews`` entry points), installed with pip into a
directory on ``PYTHONPATH``, and played by the ``trv`` script as a subprocess: nothing imports
it by hand and no file of the project names it."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TRV = Path(sys.executable).with_name("trv")

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "trv-dunes"
version = "0.1"

[project.entry-points."trvendetta.rulesets"]
dunes = "trv_dunes"

[project.entry-points."trvendetta.crews"]
jeeps = "trv_dunes"

[tool.setuptools]
packages = ["trv_dunes"]
"""



def _startup_modules(*args: str, env: dict) -> list[str]:
    """What ``trv ARGS...`` imported (tests/packaging/test_startup.py's ``_modules``, reused)."""
    spec = importlib.util.spec_from_file_location("_startup_check", HERE.parent / "packaging" / "test_startup.py")
    assert spec is not None and spec.loader is not None
    startup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(startup)
    return startup._modules(*args, env=env)[0]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A directory holding the installed ``trv-dunes`` distribution (and its metadata)."""
    root = tmp_path_factory.mktemp("plugin")
    source, site = root / "source", root / "site"
    (source / "trv_dunes").mkdir(parents=True)
    (source / "pyproject.toml").write_text(PYPROJECT)
    shutil.copy(HERE / "dunes.py", source / "trv_dunes" / "__init__.py")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(source)],
                   check=True, capture_output=True, cwd=root)
    assert sorted(p.name for p in site.glob("*.dist-info")) == ["trv_dunes-0.1.dist-info"]
    return site


@pytest.fixture
def trv(site, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(site), "NO_COLOR": "1", "XDG_DATA_HOME": str(tmp_path / "data")}
    for name in ("TRV_DB", "TRV_STORE", "TRV_GAME", "TRV_SERVER"):
        env.pop(name, None)
    db = str(tmp_path / "trv.sqlite")

    def run(*args: str, code: int = 0, extra: dict | None = None, db_args: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([str(TRV), *(["--db", db] if db_args else []), *args], capture_output=True, text=True,
                              env={**env, **(extra or {})}, cwd=tmp_path)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        return done

    run.env = env  # type: ignore[attr-defined]
    return run


def test_the_installed_trv_plays_a_ruleset_of_another_distribution(trv, tmp_path):
    # trv new --help and trv sim --help list the plug-in's ruleset with its crews, the plug-in crew too
    for command in (("new", "--help"), ("sim", "--help")):
        assert "dunes: cars, finalfive, bigrig, jeeps" in " ".join(trv(*command).stdout.split())
    assert "--ruleset dunes" in trv("turn", "--help").stdout
    # new, show, turn (with the crew's own flag), show again, log, verify, export and its verify
    assert "dunes game" in trv("new", "--ruleset", "dunes", "--player", "ann:red:jeeps", "--player",
                               "bob:blue:cars", "--seed", "4").stdout
    view = json.loads(trv("show", "--json").stdout)
    assert view["ruleset"] == "dunes" and view["board"]["widths"]["red-small"] == 0.66  # the jeeps' looks
    die = view["players"][0]["dice"][-1]
    assert f"ann assigns {die} to red-medium" in trv("turn", "--jeep", "medium", "--assign", str(die),
                                                        "--no-shoot").stdout
    assert trv("show").stdout.count("4x4") == 3
    assert trv("verify").stdout.startswith("OK: ")
    record = tmp_path / "dunes.trv"
    trv("export", "--output", str(record))
    assert trv("verify", str(record)).stdout.startswith("OK: ")
    # a position file naming the plug-in's ruleset
    position = tmp_path / "dunes.toml"
    position.write_text('ruleset = "dunes"\nseed = 5\n\n[[players]]\nname = "ann"\ncolor = "red"\ncrew = "jeeps"\n\n'
                        '[[players]]\nname = "bob"\ncolor = "blue"\n')
    trv("new", "--position", str(position))
    assert [p["crew"] for p in json.loads(trv("show", "--json").stdout)["players"]] == ["jeeps", "cars"]
    # the simulator
    assert "2 games" in trv("sim", "--ruleset", "dunes", "--crews", "jeeps,cars", "--games", "2", "--quiet").stdout
    # shell completion of --ruleset
    completion = trv(extra={"_TRV_COMPLETE": "bash_complete", "COMP_WORDS": "trv new --ruleset d", "COMP_CWORD": "3"},
                     db_args=False).stdout
    assert completion.split() == ["plain,dunes"]


def test_without_the_distribution_the_ruleset_is_unknown_and_named_so(trv):
    """The same command without the plug-in on the path: a usage error listing the rulesets there are."""
    env = {**trv.env, "PYTHONPATH": ""}
    done = subprocess.run([str(TRV), "new", "--ruleset", "dunes", "--player", "ann:red", "--player", "bob:blue"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "unknown ruleset 'dunes'" in done.stderr and "vendetta" in done.stderr


@pytest.mark.parametrize("args", [("--help",), ("--version",), ("new", "--help")])
def test_help_and_version_read_no_plugin(trv, args):
    """Start-up stays cheap: ``trv --help`` and ``--version`` neither import the plug-in nor read
    any distribution's entry points; ``trv new --help``, which lists every ruleset's crews, does."""
    modules = _startup_modules(*args, env={"PYTHONPATH": trv.env["PYTHONPATH"]})
    lists_rulesets = args[0] == "new"
    assert ("trv_dunes" in modules) is lists_rulesets and ("importlib.metadata" in modules) is lists_rulesets
    assert ("trvendetta.plugins" in modules) is lists_rulesets


def test_a_plugin_that_does_not_load_is_one_clear_message(site, trv, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    (broken / "trv_dunes" / "__init__.py").write_text("raise RuntimeError('half installed')\n")
    extra = {"PYTHONPATH": str(broken)}
    done = trv("new", "--ruleset", "dunes", "--player", "ann:red", "--player", "bob:blue", code=2, extra=extra)
    assert "the trvendetta.rulesets plug-in 'dunes' of trv-dunes (trv_dunes) does not load: RuntimeError: " \
           "half installed" in done.stderr and "Traceback" not in done.stderr
    position = tmp_path / "dunes.toml"
    position.write_text('ruleset = "dunes"\nseed = 5\n\n[[players]]\nname = "ann"\ncolor = "red"\n\n'
                        '[[players]]\nname = "bob"\ncolor = "blue"\n')
    done = trv("new", "--position", str(position), code=2, extra=extra)
    assert "plug-in 'dunes' of trv-dunes (trv_dunes) does not load" in done.stderr
    # the other rulesets still play
    assert "vendetta game" in trv("new", "--player", "ann:red", "--player", "bob:blue", "--seed", "1",
                                  extra=extra).stdout
