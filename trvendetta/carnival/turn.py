"""Party favors, Witness Me!, super-weapons and decrees inside a turn
(rulebook "Witness Me!", "Party Favors", "Party Favor Reference",
"Super-Weapons", "Clarifications", "Tina's Turn Decrees"): the decisions.

The arena board gives Vendetta's pending decision to :func:`decision`, which adds
the Carnival's options where the rulebook lets them be played, or makes a
decision where the road would have none (a favor to play before or after
moving, a Thwumper with nothing to shoot at):

* the start of the turn (the assign decision): Witness Me!, Mega-Repair,
  and the favors that may also be played before moving;
* before moving (the command decision, or a ``favor`` decision): Bootleg
  Turn, Double Barrel and its early shot, Killer Pillar, Precision, the
  Auto-Cannon;
* while moving (each step): Killer Pillar, Precision, the Auto-Cannon;
* after moving (the shoot decision): Full Throttle, Killer Pillar,
  Precision, the super-weapon's shot or the Thwumper; In the Mood for
  Mayhem!'s second shot;
* in the middle of an effect (a pause, rules v2): Killer Pillar, Precision.

The option lists are built in ``offers.py``; ``play.py`` carries the
actions out (``play.resolve``), ``shots.py`` the super-weapons' shots and the
Thwumper's jump.  What a turn has used is kept in the state's
:class:`TurnExtras`, scoped to the turn (``extras.py``).
"""

from __future__ import annotations

from ..core import geometry
from ..core.protocol import Decision
from ..vendetta import board as b
from ..vendetta.actions import NoShoot, Shoot
from . import arena, decrees
from .actions import AutoCannon, FireWeapon, NoFavor, Thwump, ThwumpRoll, WitnessMe
from .extras import decree_now, extras, v2, v4
from .offers import (SHOT_WEAPONS, bootleg_steps, favor_options, flights, holds_any, mayhem_shots, shot_targets,
                     thwumps, turn_car, weapon_targets, whatever_commands)


#: the prompt of In the Mood for Mayhem!'s second shot (``trv turn --second-shot`` answers it)
MAYHEM_PROMPT = "In the Mood for Mayhem!: shoot another time?"


def _phase(state, decision: Decision | None) -> str | None:
    t = state.turn
    if t is None:
        return None
    if t.phase == "assign":
        return "start-of-turn"
    if t.phase in ("command", "command-done"):
        return "before-moving"
    if t.phase == "move":
        return "before-fx-roll"
    if t.phase == "shoot":
        return "after-moving"
    return None


