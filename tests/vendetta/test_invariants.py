"""Vendetta invariants, checked over seeded bot games after every event or action.

After every event (folded one at a time):

* a car holds at most two damage tokens;
* tokens are conserved, kind by kind: the hazard pile plus the known-kind
  tokens on the board is the box's mix, and the damage pile plus the tokens
  held by cars is the box's damage mix (no pile count below zero);
* a player's dice change only as the event says: DieAssigned, CommandUsed
  (not "none") and Passed remove exactly that die, DiceRolled sets the roll,
  RoundEnded clears them; every other event leaves them alone;
* every vehicle on the road, every wreck and every chopper is inside the
  road's extent (six lanes, the rear piece to the lead piece); a car may
  also be in the starting area behind the first piece (it may step sideways
  there before entering the road).

After every action (between events a slam is being resolved in steps):

* no two vehicles or wrecks share a space outside the starting area, except
  the two vehicles of a pending slam, on its space, and a car drifting past a
  vehicle mid-move (it has moves left, or the road die to take, and must move on); a pending slam
  resolves before the game can end;
* a car is inoperable exactly when it holds two damage tokens; an eliminated
  car is off the board and holds none.

Games are played by the random bot and, for some seeds, greedy bots (which
reach the Finish Line and scroll the road far more often).
"""

from __future__ import annotations

from collections import Counter

import pytest

from trvendetta import rulesets
from trvendetta.bots import get_bot, new_position
from trvendetta.core.rng import Rng
from trvendetta.vendetta import board as b
from trvendetta.vendetta import components as comp
from trvendetta.vendetta import events as ev

RS = rulesets.get("vendetta")
BOX = comp.default()
QUICK_SEEDS = range(4)
LONG_GAMES = 4_000
LONG_CHUNK = 250


def bots_for(seed: int, players: int) -> list[str]:
    """Random everywhere for most seeds; every third seed mixes in greedy seats."""
    if seed % 3 != 2:
        return ["random"] * players
    return ["greedy" if i % 2 == 0 else "random" for i in range(players)]


# ------------------------------------------------------------ after each event
def check_event(before, event, after, where: str) -> None:
    for v in after.vehicles:
        assert len(v.damage) <= 2, f"{where}: {v.id} holds {len(v.damage)} damage tokens"

    board = Counter(t.kind for t in after.tokens if t.kind is not None)
    for kind, total in BOX.hazards.items():
        pile = after.hazard_pile.get(kind, 0)
        assert pile >= 0, f"{where}: hazard pile has {pile} {kind}"
        assert pile + board[kind] == total, (
            f"{where}: {kind} hazards not conserved: pile {pile} + board {board[kind]} != {total}"
        )
    held = Counter(d for v in after.vehicles for d in v.damage)
    for kind, total in BOX.damage.items():
        pile = after.damage_pile.get(kind, 0)
        assert pile >= 0, f"{where}: damage pile has {pile} {kind}"
        assert pile + held[kind] == total, (
            f"{where}: {kind} damage not conserved: pile {pile} + held {held[kind]} != {total}"
        )

    check_dice(before, event, after, where)

    if after.road:
        lo, hi = b.rear_y(after), b.front_y(after)
        finished = after.final_piece is not None and after.road[-1].index >= after.final_piece
        for v in after.vehicles:
            if finished and v.at is not None and b.terrain(after, v.at) == "beyond":
                continue  # on the Finish Line, beyond the final piece
            if v.at is not None and not v.start and b.terrain(after, v.at) != "start":
                assert 0 <= v.at[0] < comp.LANES and lo <= v.at[1] < hi, (
                    f"{where}: {v.id} at {v.at} is outside the road ({lo}..{hi - 1})"
                )
        for w in after.wrecks:
            assert 0 <= w.at[0] < comp.LANES and lo <= w.at[1] < hi, f"{where}: {w.id} at {w.at} is off the road"
        for c in after.choppers:
            if c.at is not None:
                assert 0 <= c.at[0] < comp.LANES and lo <= c.at[1] < hi, (
                    f"{where}: {c.owner}'s chopper at {c.at} is off the road"
                )


def _minus(dice: tuple[int, ...], die: int) -> Counter:
    out = Counter(dice)
    assert out[die] > 0, f"die {die} is not in the pool {dice}"
    out[die] -= 1
    return +out


