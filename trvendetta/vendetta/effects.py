"""Effects: entering a space, hazards, slams, damage, eliminations, scrolling.

Every function takes the decide context and emits events.  A function
returns ``True`` when the moving vehicle's movement goes on and ``False`` when
it stopped (it slammed, took damage, was eliminated).  Each chain of effects
ends in at most one pending decision (a slam reroll), which raises
:class:`Suspend`; nothing in a chain comes after a slam, so resuming only
needs the state (see docs/architecture.md).  The state's board may pause
a slam before its push, or a damage effect before its forced move (Carnival's
Killer Pillar), or Shrapnel before its line is searched: those are tails of
their chains too (a dazed car's moves left ride in the pause).
"""

from __future__ import annotations

from . import board as b
from . import crew as crews
from . import events as ev
from .context import Ctx, GameEnds, Suspend

STOP, GO = False, True


def _active_moving(ctx: Ctx, vid: str) -> bool:
    t = ctx.state.turn
    return t is not None and t.car == vid and t.phase == "move"


def stop_movement(ctx: Ctx, vid: str, reason: str) -> None:
    """Rule: taking damage or slamming ends the car's remaining movement."""
    t = ctx.state.turn
    if t is not None and t.car == vid and t.phase == "move" and not t.stopped:  # _active_moving, narrowed
        ctx.emit(ev.MovementEnded(vid, reason))


def eliminate(ctx: Ctx, oid: str, cause: str) -> None:
    """Remove a vehicle (or wreck) from the game."""
    if b.is_wreck(oid):
        ctx.emit(ev.WreckRemoved(oid, cause))
        return
    ctx.emit(ev.VehicleEliminated(oid, cause))  # also ends its movement (see evolve)


def enter(ctx: Ctx, oid: str, to, how: str, direction: str) -> bool:
    """A vehicle (or pushed wreck) enters ``to``; resolve everything that follows.

    Rules: side/rear edges and impassable terrain eliminate; moving off the
    front of the lead piece scrolls the road (or reaches the Finish Line);
    entering an occupied space slams (Drift passes the first vehicle);
    entering a hazard token resolves it; mud costs 2 moves (1 when only 1 is
    left, which ends the move).
    """
    s = ctx.state
    frm = b.position_of(s, oid)
    terrain = b.terrain(s, to)
    if terrain == "beyond" and not b.is_wreck(oid) and not _at_final_piece(s):
        scroll(ctx, oid)  # may fix the lead piece as the final piece (a player went out)
        s = ctx.state
        terrain = b.terrain(s, to)
    if terrain == "beyond":
        owner = b.owner_of(s, oid)
        if owner is None or not b.has_operational(s, owner):  # owner None: a wreck
            # a wreck, or a car of a player who is out, cannot win: it leaves the road
            eliminate(ctx, oid, "pushed off the front of the road" if b.is_wreck(oid)
                      else "left the road over the Finish Line (its player is out)")
            return STOP
        # off the front of the final piece: onto the Finish Line, which wins at once
        ctx.emit(ev.VehicleMoved(oid, b.nm(frm), b.nm(to), how, direction, 1 if how == "step" else 0))
        ctx.emit(ev.GameOver(b.owner_of(s, oid), f"{oid} crossed the Finish Line"))
        raise GameEnds()
    if terrain == "start" and not (not b.is_wreck(oid) and b.vehicle(s, oid).start):
        terrain = "rear"  # only cars that have not entered the road yet move in the starting area
    if terrain in ("offboard", "beyond", "rear"):
        eliminate(ctx, oid, b.off_cause(s, to))
        return STOP
    is_car = not b.is_wreck(oid)
    others = b.occupants(s, to, exclude=oid) if terrain != "start" else []
    token = b.token_at(s, to)
    if is_car and not others and token is not None and not token.face_up:
        reveal(ctx, token)
        s = ctx.state
        terrain = b.terrain(s, to)
    cost = 0
    if how == "step":
        assert s.turn is not None, "a step is taken in a turn"
        left = s.turn.moves_left
        cost = min(2 if terrain == "mud" else 1, left)
    ctx.emit(ev.VehicleMoved(oid, b.nm(frm), b.nm(to), how, direction, cost, terrain not in ("road", "start")))
    if is_car:
        s.board.entered(ctx, oid, frm, to, how, direction)  # the arena turns a car as it moves
    if terrain == "impassable":
        eliminate(ctx, oid, f"drove into impassable terrain at {b.nm(to)}")
        return STOP
    t = ctx.state.turn
    if how == "step" and terrain == "mud" and t is not None and t.moves_left == 0 and cost < 2:
        stop_movement(ctx, oid, "stuck in the mud")
    if others:
        t = ctx.state.turn
        if how == "step" and t is not None and t.car == oid and not any(b.is_wreck(o) for o in others) \
                and crews.of_vehicle(s, oid).drifts_through_vehicles:
            # 001 Drifting: a motorcycle drifts through every road vehicle while moving;
            # where its move ends in an occupied space it slams (rules._advance)
            ctx.emit(ev.MotorcycleDrifted(oid, others[0]))
            return GO
        if how == "step" and s.board.passes_through(ctx, oid, others[0]):
            return GO  # Carnival's Bootleg Turn
        if how == "step" and _drift_passes(ctx.state, oid, others[0]):
            ctx.emit(ev.DriftUsed(oid, others[0]))
            return GO
        slam(ctx, oid, others[0], to)
        return STOP
    token = b.token_at(ctx.state, to)
    if is_car and token is not None and token.face_up:
        return hazard(ctx, oid, token.kind, to)
    return GO


