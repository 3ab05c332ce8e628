"""The CLI parses and prints: what it writes to a store goes through the
application layer (``trvendetta.app``), never the store's writers directly.

Read from the source with ``ast``: no CLI module imports the store's
tournament log or read model, or calls a store's ``touch`` or
``create_game`` (docs/architecture.md).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parent.parent.parent / "cli"
WRITERS = ("trvendetta.store.tournament", "trvendetta.app.tournament_read")
CALLS = {"touch", "create_game"}


def _breaches(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in WRITERS:
            found.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name in WRITERS]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CALLS:
            found.append(f"line {node.lineno}: calls .{node.func.attr}()")
    return found


@pytest.mark.parametrize("path", sorted(CLI.glob("*.py")), ids=lambda p: p.name)
def test_the_cli_writes_to_a_store_only_through_the_application_layer(path):
    assert _breaches(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_direct_write():
    source = ("from trvendetta.app.tournament_read import TournamentRead\nimport trvendetta.store.tournament\n"
              "def f(session, game):\n    session.store().touch(game)\n")
    assert _breaches(source) == ["line 1: imports trvendetta.app.tournament_read", "line 2: imports trvendetta.store.tournament",
                                 "line 4: calls .touch()"]
