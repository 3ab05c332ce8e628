"""The registry of bots by name (what ``--bot`` accepts)."""

from __future__ import annotations

from ..core.errors import TrvError
from .base import Bot, RandomBot
from .front import FrontBot
from .greedy import GreedyBot
from .search import SearchBot

BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "front": FrontBot, "search": SearchBot}


#: names no bot seat takes, in any letter case: each reads like the party that runs the seat (a
#: host, a club server), so `verify`'s ``bot seats: host (...)`` would say the runner played itself
RESERVED_SEAT_NAMES = ("host", "club", "server")


def seat_name_problem(name: str) -> str | None:
    """Why ``name`` (already a valid name) may not name a bot seat, or None."""
    if name.lower() in RESERVED_SEAT_NAMES:
        return (f"a bot seat cannot be called {name!r}: {', '.join(RESERVED_SEAT_NAMES)} read like whoever runs "
                "the bot; give it another NAME (KIND:COLOR:CREW:NAME)")
    return None


def bot_names() -> list[str]:
    """Names of every registered bot (what ``--bot`` accepts)."""
    return list(BOTS)


def get_bot(name: str) -> Bot:
    """A new bot registered as ``name``; a TrvError names the known ones."""
    if name not in BOTS:
        raise TrvError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    return BOTS[name]()
