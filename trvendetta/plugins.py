"""Plug-ins kept in other installed distributions, found through entry points.

A distribution declares, in its ``pyproject.toml``::

    [project.entry-points."trvendetta.rulesets"]
    ringroad = "trv_ringroad"   # a module that registers the ruleset called "ringroad" when imported

    [project.entry-points."trvendetta.crews"]
    outriders = "trv_sidecar"   # a module that registers the crew called "outriders" (crew.register)

The entry point's name is the name it registers; its value is a module (or
an object in one: ``pkg.mod:RULESET``) whose import registers it, as the
built-in packages register themselves.  The entry points are read only when
a name is not registered yet (``rulesets.get``, ``rulesets.names``,
``crew.named``), never at start-up: ``trv --help`` and ``trv --version`` read
no distribution's metadata (tests/packaging/test_startup.py).  Every crew
plug-in is imported (:func:`load_all`) when the crews a ruleset takes are
listed, and when a game holds an event of a type none registered.  A board
has no name of its own to be found by, and no group: it comes with its
ruleset's state type (``State.board``), and its drawing registers itself
with the ruleset's view.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .core.errors import TrvError

#: the entry-point groups trvendetta reads, by what they register
RULESETS = "trvendetta.rulesets"
CREWS = "trvendetta.crews"

_FOUND: dict[str, dict[str, Any]] = {}
#: the groups whose every plug-in was imported (:func:`load_all`)
_ALL: set[str] = set()


def declared(group: str) -> dict[str, Any]:
    """The entry points of ``group`` by name, read once per process with those of the other
    groups here (the first distribution on the path that declares a name wins, as Python's
    import does)."""
    found = _FOUND.get(group)
    if found is None:
        from importlib.metadata import entry_points

        every = entry_points()  # one scan of the distributions for every group read here
        for g in dict.fromkeys((group, RULESETS, CREWS)):
            _FOUND[g] = {}
            for ep in every.select(group=g):
                _FOUND[g].setdefault(ep.name, ep)
        found = _FOUND[group]
    return found


def load_all(group: str) -> bool:
    """Import every plug-in ``group`` declares (once per process): what lists the crews a
    ruleset seats, or decodes a game, needs those that join it, whatever their names.  One
    that does not load is passed over, as ``rulesets.names`` passes over a ruleset (asked
    for by name, :func:`load` says why).  True the first time (something may have
    registered), False once done."""
    if group in _ALL:
        return False
    _ALL.add(group)
    for name in declared(group):
        try:
            load(group, name)
        except TrvError:
            continue
    return True


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
