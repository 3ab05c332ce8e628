"""The greedy bot's heuristics for Carnival (``Carnival.score_options``).

Vendetta's (``vendetta/bot.py``) with the arena's aims: a step is worth
what Vendetta's is (never off an edge or onto a raised pillar, avoid slams
unless drifting), plus, where the move ends, a party favor, a super-weapon
token (for a car without one), a spotlight, an opponent in the front arc
to shoot at from an arena space, and minus ending on a road tile (no shooting
from there).  A chopper may fly to any space the arena allows.
"""

from __future__ import annotations

from ..core import geometry
from ..core.protocol import Decision
from ..vendetta import bot
from . import arena, spaces


def score_options(state, decision: Decision) -> list[float] | None:
    return CarnivalHeuristics(state, decision).scores()


class CarnivalHeuristics(bot.Heuristics):
    def _space_score(self, sp, last: bool, drift: bool = False, bike: bool = False) -> float:
        score = super()._space_score(sp, last, drift, bike)
        if score <= bot.NEG or not last:
            return score
        s = self.state
        car = self._turn_car()
        if sp in s.favor_tokens:
            score += 6
        if sp in s.weapon_tokens and car is not None and car.id not in s.weapons:
            score += 8
        if sp in s.arena.spotlights:
            score += 5
        if spaces.where(s.arena, sp) == "arena" and car is not None:
            foes = [v for v in s.vehicles if v.at is not None and not v.start and v.owner != self.me]
            arc = set(geometry.arc(sp, car.facing))
            score += 3 * sum(1 for v in foes if v.at in arc)
        elif spaces.where(s.arena, sp) == "road":
            score -= 2
        return score

    def _empty_spaces(self):
        s = self.state
        busy = {v.at for v in s.vehicles if v.at is not None and not v.start} | self.b.chopper_spaces(s)
        return [sp for sp in s.seam.chopper_spaces(s) if sp not in busy and arena.may_shoot_from(s.arena, sp)]

    def _command(self, a) -> float:
        if getattr(a, "command", None) == "nitro":
            car = self._turn_car()
            if car is None or car.start:
                return -1.0
            ahead = geometry.neighbour(car.at, "F", car.facing)
            clear = self.b.terrain(self.state, ahead) in ("road", "arena") and not self.b.occupants(self.state, ahead)
            return 20.0 + a.die if clear else -1.0
        return super()._command(a)
