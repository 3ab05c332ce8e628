"""``evolve(state, event) -> state``: one tiny handler per event type.

Handlers never validate (a rule change must not stop an old game from
loading); they only record what the event says happened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from . import components as comp
from . import parts
from . import events as ev
from .components_v1 import v1
from .board import sq, start_space
from .model import Chopper, Player, Slam, State, Tile, Token, Turn, Vehicle, Wreck

MINOR = "minor"  # a minor damage token (001): not from the damage pile

#: the fold's table: every registered event type's handler (a crew registers its own: ``parts.fold``)
_HANDLERS: dict[type, Callable[[Any, Any], Any]] = parts.FOLDS
handles = parts.fold


def evolve(state: State, event) -> State:
    """Fold one event into the state."""
    state = _HANDLERS[type(event)](state, event)
    return replace(state, version=state.version + 1)


# --------------------------------------------------------------- helpers
def _vehicle(state: State, vid: str, **changes) -> State:
    return replace(state, vehicles=tuple(replace(v, **changes) if v.id == vid else v for v in state.vehicles))


def _player(state: State, name: str, **changes) -> State:
    return replace(state, players=tuple(replace(p, **changes) if p.name == name else p for p in state.players))


def _turn(state: State, **changes: Any) -> State:
    assert state.turn is not None, "a turn event outside a turn"
    return replace(state, turn=replace(state.turn, **changes))


def pop_script(state: State, die: str, scripted: int | bool) -> State:
    if not scripted:
        return state
    script = dict(state.script)
    script[die] = script[die][int(scripted):]
    return replace(state, script=script)


def _count(pile: dict[str, int], kind: str, delta: int) -> dict[str, int]:
    pile = dict(pile)
    pile[kind] = pile.get(kind, 0) + delta
    return pile


# -------------------------------------------------------------- set-up
@handles(ev.GameStarted)
def _started(state: State, e: ev.GameStarted) -> State:
    pos = e.position
    c = e.components if e.components is not None else v1()  # the upcast of a game recorded before
    folds = {p.crew: parts.fold_of(p.crew) for p in pos.players}  # what each crew sets up its own way
    players = tuple(
        folds[p.crew].player(Player(p.name, p.color, p.crew, tuple(p.dice or ()), p.command_used, False, p.turns), pos)
        for p in pos.players
    )
    listed = {v.id: v for v in pos.vehicles}
    all_ids = [(p, f"{p.color}-{name}", name) for p in pos.players for name in c.crews[p.crew].vehicles]
    vehicles = []
    for i, (p, vid, name) in enumerate(all_ids):
        setup = listed.get(vid)
        crew = c.crews[p.crew]
        if folds[p.crew].one_lane:  # the crew's vehicles (a rig's three sections) wait in one lane
            i = next(j for j, x in enumerate(all_ids) if x[0] is p) + 1
        lane = (i * c.lanes) // len(all_ids)
        kind = crew.kind_of(name, c.vehicles)
        size, sections = c.vehicles[kind].size, c.vehicles[kind].sections
        if (setup is None and pos.first_piece == 0) or (setup is not None and setup.at == "start"):
            v = Vehicle(vid, p.name, kind, size, start_space(lane), start=True, sections=sections)
        elif setup is None or setup.at == "eliminated":
            v = Vehicle(vid, p.name, kind, size, None, status="eliminated", sections=sections)
        else:  # a space; number 0 ("c0") is the starting area's space in that lane
            at = sq(setup.at)
            v = Vehicle(vid, p.name, kind, size, at, start=at[1] < 0, sections=sections)
        if setup is not None and v.status != "eliminated":
            v = folds[p.crew].vehicle(v, setup, crew.slots)
        vehicles.append(v)
    hazard_pile = dict(c.hazards)
    tokens = []
    for t in pos.tokens or ():
        tokens.append(Token(sq(t.at), t.kind, t.face_up))
        if t.kind is not None:
            hazard_pile[t.kind] -= 1
    damage_pile = dict(c.damage)
    crew_of = {p.name: p.crew for p in pos.players}
    for v in vehicles:
        for d in v.damage:
            if d != MINOR and folds[crew_of[v.owner]].pile_damage:
                damage_pile[d] -= 1
    wrecks = tuple(Wreck(f"wreck-{i + 1}", sq(w.at)) for i, w in enumerate(pos.wrecks))
    chop = {ch.owner: ch.at for ch in pos.choppers}
    choppers = tuple(Chopper(p.name, sq(chop[p.name]) if chop.get(p.name) else None) for p in pos.players)
    script = {
        "slam": pos.script.slam, "direction": pos.script.direction, "shot": pos.script.shot,
        "stunt": tuple(map(str, pos.script.stunt)), "road": tuple(map(str, pos.script.road)),
        "movement": tuple(map(str, pos.script.movement)), "damage": pos.script.damage, "hazard": pos.script.hazard,
    }
    return type(state)(  # the ruleset's state type: it says which board the game is on
        seed=pos.seed,
        rules_version=e.rules_version,
        phase="setup",
        players=players,
        vehicles=tuple(vehicles),
        wrecks=wrecks,
        choppers=choppers,
        tokens=tuple(tokens),
        terrain=tuple((sq(t.at), t.kind) for t in pos.terrain),
        fill=pos.fill,
        starting_players=len(players),
        hazard_pile=hazard_pile,
        damage_pile=damage_pile,
        round=pos.round,
        first_player=pos.first_player or pos.active_player,
        turn_number=pos.turn,
        road_die=pos.road_die,
        wreck_counter=len(wrecks),
        script=script,
        components=c,
    )


@handles(ev.RoadLaid)
def _road(state: State, e: ev.RoadLaid) -> State:
    return replace(state, road=tuple(Tile(s, e.first + i) for i, s in enumerate(e.road)), tile_pile=e.pile)


@handles(ev.HazardsPlaced)
def _hazards(state: State, e: ev.HazardsPlaced) -> State:
    return replace(state, tokens=state.tokens + tuple(Token(sq(s)) for s in e.spaces))


@handles(ev.InitiativeRolled)
def _initiative(state: State, e: ev.InitiativeRolled) -> State:
    return pop_script(state, "movement", e.scripted)


@handles(ev.FirstPlayerChosen)
def _first(state: State, e: ev.FirstPlayerChosen) -> State:
    return replace(state, first_player=e.player)


@handles(ev.RoundStarted)
def _round_started(state: State, e: ev.RoundStarted) -> State:
    return replace(state, round=e.round, first_player=e.first_player, phase="playing")


@handles(ev.RoundEnded)
def _round_ended(state: State, e: ev.RoundEnded) -> State:
    return replace(
        state,
        players=tuple(replace(p, dice=(), command_used=False, turns=0,
                              crew_state=p.crew_state if p.crew_state is None else p.crew_state.round_ended())
                      for p in state.players),
        vehicles=tuple(replace(v, moved=False, momentum=0) for v in state.vehicles),
        turn_number=0,
        turn=None,
    )


@handles(ev.DiceRolled)
def _dice(state: State, e: ev.DiceRolled) -> State:
    return pop_script(_player(state, e.player, dice=e.dice), "movement", e.scripted)


@handles(ev.RoadDieRolled)
def _road_die(state: State, e: ev.RoadDieRolled) -> State:
    return pop_script(replace(state, road_die=e.value), "road", e.scripted)


# ---------------------------------------------------------------- turns
@handles(ev.TurnStarted)
def _turn_started(state: State, e: ev.TurnStarted) -> State:
    return replace(state, turn=Turn(e.player), turn_number=e.number, phase="playing")


def _spend(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1:]


@handles(ev.DieAssigned)
def _assigned(state: State, e: ev.DieAssigned) -> State:
    p = next(p for p in state.players if p.name == e.player)
    state = _player(state, e.player, dice=_spend(p.dice, e.die))
    return _turn(state, car=e.car, die=e.die, momentum=e.momentum, phase="command")


def _mark_moved(state: State, t: Turn) -> State:
    """The turn's vehicle has had its move: moved this round, or one more coast."""
    assert t.car is not None, "a turn's vehicle moved"
    v = next(v for v in state.vehicles if v.id == t.car)
    if t.momentum:
        return _vehicle(state, t.car, momentum=v.momentum + 1)
    return _vehicle(state, t.car, moved=True)


