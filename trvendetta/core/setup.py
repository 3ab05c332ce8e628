"""Checks every ruleset's position (set-up) shares: names, seats, space names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from . import geometry
from .errors import PositionError
from .names import NAME_MAX, name_problem, seed_problem

#: a player's name or colour as stored events decode it (never narrower than
#: this, or old games stop loading); new names are checked by ``core.names``
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX, pattern=r"^[A-Za-z0-9_.-]+$")]


def check_seats(ruleset: str | tuple[str, ...], given: str, players: Sequence[Any], title: str, low: int = 2,
                high: int = 4, seed: Any = 0) -> None:
    """The position is for ``ruleset`` (or one of several: a ruleset that plays another's
    positions); ``low``-``high`` players with distinct names and colours, each a valid name
    (``core.names``); the seed in range."""
    names = (ruleset,) if isinstance(ruleset, str) else ruleset
    if given not in names:
        raise PositionError("ruleset", f"{given!r} is not {' or '.join(map(repr, names))}")
    n = len(players)
    if not low <= n <= high:
        raise PositionError("players", f"{n} players; {title} is for {low} to {high}")
    for i, p in enumerate(players):
        for field in ("name", "color"):
            problem = name_problem(getattr(p, field))
            if problem is not None:
                raise PositionError(f"players[{i}].{field}", problem)
    problem = seed_problem(seed)
    if problem is not None:
        raise PositionError("seed", problem)
    if len({p.name for p in players}) != n:
        raise PositionError("players", "two players share a name")
    if len({p.color for p in players}) != n:
        raise PositionError("players", "two players share a color")


def parse_space(text: str, field: str) -> tuple[int, int]:
    """A space name (``c5``) from a position field; PositionError names the field."""
    try:
        return geometry.parse(text)
    except Exception:
        raise PositionError(field, f"{text!r} is not a space name (like 'c5')") from None


#: bounds on a position's counters (rounds, boards, pieces): far past any real
#: game, and well inside SQLite's INTEGER, where the games index keeps them
MAX_COUNT = 10_000
#: at most this many scripted outcomes per die or pile
MAX_SCRIPT = 1_000


def check_count(value: int, field: str, low: int = 0, high: int = MAX_COUNT) -> None:
    """A position counter within ``low``-``high``; PositionError names the field."""
    if not low <= value <= high:
        raise PositionError(field, f"{_short(value)} is out of range; must be {low} to {high}")


def check_script(script: Any) -> None:
    """No script queue longer than MAX_SCRIPT (a longer one could only loop the rules)."""
    for field in script.__struct_fields__:
        n = len(getattr(script, field))
        if n > MAX_SCRIPT:
            raise PositionError(f"script.{field}", f"{n} outcomes; a script queue holds at most {MAX_SCRIPT}")


def decode_position(data: Any, cls: type) -> Any:
    """``data`` (from TOML or JSON) decoded strictly into ``cls``; PositionError otherwise."""
    try:
        return msgspec.convert(data, cls, strict=True)
    except msgspec.ValidationError as exc:
        raise PositionError("file", str(exc)) from None
    except RecursionError:
        raise PositionError("file", "nested too deeply") from None


def _short(value: int) -> str:
    return str(value) if abs(value) < 10**30 else f"a {value.bit_length()}-bit number"