def shot(ctx: Ctx, shooter: str, target: str) -> bool:
    """Roll the shot die at ``target``: a face hits every size it shows; whether it hit."""
    face, scripted = ctx.roll("shot")
    hit = b.size_of(ctx.state, target) in face
    ctx.emit(ev.ShotFired(shooter, target, face, hit, scripted))
    return hit


def fire(ctx: Ctx, shooter: str, target: str) -> None:
    """Firing: a hit wreck is removed, a hit vehicle takes one damage as its crew does
    (a crew's own shot, as one naming a Big Rig section's command, is its own action)."""
    if shot(ctx, shooter, target):
        damage(ctx, target, f"a shot by {shooter}")


def _at_final_piece(state) -> bool:
    return state.final_piece is not None and state.road[-1].index >= state.final_piece


def _drift_passes(state, oid: str, other: str) -> bool:
    """Drift: the moving car passes "the first land vehicle encountered"; a
    wreck is wreckage, not a land vehicle (the rulebook keeps the two apart:
    "fire at land vehicles or wreckage"), so a wreck is slammed and the drift
    stays ready.  The car must have a move left after the passed space; the
    road die's moves count (the road die is then taken, see rules.pending)."""
    t = state.turn
    if not (t.drift and t.car == oid and not b.is_wreck(other)):
        return False
    return t.moves_left > 0 or (not t.stopped and b.road_bonus_open(state))


def reveal(ctx: Ctx, token) -> None:
    """Turn a face-down hazard token over; its kind is drawn from the pile now."""
    if token.kind is not None:
        ctx.emit(ev.TokenRevealed(b.nm(token.at), token.kind))
        return
    kind, scripted = ctx.draw("hazard", ctx.state.hazard_pile)
    ctx.emit(ev.TokenRevealed(b.nm(token.at), kind, scripted))


def hazard(ctx: Ctx, vid: str, kind: str, at) -> bool:
    """Resolve a face-up hazard token a car has entered (rules-facts: hazard tokens)."""
    if kind in ("road", "mud"):
        return GO  # the terrain change already applied on entering
    if kind == "oil-slick":
        t = ctx.state.turn
        if t is not None and t.car == vid and at in t.oil:
            return GO  # each oil slick moves a car at most once per turn
        face, scripted = ctx.roll("direction")
        ctx.emit(ev.DieRolled("direction", face, f"oil slick at {b.nm(at)}", scripted))
        v = b.vehicle(ctx.state, vid)
        return enter(ctx, vid, ctx.state.board.neighbour(at, face, v.facing), "slide", face)
    if kind == "mine":
        ctx.emit(ev.TokenReturned(b.nm(at), "mine"))
        damage(ctx, vid, "a mine")
        return STOP
    if kind == "wreckage":
        ctx.emit(ev.TokenReturned(b.nm(at), "wreckage"))
        wreck = f"wreck-{ctx.state.wreck_counter + 1}"
        ctx.emit(ev.WreckPlaced(wreck, b.nm(at)))
        slam(ctx, vid, wreck, at)
        return STOP
    raise ValueError(f"unknown hazard {kind!r}")


