"""docs/library.md's examples run: every ``python`` block, in order, in one
namespace (each block asserts what it shows), from the project's root; so
does the README's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "library.md").read_text(), re.S)


def test_the_page_has_examples():
    assert len(BLOCKS) >= 6 and all("assert" in block for block in BLOCKS)


def test_the_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for i, block in enumerate(BLOCKS, 1):
        exec(compile(block, f"docs/library.md block {i}", "exec"), namespace)  # noqa: S102


def test_the_readme_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102
    assert "assign" in capsys.readouterr().out


def test_the_library_loads_no_store_cli_or_eventsourcing_code():
    code = ("import sys, trvendetta; g = trvendetta.Game.new('vendetta', [('a', 'red'), ('b', 'blue')], 1); "
            "g.play(g.legal()[0][0]); trvendetta.fold('vendetta', g.encoded()); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'eventsourcing' or "
            "m.startswith(('trvendetta.store', 'trvendetta.cli', 'trvendetta.replays', 'trvendetta.app', 'click'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert out.strip() == "[]"
