"""What the player to act can shoot this turn, by each option of the pending decision
(`trv legal --targets`): "which die on which car reaches a shot at the Big Rig" without
trying every path by hand.

The search plays the player's own decisions on copies of the state, as `trv turn --dry-run`
does, and never tells chance: a way that would roll a die or turn a hidden token (a slam, a
hazard) is not followed (the dice follow the seed and the number of events, so showing them
would let a player try a turn before choosing it), and it stops at the turn's end.  Commands
are left out (each way takes ``no-command``): nitro, drift and the rest multiply the ways
past any budget, and a shot is the question.  The search is bounded (``budget`` actions
applied); what it did not reach is said.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from trvendetta.core.errors import RuleViolation
from trvendetta.core.rng import NeedDice, NoDice

#: actions applied at most, over the whole search
BUDGET = 60_000


class Reach(NamedTuple):
    """Per option of the pending decision (its printed name): each target it reaches with one
    shortest way to it (the names of the actions after that option, as `trv decide` takes
    them); whether some way was cut by chance; and whether the budget ran out."""

    player: str
    kind: str
    targets: dict[str, dict[str, list[str]]]
    chance: dict[str, int]
    truncated: bool


def reachable_targets(ruleset: Any, state: Any, budget: int = BUDGET) -> Reach:
    decision = ruleset.pending(state)
    if decision is None:
        raise RuleViolation("game over", "no decision is pending: nothing is in reach")
    me = decision.player
    targets: dict[str, dict[str, list[str]]] = {}
    chance: dict[str, int] = {}
    left = [budget]

    def walk(now: Any, way: list[str], first: str) -> None:
        d = ruleset.pending(now)
        if d is None or d.player != me:
            return
        options = list(d.options)
        if d.kind == "shoot":
            for action in options:
                name = ruleset.describe_action(action)
                if name.startswith("shoot "):
                    found = targets[first].get(name[len("shoot "):])
                    if found is None or len(found) > len(way):
                        targets[first][name[len("shoot "):]] = list(way)
            return
        for action in options:
            name = ruleset.describe_action(action)
            if d.kind == "command" and name != "no-command":
                continue
            if left[0] <= 0:
                return
            left[0] -= 1
            try:
                after, events = ruleset.apply(now, action, NoDice())
            except NeedDice:
                chance[first] = chance.get(first, 0) + 1
                continue
            except RuleViolation:
                continue
            if any(ruleset.reveals(e) for e in events):
                chance[first] = chance.get(first, 0) + 1
                continue
            if any(ruleset.event_kind(e) == "turn-ended" for e in events):
                continue
            walk(after, [*way, name], first)

    for action in decision.options:
        first = ruleset.describe_action(action)
        targets[first] = {}
        if decision.kind == "shoot":
            if first.startswith("shoot "):
                targets[first][first[len("shoot "):]] = []
            continue
        if decision.kind == "command" and first != "no-command":
            continue
        left[0] -= 1
        try:
            after, events = ruleset.apply(state, action, NoDice())
        except NeedDice:
            chance[first] = 1
            continue
        if any(ruleset.reveals(e) for e in events):
            chance[first] = 1
            continue
        walk(after, [], first)
    if decision.kind == "command":
        targets = {k: v for k, v in targets.items() if k == "no-command"}
    return Reach(me, decision.kind, targets, chance, left[0] <= 0)
