"""Hash chains of reveals and the RNG of a draw (trvendetta/core/draws.py)."""

import pytest

from trvendetta import rulesets
from trvendetta.core.draws import commitment, draw_rng, follows, reveal
from trvendetta.core.rng import NeedDice, NoDice


def test_each_reveal_is_fixed_by_the_commitment_and_checkable_in_turn():
    secret = bytes(range(32))
    top = commitment(secret, 16)
    values = [top] + [reveal(secret, d, 16) for d in range(1, 17)]
    assert values[-1] == secret
    for d in range(1, 17):
        assert follows(values[d], values[d - 1])
        assert not follows(values[d], values[d])
    assert not follows(b"\0" * 32, top)
    with pytest.raises(ValueError):
        reveal(secret, 17, 16)


def test_a_draw_depends_on_every_reveal_and_on_its_number():
    a, b = b"a" * 32, b"b" * 32
    roll = lambda rng: [rng.below(6) for _ in range(8)]  # noqa: E731
    assert roll(draw_rng(3, [a, b])) == roll(draw_rng(3, [a, b]))
    assert roll(draw_rng(3, [a, b])) != roll(draw_rng(3, [a, b"c" * 32]))
    assert roll(draw_rng(3, [a, b])) != roll(draw_rng(4, [a, b]))


def test_no_dice_tells_an_action_needing_chance_from_one_that_does_not():
    rs = rulesets.get("vendetta")
    state, _ = rs.new_game(rs.default_position([("ann", "red", "cars"), ("bob", "blue", "cars")], 7))
    action = rs.legal_actions(state)[0]
    # assigning a die needs no chance: NoDice resolves it exactly as the seed would
    assert rs.apply(state, action, NoDice())[1] == rs.apply(state, action)[1]
    with pytest.raises(NeedDice):
        NoDice().below(6)
