"""The move text of a record: numbered rounds, one line per player's run of actions.

::

    1. ann: assign 3 to red-small; no-command; F; F; FR; no-road-die; no-shoot
       bob: assign 2 to blue-medium; no-command; F; F; road-die; F; F; shoot red-small
    2. bob: ...

Each action is written by its printed name (``ruleset.describe_action``) and
read back by ``ruleset.parse_action``, the same matcher ``trv decide`` uses,
so a player can type it; actions are separated by
``"; "``.  A line starts with ``ROUND.`` when a new round begins (rulesets
without rounds write no number).  Parsing reuses the rules: each name is
matched against the legal actions of the position it is played in
(python-chess's ``parse_san``), never validated by a second copy of the rules.
Only live actions are written: a retracted action is not part of the game
(``replays.moves.MovesVisitor`` collects them from a walk).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from trvendetta.core.errors import NotationError, RuleViolation

if TYPE_CHECKING:  # reading and writing move text loads no walker and no store code (tests/replays/test_notation_import.py)
    from .walker import Group

SEPARATOR = "; "
_LINE = re.compile(r"^(?:(\d{1,6})\.)?\s*([^\s:;][^:;]{0,99}): (.+)$")


def movetext(ruleset: Any, groups: list[Group]) -> str:
    """The move text of ``groups`` (live action groups, in order)."""
    lines: list[str] = []
    current: list[Any] | None = None  # [round, player, names]
    last_round: Any = object()
    for g in groups:
        name = ruleset.describe_action(g.action)
        if current is not None and current[0] == g.round and current[1] == g.player:
            current[2].append(name)
            continue
        if current is not None:
            lines.append(_line(current, new_round=current[3]))
        current = [g.round, g.player, [name], g.round != last_round]
        last_round = g.round
    if current is not None:
        lines.append(_line(current, new_round=current[3]))
    return "\n".join(lines)


def _line(run: list[Any], *, new_round: bool) -> str:
    rnd, player, names = run[0], run[1], run[2]
    prefix = f"{rnd}. " if new_round and rnd is not None else ("   " if rnd is not None else "")
    return f"{prefix}{player}: {SEPARATOR.join(names)}"


def parse_movetext(ruleset: Any, state: Any, text: str) -> list[Any]:
    """The actions written in ``text``, played from ``state``; NotationError names the bad move."""
    actions: list[Any] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        m = _LINE.match(line)
        if not m:
            raise NotationError(f"moves line {lineno}: {line[:80]!r} is not 'ROUND. PLAYER: ACTION; ACTION'")
        rnd, player, names = m.group(1), m.group(2).strip(), m.group(3).split(SEPARATOR)
        now = ruleset.round(state)
        if rnd is not None and now is not None and int(rnd) != now:
            raise NotationError(f"moves line {lineno}: round {rnd} but the game is in round {now}")
        for name in names:
            decision = ruleset.pending(state)
            if decision is None:
                raise NotationError(f"moves line {lineno}: {name!r} after the game is over")
            if decision.player != player:
                raise NotationError(f"moves line {lineno}: {name!r} is {player}'s but the game waits on "
                                    f"{decision.player}")
            try:
                action = ruleset.parse_action(state, name)  # the ruleset's notation: the one matcher of names
            except RuleViolation:
                legal = [ruleset.describe_action(a) for a in decision.options]
                raise NotationError(f"moves line {lineno}: {name!r} is not legal here ({decision.kind}; legal: "
                                    f"{', '.join(legal[:12])})") from None
            state, _ = ruleset.apply(state, action)
            actions.append(action)
    return actions
