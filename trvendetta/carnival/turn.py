"""Party favors, Witness Me!, super-weapons and decrees inside a turn
(rulebook "Witness Me!", "Party Favors", "Party Favor Reference",
"Super-Weapons", "Clarifications", "Tina's Turn Decrees").

The seam gives Vendetta's pending decision to :func:`decision`, which adds
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
  Mayhem!'s second shot.

:func:`resolve` carries them out.  What a turn has used is kept in the
state's :class:`TurnExtras`, scoped to the turn.
"""

from __future__ import annotations

from ..core import geometry
from ..core.protocol import Decision
from ..vendetta import board as b
from ..vendetta import effects as fx
from ..vendetta import events as vev
from ..vendetta import rules
from ..vendetta.actions import NoShoot, Shoot, UseCommand
from . import arena, decrees, favors, spaces, weapons
from . import events as cev
from .actions import AutoCannon, FireWeapon, FlyChopper, NoFavor, PlayFavor, Thwump, WitnessMe
from .components import PILLARS
from .extras import decree_now, extras, v2, v3

FX_DICE = ("shot", "slam", "direction", "stunt")
SHOT_WEAPONS = ("amplifier", "big-friendly-gun", "cluster-missiles", "energizer", "laser-kebab")


# -------------------------------------------------------------- options
def _car(state):
    t = state.turn
    if t is None or t.car is None:
        return None
    v = b.vehicle(state, t.car)
    return v if v.at is not None and not v.start and v.status == "operational" else None


def _targets(state, car) -> list[str]:
    """Targets of a shot from ``car``: only from an arena space ("Keep Cool")."""
    if car is None or not arena.may_shoot_from(state.arena, car.at):
        return []
    return b.front_arc_targets(state, car.at, car.facing, exclude=car.id)


def _favor_options(state, name: str, phase: str) -> list:
    held = sorted(set(state.favors.get(name, ())))
    out: list = []
    car = _car(state)
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
    return out


def _double_barrel(state, car) -> list:
    """Double Barrel's shot before moving: a normal one; from rules v3 also the
    super-weapon's, or the Thwumper's jump ("Whenever you could shoot with it,
    you may use the Thwumper instead"), as In the Mood for Mayhem!'s second."""
    weapon = state.weapons.get(car.id) if car is not None else None
    if v2(state) and weapon == "thwumper" and not v3(state):
        return []  # rules v2: the Thwumper: "You cannot shoot with this car"
    normal = weapons.shoots_normally(weapon) or not v2(state)  # (rules v1 offered the Thwumper's car a shot)
    out = [PlayFavor("double-barrel", target=x) for x in _targets(state, car)] if normal else []
    if v3(state) and weapon in SHOT_WEAPONS:
        out += [PlayFavor("double-barrel", target=x, shot="weapon") for x in _weapon_targets(state, car, weapon)]
    if v3(state) and weapon == "thwumper" and arena.may_shoot_from(state.arena, car.at):
        out += [PlayFavor("double-barrel", target=x, shot="thwump") for x in geometry.DIRECTIONS]
    return out


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
    if state.phase != "playing" or t is None or state.cow is not None:
        return d
    if state.slam is not None:
        if d is not None and d.kind == "slam-reroll" and d.player == t.player and v2(state):
            # Precision "before an FX die is rolled on your turn": the reroll rolls both slam dice again
            return _with(d, [o for o in _favor_options(state, t.player, "mid-effect") if o.favor == "precision"])
        return d
    if d is not None and d.player != t.player:
        return d
    if d is not None and d.kind == "airstrike-place":  # "you choose which adjacent space it faces"
        return Decision(d.player, d.kind, _flights(state, d), "place your chopper and choose its facing")
    name = t.player
    if b.player(state, name).out:
        return d
    phase = _phase(state, d)
    e = extras(state)
    extra: list = []
    if phase == "start-of-turn" and d is not None:
        if name not in state.witness_used:
            extra.append(WitnessMe())
        extra += _favor_options(state, name, phase)
        return _with(d, extra)
    car = _car(state)
    weapon = state.weapons.get(car.id) if car is not None else None
    if phase == "before-moving":
        if d is not None and d.kind == "command" and decree_now(state) == decrees.WHATEVER:
            extra += _whatever(state, name, d)
        if weapon == "auto-cannon" and not e.cannon:
            extra += [AutoCannon(x) for x in _targets(state, car)]
        extra += _favor_options(state, name, phase)
        if d is None and e.passed != "before-moving" and (extra or _holds_any(state, name)):
            return Decision(name, "favor", tuple(extra) + (NoFavor(),), "play a party favor before moving?")
        return _with(d, extra)
    if phase == "before-fx-roll" and d is not None and d.kind == "step":
        if weapon == "auto-cannon" and not e.cannon:
            extra += [AutoCannon(x) for x in _targets(state, car)]
        extra += _favor_options(state, name, phase)
        steps = _bootleg_steps(state, car) if e.bootleg else ()
        if steps:  # a car still waiting behind a road tile enters as usual
            d = Decision(d.player, d.kind, steps, d.prompt)
        return _with(d, extra)
    if phase == "after-moving":
        extra += _favor_options(state, name, phase)
        if weapon == "auto-cannon" and not e.cannon and v2(state):  # "(including before or after it moves)"
            extra += [AutoCannon(x) for x in _targets(state, car)]
        if weapon in SHOT_WEAPONS:
            targets = _weapon_targets(state, car, weapon)
            extra += [FireWeapon(x) for x in targets]
        if weapon == "thwumper" and car is not None and arena.may_shoot_from(state.arena, car.at):
            extra += [Thwump(x) for x in geometry.DIRECTIONS]
            if d is not None:  # "You cannot shoot with this car"
                d = Decision(d.player, d.kind, tuple(o for o in d.options if not isinstance(o, Shoot)), d.prompt)
        if d is None and (extra or _holds_any(state, name)):
            return Decision(name, "shoot", tuple(extra) + (NoShoot(),), "fire, or play a party favor?")
        return _with(d, extra)
    if t.phase == "done" and d is None and car is not None:
        shots = e.shots - e.cannon_after  # the car's own shots after moving (not the Auto-Cannon's)
        if e.cannon_after and shots == 0:  # "That car may also shoot again during its shoot step"
            targets = _targets(state, car)
            if targets:
                options = tuple(Shoot(x) for x in targets) + (NoFavor(),)
                return Decision(name, "shoot", options, "the Auto-Cannon fired: shoot as normal?")
        if decree_now(state) == decrees.MAYHEM and shots == 1:
            options = _mayhem(state, car, weapon)
            if options:
                return Decision(name, "shoot", options + (NoFavor(),), "In the Mood for Mayhem!: shoot another time?")
    return d