def check_dice(before, event, after, where: str) -> None:
    old = {p.name: p.dice for p in before.players}
    for p in after.players:
        expected = Counter(old.get(p.name, ()))
        if isinstance(event, ev.DieAssigned) and event.player == p.name:
            expected = _minus(old[p.name], event.die)
        elif isinstance(event, ev.CommandUsed) and event.player == p.name and event.command != "none":
            expected = _minus(old[p.name], event.die)
        elif isinstance(event, ev.Passed) and event.player == p.name and event.die is not None:
            expected = _minus(old[p.name], event.die)
        elif isinstance(event, ev.DiceRolled) and event.player == p.name:
            expected = Counter(event.dice)
        elif isinstance(event, (ev.RoundEnded, ev.GameStarted)):
            continue
        assert Counter(p.dice) == expected, (
            f"{where}: {p.name}'s dice went from {old.get(p.name)} to {p.dice} on {type(event).__name__}"
        )


# ----------------------------------------------------------- after each action
def check_action(state, where: str) -> None:
    seen: dict = {}
    slam = state.slam
    allowed = {slam.top, slam.bottom} if slam is not None else set()
    objects = [
        (v.id, v.at)
        for v in state.vehicles
        if v.at is not None and not v.start and b.terrain(state, v.at) != "start"
    ]
    objects += [(w.id, w.at) for w in state.wrecks]
    for oid, at in objects:
        if at in seen:
            pair = {oid, seen[at]}
            ok = slam is not None and pair == allowed and at == slam.at
            t = state.turn
            drifting = t is not None and t.phase == "move" and t.car in pair and not t.stopped and (
                t.moves_left > 0 or b.road_bonus_open(state))  # the road die's moves finish a drift
            assert ok or drifting, (
                f"{where}: {seen[at]} and {oid} share {b.nm(at)} with no slam pending between them"
            )
        seen[at] = oid
    for v in state.vehicles:
        if v.status == "eliminated":
            assert v.at is None and not v.damage, f"{where}: eliminated {v.id} is still on the road or holds damage"
        else:
            assert (v.status == "inoperable") == (len(v.damage) == 2), (
                f"{where}: {v.id} is {v.status} with {len(v.damage)} damage tokens"
            )


# ------------------------------------------------------------------- playing
def play_checked(players: int, seed: int):
    """Play one bot game checking every invariant; returns (state, events, actions)."""
    bots = bots_for(seed, players)
    agents = [get_bot(name) for name in bots]
    rngs = [Rng(seed, 1000 + i) for i in range(players)]
    seat = {f"p{i + 1}": i for i in range(players)}
    state, events = RS.new_game(new_position(RS, players, seed))
    history = list(events)
    folded = RS.initial_state()
    for i, e in enumerate(events):
        nxt = RS.evolve(folded, e)
        check_event(folded, e, nxt, f"{players}p seed {seed} set-up event {i}")
        folded = nxt
    check_action(state, f"{players}p seed {seed} after set-up")
    actions = 0
    while not RS.is_over(state):
        actions += 1
        decision = RS.pending(state)
        s = seat[decision.player]
        action = agents[s].choose(RS, state, rngs[s])
        where = f"{players}p seed {seed} bots {','.join(bots)} action {actions} ({RS.describe_action(action)})"
        new_state, new = RS.apply(state, action)
        cur = state
        for e in new:
            nxt = RS.evolve(cur, e)
            check_event(cur, e, nxt, f"{where}, event {type(e).__name__}")
            cur = nxt
        assert cur == new_state
        check_action(new_state, where)
        state = new_state
        history += new
        assert len(history) <= RS.max_events, f"{where}: past max_events"
    return state, history, actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_seeded_games(players: int) -> None:
    for seed in QUICK_SEEDS:
        play_checked(players, seed)


def _long_params() -> list:
    per = -(-LONG_GAMES // 3)
    return [
        pytest.param(p, start, min(LONG_CHUNK, per - start), id=f"{p}p-{start}")
        for p in (2, 3, 4)
        for start in range(0, per, LONG_CHUNK)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("players,start,games", _long_params())
def test_invariants_hold_long(players: int, start: int, games: int) -> None:
    for seed in range(20_000 + start, 20_000 + start + games):
        play_checked(players, seed)
