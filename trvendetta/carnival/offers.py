"""What the Carnival offers at a decision of a turn (``turn.decision`` puts
them together): the favors that may be played in each phase, Double
Barrel's and In the Mood for Mayhem!'s shots, a super-weapon's targets, the
chopper's places and facings, Whatever It Takes!'s commands, Bootleg Turn's
steps.  Pure: the state in, options out.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..core import geometry
from ..core.protocol import Decision
from ..vendetta import board as b
from ..vendetta.actions import Shoot, UseCommand
from . import arena, favors, spaces, weapons
from .actions import FireWeapon, FlyChopper, PlayFavor, Thwump, ThwumpRoll
from .components import PILLARS
from .extras import extras, v2, v3, v4

FX_DICE = ("shot", "slam", "direction", "stunt")
SHOT_WEAPONS = ("amplifier", "big-friendly-gun", "cluster-missiles", "energizer", "laser-kebab")


def turn_car(state):
    t = state.turn
    if t is None or t.car is None:
        return None
    v = b.vehicle(state, t.car)
    return v if v.at is not None and not v.start and v.status == "operational" else None


def shot_targets(state, car) -> list[str]:
    """Targets of a shot from ``car``: only from an arena space ("Keep Cool")."""
    if car is None or not arena.may_shoot_from(state.arena, car.at):
        return []
    return b.front_arc_targets(state, car.at, car.facing, exclude=car.id)


def favor_options(state, name: str, phase: str) -> list:
    held = sorted(set(favors.known(state.favors.get(name, ()))))  # a face-down private favor: its owner's view opens it
    out: list = []
    car = turn_car(state)
    for kind in held:
        # Precision: "before an FX die is rolled on your turn": any decision of the turn comes before one
        if phase not in favors.TIMING[kind] and kind != "precision":
            continue
        if kind == "killer-pillar":
            lower = sorted(state.raised) or [""]
            out += [PlayFavor(kind, (lo, up)) for lo in lower for up in PILLARS if up not in state.raised and up != lo]
        elif kind == "precision":
            faces = state.components.dice
            out += [PlayFavor(kind, die=d, face=f) for d in FX_DICE for f in dict.fromkeys(faces[d].faces)]
        elif kind == "mega-repair":
            if any(v.owner == name and v.damage and v.at is not None for v in state.vehicles):
                out.append(PlayFavor(kind))
        elif kind == "full-throttle":
            if car is not None:
                out.append(PlayFavor(kind))
        elif kind == "bootleg-turn" and not extras(state).bootleg:
            out.append(PlayFavor(kind))
        elif kind == "double-barrel" and phase == "before-moving":  # "your car": the one with the die
            out += _double_barrel(state, car)
    nonces = state.nonces.get(name)
    if nonces:  # a private view: its owner's favors, each played with its opening (what the record will hold)
        out = [replace(o, nonce=nonces[o.favor]) if o.favor in nonces else o for o in out]
    return out


def _double_barrel(state, car) -> list:
    """Double Barrel's shot before moving: a normal one; from rules v3 also the
    super-weapon's, or the Thwumper's jump ("Whenever you could shoot with it,
    you may use the Thwumper instead"), as In the Mood for Mayhem!'s second."""
    weapon = state.weapons.get(car.id) if car is not None else None
    if v2(state) and weapon == "thwumper" and not v3(state):
        return []  # rules v2: the Thwumper: "You cannot shoot with this car"
    normal = weapons.shoots_normally(weapon) or not v2(state)  # (rules v1 offered the Thwumper's car a shot)
    out = [PlayFavor("double-barrel", target=x) for x in shot_targets(state, car)] if normal else []
    if v3(state) and weapon in SHOT_WEAPONS:
        out += [PlayFavor("double-barrel", target=x, shot="weapon") for x in weapon_targets(state, car, weapon)]
    if v3(state) and weapon == "thwumper" and arena.may_shoot_from(state.arena, car.at):
        out += thwumps(state, PlayFavor("double-barrel", shot="thwump"),
                       [PlayFavor("double-barrel", target=x, shot="thwump") for x in geometry.DIRECTIONS])
    return out


def thwumps(state, roll, aimed: list) -> list:
    """The Thwumper's jump as offered: rules v4 rolls the stunt die first (``roll``), the
    direction is chosen after; before, the direction came with the action (``aimed``)."""
    return [roll] if v4(state) else aimed


def mayhem_shots(state, car, weapon: str | None) -> tuple:
    """In the Mood for Mayhem!'s second shot: as normal; from rules v2 also the
    super-weapon's shot, and the Thwumper's jump ("Whenever you could shoot
    with it, you may use the Thwumper instead")."""
    targets = shot_targets(state, car)
    if not v2(state):
        return tuple(Shoot(x) for x in targets) if targets and weapons.shoots_normally(weapon) else ()
    out: list[Shoot | FireWeapon | Thwump | ThwumpRoll] = [Shoot(x) for x in targets] if weapons.shoots_normally(weapon) else []
    if weapon in SHOT_WEAPONS:
        out += [FireWeapon(x) for x in weapon_targets(state, car, weapon)]
    if weapon == "thwumper" and arena.may_shoot_from(state.arena, car.at):
        out += thwumps(state, ThwumpRoll(), [Thwump(x) for x in geometry.DIRECTIONS])
    return tuple(out)


def holds_any(state, name: str) -> bool:
    """Rules v2: a favor decision is made whenever the player holds any favor
    (their number is public), so whether one is made shows nothing of their kinds."""
    return v2(state) and bool(state.favors.get(name))


def flights(state, d: Decision) -> tuple:
    """Air Attack: "When you place a chopper in an arena space, you choose
    which adjacent space it faces"; on a road tile (rules v2) it faces the
    tile's forward, as a car there does: it cannot shoot from there anyway."""
    out = []
    for o in d.options:
        if v2(state) and spaces.where(state.arena, b.sq(o.at)) == "road":
            slot = spaces.slot_number(state.arena, b.sq(o.at))
            assert slot is not None, "a road tile's space is in a slot"
            out.append(FlyChopper(o.at, spaces.slot(state.arena, slot).forward))
        else:
            out += [FlyChopper(o.at, f) for f in geometry.DIRECTIONS]
    return tuple(out)


def whatever_commands(state, name: str, d: Decision) -> list:
    """Whatever It Takes!: a command takes any value (nitro moves the die's value)."""
    p = b.player(state, name)
    out = []
    for die in sorted(set(p.dice)):
        if not state.turn.momentum:
            out.append(UseCommand("nitro", die))
        out.append(UseCommand("drift", die))
        out += [UseCommand("repair", die, v.id) for v in state.vehicles
                if v.owner == name and v.damage and v.at is not None]
    return [o for o in out if o not in d.options]


def weapon_targets(state, car, weapon: str) -> list[str]:
    if car is None or not arena.may_shoot_from(state.arena, car.at):
        return []
    if weapon == "laser-kebab":
        occupied = {v.at: v.id for v in state.vehicles if v.at is not None and not v.start and v.id != car.id}
        return [occupied[s] for s in weapons.laser_kebab_targets(state.arena, car.at, car.facing, set(occupied),
                                                                  state.board)]
    return shot_targets(state, car)


def bootleg_steps(state, car) -> tuple:
    """Bootleg Turn: a step in any of the six directions, the car turning to
    face the way it goes; never back onto a road tile from the arena."""
    from ..vendetta.actions import Step

    if car is None:
        return ()
    here = spaces.where(state.arena, car.at)
    out = []
    for relative in geometry.DIRECTIONS:
        to = state.board.neighbour(car.at, relative, car.facing)
        if here == "arena" and spaces.where(state.arena, to) == "road":
            continue
        out.append(Step(relative))
    return tuple(out)
