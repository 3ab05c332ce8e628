"""Event vocabulary every ruleset shares: the base class and the events that
end a turn, put a player out and end the game.

Each ruleset's tagged union lists these next to its own events; the tags are
stable names in the store (``turn-ended``, ``player-out``, ``game-over``).
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from typing import ClassVar

import msgspec


class BaseEvent(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event: frozen, tagged by ``type``, strict when decoded.

    ``reveals`` declares whether events of the type show the players new
    information (a roll, a draw, a tile from the pile): ``trv undo`` takes
    such an event back only with ``--agreed``.
    """

    reveals: ClassVar[bool] = False


class TurnEnded(BaseEvent, tag="turn-ended", frozen=True):
    player: str


class PlayerOut(BaseEvent, tag="player-out", frozen=True):
    player: str
    reason: str


class GameOver(BaseEvent, tag="game-over", frozen=True):
    winner: str | None
    reason: str


#: what every view adds to an outcome a position's ``[script]`` chose
SCRIPTED_NOTE = " (scripted by the set-up, not rolled)"


def scripted(event: object) -> bool:
    """Whether an event's roll or draw came from the position's ``[script]``
    (a ``scripted`` field, or ``scripted_*`` ones, that is set)."""
    fields = getattr(event, "__struct_fields__", ())
    return any(getattr(event, f) for f in fields if f.startswith("scripted"))


def script_size(position: object) -> int:
    """How many outcomes a position's ``[script]`` fixes (0 when none)."""
    script = getattr(position, "script", None)
    return sum(len(getattr(script, f)) for f in getattr(script, "__struct_fields__", ()))
