"""The open parts of Vendetta's rules: action and event types, their describe
functions, the fold's handlers and the crews' own state, registered by whoever
brings them.

Base Vendetta registers its own (``events.py``, ``actions.py``, ``evolve.py``);
each crew registers the ones only it has from its own package (the built-in
crews' under ``vendetta/crews/``, found there by :mod:`.crews`; a crew kept
anywhere else from its own module, when imported).  The msgspec tagged unions
the ruleset decodes with (``Vendetta.event_type``, ``action_type``, and a
state's ``Player.crew_state`` and ``Turn.crew_state``: :func:`decode_crew_state`)
and the fold's table are assembled from what is registered: no file lists them.

A crew's own state is a struct of its package (:func:`state`); what base
Vendetta's set-up and damage do differently for its vehicles is its
:class:`CrewFold` (:func:`crew_fold`), how an old state's flat fields of it
become its struct, its upcast (:func:`upcast`), and what a position may say of
it, its ``position.CrewCheck`` (:func:`crew_check`).

A ruleset built on Vendetta's (Carnival) adds its own types to these unions.
Registering a type after a union was built makes the next :func:`events` or
:func:`actions` build it again, and tells the rulesets that asked
(:func:`on_change`) to drop the decoders they built from the old one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Union

import msgspec
from msgspec.structs import replace

if TYPE_CHECKING:  # for the type checker only
    from .model import Player, Vehicle

#: every registered event type, in registration order, with its describe function
#: (None: base Vendetta's ``events.describe`` says it)
EVENTS: dict[type, Callable[[Any], str] | None] = {}
#: every registered action type with its describe function (None: ``actions.describe_action``'s)
ACTIONS: dict[type, Callable[[Any], str] | None] = {}
#: the fold: event type -> ``handler(state, event) -> state`` (``evolve.evolve`` reads it)
FOLDS: dict[type, Callable[[Any, Any], Any]] = {}
#: every registered crew state type (a ``model.CrewPlayer`` or ``model.CrewTurn`` struct)
STATES: list[type] = []
#: how each crew's own state was kept before it had a struct: (player, turn) upcasts (:func:`upcast`)
UPCASTS: list[tuple[Callable[[dict], dict | None], Callable[[dict], dict | None]]] = []

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


def state(cls: type) -> type:
    """Register a crew's state type (a class decorator): a frozen msgspec struct deriving from
    ``model.CrewPlayer`` or ``model.CrewTurn``, tagged with a name of its own (``tag_field="crew"``:
    the registered types decode as one tagged union, whose members share their tag field)."""
    config = getattr(cls, "__struct_config__", None)
    if config is None or config.tag_field != "crew" or not isinstance(config.tag, str):
        raise TypeError(f"{cls.__name__}: a crew's state is a msgspec struct tagged with tag_field='crew'")
    STATES.append(cls)
    _state_unions.clear()
    return cls


_state_unions: dict[type, Any] = {}


def decode_crew_state(kind: type, obj: Any) -> Any:
    """The decoders' ``dec_hook`` for ``Player.crew_state`` and ``Turn.crew_state`` (``kind``: the
    field's base class): ``obj`` as the registered state type its tag names (the built-in crews'
    loaded first).  A crew registered later joins the next decode."""
    union = _state_unions.get(kind)
    if union is None:
        _load("state")
        types = tuple(t for t in STATES if issubclass(t, kind))
        if not types:
            raise NotImplementedError(f"no crew state is registered for {kind.__name__}")
        union = _state_unions[kind] = Union[types]
    return msgspec.convert(obj, union)


def upcast(player: Callable[[dict], dict | None], turn: Callable[[dict], dict | None]) -> None:
    """Register how a crew's state that older states kept as flat fields of ``Player`` and
    ``Turn`` (the Big Rig's, the Final Five's) becomes its struct: ``player(fields)`` and
    ``turn(fields)`` take an old player's or turn's fields (a dict), remove the crew's own
    from it and return its ``crew_state`` (the struct's fields and tag) or None."""
    UPCASTS.append((player, turn))


def upcasts() -> list[tuple[Callable[[dict], dict | None], Callable[[dict], dict | None]]]:
    """Every registered upcast, the built-in crews' loaded first."""
    _load("state")
    return UPCASTS


class CrewFold:
    """What base Vendetta's fold does with a crew's vehicles and player where it differs by
    crew: set-up (``game-started``) and the damage pile.  A crew registers its own
    (:func:`crew_fold`); the cars' (and any crew's that registers none) is this."""

    #: its vehicles wait in one lane of the starting area (the Big Rig's three sections)
    one_lane: bool = False
    #: its vehicles' damage tokens come from the damage pile (and go back to it); the Big Rig's
    #: sections hold damaged commands instead
    pile_damage: bool = True

    def player(self, p: Player, pos: Any) -> Player:
        """Its player at set-up from the position ``pos`` (its own state, docs/positions.md)."""
        return p

    def vehicle(self, v: Vehicle, setup: Any, slots: int) -> Vehicle:
        """One of its vehicles at set-up, as the position's ``setup`` lists it (``slots``:
        the crew's damage slots): damaged, inoperable (facing back), moved, coasting."""
        inoperable = len(setup.damage) >= slots
        return replace(v, damage=tuple(setup.damage), status="inoperable" if inoperable else "operational",
                       facing="B" if inoperable else setup.facing, moved=setup.moved, momentum=setup.momentum)


CARS_FOLD = CrewFold()
#: the registered crew folds by crew name (:func:`fold_of`)
CREW_FOLDS: dict[str, CrewFold] = {}


def crew_fold(name: str, fold: CrewFold) -> CrewFold:
    """Fold the crew called ``name``'s vehicles and player as ``fold`` says."""
    CREW_FOLDS[name] = fold
    return fold


def fold_of(name: str) -> CrewFold:
    """The crew called ``name``'s fold (the built-in crews' loaded first; none: the cars')."""
    _load("state")
    return CREW_FOLDS.get(name, CARS_FOLD)


#: the registered position checks by crew name (``position.CrewCheck``; :func:`check_of`)
CREW_CHECKS: dict[str, Any] = {}


def crew_check(name: str, check: Any) -> Any:
    """Check what a position says of the crew called ``name`` as ``check`` (a ``position.CrewCheck``) says."""
    CREW_CHECKS[name] = check
    return check


def check_of(name: str) -> Any:
    """The crew called ``name``'s position check (the built-in crews' loaded first), or None: the cars'."""
    _load("position")
    return CREW_CHECKS.get(name)


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
