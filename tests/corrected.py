"""Log sentences corrected since old fixtures were written: an old game's `trv log`
reads as it did then, with each of these wrong sentences (and only these) said anew.
The events behind them are unchanged; only how a sentence reads them."""

from __future__ import annotations

import re

#: (what the sentence said then, what it says now)
CORRECTIONS = (
    # a move that ends with the car out of play (over an edge, or still in the starting area)
    (re.compile(r"^(\s*\d+\. )(\S+) ends its move off the road$", re.M), r"\1\2's move ends off the board"),
    # a player out: the stored reason names cars, though a crew may be motorcycles or the Big Rig
    (re.compile(r"^(\s*\d+\. \S+ is out \()all cars eliminated\)$", re.M), r"\1all vehicles eliminated)"),
    (re.compile(r"^(\s*\d+\. \S+ is out \()no operational car\)$", re.M), r"\1no operational vehicle)"),
    # the arena flips an inoperable car without turning it (Carnival)
    (re.compile(r"^(\s*\d+\. )(\S+) is inoperable and turned backward$", re.M),
     r"\1\2 is inoperable (it keeps its facing)"),
)


def as_said_now(text: str, *, carnival: bool = False) -> str:
    """``text`` (an old `trv log`) with the corrected sentences as they read now."""
    for i, (said, now) in enumerate(CORRECTIONS):
        if said.pattern.endswith("turned backward$") and not carnival:
            continue
        text = said.sub(now, text)
    return text