def slam(ctx: Ctx, top: str, bottom: str, at) -> None:
    """A slam: the mover on top; roll slam and direction dice; the larger
    vehicle's owner may ask for one reroll of both (a pending decision).
    A slam with a motorcycle rolls only the direction die (:func:`motorcycle_slam`)."""
    ctx.emit(ev.SlamStarted(top, bottom, b.nm(at)))
    stop_movement(ctx, top, "slammed")
    ctx.state.board.slammed(ctx, top, bottom)  # the arena turns the bottom car to match the top one
    s = ctx.state
    if any(not b.is_wreck(x) and crews.of_vehicle(s, x).direction_only_slams for x in (top, bottom)):
        motorcycle_slam(ctx)  # a motorcycle's or the Big Rig's crew
        return
    roll_slam(ctx, allow_reroll=True)


def motorcycle_slam(ctx: Ctx) -> None:
    """001 Slamming (Motorcycles, Big Rig): only the direction die, no reroll;
    the vehicle that is not a Big Rig section always moves (001 Big Rig:
    "the OTHER vehicle always moves"), else the motorcycle; between two
    motorcycles their owner chooses which moves (a pending decision; the
    moving one when that owner is out)."""
    s = ctx.state
    pending = s.slam
    assert pending is not None, "a slam is pending"
    face, scripted = ctx.roll("direction")
    s.board.slam_rolled(ctx)
    top, bottom = _slam_rank(s, pending.top), _slam_rank(s, pending.bottom)
    chooser = None
    if top != bottom:  # the lower rank moves: the motorcycle, or whatever the Big Rig slams or is slammed by
        moved: str | None = pending.top if top < bottom else pending.bottom
    else:  # two motorcycles: their owner chooses (the top one moves when that owner is out)
        owner = b.owner_of(s, pending.top)
        if owner is not None and not b.player(s, owner).out:
            chooser = owner
        moved = None if chooser else pending.top
    ctx.emit(ev.SlamDirectionRolled(face, moved, chooser, scripted))
    if chooser is not None:
        raise Suspend()
    resolve_slam(ctx)


def _slam_rank(state, oid: str) -> int:
    return 1 if b.is_wreck(oid) else crews.of_vehicle(state, oid).slam_rank


def roll_slam(ctx: Ctx, allow_reroll: bool) -> None:
    s = ctx.state
    pending = s.slam
    assert pending is not None, "a slam is pending"
    slam_face, s1 = ctx.roll("slam")
    dir_face, s2 = ctx.roll("direction")
    chooser = None
    if allow_reroll and s.board.slam_reroll_allowed(s):
        top, bottom = b.size_of(s, pending.top), b.size_of(s, pending.bottom)
        if top != bottom:
            larger = pending.top if b.SIZE_ORDER[top] > b.SIZE_ORDER[bottom] else pending.bottom
            owner = b.owner_of(s, larger)
            if owner is not None and not b.player(s, owner).out:
                chooser = owner
    ctx.emit(ev.SlamRolled(slam_face, dir_face, chooser, s1, s2))
    s.board.slam_rolled(ctx)  # the arena's Let's Get Wild! rolls the stunt die too
    if chooser is not None:
        raise Suspend()
    resolve_slam(ctx)


