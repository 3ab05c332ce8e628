"""The shell names no ruleset and no crew: it learns them from the registry.

Every string literal of the shell (``cli/``, ``app/``, ``server/``, ``replays/``, ``pictures/``,
``event_store/``) and of the engine's shared parts (``trvendetta/*.py``, ``core/``, ``bots/``,
``tournament/``) is compared with the names of the registered rulesets and of their crews: a
default is ``rulesets.DEFAULT`` or a ruleset's ``default_crew``, what a seat may see is the
ruleset's ``redact``, so a literal ``"vendetta"`` or ``"cars"`` there is a ruleset hard-wired
into the shell.  Only a ruleset's own package names it (and its crews).  Docstrings, help texts
and comments that mention a name in a sentence are not literals equal to it and pass."""

from __future__ import annotations

import ast
from pathlib import Path

from trvendetta import rulesets

ROOT = Path(__file__).resolve().parents[2]
SHELL = ("cli", "app", "server", "replays", "pictures", "event_store")
SHARED = ("core", "bots", "tournament")

#: (file, literal) pairs that stay, and why
ALLOWED = {
    # the registry itself: where the built-in rulesets' packages are (it imports them by name)
    ("trvendetta/rulesets.py", "vendetta"): "the registry of built-in rulesets",
    ("trvendetta/rulesets.py", "classic"): "the registry of built-in rulesets",
    ("trvendetta/rulesets.py", "carnival"): "the registry of built-in rulesets",
    # a homonym: the standings' "cars" column (cars still running, a tie-break), not the crew
    ("cli/tournament.py", "cars"): "the standings' column of cars still running",
}


def _names() -> set[str]:
    names = set(rulesets.names())
    for rs in rulesets.every():
        names.update(rs.crews())
        if rs.default_crew:
            names.add(rs.default_crew)
    return names


def _files() -> list[Path]:
    files = [p for folder in SHELL for p in (ROOT / folder).rglob("*.py")]
    files += [p for p in (ROOT / "trvendetta").glob("*.py")]
    files += [p for folder in SHARED for p in (ROOT / "trvendetta" / folder).rglob("*.py")]
    return files


def named(path: Path, names: set[str], root: Path = ROOT) -> list[str]:
    """``path:line: 'name'`` for each string literal of ``path`` that is a ruleset's or a crew's name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(root)}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names]


def test_no_shell_file_names_a_ruleset_or_a_crew():
    names = _names()
    assert {"vendetta", "carnival", "classic", "cars", "finalfive", "bigrig"} <= names
    found = [hit for path in _files() for hit in named(path, names)
             if (str(path.relative_to(ROOT)), ast.literal_eval(hit.split(": ", 1)[1])) not in ALLOWED]
    assert found == []


def test_the_scan_finds_a_hard_wired_name(tmp_path):
    """The check itself: a default written as a literal is found, a sentence naming it is not."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""Plays vendetta with the cars."""\nDEFAULT = "vendetta"\nseat = ("ann", "red", "cars")\n')
    assert named(sample, _names(), tmp_path) == ["sample.py:2: 'vendetta'", "sample.py:3: 'cars'"]


# ------------------------------------------------------------------ crews outside their packages
#: the crews built into Vendetta, and the files that are each one's own: its package
#: (``vendetta/crews/<crew>/``: its rules, state, events, actions, flags and looks)
BUILT_IN_CREWS = ("bigrig", "finalfive")


def _own(path: Path, crew: str) -> bool:
    if not path.is_relative_to(ROOT):
        return False
    rel = path.relative_to(ROOT).as_posix()
    return rel.startswith(f"trvendetta/vendetta/crews/{crew}/")


#: files outside a crew's own that still name it (a literal of its name, or an import of its
#: package), each with what keeps it there; the list may only shrink (issue 46): none is left
NAMING_A_CREW: dict[str, str] = {}


def naming_a_crew(path: Path, crews: tuple[str, ...]) -> list[str]:
    """The crews of ``crews`` that ``path`` names: as a string literal, or by importing its package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in crews:
            found.add(node.value)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.update(part for part in node.module.split(".") if part in crews)
    return sorted(c for c in found if not _own(path, c))


def test_the_files_outside_a_crews_package_that_name_it_are_known():
    assert set(BUILT_IN_CREWS) <= set(rulesets.get("vendetta").crews())
    files = [p for folder in ("trvendetta", *SHELL) for p in (ROOT / folder).rglob("*.py")]
    found = {str(p.relative_to(ROOT)): naming_a_crew(p, BUILT_IN_CREWS) for p in files}
    assert sorted(path for path, crews in found.items() if crews) == sorted(NAMING_A_CREW)


def test_the_crew_scan_finds_a_literal_and_an_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""The bigrig, in a sentence."""\nfrom .crews.finalfive.events import X\nif crew == "bigrig":\n    pass\n')
    assert naming_a_crew(sample, BUILT_IN_CREWS) == ["bigrig", "finalfive"]
