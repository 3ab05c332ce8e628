"""What a game waits for, in words, and whose decision it is (pure; light to import).

The CLI's read-only commands use these without loading the application layer
(``service.py`` brings in the store and the record tools).
"""

from __future__ import annotations

from typing import Any

from trvendetta.core.errors import RuleViolation

#: give up on a turn or a demo that does not end (a ruleset bug, not the user's)
MAX_ACTIONS_PER_COMMAND = 10_000


def pending_line(ruleset: Any, state: Any) -> str:
    """What the game waits for now (or how it ended), in words."""
    if ruleset.is_over(state):
        winner = ruleset.winner(state)
        return f"game over: {winner} wins" if winner else "game over: no winner"
    decision = ruleset.pending(state)
    if decision is None:
        return "no decision pending"
    text = f"waiting on {decision.player}: {decision.kind}"
    if decision.prompt:
        text += f" ({decision.prompt})"
    return text


def check_player(ruleset: Any, state: Any, player: str | None) -> None:
    """``--as PLAYER``: refuse to act for someone whose decision it is not."""
    if player is None:
        return
    decision = ruleset.pending(state)
    if decision is None:
        raise RuleViolation("game over", "the game is over; no action is legal")
    if decision.player != player:
        raise RuleViolation("wrong player", f"it is {decision.player}'s decision ({decision.kind}), not {player}'s")
