"""Plug-ins kept in other installed distributions, found through entry points.

A distribution declares, in its ``pyproject.toml``::

    [project.entry-points."trvendetta.rulesets"]
    ringroad = "ringroad"      # a module that registers the ruleset called "ringroad" when imported

    [project.entry-points."trvendetta.crews"]
    sidecar = "ringroad"       # a module that registers the crew called "sidecar" (crew.register)

The entry point's name is the name it registers; its value is a module (or
an object in one: ``pkg.mod:RULESET``) whose import registers it, as the
built-in packages register themselves.  The entry points are read only when
a name is not registered yet (``rulesets.get``, ``rulesets.names``,
``crew.named``), never at start-up: ``trv --help`` and ``trv --version`` read
no distribution's metadata (tests/packaging/test_startup.py).  A board has
no name of its own to be found by: it comes with its ruleset's state type
(``State.board``), and its drawing registers itself with the ruleset's view.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .core.errors import TrvError

#: the entry-point groups trvendetta reads, by what they register
RULESETS = "trvendetta.rulesets"
CREWS = "trvendetta.crews"

_FOUND: dict[str, dict[str, Any]] = {}


def declared(group: str) -> dict[str, Any]:
    """The entry points of ``group`` by name, read once per process (the first
    distribution on the path that declares a name wins, as Python's import does)."""
    found = _FOUND.get(group)
    if found is None:
        from importlib.metadata import entry_points

        found = {}
        for ep in entry_points(group=group):
            found.setdefault(ep.name, ep)
        _FOUND[group] = found
    return found


def load(group: str, name: str) -> Any:
    """Import the plug-in ``group`` declares as ``name`` (its import registers it) and
    return what its entry point names; None when no distribution declares it.  A
    plug-in that fails to import is a TrvError naming the distribution and the cause."""
    ep = declared(group).get(name)
    if ep is None:
        return None
    try:
        if ":" in ep.value:
            return ep.load()
        return import_module(ep.value)
    except Exception as exc:  # any failure of a foreign package's import is reported, not raised raw
        dist = getattr(getattr(ep, "dist", None), "name", None) or "a distribution"
        raise TrvError(f"the {group} plug-in {name!r} of {dist} ({ep.value}) does not load: "
                       f"{type(exc).__name__}: {exc}") from None