def decision(state, d: Decision | None) -> Decision | None:
    """Vendetta's pending decision with the Carnival's options added (or made)."""
    t = state.turn
    if state.pause is not None and state.phase == "playing":
        return _pause_decision(state)
    if state.jump is not None and state.phase == "playing":  # rules v4: the die is rolled, the way is chosen
        j = state.jump
        owner = b.owner_of(state, j.car)
        return Decision(owner, "thwump", tuple(Thwump(x) for x in geometry.DIRECTIONS),
                        f"the Thwumper's stunt die shows {j.spaces}: jump which way?")
    if state.phase != "playing" or t is None or state.cow is not None:
        return d
    if state.slam is not None:
        if d is not None and d.kind == "slam-reroll" and d.player == t.player and v2(state):
            # Precision "before an FX die is rolled on your turn": the reroll rolls both slam dice again
            return _with(d, [o for o in favor_options(state, t.player, "mid-effect") if o.favor == "precision"])
        return d
    if d is not None and d.player != t.player:
        return d
    if d is not None and d.kind == "airstrike-place":  # "you choose which adjacent space it faces"
        return Decision(d.player, d.kind, flights(state, d), "place your chopper and choose its facing")
    name = t.player
    if b.player(state, name).out:
        return d
    phase = _phase(state, d)
    e = extras(state)
    extra: list = []
    if phase == "start-of-turn" and d is not None:
        if name not in state.witness_used:
            extra.append(WitnessMe())
        extra += favor_options(state, name, phase)
        return _with(d, extra)
    car = turn_car(state)
    weapon = state.weapons.get(car.id) if car is not None else None
    if phase == "before-moving":
        if d is not None and d.kind == "command" and decree_now(state) == decrees.WHATEVER:
            extra += whatever_commands(state, name, d)
        if weapon == "auto-cannon" and not e.cannon:
            extra += [AutoCannon(x) for x in shot_targets(state, car)]
        extra += favor_options(state, name, phase)
        if d is None and e.passed != "before-moving" and (extra or holds_any(state, name)):
            return Decision(name, "favor", tuple(extra) + (NoFavor(),), "play a party favor before moving?")
        return _with(d, extra)
    if phase == "before-fx-roll" and d is not None and d.kind == "step":
        if weapon == "auto-cannon" and not e.cannon:
            extra += [AutoCannon(x) for x in shot_targets(state, car)]
        extra += favor_options(state, name, phase)
        steps = bootleg_steps(state, car) if e.bootleg else ()
        if steps:  # a car still waiting behind a road tile enters as usual
            d = Decision(d.player, d.kind, steps, d.prompt)
        return _with(d, extra)
    if phase == "after-moving":
        extra += favor_options(state, name, phase)
        if weapon == "auto-cannon" and not e.cannon and v2(state):  # "(including before or after it moves)"
            extra += [AutoCannon(x) for x in shot_targets(state, car)]
        if weapon in SHOT_WEAPONS:
            targets = weapon_targets(state, car, weapon)
            extra += [FireWeapon(x) for x in targets]
        if weapon == "thwumper" and car is not None and arena.may_shoot_from(state.arena, car.at):
            extra += thwumps(state, ThwumpRoll(), [Thwump(x) for x in geometry.DIRECTIONS])
            if d is not None:  # "You cannot shoot with this car"
                d = Decision(d.player, d.kind, tuple(o for o in d.options if not isinstance(o, Shoot)), d.prompt)
        if d is None and (extra or holds_any(state, name)):
            return Decision(name, "shoot", tuple(extra) + (NoShoot(),), "fire, or play a party favor?")
        return _with(d, extra)
    if t.phase == "done" and d is None and car is not None:
        shots = e.shots - e.cannon_after  # the car's own shots after moving (not the Auto-Cannon's)
        if e.cannon_after and shots == 0:  # "That car may also shoot again during its shoot step"
            targets = shot_targets(state, car)
            if targets:
                options = tuple(Shoot(x) for x in targets) + (NoFavor(),)
                return Decision(name, "shoot", options, "the Auto-Cannon fired: shoot as normal?")
        if 1 <= shots < decrees.shots_after_moving(decree_now(state)):  # In the Mood for Mayhem!
            options = mayhem_shots(state, car, weapon)
            if options:  # rules v4: a favor too ("at any time on your turn")
                more = tuple(favor_options(state, name, "after-shooting")) if v4(state) else ()
                return Decision(name, "shoot", options + more + (NoFavor(),), MAYHEM_PROMPT)
    if t.phase == "done" and d is None and v4(state) and t.car not in e.done:
        # rules v4: Killer Pillar "at any time on your turn": after the shot too, before the turn ends
        options = tuple(favor_options(state, name, "after-shooting"))
        if options or holds_any(state, name):
            return Decision(name, "favor", options + (NoFavor(),), "play a party favor before the turn ends?")
    return d


def _pause_decision(state) -> Decision:
    """The paused effect (rules v2): Killer Pillar, or Precision for a die the
    chain rolls later, or go on (``no favor``)."""
    p = state.pause
    options = favor_options(state, p.player, "mid-effect")
    what = {"slam": "the slam pushes a car next", "skid": f"{p.vehicle} skids next",
            "blast-off": f"{p.vehicle} blasts off next", "dazed": f"dazed {p.vehicle} moves next",
            "shrapnel": f"shrapnel flies from {p.vehicle} next",
            "thwump": f"the Thwumper of {p.vehicle} lands next"}.get(p.effect, p.effect)
    return Decision(p.player, "favor", tuple(options) + (NoFavor(),), f"{what}: play a party favor now?")


def _with(d: Decision | None, extra: list) -> Decision | None:
    if d is None or not extra:
        return d
    options = list(d.options) + [o for o in extra if o not in d.options]
    return Decision(d.player, d.kind, tuple(options), d.prompt)
