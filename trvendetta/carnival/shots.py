"""The super-weapons' shots and the Thwumper's jump (rulebook
"Clarifications: Super-Weapons"), with Vendetta's effects: what a hit adds
(Cluster Missiles, the Big Friendly Gun), the follow-up it owes once its
damage effect has settled (the Amplifier, the Energizer: :func:`after_hit`),
the face-down damage token, the jump and its landing.
"""

from __future__ import annotations

from ..vendetta import board as b
from ..vendetta import effects as fx
from ..vendetta import events as vev
from . import events as cev
from . import weapons
from .extras import v2, v4


def weapon_shot(ctx, car: str, target: str, weapon: str) -> None:
    """A shot with the car's super-weapon; on a hit, what the card adds."""
    face, scripted = ctx.roll("shot")
    hit = b.size_of(ctx.state, target) in face
    ctx.emit(vev.ShotFired(car, target, face, hit, scripted))
    if not hit:
        return
    cause = f"{weapon} fired by {car}"
    if weapon == "cluster-missiles":  # each car adjacent to the target first takes a face-down token
        occupied = {v.at for v in ctx.state.vehicles if v.at is not None and not v.start}
        here = b.position_of(ctx.state, target)
        assert here is not None, "a car that was hit is on the board"
        for sp in weapons.cluster_spaces(here, occupied - {here}, ctx.state.board):
            for vid in b.occupants(ctx.state, sp):
                face_down(ctx, vid, cause)
    if weapon == "big-friendly-gun":
        v = b.vehicle(ctx.state, target)
        down, _ = weapons.big_friendly_gun_tokens(2 - len(v.damage) if v.kind != "motorcycle" else 1 - len(v.damage))
        for _ in range(down):
            face_down(ctx, target, cause)
    before = len(b.vehicle(ctx.state, target).damage)
    if v2(ctx.state) and weapon in ("amplifier", "energizer"):
        # the follow-up waits in the state, so a pause or a slam reroll inside the effect does not lose it
        ctx.emit(cev.AfterHit(weapon, car, target, before))
        fx.damage(ctx, target, cause)
        after_hit(ctx)
        return
    fx.damage(ctx, target, cause)
    v = b.vehicle(ctx.state, target)
    dealt = v.at is None or len(v.damage) > before
    if weapon == "amplifier" and v.at is not None and len(v.damage) > before and v.damage[-1] != "minor":
        fx.damage_effect(ctx, target, v.damage[-1])  # "resolve the effect again"
    mine = b.vehicle(ctx.state, car)
    if weapon == "energizer" and dealt and mine.at is not None and mine.status == "operational":
        crew = b.crew_of(ctx.state, mine.owner)  # "reroll the die you assigned to it and take another turn"
        dice, scripted = ctx.roll_movement(1, crew.die)
        ctx.emit(cev.Energized(car, dice[0], scripted))


def after_hit(ctx) -> None:
    """The follow-up a super-weapon's hit owes (rules v2), once its damage
    effect (slams included) has settled: the Amplifier resolves the effect
    again if the target is not eliminated; the Energizer, if the hit dealt
    damage (rules v4: any hit) and the car is still operable, rerolls its die for another turn."""
    a = ctx.state.after_hit
    ctx.emit(cev.AfterHitResolved(a.weapon, a.car))
    v = b.vehicle(ctx.state, a.target)
    if a.weapon == "amplifier":
        if v.at is not None and len(v.damage) > a.before and v.damage[-1] != "minor":
            fx.damage_effect(ctx, a.target, v.damage[-1])  # "resolve the effect again"
        return
    mine = b.vehicle(ctx.state, a.car)
    # rules v4: "as long as you continue shooting and hitting another car": any hit, a token or not
    dealt = v.at is None or len(v.damage) > a.before or v4(ctx.state)
    if dealt and mine.at is not None and mine.status == "operational":
        crew = b.crew_of(ctx.state, mine.owner)  # "reroll the die you assigned to it and take another turn"
        dice, scripted = ctx.roll_movement(1, crew.die)
        ctx.emit(cev.Energized(a.car, dice[0], scripted))


def face_down(ctx, vid: str, cause: str) -> None:
    """A face-down damage token: it fills a damage slot and has no effect."""
    from ..vendetta import crew

    v = b.vehicle(ctx.state, vid)
    if v.at is None:
        return
    crew.of_vehicle(ctx.state, vid).minor_damage(ctx, vid, cause)  # a motorcycle takes it as damage


def thwump_jump(ctx, car: str, direction: str, counts: bool = True) -> None:
    """The Thwumper: roll the stunt die, jump that many spaces in a straight
    line, ignoring the spaces between; landing on a car slams it, landing
    clear gives each adjacent car a face-down damage token.  ``counts``:
    the jump is the shoot step's (it ends the car's shots), not Double
    Barrel's before moving."""
    face, scripted = ctx.roll("stunt")
    ctx.emit(vev.DieRolled("stunt", face, f"the Thwumper of {car}", scripted))
    _jump(ctx, car, direction, int(face), counts)


def thwump_roll(ctx, car: str, counts: bool = True) -> None:
    """Rules v4: "roll the stunt die and move it that many spaces in a straight line in any
    direction you choose": the die first; the car waits for its player's direction
    (``thwump`` decision, :func:`thwump_aim`)."""
    face, scripted = ctx.roll("stunt")
    ctx.emit(vev.DieRolled("stunt", face, f"the Thwumper of {car}", scripted))
    ctx.emit(cev.JumpRolled(car, int(face), counts))


def thwump_aim(ctx, direction: str) -> None:
    """Rules v4: the direction chosen for the jump the stunt die set (:func:`thwump_roll`)."""
    j = ctx.state.jump
    assert j is not None, "a jump waits for its direction"
    ctx.emit(cev.JumpAimed(j.car, direction))
    _jump(ctx, j.car, direction, j.spaces, j.counts)


def _jump(ctx, car: str, direction: str, distance: int, counts: bool) -> None:
    v = b.vehicle(ctx.state, car)
    assert v.at is not None, "the Thwumper's car is on the board"
    occupied = {x.at for x in ctx.state.vehicles if x.at is not None and not x.start and x.id != car}
    landing, _, _ = weapons.thwump(ctx.state.arena, v.at, direction, distance, occupied, ctx.state.board)
    if counts:  # the shoot step's jump (its shot): Double Barrel's comes before moving
        ctx.emit(cev.ShotTaken(v.owner, "thwump"))
    ctx.state.board.pause(ctx, "thwump", car, landing, "thwump", direction)  # rules v3: Killer Pillar before it lands
    land(ctx, car, landing, direction)


def land(ctx, car: str, landing, direction: str) -> None:
    """The Thwumper lands (what lies there is looked at now: a pillar played
    while it was in the air may have changed it): on a car, a slam; clear, a
    face-down damage token to each adjacent car."""
    occupied = {x.at for x in ctx.state.vehicles if x.at is not None and not x.start and x.id != car}
    _, outcome, shaken = weapons.thwump(ctx.state.arena, landing, direction, 0, occupied, ctx.state.board)
    fx.enter(ctx, car, landing, "thwump", direction)
    if outcome not in ("slam", "eliminated") and b.vehicle(ctx.state, car).at == landing:
        for sp in shaken:
            for vid in b.occupants(ctx.state, sp):
                face_down(ctx, vid, f"the Thwumper of {car}")