@handles(ev.MotorcycleDrifted)
def _bike_drifted(state: State, e: ev.MotorcycleDrifted) -> State:
    return state


@handles(ev.SlamDirectionRolled)
def _slam_direction(state: State, e: ev.SlamDirectionRolled) -> State:
    slam = state.slam
    assert slam is not None, "the direction die of a pending slam"
    which = "" if e.moved is None else ("TOP" if e.moved == slam.top else "BOTTOM")
    state = pop_script(state, "direction", e.scripted)
    return replace(state, slam=replace(slam, slam=which, direction=e.direction, chooser=e.chooser, choose=True))


@handles(ev.SlamVehicleChosen)
def _slam_chosen(state: State, e: ev.SlamVehicleChosen) -> State:
    slam = state.slam
    assert slam is not None, "a vehicle chosen in a pending slam"
    return replace(state, slam=replace(slam, slam="TOP" if e.vehicle == slam.top else "BOTTOM", chooser=None))


@handles(ev.OffRoadPlaced)
def _off_road(state: State, e: ev.OffRoadPlaced) -> State:
    at = sq(e.at)
    pile = state.hazard_pile
    for t in state.tokens:
        if t.at == at and t.kind is not None:
            pile = _count(pile, t.kind, +1)
    terrain = tuple(x for x in state.terrain if x[0] != at) + ((at, "offroad"),)
    return replace(state, terrain=terrain, tokens=tuple(t for t in state.tokens if t.at != at), hazard_pile=pile)


