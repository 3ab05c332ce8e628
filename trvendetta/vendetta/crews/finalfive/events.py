"""The Final Five's own events: their types, how each reads, and what each does to the state."""

# annotations are evaluated at import (no __future__ import): msgspec compiles a string one (tests/cli/test_show_startup.py)

from msgspec.structs import replace

from ... import parts
from ...events import _Event
from ...evolve import _mark_moved, _player, _spend, _turn, handles
from ...model import State, Turn
from .state import SecondBike, second_of


class SecondMotorcycleAssigned(_Event, tag="second-motorcycle-assigned", frozen=True):
    """The Final Five: a die to a second motorcycle, which moves after the first (001: Step 1)."""

    player: str
    car: str
    die: int
    momentum: bool = False


def _say_SecondMotorcycleAssigned(e: SecondMotorcycleAssigned) -> str:
    player = e.player
    car = e.car
    die = e.die
    momentum = e.momentum
    return f"{player} assigns {die} to {car}" + (" to coast (1 space)" if momentum else "") + ", to move second"


parts.event(SecondMotorcycleAssigned, describe=_say_SecondMotorcycleAssigned)


@handles(SecondMotorcycleAssigned)
def _second_assigned(state: State, e: SecondMotorcycleAssigned) -> State:
    p = next(p for p in state.players if p.name == e.player)
    state = _player(state, e.player, dice=_spend(p.dice, e.die))
    return _turn(state, crew_state=SecondBike(e.car, e.die, e.momentum), phase="command-done")


class SecondMotorcycleUp(_Event, tag="second-motorcycle", frozen=True):
    """The Final Five: the first motorcycle has moved and shot; the second one's move begins."""

    player: str
    car: str


def _say_SecondMotorcycleUp(e: SecondMotorcycleUp) -> str:
    player = e.player
    car = e.car
    return f"{player} moves the second motorcycle, {car}"


parts.event(SecondMotorcycleUp, describe=_say_SecondMotorcycleUp)


@handles(SecondMotorcycleUp)
def _second(state: State, e: SecondMotorcycleUp) -> State:
    t = state.turn
    assert t is not None, "the second motorcycle moves in a turn"
    state = _mark_moved(state, t)
    bike = second_of(t)
    return replace(state, turn=Turn(t.player, "command-done", bike.second, bike.second_die, bike.second_momentum))
