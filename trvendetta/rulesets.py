"""The registry of rulesets, found by name (python-chess variants style)."""

from __future__ import annotations

from importlib import import_module

from .core.errors import TrvError
from .core.protocol import Ruleset

#: name -> module that defines ``RULESET``; imported on first use
_MODULES = {
    "vendetta": "trvendetta.vendetta",
    "classic": "trvendetta.classic",
}
_LOADED: dict[str, Ruleset] = {}


def names() -> list[str]:
    """Names of every registered ruleset that can be imported."""
    out = []
    for name in _MODULES:
        try:
            get(name)
        except (TrvError, ImportError, AttributeError):
            continue  # a ruleset that cannot be imported (or has no RULESET) is not listed
        out.append(name)
    return out


def get(name: str) -> Ruleset:
    """The ruleset registered as ``name``; a TrvError names the known ones."""
    if name not in _LOADED:
        module = _MODULES.get(name)
        if module is None:
            raise TrvError(f"unknown ruleset {name!r}; known: {', '.join(_MODULES)}")
        try:
            _LOADED[name] = import_module(module).RULESET
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):
                raise TrvError(f"ruleset {name!r} is not installed") from None
            raise
    return _LOADED[name]
