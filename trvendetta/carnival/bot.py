"""The greedy bot's heuristics for Carnival (``Carnival.score_options``).

Vendetta's (``vendetta/bot.py``) with the arena's aims: a step is worth
what Vendetta's is (never off an edge or onto a raised pillar, avoid slams
unless drifting), plus, where the move ends, a party favor, a super-weapon
token (for a car without one), a spotlight, an opponent in the front arc
to shoot at from an arena space, and minus ending on a road tile (no shooting
from there).  A chopper may fly to any space the arena allows.

The Carnival's own options: a super-weapon's shot (or the Auto-Cannon's, or
Double Barrel's) is worth its target's score and a little more, never at a car of ours; the
Thwumper's way (rules v4, once its die is rolled) never off the board or onto a raised pillar,
toward opposing cars; Mega-Repair when a car of ours is inoperable; Killer Pillar only to crush an
opposing car (or to raise the pillar a paused slam or damage effect is about to move an opposing
car onto); Witness Me! from round 3; the other favors are kept (a Solid Gold Muffler counts at the
end, and a kept favor breaks ties).  In a game recorded under rules v2-v4 the bot never declines
In the Mood for Mayhem!'s second shot once the Auto-Cannon fired in the shoot step: there a
decline offers it again, for ever.
"""

from __future__ import annotations

from ..core import geometry
from ..core.protocol import Decision
from ..vendetta import bot
from . import arena, spaces, weapons
from .actions import OWN, AutoCannon, FireWeapon, FlyChopper, NoFavor, PlayFavor, Thwump, WitnessMe
from .extras import extras, v5
from .turn import MAYHEM_PROMPT


def score_options(state, decision: Decision) -> list[float] | None:
    return CarnivalHeuristics(state, decision).scores()


def evaluate(state) -> dict[str, float]:
    """Each player's share of a running Carnival game, for the search bot's playouts cut short
    (``Ruleset.evaluate``): the most scrap wins, so a player's worth is their scrap and a little
    for each operable vehicle (the first tie-break, and what earns scrap later); none when out.
    The shares are the squares of the worths, normalised; a game over: the winner has it all."""
    players = [p.name for p in state.players]
    if state.phase == "over":
        return {p: (1.0 if p == state.winner else 0.0) if state.winner else 1.0 / len(players) for p in players}
    operable = {p: 0 for p in players}
    for v in state.vehicles:
        if v.owner in operable and v.at is not None and v.status == "operational":
            operable[v.owner] += 1
    out = {p.name: 0.0 if p.out else (2.0 + state.scrap.get(p.name, 0) + 1.5 * operable[p.name]) ** 2
           for p in state.players}
    total = sum(out.values())
    return {p: w / total for p, w in out.items()} if total > 0 else {p: 1.0 / len(players) for p in players}


