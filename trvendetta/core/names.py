"""The one rule for names and seeds, used wherever one enters the system.

A *name* (a player's name, a colour, a bot seat, a game's id) is 1 to 40
ASCII letters, digits, ``-``, ``_`` or ``.``.  A *seed* is a whole number
from 0 to 2**63-1 (what ``fresh_seed`` draws; it fits SQLite's INTEGER).
Anything the store accepts under this rule exports, verifies and imports:
record headers, file names and SQLite all take it as it is.

``trv new`` (``--player``, ``--bot``, ``--name``, ``--seed``), position files
(through ``core.setup.check_seats``), ``trv import --name`` and ``trv fork
--name`` check with :func:`check_name` / :func:`check_seed` *before*
anything is written.

API: ``name_problem(text)`` / ``seed_problem(n)`` give the reason a value is
refused (``None`` when it is fine); ``check_name(text, what)`` and
``check_seed(n, what)`` raise :class:`BadName` with one line naming ``what``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .errors import TrvError

NAME_MAX = 40
SEED_MAX = 2**63 - 1
#: the rule, as the error messages state it
NAME_RULE = f"1 to {NAME_MAX} letters A-Z a-z, digits, '-', '_' or '.'"
SEED_RULE = f"a whole number from 0 to {SEED_MAX}"
_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,%d}" % NAME_MAX)


class BadName(TrvError, ValueError):
    """A name or seed that breaks the rule; the message names where it was given."""


def name_problem(text: Any) -> str | None:
    """Why ``text`` is not a valid name, or None if it is."""
    if not isinstance(text, str):
        return f"{text!r} is not text; a name is {NAME_RULE}"
    if _NAME.fullmatch(text):
        return None
    shown = repr(text) if len(text) <= 60 else repr(text[:57]) + "..."
    if not text:
        return f"the name is empty; a name is {NAME_RULE}"
    if len(text) > NAME_MAX:
        return f"{shown} has {len(text)} characters; a name is {NAME_RULE}"
    return f"{shown} is not a name; a name is {NAME_RULE}"


def seed_problem(seed: Any) -> str | None:
    """Why ``seed`` is not a valid seed, or None if it is."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        return f"{str(seed)[:40]!r} is not a whole number; a seed is {SEED_RULE}"
    if 0 <= seed <= SEED_MAX:
        return None
    shown = str(seed) if seed.bit_length() < 200 else ("-" if seed < 0 else "") + f"a {seed.bit_length()}-bit number"
    return f"{shown} is out of range; a seed is {SEED_RULE}"


def is_name(text: Any) -> bool:
    return name_problem(text) is None


def check_name(text: Any, what: str = "name") -> str:
    """``text`` if it is a valid name, else BadName naming ``what`` (``--player``, ``players[0].name``)."""
    problem = name_problem(text)
    if problem is not None:
        raise BadName(f"{what}: {problem}")
    return text


def check_seed(seed: Any, what: str = "seed") -> int:
    """``seed`` if it is a valid seed, else BadName naming ``what``."""
    problem = seed_problem(seed)
    if problem is not None:
        raise BadName(f"{what}: {problem}")
    return seed


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """`` (did you mean 'medium'?)`` when one or two of ``options`` are close to ``word`` (difflib's
    ratio at least 0.6), else "": the one did-you-mean of usage errors and of `trv decide`."""
    import difflib

    close = difflib.get_close_matches(word, list(options), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
