"""The registry of rulesets, found by name (python-chess variants style).

Each ruleset registers itself from its own package: its module calls
:func:`register` with its ruleset object when imported.  The built-in
rulesets' packages are imported on first use (``trv show`` imports only the
one it needs); any other package (a test's toy ruleset, an expansion kept
elsewhere) plugs in by importing itself, with no edit here.
"""

from __future__ import annotations

from importlib import import_module

from .core.errors import TrvError
from .core.protocol import Ruleset

#: where the built-in rulesets live (each registers itself when imported)
_BUILTIN = {
    "vendetta": "trvendetta.vendetta",
    "classic": "trvendetta.classic",
    "carnival": "trvendetta.carnival",
}
_REGISTERED: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``get(ruleset.name)`` find ``ruleset``; returns it (a ruleset
    package calls this at import).  Registering a name again replaces it."""
    if not isinstance(ruleset, Ruleset) or not ruleset.name:
        raise TrvError(f"{ruleset!r} is not a named Ruleset")
    _REGISTERED[ruleset.name] = ruleset
    return ruleset


def names() -> list[str]:
    """Names of every ruleset that can be found: the built-in ones that
    import, then every other registered one."""
    out = []
    for name in _BUILTIN:
        try:
            get(name)
        except (TrvError, ImportError):
            continue  # a ruleset that cannot be imported is not listed
        out.append(name)
    return out + [name for name in _REGISTERED if name not in out]


def get(name: str) -> Ruleset:
    """The ruleset registered as ``name``; a TrvError names the known ones."""
    ruleset = _REGISTERED.get(name)
    if ruleset is not None:
        return ruleset
    module = _BUILTIN.get(name)
    if module is None:
        raise TrvError(f"unknown ruleset {name!r}; known: {', '.join(dict.fromkeys([*_BUILTIN, *_REGISTERED]))}")
    try:
        import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise TrvError(f"ruleset {name!r} is not installed") from None
        raise
    if name not in _REGISTERED:
        raise TrvError(f"{module} did not register a ruleset called {name!r}")
    return _REGISTERED[name]


def every() -> list[Ruleset]:
    """Every ruleset that can be found (``trv turn`` builds its flags from them)."""
    return [get(name) for name in names()]
