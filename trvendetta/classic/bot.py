"""The greedy bot's heuristics for classic Thunder Road (``Classic.score_options``).

The greedy bot scores every legal option of the pending decision with the
rules below and takes the best (ties broken by the seat's RNG); a decision
kind with no rule here is answered at random.

For **classic** (Thunder Road, 1986), where attacks cost nothing when they
fail:

* **repair**: always repair, the highest-ranked wrecked car first;
* **assign**: the largest die (with the black die on the road when offered)
  to the rearmost running car, which the next board switch would dump;
* **step**: ``F`` before ``FL``/``FR``; avoid spaces holding a wreck (a crash
  roll) and prefer the road lanes (the black die needs them);
* **attack**: the attack with the best chance, never ending the turn while
  one is offered: shots and chopper attacks hit on a red roll of at least
  the target's rank, a ram wins when its roll plus rank beats the
  defender's (chances counted exactly over the dice).
"""

from __future__ import annotations

from ..core import geometry
from ..core.bases import Heuristics as BaseHeuristics
from ..core.protocol import Decision
from .components import Components
from .model import State


def score_options(components: Components, state: State, decision: Decision) -> list[float] | None:
    """A score per option of ``decision`` (higher is better), or None."""
    return Heuristics(components, state, decision).scores()


class Heuristics(BaseHeuristics):
    """The classic (1986) heuristics; one method per decision kind."""

    def __init__(self, components: Components, state: State, decision: Decision):
        super().__init__(state, decision)
        self.road_lanes = set(components.road_lanes)

    def _repair(self, a) -> float:
        car = getattr(a, "car", None)
        return 0.0 if car is None else 1.0 + self.state.car(car).rank / 10

    def _assign(self, a) -> float:
        car = self.state.car(a.car)
        road = (self.state.turn.road_die or 0) if a.road else 0
        return -car.at[1] + (a.die + road) / 100

    def _step(self, a) -> float:
        if not hasattr(a, "direction"):  # Stay
            return -5.0
        car = self.state.car(self.state.turn.move.car)
        dl, dy = geometry.OFFSETS[a.direction]
        to = (car.at[0] + dl, car.at[1] + dy)
        wrecked = to in self.state.wrecks or any(c.at == to and c.status == "wrecked" for c in self.state.cars)
        return dy - (10 if wrecked else 0) + (1 if to[0] in self.road_lanes else 0)

    def _attack(self, a) -> float:
        s = self.state
        kind = type(a).__name__
        if kind == "EndTurn":
            return 0.0
        target = s.car(a.target)
        if kind == "Ram":
            mine = s.car(a.car).rank
            wins = sum(1 for x in range(1, 7) for y in range(1, 7) if x + mine > y + target.rank)
            return wins / 36
        return max(0, 7 - target.rank) / 6
