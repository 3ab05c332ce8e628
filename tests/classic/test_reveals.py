"""Which classic events reveal information: declared per event type."""

from trvendetta.classic import RULESET as RS
from trvendetta.classic import events as ev


def test_a_chopper_attack_reveals_its_red_roll_scripted_or_not():
    assert RS.reveals(ev.ChopperAttacked("ann", "blue-6", "g20", 1, 2, False, 0))
    assert RS.reveals(ev.ChopperAttacked("ann", "blue-6", "g20", 1, 2, False, 1))


def test_rolls_and_laid_boards_reveal_and_moves_do_not():
    revealing = {cls.__struct_config__.tag for cls in ev.Event.__args__ if cls.reveals}
    assert revealing == {"dice-rolled", "road-die-rolled", "crash-rolled", "board-linked", "wrecks-placed",
                         "ram-rolled", "shot-fired", "chopper-attacked"}