def resolve_slam(ctx: Ctx, pause: bool = True) -> None:
    """Move the vehicle the slam die picked one space in the rolled direction.
    The state's board may first pause the slam for a decision (the arena's
    Killer Pillar, played in the middle of a slam); it resumes with ``pause=False``."""
    if pause:
        ctx.state.board.pause(ctx, "slam")  # raises Suspend when the slam waits
    pending = ctx.state.slam
    assert pending is not None, "a slam is pending"
    moved = pending.top if pending.slam == "TOP" else pending.bottom
    ctx.emit(ev.SlamResolved(moved))
    at = b.position_of(ctx.state, moved)
    if at is None:
        return
    board = ctx.state.board
    facing = b.facing_of(ctx.state, moved)
    to = board.neighbour(at, pending.direction, facing)
    for _ in range(board.slam_distance(ctx.state) - 1):  # Let's Get Wild!: as far as the stunt die says
        to = board.neighbour(to, pending.direction, facing)
    enter(ctx, moved, to, "push", pending.direction)


def damage(ctx: Ctx, oid: str, cause: str) -> None:
    """One damage: a hit wreck is removed; a vehicle on the board takes it as
    its crew does (``crew.py``: a car draws a damage token, a motorcycle takes a
    minor one, the Big Rig a minor one on a command)."""
    s = ctx.state
    if b.is_wreck(oid):
        ctx.emit(ev.WreckRemoved(oid, cause))
        return
    v = b.vehicle(s, oid)
    if v.at is None:
        return
    crews.of_vehicle(s, oid).damage(ctx, v, cause)


def damage_effect(ctx: Ctx, vid: str, token: str) -> None:
    v = b.vehicle(ctx.state, vid)
    if v.at is None or token == "dent":
        return
    if token.startswith("skid-"):
        direction = token[5:]
        to = ctx.state.board.neighbour(v.at, direction, v.facing)
        ctx.state.board.pause(ctx, "skid", vid, to, "skid", direction)  # the arena's Killer Pillar, mid-effect
        enter(ctx, vid, to, "skid", direction)
    elif token == "shrapnel":
        face, scripted = ctx.roll("direction")
        ctx.emit(ev.DieRolled("direction", face, f"shrapnel from {vid}", scripted))
        ctx.state.board.pause(ctx, "shrapnel", vid, None, "", face)  # before the line is searched
        shrapnel(ctx, vid, face)
    elif token == "dazed":
        face, scripted = ctx.roll("stunt")
        ctx.emit(ev.DieRolled("stunt", face, f"{vid} dazed", scripted))
        dazed_steps(ctx, vid, int(face))
    elif token == "blast-off":
        d, sd = ctx.roll("direction")
        ctx.emit(ev.DieRolled("direction", d, f"{vid} blast off", sd))
        n, sn = ctx.roll("stunt")
        ctx.emit(ev.DieRolled("stunt", n, f"{vid} blast off", sn))
        board = ctx.state.board
        to = board.reach(v.at, board.direction_die(v.facing, d), int(n))
        ctx.state.board.pause(ctx, "blast-off", vid, to, "blast-off", d)
        enter(ctx, vid, to, "blast-off", d)
    else:
        raise ValueError(f"unknown damage token {token!r}")


def shrapnel(ctx: Ctx, vid: str, face: str) -> None:
    """Shrapnel flies from ``vid`` in the rolled direction ``face``: the first
    vehicle in that straight line, on the board, takes 1 damage."""
    v = b.vehicle(ctx.state, vid)
    assert v.at is not None, "shrapnel flies from a vehicle on the road"
    for space in ctx.state.board.line(v.at, face, v.facing):
        if not b.on_board(ctx.state, space):
            break
        hit = b.occupants(ctx.state, space, exclude=vid)
        if hit:
            damage(ctx, hit[0], f"shrapnel from {vid}")
            break


def dazed_steps(ctx: Ctx, vid: str, steps: int) -> None:
    """Dazed: ``steps`` moves, each in the direction the direction die rolls
    for it, until one stops the car.  The state's board may pause before a
    move (Carnival's Killer Pillar); it resumes with the move and the rest."""
    for i in range(steps):
        d, sd = ctx.roll("direction")
        ctx.emit(ev.DieRolled("direction", d, f"{vid} dazed", sd))
        v = b.vehicle(ctx.state, vid)
        assert v.at is not None, "a dazed car is on the road (a move that eliminates it ends the steps)"
        to = ctx.state.board.neighbour(v.at, d, v.facing)
        ctx.state.board.pause(ctx, "dazed", vid, to, "dazed", d, steps - i - 1)
        if not enter(ctx, vid, to, "dazed", d):
            break


