"""Scrap (rulebook "Scrap", "Damage & Eliminations", "Witness Me!") and the
winner (rulebook "Winning the Game", "Ties"), with scripted roll-offs."""

import pytest

from trvendetta.carnival import components as comp
from trvendetta.carnival.scoring import Standing, final_scrap, game_over_after_round, winner
from trvendetta.carnival.scrap import Happening, award, turn_scrap
from trvendetta.core.rng import Rng

RULES = comp.default().game
DAMAGE, OUT, ATTACK = "damage", "elimination", "attack"


class ScriptedDice(Rng):
    """An RNG whose picks are the scripted die faces, in order (like a position's [script])."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def pick(self, options):
        face = self.faces.pop(0)
        assert face in options
        return face


def test_the_rulebook_stacking_example_damage_then_elimination_is_5():
    assert turn_scrap("ann", [Happening(DAMAGE, "bob"), Happening(OUT, "bob")], RULES) == 5


def test_own_cars_and_tinas_turn_give_no_scrap():
    assert award("ann", Happening(DAMAGE, "ann"), RULES) == 0
    assert award("ann", Happening(OUT, "ann"), RULES) == 0
    assert turn_scrap(None, [Happening(DAMAGE, "bob"), Happening(OUT, "cat")], RULES) == 0


def test_every_opposing_damage_counts_whoever_caused_it():
    happened = [Happening(DAMAGE, "bob"), Happening(DAMAGE, "cat"), Happening(DAMAGE, "ann"), Happening(OUT, "cat")]
    assert turn_scrap("ann", happened, RULES) == 2 + 2 + 0 + 3


def test_witness_me_adds_one_per_shot_or_slam_whatever_the_result():
    happened = [Happening(ATTACK), Happening(ATTACK), Happening(DAMAGE, "bob")]
    assert turn_scrap("ann", happened, RULES, witness_me=True) == 1 + 1 + 2
    assert turn_scrap("ann", happened, RULES) == 2


def _s(player, scrap, operable=1, **kw):
    return Standing(player, scrap, operable, **kw)


def test_the_game_ends_after_round_six_or_the_round_a_player_is_out():
    assert not game_over_after_round(3, False, RULES)
    assert game_over_after_round(3, True, RULES)
    assert game_over_after_round(6, False, RULES)


def test_most_scrap_wins_with_mufflers_counted_and_players_out_excluded():
    assert final_scrap(_s("ann", 7, mufflers=2, favors=2), RULES) == 11
    standings = [_s("ann", 9), _s("bob", 8, mufflers=1, favors=1), _s("cat", 30, operable=0)]
    assert winner(standings, RULES, ScriptedDice([])) == ("bob", "most scrap", [])
    assert winner([_s("cat", 30, operable=0)], RULES, ScriptedDice([]))[0] is None


@pytest.mark.parametrize(("ann", "bob", "expected"), [
    (dict(operable=2), dict(operable=1), ("ann", "most operable vehicles")),
    (dict(super_weapons=1), dict(super_weapons=2), ("bob", "most super-weapons")),
    (dict(favors=3), dict(favors=1), ("ann", "most unused party favors")),
])
def test_the_tie_break_chain(ann, bob, expected):
    standings = [_s("ann", 10, **ann), _s("bob", 10, **bob)]
    assert winner(standings, RULES, ScriptedDice([])) == (*expected, [])


def test_a_roll_off_of_all_movement_dice_repeats_until_the_tie_breaks():
    standings = [_s("ann", 10, dice=3), _s("bob", 10, dice=3), _s("cat", 4)]
    dice = ScriptedDice(["6", "1", "2", "3", "3", "3",  # 9 each: roll again
                         "6", "6", "1", "2", "2", "2"])  # 13 against 6
    assert winner(standings, RULES, dice) == ("ann", "roll-off", [{"ann": 9, "bob": 9}, {"ann": 13, "bob": 6}])
    assert dice.faces == []
