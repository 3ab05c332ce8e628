"""The layers, enforced: who may import whom, and no import cycles.

Read from the source with ``ast`` (every import, at module level or inside a
function; an import under ``if TYPE_CHECKING:`` is for the type checker only
and is skipped).  The folders are named by the packages pyproject maps them
to.  From the bottom up:

* the engine, ``trvendetta/`` (core, rulesets, bots, tournament rules),
  imports nothing of the shell;
* the store (``event_store/`` = ``trvendetta.store``) imports no record
  tool, application, CLI, picture or bench code;
* the record tools (``replays/`` = ``trvendetta.replays``) import no
  application, CLI, picture or bench code;
* the application layer (``app/`` = ``trvendetta.app``) imports no CLI,
  picture or bench code;
* the pictures (``pictures/``) draw from a ruleset's view and import no CLI,
  application or bench code;
* and no module imports itself back through others.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
FOLDERS = {  # folder -> the package it is installed as (pyproject's package-dir)
    "trvendetta": "trvendetta", "event_store": "trvendetta.store", "replays": "trvendetta.replays",
    "app": "trvendetta.app", "cli": "trvendetta.cli", "pictures": "trvendetta.pictures", "bench": "bench",
    "server": "trvendetta.server",
}
SHELL = ("trvendetta.store", "trvendetta.replays", "trvendetta.app", "trvendetta.cli", "trvendetta.pictures",
         "bench", "trvendetta.server")
FORBIDDEN = {  # layer -> what it must not import
    "engine": SHELL,
    "trvendetta.store": ("trvendetta.replays", "trvendetta.app", "trvendetta.cli", "trvendetta.pictures",
                         "bench", "trvendetta.server"),
    "trvendetta.replays": ("trvendetta.app", "trvendetta.cli", "trvendetta.pictures", "bench",
                           "trvendetta.server"),
    "trvendetta.app": ("trvendetta.cli", "trvendetta.pictures", "bench", "trvendetta.server"),
    "trvendetta.pictures": ("trvendetta.app", "trvendetta.cli", "bench", "trvendetta.server"),
    # the club server (server/) is a shell beside the CLI: it uses the application layer, the
    # record tools and the pictures, and takes its host identity's files from cli/host.py
    "trvendetta.server": ("bench",),
}


def _modules() -> dict[str, Path]:
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def imports(module: str) -> set[str]:
    """Every module ``module`` imports (of ours: resolved names; of others: top-level names)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            target = (base + ("." + node.module if node.module else "")) if node.level else node.module
            for alias in node.names:
                name = f"{target}.{alias.name}"
                out.add(name if name in MODULES else target)
    return out


def layer(module: str) -> str:
    for package in SHELL:
        if module == package or module.startswith(package + "."):
            return package
    return "engine"


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


@pytest.mark.parametrize("lower", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(lower: str) -> None:
    bad = sorted(f"{m} imports {name}" for m in MODULES if layer(m) == lower
                 for name in imports(m) if _within(name, FORBIDDEN[lower]))
    assert not bad, "\n".join(bad)


def test_no_import_cycles() -> None:
    graph = {m: {n for n in imports(m) if n in MODULES and n != m} for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_checker_sees_imports_of_every_kind() -> None:
    """The rules above are only as good as this parser: relative, absolute and lazy imports count."""
    found = imports("trvendetta.cli.common")
    assert "trvendetta.store" in found  # absolute, at module level
    assert "trvendetta.app" in found  # inside a function (the service is imported when first used)
    assert "trvendetta.app.decisions" in found
    assert "trvendetta.vendetta.board" in imports("trvendetta.vendetta.rules")  # from . import board as b
    assert layer("trvendetta.store.store") == "trvendetta.store" and layer("trvendetta.vendetta") == "engine"


def test_only_the_upgrade_imports_the_older_layouts() -> None:
    """The readers of the older store layouts (event_store/legacy/) are imported by `trv store upgrade`
    (``app.upgrade``) only: no command but the upgrade can read an old row."""
    legacy = "trvendetta.store.legacy"
    found = {m for m in MODULES if not _within(m, (legacy,)) for name in imports(m) if _within(name, (legacy,))}
    assert found == {"trvendetta.app.upgrade"}
