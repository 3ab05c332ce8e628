"""Party favors: the hidden draw and when each may be played (rulebook
"Party Favors", "Party Favor Reference").

Pure.  A face-down favor has no kind in the state: like Vendetta's hazard
tokens, its kind is drawn from what is left of the mix when a car collects it,
the same distribution as a shuffled face-down pile, so the log leaks nothing.
"""

from __future__ import annotations

from ..core.errors import RuleViolation
from ..core.rng import Rng

#: when in a turn each favor may be played; "Unless stated otherwise, you can
#: only use a party favor during your turn" (none says otherwise)
TIMING = {
    "bootleg-turn": ("start-of-turn", "before-moving"),  # "Play before moving."
    "double-barrel": ("start-of-turn", "before-moving"),  # "Play before moving."
    "full-throttle": ("after-moving",),  # "Play after moving ... even if you coasted"
    # "at any time on your turn ... in the middle of resolving another effect, such as a slam or damage effect"
    "killer-pillar": ("start-of-turn", "before-moving", "after-moving", "before-fx-roll", "mid-effect"),
    "mega-repair": ("start-of-turn",),  # "at the start of your turn before assigning your dice"
    "precision": ("before-fx-roll", "mid-effect"),  # "Play before an FX die is rolled on your turn"
    "solid-gold-muffler": (),  # "worth 2 scrap" at the end; "not worth anything during the game"
}
PHASES = ("start-of-turn", "before-moving", "after-moving", "before-fx-roll", "mid-effect")


def draw(pile: dict[str, int], rng: Rng) -> str:
    """The kind of a favor just collected, drawn from the favors left in the mix."""
    return rng.weighted(pile)


def check_play(favor: str, phase: str, own_turn: bool, out: bool = False) -> None:
    """Refuse (RuleViolation naming the rule and when it may be played) a
    favor played at the wrong time."""
    when = TIMING[favor]
    if favor == "solid-gold-muffler":
        raise RuleViolation("party-favors", "a Solid Gold Muffler is not played: it is worth 2 scrap at the end "
                                            "of the game")
    if not own_turn:
        raise RuleViolation("party-favors", f"{favor} can only be used during your turn")
    if favor == "mega-repair" and out:
        raise RuleViolation("party-favors", "Mega-Repair: all your cars are eliminated or inoperable, so you are "
                                            "out of the game and may not play it")
    if phase not in when:
        raise RuleViolation("party-favors", f"{favor} cannot be played {phase.replace('-', ' ')}", list(when))


def killer_pillar(raised: tuple[str, ...], lower: str, lift: str) -> tuple[str, ...]:
    """The Killer Pillar favor: one pillar flips to its road side, another to
    its impassable side (the caller eliminates any car on ``lift``)."""
    if lower == lift:
        raise RuleViolation("party-favors", "Killer Pillar flips one pillar to road and ANOTHER to impassable")
    return tuple(sorted((set(raised) - {lower}) | {lift}))


def check_full_throttle(path: tuple[str, ...] | list[str]) -> None:
    """Full Throttle: "You must move all 3 spaces"."""
    if len(path) != 3:
        raise RuleViolation("party-favors", f"Full Throttle moves exactly 3 spaces, not {len(path)}")
