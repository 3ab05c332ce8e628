"""The end of a Carnival game and its winner (rulebook "Winning the Game", "Ties").

Pure: the ruleset gives each player's :class:`Standing` at the end and, for
the last tie-break, an :class:`~trvendetta.core.rng.Rng`; the roll-off's
rolls are returned so they can be recorded as events.
"""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

import msgspec

from typing import Protocol
from .components import GameRules


class Standing(msgspec.Struct, frozen=True):
    """What counts for one player at the end of the game."""

    player: str
    scrap: int
    operable: int  # operable vehicles
    super_weapons: int = 0
    favors: int = 0  # unused party favors (Solid Gold Mufflers included)
    mufflers: int = 0  # unused Solid Gold Mufflers (2 scrap each at the end)
    dice: int = 3  # movement dice, rolled in a roll-off
    faces: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")


def game_over_after_round(round_number: int, anyone_out: bool, rules: GameRules) -> bool:
    """Whether the game ends after Tina's turn of this round: a player is out
    ("the game ends at the end of the current round"), or her draw pile will
    be empty at the start of her next turn (the end of round 6)."""
    return anyone_out or round_number >= rules.rounds


def final_scrap(standing: Standing, rules: GameRules) -> int:
    """Scrap counted at the end, "including Solid Gold Muffler party favors"."""
    return standing.scrap + rules.muffler_scrap * standing.mufflers


class Dice(Protocol):
    """What the roll-off rolls with: an :class:`~trvendetta.core.rng.Rng`, or anything that picks a face."""

    def pick(self, faces: tuple[str, ...], /) -> str: ...


def winner(standings: list[Standing] | tuple[Standing, ...], rules: GameRules,
           rng: Dice) -> tuple[str | None, str, list[dict[str, int]]]:
    """The winner, the rule that decided it, and the roll-off's rolls (each a
    player -> total), or ``(None, reason, [])`` when nobody can win.

    Only players with at least one operable car count ("Any players out of
    the game cannot win"); the most scrap wins; ties go to the most operable
    vehicles, then the most super-weapons, then the most unused party favors,
    then the tied players roll all their movement dice, high total wins,
    "Keep rolling until the tie is broken".
    """
    alive = [s for s in standings if s.operable > 0]
    if not alive:
        return None, "no player has an operable car", []
    chain = (("most scrap", lambda s: final_scrap(s, rules)), ("most operable vehicles", lambda s: s.operable),
             ("most super-weapons", lambda s: s.super_weapons), ("most unused party favors", lambda s: s.favors))
    tied = alive
    for reason, key in chain:
        best = max(key(s) for s in tied)
        tied = [s for s in tied if key(s) == best]
        if len(tied) == 1:
            return tied[0].player, reason, []
    rolls: list[dict[str, int]] = []
    while len(tied) > 1:
        totals = {s.player: sum(int(rng.pick(s.faces)) for _ in range(s.dice)) for s in tied}
        rolls.append(totals)
        best = max(totals.values())
        tied = [s for s in tied if totals[s.player] == best]
    return tied[0].player, "roll-off", rolls
