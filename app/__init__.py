"""The application layer (``trvendetta.app``): :class:`GameService` (``service.py``).

``decisions.py`` holds the light, pure helpers the CLI's read-only commands
use; ``service.py`` (the store and the record tools) is imported on first
use, so ``trv show`` never loads it.  Games with dice at a distance:
``exchange.py`` (intents and reveals), ``host.py`` (a host's seed, its bot
seats and its reveal), ``messages.py`` (the signed set-up messages).
Tournaments: ``tournament.py`` (``TournamentService``); whole stores:
``stores.py`` (``copy_store``); simulated games: ``simulated.py``.
"""

from __future__ import annotations

from typing import Any

from .decisions import MAX_ACTIONS_PER_COMMAND, check_player, pending_line

__all__ = ["GameService", "Played", "Undone", "MAX_ACTIONS_PER_COMMAND", "check_player", "pending_line"]


def __getattr__(name: str) -> Any:
    if name in ("GameService", "Played", "Undone"):
        from . import service

        return getattr(service, name)
    raise AttributeError(name)
