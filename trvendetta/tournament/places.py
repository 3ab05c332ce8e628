"""Finishing places in one game, from its verified record.

The winner is first.  Players still in the game when it ended (the winner
crossed the Finish Line, say) share the next place.  Players put out come
after them, the later out the better; players put out by the same action
share a place.  With no winner, the last players out share first place.
Ties share the best place of their tier (competition ranking: 1, 2, 2, 4).
See docs/rules-decisions.md ("Tournament finishing places").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .events import Place
from .model import competition_places


def finishing_places(players: Sequence[str], winner: str | None, outs: Sequence[tuple[int, str]],
                     cars: Mapping[str, int]) -> tuple[Place, ...]:
    """``outs``: (action number, player) for each player-out event, in order;
    ``cars``: running cars per player at the end (``Ruleset.running``).  Places in seat order."""
    out_group: dict[str, int] = {}
    for group, player in outs:
        out_group.setdefault(player, group)
    tiers: list[list[str]] = []
    if winner is not None:
        tiers.append([winner])
    still = [p for p in players if p != winner and p not in out_group]
    if still:
        tiers.append(still)
    for group in sorted(set(out_group.values()), reverse=True):
        tiers.append([p for p in players if out_group.get(p) == group and p != winner])
    places = competition_places([t for t in tiers if t])
    return tuple(Place(p, places[p], cars.get(p, 0)) for p in players)
