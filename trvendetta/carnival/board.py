"""The arena: Carnival's :class:`~trvendetta.vendetta.road.Board`.

``CarnivalState.board`` is this module's :data:`ARENA`, a board that
overrides the road's hooks (``vendetta/road.py``) where the arena differs;
Vendetta's rules ask the state's board and never which one it is:

* ``board.terrain``: from the arena and the tiles in their slots
  (``foundation.terrain``); off the board is ``offboard`` (never
  ``beyond``: no scrolling, no Finish Line), a raised pillar ``impassable``,
  an arena space ``arena`` (not road: the road die is for the road tiles);
* entering a space turns a car ("Driving in the Arena", "Leaving the Arena");
  a slam turns the bottom car to the top car's facing first;
* a decree sets or forbids dice (Danger Ahead!, Commit to the Crash!);
* every damage token and elimination on a player's turn pays scrap;
* cars that ended their movement collect favors and super-weapons;
* round 1's first moves take road tiles not used yet; shots only from the arena;
* the round's end is Tina's turn (``carnival/tina_turn.py``).
"""

from __future__ import annotations

from typing import Literal

from ..core import geometry
from ..vendetta import board as b
from ..vendetta import crew as crews
from ..vendetta import events as vev
from ..vendetta.actions import AssignDie, Step
from ..vendetta.context import Suspend
from ..vendetta.road import Road
from . import arena, decrees, favors, scrap, spaces
from . import events as cev
from . import foundation, play, shots, tina_turn, turn
from .extras import decree_now, extras, v2, v3, v4, v5


#: the dice a Precision-set face is used up by, per event type (any other event names its die)
_PRECISION_DICE: dict[type, tuple[str, ...]] = {vev.ShotFired: ("shot",), vev.SlamRolled: ("slam", "direction"),
                                                vev.SlamDirectionRolled: ("direction",), cev.WildRoll: ("stunt",)}


def active_player(state) -> str | None:
    """The player whose turn it is (None between turns: Tina's turn)."""
    return state.turn.player if state.turn is not None else None


#: the effects rules version 3 pauses too (a version 2 record never answered these pauses)
LATER = ("shrapnel", "thwump")


