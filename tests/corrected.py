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
)
#: the Carnival's own (an old Carnival game's log)
CARNIVAL_CORRECTIONS = (
    # the arena flips an inoperable car without turning it
    (re.compile(r"^(\s*\d+\. )(\S+) is inoperable and turned backward$", re.M),
     r"\1\2 is inoperable (it keeps its facing)"),
    # In the Mood for Mayhem! is named only under it (a record before rules v4 cannot tell: not named)
    (re.compile(r"^(\s*\d+\. \S+'s shot after moving is counted) \(In the Mood for Mayhem! allows a second\)$",
                re.M), r"\1"),
    # a super-weapon's follow-up: it "acts again" only when it does (the Energizer's own sentence says so)
    (re.compile(r"^(\s*\d+\. the \S+ of \S+ hit \S+): it acts again once the damage effect is over$", re.M),
     r"\1: what the card adds waits until the damage effect is over"),
    (re.compile(r"^(\s*\d+\. )the (\S+) of (\S+) acts again$", re.M), r"\1the damage effect of the \2's hit by \3 is over"),
    # Let's Get Wild!'s one space
    (re.compile(r"^(\s*\d+\. Let's Get Wild!: stunt die 1: the slammed car goes 1) spaces$", re.M), r"\1 space"),
)


def as_said_now(text: str, *, carnival: bool = False) -> str:
    """``text`` (an old `trv log`) with the corrected sentences as they read now."""
    for said, now in CORRECTIONS + (CARNIVAL_CORRECTIONS if carnival else ()):
        text = said.sub(now, text)
    return text
