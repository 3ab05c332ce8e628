"""The engine is pure: trvendetta/ imports only the standard library and msgspec
(no click, no eventsourcing, no clock, no global random)."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "trvendetta"
ALLOWED_THIRD_PARTY = {"msgspec"}
FORBIDDEN_STDLIB = {"random", "time", "datetime", "os", "subprocess", "socket", "sqlite3"}


def imports():
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield path, node.module.split(".")[0]


def test_engine_imports_only_stdlib_and_msgspec():
    bad = []
    for path, top in imports():
        if top == "trvendetta" or top in ALLOWED_THIRD_PARTY:
            continue
        if top not in sys.stdlib_module_names or top in FORBIDDEN_STDLIB:
            bad.append(f"{path.relative_to(ROOT.parent)}: {top}")
    assert bad == []


def test_the_scan_sees_the_engine():
    names = {top for _, top in imports()}
    assert "msgspec" in names and "hashlib" in names
