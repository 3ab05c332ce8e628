"""A board kept outside the package: the ring road, whose lanes wrap.

``ringroad`` is Vendetta's rules on a road bent into a tube: lane ``a`` and lane
``f`` are neighbours, so a car in lane ``a`` that steps ``FL`` comes out in lane
``f`` (``a5`` -> ``f5``) instead of leaving the road at the side.  The rear and
the front of the road are the road's (the rear piece still scrolls away, the
Finish Line still waits at the front).

The board overrides one question of the geometry, :meth:`RingRoad.neighbour`
(``vendetta/road.py``'s ``Geometry``), and says that no space lies beside a side
edge (:meth:`RingRoad.at_side`); every arc, straight line and reach the rules,
the crews and the bots ask of the board is built on that one step, so a Shrapnel
line, a slam's push, Blast Off, the Big Rig's steering and its Missile Launcher,
``trv legal``'s fatal marks and the bots' look-ahead all wrap with it.

A board comes with its ruleset's state type (``State.board``), as the dunes'
does (``tests/plugins/dunes.py``): importing this package registers the ruleset
``ringroad`` (``rulesets.register``), and no file of the project names it.  It
draws as the road of tiles (``Road.drawing``).
"""

from __future__ import annotations

from typing import ClassVar

from trvendetta import rulesets
from trvendetta.core import geometry
from trvendetta.vendetta import Vendetta
from trvendetta.vendetta import components as comp
from trvendetta.vendetta.model import State
from trvendetta.vendetta.road import Board, Road, Space

NAME = "ringroad"


class RingRoad(Road):
    """The road of tiles with its side edges joined: ``lanes`` lanes around a tube."""

    def __init__(self, lanes: int):
        if lanes % 2:  # the staggered grid: odd lanes sit half a space ahead of even ones
            raise ValueError(f"a ring of {lanes} lanes would join an odd lane to an odd lane; an even number wraps")
        self.lanes = lanes

    def neighbour(self, space: Space, relative: str, facing: str = "F") -> Space:
        """One step on the plain grid, the lane taken round the ring (``a`` - ``FL`` -> ``f``)."""
        lane, y = geometry.neighbour(space, relative, facing)
        return (lane % self.lanes, y)

    def at_side(self, state: State, space: Space) -> bool:
        return False  # a ring has no side edge


RING = RingRoad(comp.default().lanes)


class RingState(State):
    board: ClassVar[Board] = RING


class RingRoadRuleset(Vendetta):
    name = NAME
    title = "Thunder Road: Vendetta on the ring road"
    state_type = RingState

    def initial_state(self) -> RingState:
        return RingState()


RULESET = rulesets.register(RingRoadRuleset())
