"""The registry of rulesets, found by name (python-chess variants style).

Each ruleset registers itself from its own package: its module calls
:func:`register` with its ruleset object when imported.  The built-in
rulesets' packages are imported on first use (``trv show`` imports only the
one it needs); any other package (a test's toy ruleset, an expansion kept
elsewhere) plugs in by importing itself, with no edit here, and the installed
``trv`` finds one kept in another installed distribution through the
``trvendetta.rulesets`` entry points (:mod:`trvendetta.plugins`), read only when
a name is not registered yet.  :data:`DEFAULT` is the ruleset the shell uses when
none is named (``trv new``, ``trv sim``...).
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
#: the ruleset the shell uses when none is named (the first built-in one)
DEFAULT = next(iter(_BUILTIN))


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``get(ruleset.name)`` find ``ruleset``; returns it (a ruleset
    package calls this at import).  Registering a name again replaces it."""
    if not isinstance(ruleset, Ruleset) or not ruleset.name:
        raise TrvError(f"{ruleset!r} is not a named Ruleset")
    _REGISTERED[ruleset.name] = ruleset
    return ruleset


def names() -> list[str]:
    """Names of every ruleset that can be found: the built-in ones that
    import, every installed plug-in's that loads, then every other registered one."""
    out = []
    for name in [*_BUILTIN, *installed()]:
        if name in out:
            continue
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
        from . import plugins  # (only for a name not registered: start-up reads no entry point)

        found = plugins.load(plugins.RULESETS, name)
        if found is None:
            known = dict.fromkeys([*_BUILTIN, *_REGISTERED, *installed()])
            raise TrvError(f"unknown ruleset {name!r}; known: {', '.join(known)}")
        if isinstance(found, Ruleset) and name not in _REGISTERED:
            register(found)  # an entry point naming the ruleset object itself
        if name not in _REGISTERED:
            raise TrvError(f"the {plugins.RULESETS} plug-in {name!r} did not register a ruleset called {name!r}")
        return _REGISTERED[name]
    try:
        import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise TrvError(f"ruleset {name!r} is not installed") from None
        raise
    if name not in _REGISTERED:
        raise TrvError(f"{module} did not register a ruleset called {name!r}")
    return _REGISTERED[name]


def installed() -> list[str]:
    """Names the installed plug-in distributions declare (``trvendetta.rulesets``), loaded or not."""
    from . import plugins

    return list(plugins.declared(plugins.RULESETS))


def every() -> list[Ruleset]:
    """Every ruleset that can be found (``trv turn`` builds its flags from them)."""
    return [get(name) for name in names()]