class ArenaBoard(Road):
    """The arena's answers (pure: each takes the state, or the decide context)."""

    plays_round_out = True  # a player out does not end the game at once: the round is played out
    drawing = "arena"  # its own spaces, not a road of tiles: carnival/picture.py draws it

    # ------------------------------------------------------------ the board
    def terrain(self, state, space) -> str:
        side = state.arena
        here = spaces.where(side, space)
        if here == "off":
            return "offboard"
        if here == "start":
            return "start"
        if space in arena.impassable(side, state.raised):
            return "impassable"
        if here == "arena":
            return "arena"
        return foundation.terrain(side, state.components, state.tiles, space) or "offboard"

    def printed_terrain(self, state, space) -> str:
        """What a picture shows on a space: a road tile's own terrain, a raised pillar impassable,
        the arena's other spaces road."""
        kind = self.terrain(state, space)
        return "road" if kind in ("arena", "start", "offboard") else kind

    def on_board(self, state, space) -> bool:
        return spaces.where(state.arena, space) in ("arena", "road")

    def is_start(self, state, space) -> bool:
        return spaces.where(state.arena, space) == "start"

    def off_cause(self, state, space) -> str:
        if spaces.where(state.arena, space) == "start":
            return "left the board behind a road tile"
        return "left the arena over an edge with no road tile"

    def fatal_exit(self, state, space) -> str:
        return f"{self.off_cause(state, space)} (eliminated)"  # an arena edge may be off the named grid

    def may_shoot_from(self, state, space) -> bool:
        return space is not None and arena.may_shoot_from(state.arena, space)

    def chopper_spaces(self, state) -> list:
        """Not on spotlights, killer pillars, favor or super-weapon tokens ("Choppers")."""
        side = state.arena
        blocked = set(side.spotlights) | set(side.pillars.values()) | set(state.favor_tokens) | set(state.weapon_tokens)
        board = list(side.arena) + [s for slot in side.slots for s in slot.spaces]
        return [(s, b.nm(s)) for s in sorted(board) if s not in blocked]

    # --------------------------------------------------------------- moving
    def steps(self, state, car) -> tuple:
        """The active car's steps: its front arc, never back onto a road tile from the arena."""
        if car.start:
            return tuple(Step(r) for r in geometry.FRONT_ARC)
        return tuple(Step(r) for r in arena.active_steps(state.arena, car.at, car.facing, state.raised))

    def may_assign(self, state, name: str, options) -> tuple:
        """Round 1: a car's first move is onto a road tile the player has not moved a car onto yet."""
        if state.round != 1:
            return tuple(options)
        side = state.arena
        entered = state.entered.get(name, ())
        t = state.turn
        if t is not None and t.car is not None and b.vehicle(state, t.car).start:
            at = b.vehicle(state, t.car).at
            slot = spaces.slot_number(side, at) if at is not None else None
            assert slot is not None, "a car in the start area waits behind a slot"
            entered += (slot,)  # the Final Five's first motorcycle
        again = crews.named(b.player(state, name).crew).enters_tiles_again
        open_slots = arena.entry_slots(side, entered, again)
        out = []
        for o in options:
            if isinstance(o, AssignDie) and not o.momentum:
                v = b.vehicle(state, o.car)
                if v.start and v.at is not None and spaces.slot_number(side, v.at) not in open_slots:  # start: at a space
                    continue
            out.append(o)
        if not any(isinstance(o, AssignDie) for o in out):
            return tuple(options)  # no car can enter an unused tile: the restriction cannot be kept
        return tuple(out)

    def assign_prompt(self, prompt: str) -> str:
        return "assign a die to a vehicle"

    def entered(self, ctx, vid: str, frm, to, how: str, direction: str) -> None:
        """Turn the car that moved: an active step into the arena not straight
        forward turns it; a forced move keeps its facing, but onto a road tile
        turns it toward the arena.  A first move onto a road tile is noted."""
        s = ctx.state
        side = s.arena
        v = b.vehicle(s, vid)
        if v.at is None:
            return
        t = s.turn
        here = spaces.where(side, to)
        if how == "step" and t is not None and t.car == vid:
            facing = arena.facing_after_active_step(side, v.facing, direction, to)
        else:
            facing = self.forced_facing(s, v.facing, to)
        if facing != v.facing:
            ctx.emit(cev.Faced(vid, facing))
        if here == "road" and spaces.where(side, frm) == "start":
            slot = spaces.slot_number(side, to)
            assert slot is not None, "a road tile's space is in a slot"
            ctx.emit(cev.TileEntered(v.owner, vid, slot))

    def forced_facing(self, state, facing: str, to) -> str:
        """"Leaving the Arena": a forced move keeps the car's facing; onto a road tile it faces the arena."""
        side = state.arena
        slot = spaces.slot_number(side, to) if spaces.where(side, to) == "road" else None
        if slot is None:  # (None only off a road tile)
            return facing
        return spaces.slot(side, slot).forward

    def disabled_facing(self, state, vid: str) -> str:
        return b.vehicle(state, vid).facing  # flipped "without changing its direction"

    def repaired_facing(self, state, car) -> str:
        return car.facing

    def slammed(self, ctx, top: str, bottom: str) -> None:
        """"Immediately turn the bottom car to face in the same direction as the top car"."""
        s = ctx.state
        if b.is_wreck(top) or b.is_wreck(bottom):
            return
        facing = arena.slammed_facing(b.vehicle(s, top).facing)
        if b.vehicle(s, bottom).facing != facing:
            ctx.emit(cev.Faced(bottom, facing))

    # ---------------------------------------------------------------- dice
    def set_die(self, state, die: str) -> str | None:
        """Danger Ahead!: the direction die is set to straight forward, not
        rolled (the decree overrules everything); else Precision's face."""
        if die == "direction" and not decrees.needs_direction_roll(decree_now(state)):
            return decrees.direction(decree_now(state), None)
        return extras(state).precision.get(die)

    # ------------------------------------------------------ mid-effect favors
    def pause(self, ctx, effect: str, vehicle: str = "", to=None, how: str = "", direction: str = "",
              left: int = 0) -> None:
        """Killer Pillar: "You can play this token in the middle of resolving
        another effect, such as a slam or damage effect" (and Precision, for a
        die the chain rolls later).  Rules v2: on a player's turn, a slam about
        to push a car, or a damage effect about to move one, waits (``Suspend``)
        for the active player when they hold any party favor: how many favors a
        player holds is public, which ones is not, so the pause shows nothing
        of their kinds.  Answering it resumes the effect (``play.resume``).
        Rules v3 also pauses Shrapnel before its line is searched and the
        Thwumper before it lands (``LATER``)."""
        s = ctx.state
        t = s.turn
        if not v2(s) or s.phase != "playing" or t is None or s.pause is not None:
            return
        if effect in LATER and not v3(s):
            return
        if b.player(s, t.player).out or not s.favors.get(t.player):
            return
        ctx.emit(cev.EffectPaused(t.player, effect, vehicle, b.nm(to) if to is not None else None, how, direction,
                                  left))
        raise Suspend()

    def slam_reroll_allowed(self, state) -> bool:
        """Commit to the Crash!; and a die Precision set "cannot be rerolled"."""
        fixed = extras(state).precision
        decree = decree_now(state)
        if v4(state) and "stunt" in fixed and "stunt" in decrees.slam_dice(decree):
            return False  # Let's Get Wild! rolls the stunt die with the slam: set, it cannot be rerolled
        return decrees.slam_reroll_allowed(decree) and "slam" not in fixed and "direction" not in fixed

    # ------------------------------------------------------------- scrap
    def emitted(self, ctx, event) -> None:
        """What an event earns or uses up in the arena: 2 scrap for each damage
        token an opposing car gains on your turn, 3 for each elimination;
        Witness Me!'s 1 for each shot or slam; Let's Keep It Close!'s stolen
        scrap; a die Precision set is used; a shot after moving is counted."""
        s = ctx.state
        active = active_player(s)
        if isinstance(event, (vev.ShotFired, vev.SlamRolled, vev.SlamDirectionRolled, vev.DieRolled, cev.WildRoll)):
            self._precision_used(ctx, event)
        if isinstance(event, vev.ShotFired):
            self._shot(ctx, event, active)
            return
        if isinstance(event, vev.SlamStarted):
            if active is not None and extras(s).witness and b.owner_of(s, event.top) == active:
                ctx.emit(cev.ScrapGained(active, s.carnival.game.scrap_per_witnessed_attack, "Witness Me!: a slam"))
            return
        kind: Literal["damage", "elimination"]
        if isinstance(event, (vev.DamageDrawn, vev.MinorDamageTaken)):
            vid, kind = (event.car if isinstance(event, vev.DamageDrawn) else event.vehicle), "damage"
        elif isinstance(event, vev.VehicleEliminated) and not b.is_wreck(event.vehicle):
            vid, kind = event.vehicle, "elimination"
        else:
            return
        owner = b.owner_of(s, vid)
        amount = scrap.award(active, scrap.Happening(kind, owner), s.carnival.game)
        if amount and active is not None:  # (award gives none without an active player)
            ctx.emit(cev.ScrapGained(active, amount, f"{vid} {'damaged' if kind == 'damage' else 'eliminated'}"))

    def _shot(self, ctx, event, active) -> None:
        s = ctx.state
        t = s.turn
        if active is None or t is None:
            return
        shooter = event.shooter
        mine = shooter == f"{active}'s chopper" or (not shooter.endswith("'s chopper") and b.owner_of(s, shooter) == active)
        if not mine:
            return
        if extras(s).witness:
            ctx.emit(cev.ScrapGained(active, s.carnival.game.scrap_per_witnessed_attack, "Witness Me!: a shot"))
        if event.hit and not b.is_wreck(event.target):
            owner = b.owner_of(s, event.target)
            if owner is not None and owner != active and decrees.steal_on_hit(  # owner: the target is no wreck
                    decree_now(s), s.scrap.get(active, 0), s.scrap.get(owner, 0)):
                ctx.emit(cev.ScrapGained(owner, -1, f"Let's Keep It Close!: {active} takes 1"))
                ctx.emit(cev.ScrapGained(active, 1, f"Let's Keep It Close!: taken from {owner}"))
        if t.phase == "done" and shooter == t.car:  # (rules v4 names In the Mood for Mayhem! only under it)
            e = extras(s)  # the first one (rules v5: the car's own first, not an Auto-Cannon shot before it)
            first = e.shots - e.cannon_after == 0 if v5(s) else e.shots == 0
            mayhem = v4(s) and decree_now(s) == decrees.MAYHEM and first
            ctx.emit(cev.ShotTaken(active, "mayhem" if mayhem else "after"))

    def _precision_used(self, ctx, event) -> None:
        e = extras(ctx.state)
        if not e.precision:
            return
        dice = _PRECISION_DICE.get(type(event))
        if dice is None:
            dice = (event.die,)
        for die in dice:
            if die in e.precision:
                ctx.emit(cev.PrecisionUsed(die))

    # ----------------------------------------------------- after each step
    def settle(self, ctx) -> None:
        """A car that ENDED its movement on a party favor or a super-weapon token
        collects it, whoever's turn it is (the active car once its move is over)."""
        s = ctx.state
        if s.after_hit is not None and s.slam is None and s.pause is None:
            shots.after_hit(ctx)  # a super-weapon's follow-up, once its hit's effects have settled
            s = ctx.state
        if s.phase != "playing" or (not s.favor_tokens and not s.weapon_tokens):
            return
        t = s.turn
        for v in s.vehicles:
            if v.at is None or v.start or (t is not None and t.car == v.id and t.phase == "move"):
                continue
            if v.at in s.favor_tokens and ctx.state.private_favors:
                deal(ctx, v)
            elif v.at in s.favor_tokens and sum(ctx.state.favor_pile.values()) > 0:
                kind, scripted = ctx.draw("favor", ctx.state.favor_pile)
                ctx.emit(cev.FavorCollected(v.owner, v.id, b.nm(v.at), kind, scripted))
            if v.at in s.weapon_tokens and v.id not in ctx.state.weapons and sum(ctx.state.weapon_deck.values()) > 0:
                weapon, scripted = ctx.draw("weapon", ctx.state.weapon_deck)
                ctx.emit(cev.WeaponClaimed(v.id, b.nm(v.at), weapon, scripted))

    def round_over(self, ctx) -> bool:
        """Tina's turn after the players' turns; True when the game ended."""
        return tina_turn.round_over(ctx)

    # ------------------------------------------- favors, weapons, decrees
    def decision(self, state, d):
        """Vendetta's pending decision with the Carnival's options (``turn.decision``)."""
        return turn.decision(state, d)

    def resolve(self, ctx, decision, action) -> None:
        play.resolve(ctx, decision, action)

    def chopper_facing(self, state, owner: str) -> str:
        return state.chopper_facing.get(owner, "F")

    def slam_rolled(self, ctx) -> None:
        """Let's Get Wild!: "When rolling to resolve a slam, also roll the stunt die"."""
        if "stunt" in decrees.slam_dice(decree_now(ctx.state)):
            face, scripted = ctx.roll("stunt")
            ctx.emit(cev.WildRoll(face, scripted))

    def slam_distance(self, state) -> int:
        return decrees.slam_distance(decree_now(state), state.wild or None)

    def passes_through(self, ctx, vid: str, other: str) -> bool:
        """Bootleg Turn: the active car moves *through* other cars without slamming.
        Rules v4: only with a move left after the car's space (the road die's moves
        count, as for a drift): a move that would end on a car ends in a slam."""
        s = ctx.state
        t = s.turn
        if t is None or t.car != vid or not extras(s).bootleg or b.is_wreck(other):
            return False
        if v4(s) and not (t.moves_left > 0 or (not t.stopped and b.road_bonus_open(s))):
            return False
        ctx.emit(cev.PassedThrough(vid, other))
        return True


ARENA = ArenaBoard()


def deal(ctx, v) -> None:
    """A private favor (host games): the next of the host's deck, dealt face down to ``v``'s owner
    as its commitment; the host's shell seals its kind and nonce to the owner (``Rng.sealer``)."""
    s = ctx.state
    if s.favors_dealt >= sum(s.favor_pile.values()):
        return
    key = favors.favor_key(ctx.rng)
    kind, salt = favors.opening(s.favor_pile, key, s.favors_dealt)
    sealer = getattr(ctx.rng, "sealer", None)
    sealed = sealer(v.owner, kind, salt) if sealer is not None else {}
    ctx.emit(cev.FavorDealt(v.owner, v.id, b.nm(v.at), s.favors_dealt, favors.commit(kind, salt), sealed))
