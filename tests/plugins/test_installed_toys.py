"""The installed ``trv`` plays the two toy extensions kept in another installed distribution.

``tests/plugins/sidecar`` (the ``outriders`` crew: an action, an event and state of its own, in
base Vendetta games) and ``tests/plugins/ringroad`` (a board whose lanes wrap, with the ruleset
that carries it) are copied into one distribution (``trv-toys``) declaring the
``trvendetta.crews`` and ``trvendetta.rulesets`` entry points, installed with pip into a directory
on ``PYTHONPATH`` (as test_installed.py installs the dunes), and played by the ``trv``
script as a subprocess.  test_sidecar.py and test_ringroad.py play them in-process, where the test
imports them; here nothing imports them but the entry points."""

from __future__ import annotations

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
name = "trv-toys"
version = "0.1"

[project.entry-points."trvendetta.crews"]
outriders = "trv_sidecar"

[project.entry-points."trvendetta.rulesets"]
ringroad = "trv_ringroad"

[tool.setuptools]
packages = ["trv_sidecar", "trv_ringroad"]
"""

RING = """\
ruleset = "ringroad"
seed = 5
round = 2
road_die = 1
active_player = "ann"
first_player = "ann"
fill = "road"
tokens = []

[[players]]
name = "ann"
color = "red"
dice = [1, 2, 3, 4]

[[players]]
name = "bob"
color = "blue"
dice = [3, 3, 5, 6]

[[vehicles]]
id = "red-small"
at = "a5"
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A directory holding the installed ``trv-toys`` distribution (and its metadata)."""
    root = tmp_path_factory.mktemp("toys")
    source, site = root / "source", root / "site"
    for package, folder in (("trv_sidecar", "sidecar"), ("trv_ringroad", "ringroad")):
        (source / package).mkdir(parents=True)
        shutil.copy(HERE / folder / "__init__.py", source / package / "__init__.py")
    (source / "pyproject.toml").write_text(PYPROJECT)
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(source)],
                   check=True, capture_output=True, cwd=root)
    assert sorted(p.name for p in site.glob("*.dist-info")) == ["trv_toys-0.1.dist-info"]
    return site


@pytest.fixture
def trv(site, tmp_path):
    """``trv --db DB ARGS...`` as a subprocess with the distribution on the path (``db=``: another store)."""
    env = {**os.environ, "PYTHONPATH": str(site), "NO_COLOR": "1", "XDG_DATA_HOME": str(tmp_path / "data"),
           "TRV_HOME": str(tmp_path / "home")}
    for name in ("TRV_DB", "TRV_STORE", "TRV_GAME", "TRV_SERVER"):
        env.pop(name, None)

    def run(*args: str, code: int = 0, db: str = "trv.sqlite") -> subprocess.CompletedProcess:
        done = subprocess.run([str(TRV), "--db", str(tmp_path / db), *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        return done

    return run


def _show(trv, db: str = "trv.sqlite") -> dict:
    return json.loads(trv("show", "--json", db=db).stdout)


def test_the_installed_trv_seats_and_plays_the_sidecar_crew(trv, tmp_path):
    # the crew is offered by name (new --help, the turn's vehicles) and its own flag is there
    assert "vendetta: cars, finalfive, bigrig, outriders" in " ".join(trv("new", "--help").stdout.split())
    turn_help = trv("turn", "--help").stdout
    assert "--flare" in turn_help and "small|medium|large|sidecar" in turn_help
    assert "vendetta game" in trv("new", "--player", "ann:red:outriders", "--player", "bob:blue:cars",
                                  "--seed", "4").stdout
    view = _show(trv)
    assert [p["crew"] for p in view["players"]] == ["outriders", "cars"] and view["pending"]["player"] == "ann"
    assert "red-sidecar" in trv("legal").stdout
    # a turn with the crew's own flag: its action, its event, its state
    die = view["players"][0]["dice"][0]
    out = trv("turn", "--car", "sidecar", "--assign", str(die), "--flare", "--no-shoot").stdout
    assert "red-sidecar's passenger throws a flare" in out
    # read back by fresh processes: the store's events (its event type) and the crew's state
    assert [p.get("flares_thrown") for p in _show(trv)["players"]] == [1, None]
    assert "flares thrown: 1 of 2" in trv("show").stdout
    assert "red-sidecar's passenger throws a flare" in trv("log").stdout
    picture = tmp_path / "board.svg"
    trv("show", "--svg", str(picture))
    assert picture.read_text().startswith("<svg") and "red-sidecar" in picture.read_text()
    assert trv("verify").stdout.startswith("OK: ")
    # export, and import into another store
    record = tmp_path / "outriders.trv"
    trv("export", "--output", str(record))
    trv("import", str(record), db="other.sqlite")
    assert trv("verify", db="other.sqlite").stdout.startswith("OK: ")
    assert "red-sidecar's passenger throws a flare" in trv("log", db="other.sqlite").stdout
    assert _show(trv, "other.sqlite")["players"] == _show(trv)["players"]
    assert "2 games" in trv("sim", "--crews", "outriders,cars", "--games", "2", "--quiet").stdout


def test_the_installed_trv_plays_round_the_ring(trv, tmp_path):
    assert "ringroad: cars, finalfive, bigrig" in " ".join(trv("new", "--help").stdout.split())
    position = tmp_path / "ring.toml"
    position.write_text(RING)
    assert "ringroad game" in trv("new", "--position", str(position)).stdout
    trv("decide", "assign 1 to red-small")
    trv("decide", "no-command")
    legal = trv("legal").stdout
    assert "FL" in legal and "fatal" not in legal  # the step off lane a wraps to lane f
    trv("turn", "--path", "FL")
    view = _show(trv)
    red = next(v for v in view["vehicles"] if v["id"] == "red-small")
    assert view["ruleset"] == "ringroad" and (red["at"], red["status"]) == ("f5", "operational")
    assert "red-small" in trv("show").stdout
    picture = tmp_path / "ring.svg"
    trv("show", "--svg", str(picture))
    assert picture.read_text().startswith("<svg") and "red-small" in picture.read_text()
    assert trv("verify").stdout.startswith("OK: ")
    record = tmp_path / "ring.trv"
    trv("export", "--output", str(record))
    trv("import", str(record), db="other.sqlite")
    assert trv("verify", db="other.sqlite").stdout.startswith("OK: ")
    assert _show(trv, "other.sqlite")["vehicles"] == view["vehicles"]
    assert "2 games" in trv("sim", "--ruleset", "ringroad", "--games", "2", "--quiet").stdout
