"""``evolve`` for Carnival's own events: one tiny handler each, never validating.

Registered in Vendetta's handler table (``vendetta.evolve.handles``), so the
one ``evolve`` folds a Carnival game: the road's events by Vendetta's
handlers, these by the ones below.  Importing this module registers them.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..vendetta import events as vev
from ..vendetta.board import sq
from ..vendetta.evolve import evolve, handles, pop_script
from ..vendetta.model import State
from . import events as cev
from . import favors, spaces
from .extras import AFTER_SHOOTING, extras, v2, v3, v5
from .model import AfterHit, CarnivalState, Jump, Pause


def _start_of(pos, side, index: tuple[int, int], vehicle: str, players: int) -> tuple[tuple[int, int], str]:
    """Where a vehicle waits at the start, and its facing: behind the slot the
    position names, else player ``i``'s vehicle ``k`` behind slot ``(i + k) % 3 + 1``
    (so each of a player's cars starts behind a different road tile), in the
    player's own lane (``i * n // players`` of the slot's ``n`` start lanes; a
    fourth and fifth motorcycle one lane over)."""
    seat, k = index
    number = pos.starts.get(vehicle, (seat + k) % 3 + 1)
    slot = spaces.slot(side, number)
    lanes = spaces.start_lanes(slot)
    lane = lanes[(seat * len(lanes) // players + k // 3) % len(lanes)]
    return spaces.start_space(slot, lane), slot.forward


@handles(cev.CarnivalStarted)
def _started(state: State, e: cev.CarnivalStarted) -> State:
    pos, c = e.position, e.components
    base = evolve(State(), vev.GameStarted(pos, e.rules_version, c.vendetta))
    side = c.sides[pos.side]
    listed = {v.id: v for v in pos.vehicles}
    order = {f"{p.color}-{name}": (i, k) for i, p in enumerate(pos.players)
             for k, name in enumerate(c.vendetta.crews[p.crew].vehicles)}
    vehicles = []
    for v in base.vehicles:
        setup = listed.get(v.id)
        if setup is None or setup.at == "start":
            at, facing = _start_of(pos, side, order[v.id], v.id, len(pos.players))
            v = replace(v, at=at, facing=facing, start=True)
        elif setup.at != "eliminated":
            v = replace(v, start=False, facing=setup.facing)  # an inoperable car keeps its facing in the arena
        vehicles.append(v)
    favor_pile = dict(c.party_favors)
    for kinds in pos.favors.values():
        for k in kinds:
            favor_pile[k] -= 1
    deck = dict(c.super_weapons)
    for weapon in pos.weapons.values():
        deck[weapon] -= 1
    fields = {f: getattr(base, f) for f in State.__struct_fields__}
    s = pos.script
    fields.update(version=0, vehicles=tuple(vehicles),
                  script={**base.script, "favor": s.favor, "weapon": s.weapon, "tina": s.tina})
    return CarnivalState(
        **fields, side=pos.side, tiles=pos.tiles, entered=dict(pos.entered), raised=tuple(sorted(pos.raised)),
        favor_tokens=tuple(sq(x) for x in pos.favor_tokens or ()),
        weapon_tokens=side.weapons if pos.weapon_tokens is None else tuple(sq(x) for x in pos.weapon_tokens),
        favor_pile=favor_pile, weapon_deck=deck,
        scrap={p.name: pos.scrap.get(p.name, 0) for p in pos.players},
        favors={p.name: tuple(pos.favors.get(p.name, ())) for p in pos.players},
        weapons=dict(pos.weapons), witness_used=pos.witness_used, tina=pos.tina, decree=pos.decree,
        decree_round=pos.decree_round, carnival=c, private_favors=e.private_favors)


@handles(cev.TilesLaid)
def _tiles(state, e: cev.TilesLaid):
    return replace(state, tiles=e.tiles)


@handles(cev.FavorsPlaced)
def _favors_placed(state, e: cev.FavorsPlaced):
    return replace(state, favor_tokens=tuple(sq(x) for x in e.spaces))


@handles(cev.Faced)
def _faced(state, e: cev.Faced):
    return replace(state, vehicles=tuple(replace(v, facing=e.facing) if v.id == e.vehicle else v
                                         for v in state.vehicles))


@handles(cev.TileEntered)
def _tile_entered(state, e: cev.TileEntered):
    return replace(state, entered={**state.entered, e.player: state.entered.get(e.player, ()) + (e.slot,)})


@handles(cev.ScrapGained)
def _scrap(state, e: cev.ScrapGained):
    return replace(state, scrap={**state.scrap, e.player: state.scrap.get(e.player, 0) + e.amount})


@handles(cev.FavorCollected)
def _favor(state, e: cev.FavorCollected):
    at = sq(e.at)
    pile = {**state.favor_pile, e.kind: state.favor_pile.get(e.kind, 0) - 1}
    state = replace(state, favor_tokens=tuple(t for t in state.favor_tokens if t != at), favor_pile=pile,
                    favors={**state.favors, e.player: state.favors.get(e.player, ()) + (e.kind,)})
    return pop_script(state, "favor", e.scripted)


@handles(cev.FavorDealt)
def _favor_dealt(state, e: cev.FavorDealt):
    """A private favor: held face down, known by its commitment (the mix is the deck's, unchanged)."""
    at = sq(e.at)
    held = state.favors.get(e.player, ()) + (favors.hidden(e.index, e.commitment),)
    return replace(state, favor_tokens=tuple(t for t in state.favor_tokens if t != at),
                   favors_dealt=state.favors_dealt + 1, favors={**state.favors, e.player: held})


@handles(cev.WeaponClaimed)
def _weapon(state, e: cev.WeaponClaimed):
    at = sq(e.at)
    deck = {**state.weapon_deck, e.weapon: state.weapon_deck.get(e.weapon, 0) - 1}
    state = replace(state, weapon_tokens=tuple(t for t in state.weapon_tokens if t != at), weapon_deck=deck,
                    weapons={**state.weapons, e.vehicle: e.weapon})
    return pop_script(state, "weapon", e.scripted)


@handles(cev.TinaFlipped)
def _tina(state, e: cev.TinaFlipped):
    return pop_script(replace(state, tina=state.tina + (e.card,)), "tina", e.scripted)


@handles(cev.PillarsSet)
def _pillars(state, e: cev.PillarsSet):
    return replace(state, raised=e.raised)


@handles(cev.DecreeSet)
def _decree(state, e: cev.DecreeSet):
    return replace(state, decree=e.decree, decree_round=e.round)


@handles(cev.RollOff)
def _rolloff(state, e: cev.RollOff):
    return pop_script(replace(state, rolloff=e.rolls), "movement", e.scripted)



# ------------------------------------------------ favors, weapons, decrees
def _extras(state, **changes):
    return replace(state, extras=replace(extras(state), **changes))


@handles(cev.WitnessMePlayed)
def _witness(state, e: cev.WitnessMePlayed):
    return _extras(replace(state, witness_used=state.witness_used + (e.player,)), witness=True)


@handles(cev.FavorPlayed)
def _favor_played(state, e: cev.FavorPlayed):
    held = tuple(state.favors.get(e.player, ()))
    if e.nonce is not None:  # a private favor: its opening shows it (unless this state knew it already)
        held = favors.open_held(held, e.favor, e.nonce) or held
    rest = list(held)
    rest.remove(e.favor)
    state = replace(state, favors={**state.favors, e.player: tuple(rest)})
    if e.nonce is not None and e.favor in state.nonces.get(e.player, {}):  # a private view: that opening is used
        mine = {k: v for k, v in state.nonces[e.player].items() if k != e.favor}
        state = replace(state, nonces={**state.nonces, e.player: mine})
    if e.favor == "precision":
        return _extras(state, precision={**extras(state).precision, e.die: e.face})
    if e.favor == "bootleg-turn":
        return _extras(state, bootleg=True)
    if e.favor == "full-throttle":  # the move starts again: no road die, nothing stopped it yet
        return replace(state, turn=replace(state.turn, stopped=False, road_taken=True, drift=False))
    return state


@handles(cev.FavorsPassed)
def _passed(state, e: cev.FavorsPassed):
    if e.stage == "mid-effect":  # the paused effect goes on
        return replace(state, pause=None)
    if e.stage.startswith(AFTER_SHOOTING):  # rules v4: no (more) favors after this car's shots
        return _extras(state, done=extras(state).done + (e.stage[len(AFTER_SHOOTING):],))
    return _extras(state, passed=e.stage)


@handles(cev.JumpRolled)
def _jump_rolled(state, e: cev.JumpRolled):
    return replace(state, jump=Jump(e.car, e.spaces, e.counts))


@handles(cev.JumpAimed)
def _jump_aimed(state, e: cev.JumpAimed):
    return replace(state, jump=None)


@handles(cev.EffectPaused)
def _paused(state, e: cev.EffectPaused):
    return replace(state, pause=Pause(e.player, e.effect, e.vehicle, sq(e.to) if e.to else None, e.how, e.direction,
                                      e.left))


@handles(cev.AfterHit)
def _after_hit(state, e: cev.AfterHit):
    return replace(state, after_hit=AfterHit(e.weapon, e.car, e.target, e.before))


@handles(cev.AfterHitResolved)
def _after_hit_resolved(state, e: cev.AfterHitResolved):
    return replace(state, after_hit=None)


@handles(cev.PrecisionUsed)
def _precision_used(state, e: cev.PrecisionUsed):
    return _extras(state, precision={k: v for k, v in extras(state).precision.items() if k != e.die})


@handles(cev.ShotTaken)
def _shot_taken(state, e: cev.ShotTaken):
    e_now = extras(state)
    if e.kind in ("after", "mayhem"):
        return _extras(state, shots=e_now.shots + 1)
    if e.kind == "auto-cannon":
        return _extras(state, cannon=True)
    if e.kind == "auto-cannon-after":  # fired in the shoot step: the car's own shot is still to come
        return _extras(state, cannon=True, cannon_after=True)
    if e.kind == "thwump" and v2(state):  # a jump instead of a shot: it counts as one (Mayhem allows a second)
        return replace(_extras(state, shots=e_now.shots + 1), turn=replace(state.turn, phase="done"))
    if e.kind == "declined" and v5(state):  # rules v5: the car's shooting is over, the Auto-Cannon's shot aside
        return _extras(state, shots=2 + int(e_now.cannon_after))
    state = _extras(state, shots=2)  # declined, or (rules v1) the Thwumper's jump
    if e.kind == "thwump":
        state = replace(state, turn=replace(state.turn, phase="done"))
    return state


@handles(cev.PassedThrough)
def _passed_through(state, e: cev.PassedThrough):
    return state


@handles(cev.WildRoll)
def _wild(state, e: cev.WildRoll):
    return pop_script(replace(state, wild=int(e.face)), "stunt", e.scripted)


@handles(cev.Energized)
def _energized(state, e: cev.Energized):
    """Another turn with the car: a new die, its move and shot to come (rules
    v3: a hit by Double Barrel's shot before the command keeps the command to choose)."""
    phase = "command" if state.turn.phase == "command" and v3(state) else "command-done"
    t = replace(state.turn, die=e.die, phase=phase, nitro=0, drift=False, stopped=False, road_taken=False,
                moves_left=0, momentum=False)
    return pop_script(_extras(replace(state, turn=t), shots=0, passed="", done=()), "movement", e.scripted)


@handles(cev.ChopperFaced)
def _chopper_faced(state, e: cev.ChopperFaced):
    return replace(state, chopper_facing={**state.chopper_facing, e.owner: e.facing})
