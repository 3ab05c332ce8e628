"""Carrying out the Carnival's actions of a turn (``turn.resolve``): Witness
Me!, a party favor (also in the middle of a paused effect, which then goes
on: :func:`resume`), a super-weapon's shot, the Auto-Cannon, the Thwumper,
the chopper's facing; declining a favor or a second shot.
"""

from __future__ import annotations

from ..core.protocol import Decision
from ..vendetta import board as b
from ..vendetta import effects as fx
from ..vendetta import events as vev
from ..vendetta import rules
from . import events as cev
from . import favors
from .actions import AutoCannon, FireWeapon, FlyChopper, NoFavor, PlayFavor, Thwump, ThwumpRoll, WitnessMe
from .offers import favor_options
from .extras import AFTER_SHOOTING
from .shots import land, thwump_aim, thwump_jump, thwump_roll, weapon_shot


def resolve(ctx, d: Decision, action) -> None:
    s = ctx.state
    t = s.turn
    name = t.player
    if s.pause is not None:
        _answer_pause(ctx, action)
        return
    match action:
        case WitnessMe():
            ctx.emit(cev.WitnessMePlayed(name))
        case NoFavor() if t.phase == "done" and d.kind == "favor":  # rules v4: no favor after the shots
            ctx.emit(cev.FavorsPassed(name, AFTER_SHOOTING + (t.car or "")))
        case NoFavor() if t.phase == "done":
            ctx.emit(cev.ShotTaken(name, "declined"))
        case NoFavor():
            ctx.emit(cev.FavorsPassed(name, "before-moving"))
        case PlayFavor():
            _favor(ctx, name, action)
        case FireWeapon(target):
            weapon_shot(ctx, t.car, target, s.weapons[t.car])
        case AutoCannon(target):
            ctx.emit(cev.ShotTaken(name, "auto-cannon-after" if t.phase == "shoot" else "auto-cannon"))
            rules.fire(ctx, t.car, target)
        case Thwump(direction) if s.jump is not None:  # rules v4: the way, once the die is rolled
            thwump_aim(ctx, direction)
        case Thwump(direction):
            thwump_jump(ctx, t.car, direction)
        case ThwumpRoll():
            thwump_roll(ctx, t.car)
        case FlyChopper(at, facing):
            ctx.emit(vev.ChopperPlaced(name, at))
            ctx.emit(cev.ChopperFaced(name, facing))
        case _:
            raise TypeError(f"not a Carnival action: {action!r}")


def _answer_pause(ctx, action) -> None:
    """A favor played in the middle of an effect, or none: then (or when no
    favor is left to play now) the effect goes on where it paused."""
    p = ctx.state.pause
    if isinstance(action, PlayFavor):
        _favor(ctx, p.player, action)
        if favor_options(ctx.state, p.player, "mid-effect"):
            return  # the effect stays paused: another favor may follow ("any number of party favors")
    ctx.emit(cev.FavorsPassed(p.player, "mid-effect"))
    resume(ctx, p)


def resume(ctx, p) -> None:
    """Go on with the paused effect: the slam's push, or the damage effect's forced move."""
    if p.effect == "slam":
        if ctx.state.slam is not None:
            fx.resolve_slam(ctx, pause=False)
        return
    v = b.vehicle(ctx.state, p.vehicle)
    if p.effect in ("shrapnel", "thwump"):  # rules v3: a car the pillar crushed throws nothing, lands nowhere
        if v.at is not None and p.effect == "shrapnel":
            fx.shrapnel(ctx, p.vehicle, p.direction)
        elif v.at is not None:
            land(ctx, p.vehicle, p.to, p.direction)
        return
    if v.at is not None and p.to is not None:  # a car crushed by the pillar meanwhile goes nowhere
        if fx.enter(ctx, p.vehicle, p.to, p.how, p.direction) and p.left:
            fx.dazed_steps(ctx, p.vehicle, p.left)  # Dazed: the moves still to roll


def _favor(ctx, name: str, action: PlayFavor) -> None:
    s = ctx.state
    ctx.emit(cev.FavorPlayed(name, action.favor, action.pillars, action.die, action.face, action.target, action.shot))
    if action.favor == "mega-repair":  # "Remove 1 damage from EACH of your cars"
        for v in s.vehicles:
            if v.owner == name and v.damage and v.at is not None:
                ctx.emit(vev.CarRepaired(v.id, v.damage[-1]))
    elif action.favor == "killer-pillar":
        lower, lift = action.pillars
        raised = favors.killer_pillar(s.raised, lower, lift)
        ctx.emit(cev.PillarsSet(raised))
        spot = s.arena.pillars[lift]
        for vid in b.occupants(ctx.state, spot):
            fx.eliminate(ctx, vid, f"crushed by killer pillar {lift} (a party favor)")
    elif action.favor == "full-throttle":  # "You must move all 3 spaces"
        ctx.emit(vev.MoveStarted(ctx.state.turn.car, 3, False))
    elif action.favor == "double-barrel":  # "You may shoot before moving"
        car = ctx.state.turn.car
        if action.shot == "thwump" and action.target is None:  # rules v4: the die first, the way after
            thwump_roll(ctx, car, counts=False)
            return
        assert action.target is not None, "Double Barrel names its target"
        if action.shot == "weapon":
            weapon_shot(ctx, car, action.target, s.weapons[car])
        elif action.shot == "thwump":  # not the shoot step's jump: the car moves after it
            thwump_jump(ctx, car, action.target, counts=False)
        else:
            rules.fire(ctx, car, action.target)
