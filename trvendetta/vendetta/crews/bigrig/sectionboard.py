"""The Big Rig's section board, as the rulebook prints it (seed 001: Big Rig
Section Board Effects, Getting Shot, Getting Eliminated).

These are rules, not house defaults, so they are code (rules-facts.md s.3:
"sections rear/mid/front each with the commands the seed lists; eliminated at
6 minor damage [seed]").
"""

from __future__ import annotations

SECTIONS = ("rear", "mid", "front")

#: each section's commands, as on the board
COMMANDS = {
    "rear": ("hazard-dispenser", "repair", "targeting-computer"),
    "mid": ("traction-drive", "repair", "airstrike"),
    "front": ("missile-launcher", "repair", "cow-catcher"),
}

#: "Repair commands require a die with a value of 3"
REPAIR_DIE = 3

#: "If the Big Rig ever has a total of 6 minor damage tokens on it"
ELIMINATED_AT = 6


def targetable(section: str) -> tuple[str, ...]:
    """The commands a shot may name (the faded X): "Repair may NOT be targeted"."""
    return tuple(c for c in COMMANDS[section] if c != "repair")