@handles(ev.ChopperReturned)
def _chopper_returned(state: State, e: ev.ChopperReturned) -> State:
    """Only at the end of a turn (Solid): the turn is ``ending`` (rules v2 waits there for
    the damage token; under v1 ``turn-ended`` follows at once, in the same action)."""
    state = replace(state, choppers=tuple(replace(c, at=None) if c.owner == e.owner else c for c in state.choppers))
    return _turn(state, phase="ending") if state.turn is not None else state


@handles(ev.MinorDamageTaken)
def _minor(state: State, e: ev.MinorDamageTaken) -> State:
    v = next(v for v in state.vehicles if v.id == e.vehicle)
    return _vehicle(state, e.vehicle, damage=v.damage + (MINOR,))


@handles(ev.Passed)
def _passed(state: State, e: ev.Passed) -> State:
    if e.die is not None:
        p = next(p for p in state.players if p.name == e.player)
        state = _player(state, e.player, dice=_spend(p.dice, e.die))
    return state


@handles(ev.CommandUsed)
def _command(state: State, e: ev.CommandUsed) -> State:
    if e.command == "none":
        return _turn(state, phase="command-done")
    p = next(p for p in state.players if p.name == e.player)
    state = _player(state, e.player, dice=_spend(p.dice, e.die), command_used=True)
    if e.command == "nitro":
        return _turn(state, nitro=e.die, phase="command-done")
    if e.command == "drift":
        return _turn(state, drift=True, phase="command-done")
    if e.command == "airstrike":
        return _turn(state, phase="airstrike-place")
    return _turn(state, phase="command-done")


@handles(ev.ChopperPlaced)
def _chopper(state: State, e: ev.ChopperPlaced) -> State:
    at = sq(e.at)
    choppers = tuple(replace(c, at=at) if c.owner == e.player else c for c in state.choppers)
    return _turn(replace(state, choppers=choppers), chopper=at, phase="airstrike-target")


@handles(ev.MoveStarted)
def _move_started(state: State, e: ev.MoveStarted) -> State:
    return _turn(state, phase="move", moves_left=e.moves, road_ok=e.road_ok)


@handles(ev.VehicleMoved)
def _moved(state: State, e: ev.VehicleMoved) -> State:
    to = sq(e.to)
    if e.vehicle.startswith("wreck-"):
        return replace(state, wrecks=tuple(replace(w, at=to) if w.id == e.vehicle else w for w in state.wrecks))
    # the starting area: the row behind piece 0 on the road, behind each road tile in the arena (the board's)
    state = _vehicle(state, e.vehicle, at=to, start=state.board.is_start(state, to))
    t = state.turn
    if t is not None and t.crew_state is not None:  # what the crew's turn does with a move (the rig's steering)
        state = t.crew_state.moved(state, e)
    if t is not None and t.car == e.vehicle:
        if e.how == "step":
            state = _turn(state, moves_left=max(0, t.moves_left - e.cost), road_ok=t.road_ok and not e.offroad)
        elif e.how == "slide":
            state = _turn(state, oil=t.oil + (sq(e.frm),), road_ok=t.road_ok and not e.offroad)
    return state