def scroll(ctx: Ctx, oid: str) -> None:
    """A car moves off the front of the lead piece (not the final one): the
    rear piece is removed with everything on it and a new lead piece is drawn
    (hazards on all its hazard spaces)."""
    s = ctx.state
    lead, rear = s.road[-1], s.road[0]
    c = s.components
    assert c is not None, "a started game has its components"
    board = s.board
    for v in s.vehicles:
        if v.at is not None and board.piece(s, v.at) <= rear.index:  # on the rear piece, or behind it
            crews.of_vehicle(s, v.id).left_behind(ctx, v)  # each crew's vehicle as its crew says (the Big Rig's trail)
    sides = [name for name in c.tiles()[c.sides[rear.side].tile]]
    ctx.emit(ev.TileRemoved(rear.side, rear.index, ctx.rng.pick(sides)))
    # a player whose last car went with the rear piece is out now, before a new
    # lead piece is laid: the front piece at this moment may become the final one
    settle_outs(ctx)
    if len(b.live_players(ctx.state)) <= 1:
        end_for_last_player(ctx)
        raise GameEnds()
    if _at_final_piece(ctx.state):
        return
    s = ctx.state
    new_side = s.tile_pile[0]
    ctx.emit(ev.TileAdded(new_side, lead.index + 1))
    place_hazards(ctx, lead.index + 1, new_side, None)


def settle_outs(ctx: Ctx) -> None:
    """Defeat: a player with no operational car is out of the match; with 3+
    players the first one out fixes the current front piece as the final piece."""
    s = ctx.state
    running = {v.owner for v in s.vehicles if v.status == "operational"}
    for p in s.players:
        if not p.out and p.name not in running:
            cars = [v for v in s.vehicles if v.owner == p.name]
            reason = "all cars eliminated" if all(v.status == "eliminated" for v in cars) else "no operational car"
            ctx.emit(ev.PlayerOut(p.name, reason))
            # the Big Rig's elimination adds the finish line at once (001 Getting Eliminated)
            if ctx.state.final_piece is None and s.road and (s.starting_players >= 3
                                                             or crews.named(p.crew).out_sets_final_piece):
                ctx.emit(ev.FinalPieceSet(ctx.state.road[-1].index))


def end_for_last_player(ctx: Ctx) -> None:
    """The game ends when only one player (or none) is left with operational cars."""
    live = b.live_players(ctx.state)
    ctx.emit(ev.GameOver(live[0] if live else None, "the only player left with operational cars" if live
                         else "no player has an operational car"))


def place_hazards(ctx: Ctx, index: int, side: str, players: int | None) -> None:
    """Face-down tokens on a piece's hazard spaces while the pile lasts.

    ``players`` filters a starting piece's player-count spaces at set-up;
    None places a token on every hazard space (tiles added later)."""
    s = ctx.state
    if s.fill == "road":
        return
    unknown = sum(1 for t in s.tokens if t.kind is None)
    available = sum(s.hazard_pile.values()) - unknown
    taken = {t.at for t in s.tokens}
    spaces: list[str] = []
    c = s.components
    assert c is not None, "a started game has its components"
    for lane, row, need in c.sides[side].hazards:
        if players is not None and need > players:
            continue
        space = s.board.piece_space(s, index, lane, row)
        if space in taken or len(spaces) >= available:
            continue
        spaces.append(b.nm(space))
    if spaces:
        ctx.emit(ev.HazardsPlaced(tuple(spaces)))


__all__ = ["enter", "dazed_steps", "slam", "motorcycle_slam", "settle_outs", "end_for_last_player", "roll_slam", "resolve_slam", "damage", "eliminate", "scroll", "place_hazards",
           "Suspend", "GameEnds"]