class CarnivalHeuristics(bot.Heuristics):
    def scores(self) -> list[float] | None:
        handler = getattr(self, "_" + self.decision.kind.replace("-", "_"), None)
        options = self.decision.options
        if handler is None and not any(isinstance(a, OWN) for a in options):
            return None
        return [self._own(a) if isinstance(a, OWN) else self._scored(handler, a) for a in options]

    def _scored(self, handler, a) -> float:
        """Vendetta's option score (the crew's own first: ``Crew.score_option``), 0 with none."""
        score = self.score(handler, a)
        return 0.0 if score is None else score

    def _own(self, a) -> float:
        """A Carnival action's score."""
        s = self.state
        if isinstance(a, WitnessMe):
            return 1.0 if s.round >= 3 else -1.0
        if isinstance(a, FlyChopper):  # the best target in the chosen front arc
            arc = s.board.arc(self.b.sq(a.at), a.facing)
            return max((self._target_score(v.id) for v in s.vehicles if v.at in arc and not v.start), default=0.0)
        if isinstance(a, (FireWeapon, AutoCannon)):
            return self._weapon_target(a.target)
        if isinstance(a, Thwump) and s.jump is not None:  # rules v4: the die is rolled, the way is ours
            return self._jump(s.jump, a.direction)
        if isinstance(a, PlayFavor):
            if a.favor == "double-barrel":
                if a.shot == "thwump":
                    return -1.0
                assert a.target is not None, "Double Barrel's shot names its target"
                return self._weapon_target(a.target)
            if a.favor == "mega-repair":
                return 5.0 if any(v.status == "inoperable" for v in self._mine()) else -1.0
            if a.favor == "killer-pillar":
                spot = s.arena.pillars[a.pillars[-1]]
                crushed = [v for v in s.vehicles if v.at == spot]
                crushed += [v for v in s.vehicles if v.id == self._pushed_onto(spot)]  # mid-effect: it lands there
                return 10.0 * sum(1 if v.owner != self.me else -5 for v in crushed) - 1.0
        if isinstance(a, NoFavor) and self._declining_repeats():
            return -100.0
        return -1.0 if not isinstance(a, NoFavor) else 0.0

    def _weapon_target(self, target: str) -> float:
        """A super-weapon's (or the Auto-Cannon's, or Double Barrel's) shot: its target's score and a
        little more, but never at a car of ours or one already inoperable (those score nothing)."""
        score = self._target_score(target)
        return score + 1.0 if score > 0 else -1.0

    def _declining_repeats(self) -> bool:
        """Rules v2-v4 under In the Mood for Mayhem!, once the Auto-Cannon fired in the shoot step:
        declining the second shot offers it again, for ever (rules v5 ends the car's shooting).
        A bot playing a game recorded under those versions shoots instead, which ends the turn."""
        s = self.state
        return (self.decision.prompt == MAYHEM_PROMPT and not v5(s) and extras(s).cannon_after)

    def _jump(self, jump, direction: str) -> float:
        """A way for the Thwumper's rolled jump: never off the board nor onto a raised pillar; the
        cars it shakes (theirs for, ours against), or the car it lands on."""
        s = self.state
        car = self.b.vehicle(s, jump.car)
        occupied = {v.at for v in s.vehicles if v.at is not None and not v.start and v.id != car.id}
        landing, outcome, shaken = weapons.thwump(s.arena, car.at, direction, jump.spaces, occupied, s.board)
        if outcome == "eliminated" or landing in arena.impassable(s.arena, s.raised):
            return -100.0
        if outcome == "slam":
            return 1.0
        mine = {v.at: v.owner == self.me for v in s.vehicles if v.at in set(shaken)}
        return sum(-3.0 if own else 3.0 for own in mine.values())

    def _pushed_onto(self, spot) -> str | None:
        """The car a paused effect is about to move onto ``spot`` (a slam's push, a skid, a blast off)."""
        s = self.state
        p = s.pause
        if p is None:
            return None
        if p.effect != "slam":
            return p.vehicle if p.to == spot else None
        if s.slam is None or not s.slam.slam:
            return None
        moved = s.slam.top if s.slam.slam == "TOP" else s.slam.bottom
        v = self.b.vehicle(s, moved) if not self.b.is_wreck(moved) else None
        if v is None or v.at is None:
            return None
        return moved if s.board.neighbour(v.at, s.slam.direction, v.facing) == spot else None

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
            arc = set(s.board.arc(sp, car.facing))
            score += 3 * sum(1 for v in foes if v.at in arc)
        elif spaces.where(s.arena, sp) == "road":
            score -= 2
        return score

    def _step(self, a) -> float:
        if a.direction in geometry.FRONT_ARC:
            return super()._step(a)
        car = self._turn_car()  # a Bootleg Turn's step to the side or back
        sp = self.state.board.neighbour(car.at, a.direction, car.facing)
        return self._space_score(sp, self.state.turn.moves_left <= 1)

    def _empty_spaces(self):
        s = self.state
        busy = {v.at for v in s.vehicles if v.at is not None and not v.start} | self.b.chopper_spaces(s)
        return [sp for sp, _ in s.board.chopper_spaces(s) if sp not in busy and arena.may_shoot_from(s.arena, sp)]

    def _command(self, a) -> float:
        if getattr(a, "command", None) == "nitro":
            car = self._turn_car()
            if car is None or car.start:
                return -1.0
            ahead = self.state.board.neighbour(car.at, "F", car.facing)
            clear = self.b.terrain(self.state, ahead) in ("road", "arena") and not self.b.occupants(self.state, ahead)
            return 20.0 + a.die if clear else -1.0
        return super()._command(a)
