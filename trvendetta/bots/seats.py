"""Bot seats: the bots answer the decisions of the seats they hold (pure).

A game created with ``--bot`` seats keeps, per seat, the bot that plays it.
After every command the application layer asks :func:`bot_moves` for the
bots' answers from the state it reached, and stores them like anyone's
actions.  Each bot's chance comes from the game seed and the record count on
a stream the engine never uses, so a bot's picks are independent of the dice
yet reproducible (``trv verify`` re-executes them like any action).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import TrvError
from ..core.rng import Rng
from .registry import get_bot

#: a bot-only game that has not ended after this many bot actions is a ruleset bug
MAX_BOT_ACTIONS = 1_000_000


class BotMove(NamedTuple):
    """One action a bot seat took: who, which bot, what, and the events it produced."""

    player: str
    bot: str
    action: Any
    events: list[Any]


def bot_rng(ruleset: Any, state: Any, count: int) -> Rng:
    """The bot's chance for the decision taken after ``count`` stored records:
    the game seed and the record count, on a negative stream (never the engine's)."""
    return Rng(int(ruleset.seed(state)), -1 - count)


def bot_moves(ruleset: Any, state: Any, bots: dict[str, str], count: int) -> tuple[Any, list[BotMove]]:
    """Let the bot seats answer every pending decision that is theirs, in turn,
    from ``state`` (after ``count`` stored records).  Returns the state after
    them and what each did; nothing is stored here."""
    if not bots:
        return state, []
    agents: dict[str, Any] = {}
    moves: list[BotMove] = []
    while not ruleset.is_over(state):
        decision = ruleset.pending(state)
        if decision is None or decision.player not in bots:
            break
        if len(moves) >= MAX_BOT_ACTIONS:
            raise TrvError(f"the bots took {MAX_BOT_ACTIONS} actions and the game is not over; giving up")
        kind = bots[decision.player]
        agent = agents.get(kind) or agents.setdefault(kind, get_bot(kind))
        action = agent.choose(ruleset, state, bot_rng(ruleset, state, count), decision)
        state, events = ruleset.apply(state, action)
        moves.append(BotMove(decision.player, kind, action, events))
        count += len(events)
    return state, moves
