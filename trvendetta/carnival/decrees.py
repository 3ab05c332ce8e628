"""Tina's six decrees as rules the ruleset asks (rulebook "Tina's Turn Decrees").

A decree revealed on Tina's turn of round ``r`` is in force until the end of
round ``r + 1`` and "OVERRULES ALL OTHER RULES AND EFFECTS": every rule that a
decree changes asks here first, with the decree in force (None when none is).
"""

from __future__ import annotations

COMMIT = "commit-to-the-crash"
DANGER = "danger-ahead"
MAYHEM = "in-the-mood-for-mayhem"
WILD = "lets-get-wild"
CLOSE = "lets-keep-it-close"
WHATEVER = "whatever-it-takes"

#: each decree's name on Tina's card, its words and its short "Active decree" reminder (rulebook
#: "Tina's Turn Decrees"): what `trv show` prints for the decree in force, and its legend for all six
WORDS = {
    COMMIT: ("Commit to the Crash!", "Slams cannot be rerolled. When resolving a slam, neither die can be "
             "rerolled. Effects that determine which car moves or its direction without rolling a die resolve "
             "as normal, e.g., Torsion Dynamo.", "slams cannot be rerolled"),
    DANGER: ("Danger Ahead!", "When this decree is revealed, set the direction die to straight forward. Use that "
             "result to resolve any effects that would use that die.",
             "the direction die is set to straight forward for all slams and other effects"),
    MAYHEM: ("In the Mood for Mayhem!", "After shooting with your car, resolve the effect of any damage token as "
             "normal. Then, if you have a valid target, you may shoot another time. Gain scrap for each damage "
             "you deal.", "cars in the arena can shoot an additional time after moving"),
    WILD: ("Let's Get Wild!", "When rolling to resolve a slam, also roll the stunt die. The car that is moved "
           "moves that many spaces in the direction indicated. Ignore all spaces in between. If a larger car "
           "calls for a reroll, reroll all three of the dice.",
           "cars moved in a slam roll the stunt die to see how far they move, ignoring all spaces in between"),
    CLOSE: ("Let's Keep It Close!", "If you shoot and hit the car of a player who has more scrap than you, "
            "immediately take 1 scrap from them and add it to your own. Then, gain 2 scrap as normal for dealing "
            "damage.", "if you shoot and hit the car of a player with more scrap, steal 1. Then, gain scrap as "
            "normal for dealing damage"),
    WHATEVER: ("Whatever It Takes!", "When assigning a die to your command board, you can use any value. For the "
               "nitro command, use the value of the die you assigned, even if it is higher than what you could "
               "normally assign.", "players can assign ANY value die to their commands"),
}


def explain(decree: str) -> str:
    """A decree's card title and words, as the rulebook prints them."""
    title, words, _ = WORDS[decree]
    return f"{title} {words}"


def in_force(revealed_in_round: int | None, round_number: int) -> bool:
    """Whether a decree revealed at the end of ``revealed_in_round`` holds in
    ``round_number``: "until the end of next round"."""
    return revealed_in_round is not None and round_number <= revealed_in_round + 1


def slam_reroll_allowed(decree: str | None) -> bool:
    """Commit to the Crash!: "When resolving a slam, neither die can be rerolled"."""
    return decree != COMMIT


def direction(decree: str | None, rolled: str | None) -> str | None:
    """The direction die's face: Danger Ahead! sets it to straight forward for
    every slam and effect (no roll is needed: pass ``rolled`` None)."""
    return "F" if decree == DANGER else rolled


def needs_direction_roll(decree: str | None) -> bool:
    """Whether the direction die is rolled at all (not under Danger Ahead!)."""
    return decree != DANGER


def may_assign(decree: str | None, allowed: tuple[int, ...] | range, value: int) -> bool:
    """Whatever It Takes!: "players can assign ANY value die to their commands";
    otherwise only the command's printed values."""
    return decree == WHATEVER or value in allowed


def shots_after_moving(decree: str | None) -> int:
    """In the Mood for Mayhem!: a car in the arena may shoot "an additional time after moving"."""
    return 2 if decree == MAYHEM else 1


def slam_distance(decree: str | None, stunt: int | None) -> int:
    """Let's Get Wild!: the car a slam moves goes as many spaces as the stunt
    die shows, ignoring the spaces between; otherwise one space."""
    return stunt if decree == WILD and stunt is not None else 1


def slam_dice(decree: str | None) -> tuple[str, ...]:
    """The dice rolled (and all rerolled) to resolve a slam."""
    return ("slam", "direction", "stunt") if decree == WILD else ("slam", "direction")


def steal_on_hit(decree: str | None, shooter_scrap: int, target_scrap: int) -> int:
    """Let's Keep It Close!: hitting the car of a player with more scrap takes 1
    of theirs (then damage scrap as normal)."""
    return 1 if decree == CLOSE and target_scrap > shooter_scrap else 0