def _mayhem(state, car, weapon: str | None) -> tuple:
    """In the Mood for Mayhem!'s second shot: as normal; from rules v2 also the
    super-weapon's shot, and the Thwumper's jump ("Whenever you could shoot
    with it, you may use the Thwumper instead")."""
    targets = _targets(state, car)
    if not v2(state):
        return tuple(Shoot(x) for x in targets) if targets and weapons.shoots_normally(weapon) else ()
    out = [Shoot(x) for x in targets] if weapons.shoots_normally(weapon) else []
    if weapon in SHOT_WEAPONS:
        out += [FireWeapon(x) for x in _weapon_targets(state, car, weapon)]
    if weapon == "thwumper" and arena.may_shoot_from(state.arena, car.at):
        out += [Thwump(x) for x in geometry.DIRECTIONS]
    return tuple(out)


def _holds_any(state, name: str) -> bool:
    """Rules v2: a favor decision is made whenever the player holds any favor
    (their number is public), so whether one is made shows nothing of their kinds."""
    return v2(state) and bool(state.favors.get(name))


def _flights(state, d: Decision) -> tuple:
    """Air Attack: "When you place a chopper in an arena space, you choose
    which adjacent space it faces"; on a road tile (rules v2) it faces the
    tile's forward, as a car there does: it cannot shoot from there anyway."""
    out = []
    for o in d.options:
        if v2(state) and spaces.where(state.arena, b.sq(o.at)) == "road":
            out.append(FlyChopper(o.at, spaces.slot(state.arena, spaces.slot_number(state.arena, b.sq(o.at))).forward))
        else:
            out += [FlyChopper(o.at, f) for f in geometry.DIRECTIONS]
    return tuple(out)


def _pause_decision(state) -> Decision:
    """The paused effect (rules v2): Killer Pillar, or Precision for a die the
    chain rolls later, or go on (``no favor``)."""
    p = state.pause
    options = _favor_options(state, p.player, "mid-effect")
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


def _whatever(state, name: str, d: Decision) -> list:
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


def _weapon_targets(state, car, weapon: str) -> list[str]:
    if car is None or not arena.may_shoot_from(state.arena, car.at):
        return []
    if weapon == "laser-kebab":
        occupied = {v.at: v.id for v in state.vehicles if v.at is not None and not v.start and v.id != car.id}
        return [occupied[s] for s in weapons.laser_kebab_targets(state.arena, car.at, car.facing, set(occupied))]
    return _targets(state, car)


