"""The registry of bots by name (what ``--bot`` accepts)."""

from __future__ import annotations

from ..core.errors import TrvError
from .base import Bot, RandomBot
from .front import FrontBot
from .greedy import GreedyBot
from .search import SearchBot

BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "front": FrontBot, "search": SearchBot}


def bot_names() -> list[str]:
    """Names of every registered bot (what ``--bot`` accepts)."""
    return list(BOTS)


def get_bot(name: str) -> Bot:
    """A new bot registered as ``name``; a TrvError names the known ones."""
    if name not in BOTS:
        raise TrvError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    return BOTS[name]()
