"""The built-in crews' own parts, one package each (``crews/<crew>/``).

A crew's package holds what only it has: ``state.py`` (what it keeps of its
own on a player and in a turn, ``model.CrewPlayer`` and ``model.CrewTurn``
structs, and how base Vendetta's fold treats its vehicles, ``parts.CrewFold``),
``position.py`` (what a position may say of its vehicles,
``position.CrewCheck``), ``events.py`` (its event types, their describe
functions and the fold's handlers), ``actions.py`` (its action types and their
describe functions), each registering them with :mod:`..parts` when imported,
``looks.py`` (how it is shown, ``crew.register_looks``), ``rules.py`` (its
rules, a registered ``crew.Crew``, loaded by ``vendetta/rules.py`` with the
deciding code) and ``flags.py`` (its part of ``trv turn``, a
``notation.FlagPart``, imported by its rules when a turn is driven).
:func:`load` imports one kind of part of every package here, found by
listing this package: no file names a crew.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module


def load(kind: str) -> None:
    """Import the ``kind`` module (``state``, ``position``, ``events``, ``actions``, ``looks`` or ``rules``) of every crew package here."""
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            try:
                import_module(f"{__name__}.{info.name}.{kind}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{info.name}.{kind}":
                    raise
