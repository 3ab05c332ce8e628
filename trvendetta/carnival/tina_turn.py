"""Tina's turn at the end of each round, and the end of the game (rulebook
"Tina's Turn", "Winning the Game", "Ties").

Called by Vendetta's round flow (``rules._next_turn``, through the arena board)
once every player has had three turns; emits events into the decide
context.  Her card is drawn when she flips it, from the cards not yet
flipped: the same chances as the rulebook's shuffled pile of 5 of the 9
(the rest "returned to the box without looking"), with nothing in the log
before it shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..core.events import GameOver
from ..vendetta import board as b
from ..vendetta import effects as fx
from ..vendetta.context import Ctx
from . import events as cev
from . import favors, scoring, tina
from .extras import v4

if TYPE_CHECKING:  # (the model imports this module through the board: no import at run time)
    from .model import CarnivalState


def round_over(ctx: Ctx) -> bool:
    """Tina's turn, then the end of the game when it is due; True when it ended."""
    s = cast("CarnivalState", ctx.state)  # Tina's turn is only ever the arena's
    assert s.carnival is not None, "Tina plays in the arena"
    c = s.carnival
    if len(s.tina) < c.game.tina_deck:
        _tina(ctx)
        fx.settle_outs(ctx)
        after = ctx.state
        if not scoring.game_over_after_round(after.round, any(p.out for p in after.players), c.game):
            return False
    end(ctx)  # her pile is empty at the start of her turn, or a player is out
    return True


def _tina(ctx: Ctx) -> None:
    s = cast("CarnivalState", ctx.state)  # Tina's turn is only ever the arena's
    assert s.carnival is not None, "Tina plays in the arena"
    left = {card.name: 1 for card in s.carnival.tina if card.name not in s.tina}
    name, scripted = ctx.draw("tina", left)
    ctx.emit(cev.TinaFlipped(name, scripted))
    card = tina.card(s.carnival, name)
    cars = [tina.CarAt(v.id, v.owner, v.at, v.status == "operational") for v in s.vehicles
            if v.at is not None and not v.start]
    turn = tina.resolve(s.arena, card, cars)
    for player, amount in turn.spotlight.items():
        if amount:
            ctx.emit(cev.ScrapGained(player, amount, f"a car in Tina's spotlight ({name})"))
    ctx.emit(cev.PillarsSet(turn.raised))
    for vid in turn.eliminated:
        pillar = next(p for p, at in s.arena.pillars.items() if at == b.vehicle(ctx.state, vid).at)
        fx.eliminate(ctx, vid, f"crushed by killer pillar {pillar}")
    ctx.emit(cev.DecreeSet(turn.decree, s.round))


def standings(state, rng=None) -> list[scoring.Standing]:
    """What counts for each player at the end ("Winning the Game", "Ties"); a private favor
    still face down is opened with the host's favor key of ``rng`` (it may be a muffler)."""
    out = []
    for p in state.players:
        mine = [v for v in state.vehicles if v.owner == p.name]
        crew = state.components.crews[p.crew]
        held = state.favors.get(p.name, ())
        if rng is not None and any(favors.is_hidden(k) for k in held):
            held = tuple(favors.kind_of(k, state.favor_pile, rng) for k in held)
        out.append(scoring.Standing(
            p.name, state.scrap.get(p.name, 0), sum(1 for v in mine if v.status == "operational"),
            sum(1 for v in mine if v.at is not None and v.id in state.weapons), len(held),
            held.count("solid-gold-muffler"), crew.dice, state.components.dice[crew.die].faces))
    return out


class _ScriptFirst:
    """The roll-off's dice: rules v4 takes a position's ``movement`` script first (they are
    movement dice, "roll all of their movement dice"), then the game's RNG; ``used``: how many
    came from the script (the ``roll-off`` event pops them)."""

    def __init__(self, queue, rng):
        self.queue, self.rng, self.used = list(queue), rng, 0

    def pick(self, faces):
        if self.used < len(self.queue):
            self.used += 1
            return str(self.queue[self.used - 1])
        return self.rng.pick(faces)


def end(ctx: Ctx) -> None:
    """Score the game: the winner by scrap and the tie-break chain; a roll-off's rolls are recorded."""
    s = cast("CarnivalState", ctx.state)  # Tina's turn is only ever the arena's
    assert s.carnival is not None, "the arena's game is scored"
    rules = s.carnival.game
    table = standings(s, ctx.rng)
    dice = _ScriptFirst(s.script.get("movement", ()) if v4(s) else (), ctx.rng)
    winner, reason, rolls = scoring.winner(table, rules, dice)
    if rolls:
        ctx.emit(cev.RollOff(tuple(rolls), dice.used))
    scores = ", ".join(f"{t.player} {scoring.final_scrap(t, rules)}" for t in table if t.operable)
    ctx.emit(GameOver(winner, f"{reason}" + (f"; scrap: {scores}" if scores else "")))