@handles(ev.TokenRevealed)
def _revealed(state: State, e: ev.TokenRevealed) -> State:
    at = sq(e.at)
    tokens = []
    pile = state.hazard_pile
    for t in state.tokens:
        if t.at == at:
            if t.kind is None:
                pile = _count(pile, e.kind, -1)
            t = Token(at, e.kind, True)
        tokens.append(t)
    return pop_script(replace(state, tokens=tuple(tokens), hazard_pile=pile), "hazard", e.scripted)


@handles(ev.TokenReturned)
def _returned(state: State, e: ev.TokenReturned) -> State:
    at = sq(e.at)
    return replace(
        state,
        tokens=tuple(t for t in state.tokens if t.at != at),
        hazard_pile=_count(state.hazard_pile, e.kind, +1),
    )


@handles(ev.WreckPlaced)
def _wreck_placed(state: State, e: ev.WreckPlaced) -> State:
    return replace(state, wrecks=state.wrecks + (Wreck(e.wreck, sq(e.at)),), wreck_counter=state.wreck_counter + 1)


@handles(ev.WreckRemoved)
def _wreck_removed(state: State, e: ev.WreckRemoved) -> State:
    return replace(state, wrecks=tuple(w for w in state.wrecks if w.id != e.wreck))


@handles(ev.DieRolled)
def _die_rolled(state: State, e: ev.DieRolled) -> State:
    return pop_script(state, e.die, e.scripted)


@handles(ev.SlamStarted)
def _slam_started(state: State, e: ev.SlamStarted) -> State:
    return replace(state, slam=Slam(e.top, e.bottom, sq(e.at), "", ""))


@handles(ev.SlamRolled)
def _slam_rolled(state: State, e: ev.SlamRolled) -> State:
    state = pop_script(state, "slam", e.scripted_slam)
    state = pop_script(state, "direction", e.scripted_direction)
    assert state.slam is not None, "slam dice are rolled for a pending slam"
    return replace(state, slam=replace(state.slam, slam=e.slam, direction=e.direction, chooser=e.chooser))


@handles(ev.SlamAnswered)
def _slam_answered(state: State, e: ev.SlamAnswered) -> State:
    assert state.slam is not None, "a pending slam is answered"
    return replace(state, slam=replace(state.slam, chooser=None, rerolled=e.reroll))


@handles(ev.SlamResolved)
def _slam_resolved(state: State, e: ev.SlamResolved) -> State:
    return replace(state, slam=None)


@handles(ev.DriftUsed)
def _drift(state: State, e: ev.DriftUsed) -> State:
    return _turn(state, drift=False)


@handles(ev.MovementEnded)
def _movement_ended(state: State, e: ev.MovementEnded) -> State:
    if state.turn is not None and state.turn.car == e.car:
        return _turn(state, moves_left=0, stopped=True)
    return state


@handles(ev.MoveFinished)
def _move_finished(state: State, e: ev.MoveFinished) -> State:
    return _turn(state, phase="shoot", moves_left=0)


@handles(ev.RoadBonusChosen)
def _road_bonus(state: State, e: ev.RoadBonusChosen) -> State:
    if e.take:
        return _turn(state, road_taken=True, moves_left=e.value, phase="move")
    return _turn(state, road_taken=True)


@handles(ev.ShotFired)
def _shot(state: State, e: ev.ShotFired) -> State:
    t = state.turn
    if t is not None and t.phase in ("shoot", "airstrike-target"):
        crews_own = None  # a miss the crew treats its own way (the Targeting Computer's reroll)
        if t.phase == "shoot" and not e.hit and t.crew_state is not None:
            crews_own = t.crew_state.missed(state, e)
        if crews_own is not None:
            state = crews_own
        else:
            state = _turn(state, phase="done" if t.phase == "shoot" else "airstrike-done")
    return pop_script(state, "shot", e.scripted)


