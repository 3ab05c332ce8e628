"""Event vocabulary every ruleset shares: the base class and the events that
end a turn, put a player out and end the game.

Each ruleset's tagged union lists these next to its own events; the tags are
stable names in the store (``turn-ended``, ``player-out``, ``game-over``).
"""

from __future__ import annotations

import msgspec


class BaseEvent(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event: frozen, tagged by ``type``, strict when decoded."""


class TurnEnded(BaseEvent, tag="turn-ended"):
    player: str


class PlayerOut(BaseEvent, tag="player-out"):
    player: str
    reason: str


class GameOver(BaseEvent, tag="game-over"):
    winner: str | None
    reason: str
