"""The open parts of Vendetta's rules: action and event types, their describe
functions and the fold's handlers, registered by whoever brings them.

Base Vendetta registers its own (``events.py``, ``actions.py``, ``evolve.py``);
each crew registers the ones only it has from its own package (the built-in
crews' under ``vendetta/crews/``, found there by :mod:`.crews`; a crew kept
anywhere else from its own module, when imported).  The msgspec tagged unions
the ruleset decodes with (``Vendetta.event_type``, ``action_type``) and the
fold's table are assembled from what is registered: no file lists them.

A ruleset built on Vendetta's (Carnival) adds its own types to these unions.
Registering a type after a union was built makes the next :func:`events` or
:func:`actions` build it again, and tells the rulesets that asked
(:func:`on_change`) to drop the decoders they built from the old one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

#: every registered event type, in registration order, with its describe function
#: (None: base Vendetta's ``events.describe`` says it)
EVENTS: dict[type, Callable[[Any], str] | None] = {}
#: every registered action type with its describe function (None: ``actions.describe_action``'s)
ACTIONS: dict[type, Callable[[Any], str] | None] = {}
#: the fold: event type -> ``handler(state, event) -> state`` (``evolve.evolve`` reads it)
FOLDS: dict[type, Callable[[Any, Any], Any]] = {}

_built: dict[str, Any] = {}
_listeners: list[Callable[[], None]] = []
#: which kinds of parts of the built-in crews were imported (``crews.load``)
_loaded: set[str] = set()


def event(cls: type | None = None, *, describe: Callable[[Any], str] | None = None) -> Any:
    """Register an event type (a class decorator, or called with the class)."""
    def add(c: type) -> type:
        EVENTS[c] = describe
        _changed("events")
        return c

    return add(cls) if cls is not None else add


def action(cls: type | None = None, *, describe: Callable[[Any], str] | None = None) -> Any:
    """Register an action type (a class decorator, or called with the class)."""
    def add(c: type) -> type:
        ACTIONS[c] = describe
        _changed("actions")
        return c

    return add(cls) if cls is not None else add


def fold(cls: type) -> Callable[[Callable[[Any, Any], Any]], Callable[[Any, Any], Any]]:
    """Register the fold's handler of the event type ``cls`` (a function decorator)."""
    def add(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        FOLDS[cls] = fn
        return fn

    return add


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever a type is registered after the unions were built."""
    _listeners.append(listener)


def _changed(kind: str) -> None:
    if _built.pop(kind, None) is not None:
        for listener in _listeners:
            listener()


def _load(kind: str) -> None:
    if kind not in _loaded:
        _loaded.add(kind)
        from . import crews

        crews.load(kind)


def events() -> Any:
    """The tagged union of every registered event type (the built-in crews' loaded first)."""
    union = _built.get("events")
    if union is None:
        _load("events")
        union = _built["events"] = Union[tuple(EVENTS)]
    return union


def actions() -> Any:
    """The tagged union of every registered action type (the built-in crews' loaded first)."""
    union = _built.get("actions")
    if union is None:
        _load("actions")
        union = _built["actions"] = Union[tuple(ACTIONS)]
    return union


def named(kind: str, name: str) -> type:
    """The registered event (``kind="events"``) or action type called ``name``: what
    ``events.X`` and ``actions.X`` give for a crew's type (an AttributeError otherwise)."""
    _load(kind)
    for cls in (EVENTS if kind == "events" else ACTIONS):
        if cls.__name__ == name:
            return cls
    raise AttributeError(name)
