"""The wheel puts only the ``trvendetta`` namespace (and the ``trv`` script) in site-packages.

The top-level folders of the checkout (``cli/``, ``event_store/``, ``replays/``,
``app/``...) are mapped into ``trvendetta`` by pyproject.toml; a top-level ``cli``
package would collide with any other distribution that ships one.  The benchmarks
(``bench/``) stay in the checkout.  The wheel is built from a copy of the checkout,
so the suite leaves no ``build/`` or ``*.egg-info`` behind."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: what a build writes into the tree it builds
LEFT_BY_A_BUILD = ("build", "dist", "*.egg-info")


def _snapshot(root: Path) -> dict[str, int]:
    """Every path a build leaves in ``root``, with its modification time."""
    return {str(p): p.stat().st_mtime_ns for pattern in LEFT_BY_A_BUILD for top in root.glob(pattern)
            for p in [top, *top.rglob("*")]}


def test_wheel_installs_one_namespace(tmp_path):
    wheels, site, source = tmp_path / "wheels", tmp_path / "site", tmp_path / "source"
    before = _snapshot(ROOT)
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "*.sqlite*", "__pycache__",
                                                                 ".pytest_cache", *LEFT_BY_A_BUILD))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
                   check=True, capture_output=True, cwd=tmp_path)
    assert _snapshot(ROOT) == before, "the build wrote into the checkout"
    (wheel,) = wheels.glob("trvendetta-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    top = sorted(p.name for p in site.iterdir() if not p.name.endswith(".dist-info"))
    assert top == ["bin", "trvendetta"], top
    assert [p.name for p in (site / "bin").iterdir()] == ["trv"]
    installed = {p.relative_to(site / "trvendetta").parts[0] for p in (site / "trvendetta").rglob("*.py")}
    assert {"cli", "store", "replays", "core", "vendetta", "classic", "bots"} <= installed
    assert "bench" not in installed  # the benchmarks and their DevTools client stay in the checkout
    assert (site / "trvendetta" / "py.typed").exists()  # the library's types are for its users (PEP 561)
    # Every package of the checkout is in the wheel (a new subpackage must be listed in pyproject).
    for folder, name in [("trvendetta", "."), ("cli", "cli"), ("event_store", "store"), ("replays", "replays")]:
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            assert (site / "trvendetta" / name / rel / "__init__.py").exists(), f"{folder}/{rel} is not packaged"
    # The installed copy runs on its own, away from the checkout.
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("TRV_DB", None)
    env.pop("TRV_STORE", None)
    out = subprocess.run([sys.executable, "-c", "import trvendetta.cli.main as m, trvendetta.store as s; "
                          "print(m.__file__); print(s.__file__)"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.split()
    assert all(line.startswith(str(site)) for line in out), out
    demo = subprocess.run([str(site / "bin" / "trv"), "demo", "--seed", "1", "--bot", "greedy"], env=env, cwd=tmp_path,
                          capture_output=True, text=True)
    assert demo.returncode == 0 and "winner: " in demo.stdout, demo.stderr
