"""The exact probabilities the rules imply, checked against 20,000 seeded rolls each.

Each check decides the same attack from the same state 20,000 times with the
RNG of a different seed (``Rng(i, 1)``) and counts the outcomes in the events.
Tolerance: 4 standard errors of a binomial proportion, sqrt(p(1-p)/n) * 4
(at most 0.0142 for n = 20,000); the seeds are fixed, so the result is too.
"""

from fractions import Fraction
from itertools import product
from math import sqrt

import pytest

from trvendetta.core.rng import Rng

from .helpers import RS, ChopperAttack, Ram, Shoot, Step, cars, ev, game, move

N = 20_000


def tolerance(p: float) -> float:
    return 4 * sqrt(p * (1 - p) / N)


def rate(state, action, hit) -> float:
    wins = 0
    for i in range(N):
        events = RS.decide(state, action, Rng(i, 1))
        wins += hit(events[0])
    return wins / N


def attack_state(*specs):
    state, _ = game(round=2, wrecks=[], cars=cars(*specs), script={"yellow": [2, 1, 1]})
    state, _ = move(state, specs[0].split("@")[0], 2, "F,F")
    return state


EXACT_SHOT = {4: Fraction(1, 2), 5: Fraction(1, 3), 6: Fraction(1, 6)}


def test_the_exact_shot_table_is_what_the_red_die_gives():
    # a red die >= rank wrecks the target
    assert {r: Fraction(sum(1 for d in range(1, 7) if d >= r), 6) for r in (4, 5, 6)} == EXACT_SHOT


@pytest.mark.parametrize("rank", [4, 5, 6])
def test_shot_wreck_rate_by_rank(rank):
    other = {4: 5, 5: 6, 6: 4}[rank]
    state = attack_state("red-6@c5", f"blue-{rank}@c8", f"blue-{other}@g20")
    p = float(EXACT_SHOT[rank])
    got = rate(state, Shoot("red-6", f"blue-{rank}"), lambda e: isinstance(e, ev.ShotFired) and e.hit)
    assert abs(got - p) < tolerance(p), (rank, got, p)


@pytest.mark.parametrize("rank", [4, 5, 6])
def test_chopper_wreck_rate_by_rank(rank):
    other = {4: 5, 5: 6, 6: 4}[rank]
    # red-6 keeps a shot in hand so the turn goes on after the chopper attack
    state = attack_state("red-6@c5", f"blue-{other}@c8", f"blue-{rank}@g20")
    p = float(EXACT_SHOT[rank])
    got = rate(state, ChopperAttack(f"blue-{rank}"), lambda e: isinstance(e, ev.ChopperAttacked) and e.hit)
    assert abs(got - p) < tolerance(p), (rank, got, p)


def exact_ram(r1: int, r2: int) -> Fraction:
    """P(red + r1 > red + r2): the rammer needs a strictly higher total (a tie goes to the defender)."""
    wins = sum(1 for a, d in product(range(1, 7), repeat=2) if a + r1 > d + r2)
    return Fraction(wins, 36)


def test_the_exact_ram_table():
    assert exact_ram(6, 6) == exact_ram(5, 5) == Fraction(15, 36)
    assert exact_ram(6, 4) == Fraction(26, 36) and exact_ram(4, 6) == Fraction(6, 36)
    assert exact_ram(5, 4) == exact_ram(6, 5) == Fraction(21, 36)


@pytest.mark.parametrize("r1,r2", list(product((6, 5, 4), repeat=2)))
def test_ram_success_rate(r1, r2):
    spare = next(r for r in (6, 5, 4) if r != r2)
    state = attack_state(f"red-{r1}@c5", f"blue-{r2}@c7", f"blue-{spare}@g20")
    p = float(exact_ram(r1, r2))
    got = rate(state, Ram(f"red-{r1}", f"blue-{r2}"), lambda e: isinstance(e, ev.RamRolled) and e.won)
    assert abs(got - p) < tolerance(p), (r1, r2, got, p)


def test_crash_rate():
    # a red die of 4, 5 or 6 gets through a wreck: 1/2
    state, _ = game(round=2, wrecks=["c6"], cars=cars("red-6@c5", "blue-6@g20"), script={"yellow": [1, 1, 1]})
    state, _ = move(state, "red-6", 1, "")
    wins = 0
    for i in range(N):
        events = RS.decide(state, Step("F"), Rng(i, 1))
        wins += next(e for e in events if isinstance(e, ev.CrashRolled)).passed
    assert abs(wins / N - 0.5) < tolerance(0.5)