def _bootleg_steps(state, car) -> tuple:
    """Bootleg Turn: a step in any of the six directions, the car turning to
    face the way it goes; never back onto a road tile from the arena."""
    from ..vendetta.actions import Step

    if car is None:
        return ()
    here = spaces.where(state.arena, car.at)
    out = []
    for relative in geometry.DIRECTIONS:
        to = geometry.neighbour(car.at, relative, car.facing)
        if here == "arena" and spaces.where(state.arena, to) == "road":
            continue
        out.append(Step(relative))
    return tuple(out)


# -------------------------------------------------------------- resolve
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
        case NoFavor() if t.phase == "done":
            ctx.emit(cev.ShotTaken(name, "declined"))
        case NoFavor():
            ctx.emit(cev.FavorsPassed(name, "before-moving"))
        case PlayFavor():
            _favor(ctx, name, action)
        case FireWeapon(target):
            _weapon_shot(ctx, t.car, target, s.weapons[t.car])
        case AutoCannon(target):
            ctx.emit(cev.ShotTaken(name, "auto-cannon-after" if t.phase == "shoot" else "auto-cannon"))
            rules.fire(ctx, t.car, target)
        case Thwump(direction):
            _thwump(ctx, t.car, direction)
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
        if _favor_options(ctx.state, p.player, "mid-effect"):
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
            _land(ctx, p.vehicle, p.to, p.direction)
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
        if action.shot == "weapon":
            _weapon_shot(ctx, car, action.target, s.weapons[car])
        elif action.shot == "thwump":  # not the shoot step's jump: the car moves after it
            _thwump(ctx, car, action.target, counts=False)
        else:
            rules.fire(ctx, car, action.target)


def _weapon_shot(ctx, car: str, target: str, weapon: str) -> None:
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
        for sp in weapons.cluster_spaces(here, occupied - {here}):
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
    damage and the car is still operable, rerolls its die for another turn."""
    a = ctx.state.after_hit
    ctx.emit(cev.AfterHitResolved(a.weapon, a.car))
    v = b.vehicle(ctx.state, a.target)
    if a.weapon == "amplifier":
        if v.at is not None and len(v.damage) > a.before and v.damage[-1] != "minor":
            fx.damage_effect(ctx, a.target, v.damage[-1])  # "resolve the effect again"
        return
    mine = b.vehicle(ctx.state, a.car)
    dealt = v.at is None or len(v.damage) > a.before
    if dealt and mine.at is not None and mine.status == "operational":
        crew = b.crew_of(ctx.state, mine.owner)  # "reroll the die you assigned to it and take another turn"
        dice, scripted = ctx.roll_movement(1, crew.die)
        ctx.emit(cev.Energized(a.car, dice[0], scripted))


def face_down(ctx, vid: str, cause: str) -> None:
    """A face-down damage token: it fills a damage slot and has no effect."""
    from ..vendetta.bigrig import minor_to_car

    v = b.vehicle(ctx.state, vid)
    if v.at is None:
        return
    if v.kind == "motorcycle":
        fx.damage(ctx, vid, cause)
    else:
        minor_to_car(ctx, vid, cause)


def _thwump(ctx, car: str, direction: str, counts: bool = True) -> None:
    """The Thwumper: roll the stunt die, jump that many spaces in a straight
    line, ignoring the spaces between; landing on a car slams it, landing
    clear gives each adjacent car a face-down damage token.  ``counts``:
    the jump is the shoot step's (it ends the car's shots), not Double
    Barrel's before moving."""
    face, scripted = ctx.roll("stunt")
    ctx.emit(vev.DieRolled("stunt", face, f"the Thwumper of {car}", scripted))
    v = b.vehicle(ctx.state, car)
    occupied = {x.at for x in ctx.state.vehicles if x.at is not None and not x.start and x.id != car}
    landing, _, _ = weapons.thwump(ctx.state.arena, v.at, direction, int(face), occupied)
    if counts:  # the shoot step's jump (its shot): Double Barrel's comes before moving
        ctx.emit(cev.ShotTaken(v.owner, "thwump"))
    ctx.state.seam.pause(ctx, "thwump", car, landing, "thwump", direction)  # rules v3: Killer Pillar before it lands
    _land(ctx, car, landing, direction)


def _land(ctx, car: str, landing, direction: str) -> None:
    """The Thwumper lands (what lies there is looked at now: a pillar played
    while it was in the air may have changed it): on a car, a slam; clear, a
    face-down damage token to each adjacent car."""
    occupied = {x.at for x in ctx.state.vehicles if x.at is not None and not x.start and x.id != car}
    _, outcome, shaken = weapons.thwump(ctx.state.arena, landing, direction, 0, occupied)
    fx.enter(ctx, car, landing, "thwump", direction)
    if outcome not in ("slam", "eliminated") and b.vehicle(ctx.state, car).at == landing:
        for sp in shaken:
            for vid in b.occupants(ctx.state, sp):
                face_down(ctx, vid, f"the Thwumper of {car}")