@handles(ev.DamageDrawn)
def _damage(state: State, e: ev.DamageDrawn) -> State:
    v = next(v for v in state.vehicles if v.id == e.car)
    state = replace(state, damage_pile=_count(state.damage_pile, e.token, -1))
    state = _vehicle(state, e.car, damage=v.damage + (e.token,))
    return pop_script(state, "damage", e.scripted)


@handles(ev.DamageIgnored)
def _damage_ignored(state: State, e: ev.DamageIgnored) -> State:
    return state


@handles(ev.CarDisabled)
def _disabled(state: State, e: ev.CarDisabled) -> State:
    # in the arena an inoperable car is flipped "without changing its direction"
    return _vehicle(state, e.car, status="inoperable", facing=state.board.disabled_facing(state, e.car))


@handles(ev.CarRepaired)
def _repaired(state: State, e: ev.CarRepaired) -> State:
    v = next(v for v in state.vehicles if v.id == e.car)
    damage = list(v.damage)
    damage.remove(e.token)
    if e.token != MINOR:
        state = replace(state, damage_pile=_count(state.damage_pile, e.token, +1))
    return _vehicle(state, e.car, damage=tuple(damage), status="operational",
                    facing=state.board.repaired_facing(state, v))


@handles(ev.VehicleEliminated)
def _eliminated(state: State, e: ev.VehicleEliminated) -> State:
    if e.vehicle.startswith("wreck-"):
        return replace(state, wrecks=tuple(w for w in state.wrecks if w.id != e.vehicle))
    v = next(v for v in state.vehicles if v.id == e.vehicle)
    pile = state.damage_pile
    if v.damage and parts.fold_of(next(p for p in state.players if p.name == v.owner).crew).pile_damage:
        for d in v.damage:
            if d != MINOR:
                pile = _count(pile, d, +1)
    state = replace(state, damage_pile=pile)
    if state.turn is not None and state.turn.car == e.vehicle:
        state = _turn(state, moves_left=0, stopped=True)
    return _vehicle(state, e.vehicle, at=None, start=False, status="eliminated", damage=())


@handles(ev.TileRemoved)
def _tile_removed(state: State, e: ev.TileRemoved) -> State:
    assert state.components is not None, "a started game has its components"
    piece = state.board.piece  # which road piece a space lies on (the board's geometry)
    pile = state.hazard_pile
    tokens = []
    for t in state.tokens:
        if piece(state, t.at) == e.index:
            if t.kind is not None:
                pile = _count(pile, t.kind, +1)
        else:
            tokens.append(t)
    choppers = tuple(replace(c, at=None) if c.at is not None and piece(state, c.at) <= e.index else c
                     for c in state.choppers)
    return replace(
        state,
        road=state.road[1:],
        tile_pile=state.tile_pile + (e.returned_as,),
        tokens=tuple(tokens),
        hazard_pile=pile,
        choppers=choppers,
        wrecks=tuple(w for w in state.wrecks if piece(state, w.at) > e.index),
    )


@handles(ev.TileAdded)
def _tile_added(state: State, e: ev.TileAdded) -> State:
    return replace(state, road=state.road + (Tile(e.side, e.index),), tile_pile=state.tile_pile[1:])


@handles(ev.FinalPieceSet)
def _final(state: State, e: ev.FinalPieceSet) -> State:
    return replace(state, final_piece=e.index)


@handles(ev.TurnEnded)
def _turn_ended(state: State, e: ev.TurnEnded) -> State:
    t = state.turn
    if t is not None and t.car is not None:
        state = _mark_moved(state, t)
    p = next(p for p in state.players if p.name == e.player)
    state = _player(state, e.player, turns=p.turns + 1)
    return replace(state, turn=None)


@handles(ev.PlayerOut)
def _out(state: State, e: ev.PlayerOut) -> State:
    return _player(state, e.player, out=True)


@handles(ev.GameOver)
def _over(state: State, e: ev.GameOver) -> State:
    return replace(state, phase="over", winner=e.winner, end_reason=e.reason, slam=None)

