"""The board a game is played on: the :class:`Board` protocol, and the road.

Vendetta's rules (``rules.py``, ``effects.py``, ``context.py``, ``evolve.py``)
never ask which board a game is on: they ask the state's board,
``State.board``, a class variable of the state type (the ruleset's data:
``vendetta.model.State.board`` is :data:`ROAD`; a ruleset that plays
elsewhere subclasses the state and sets its own, as Carnival's
``CarnivalState.board`` is ``carnival/board.py``'s arena).  A board
overrides the road's hooks where it differs, as python-chess's variant
boards override a base board's; everything it does not override is the
road's rule.

The protocol's parts: its geometry (:class:`Geometry`: a space's neighbour
in a direction, arcs, straight lines, how far along the board a space is,
whether it lies beside a side edge: every rule, crew and bot asks these of
the state's board, never the grid of ``core/geometry.py``, so a board whose
lanes wrap, the ring road of ``tests/plugins/ringroad``, plays everywhere),
the spaces (terrain, on the board, the starting area, why leaving one
eliminates), moving (a vehicle's steps, the direction die, entering a space,
forced moves, slams), what may shoot from where and where a chopper may
land, and the hooks a board's own game adds to the turn (decisions and
actions of its own, dice it sets, effects it pauses, what an event earns,
the round's end).

Pure: nothing here reads a file or keeps anything between calls.  (A state's
``components`` is None only before its first event, when no board is asked:
the type checker is told so where a hook reads them, without a test on the
hot paths.)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol

from ..core import geometry

if TYPE_CHECKING:  # for the type checker only (the model imports this module)
    from ..core.protocol import Decision
    from .context import Ctx
    from .model import State, Vehicle

Space = tuple[int, int]


class Geometry(Protocol):
    """Where spaces lie on a board: what rules, effects, crews and bots ask instead of
    doing arithmetic on ``(lane, y)`` (rules-facts.md section 1: the staggered grid).

    Directions are relative to a facing (``F FR BR B BL FL``, :mod:`..core.geometry`);
    a board whose spaces join otherwise than the plain grid's (lanes that wrap, an
    arena's hexagons turned) overrides :meth:`neighbour`, and arcs, lines and reaches
    follow, as the road's are built on it.
    """

    def neighbour(self, space: Space, relative: str, facing: str) -> Space:
        """Where one step ``relative`` to a vehicle facing ``facing`` lands (on the board
        or off it: :meth:`Board.terrain` says which)."""
        ...

    def arc(self, space: Space, facing: str, directions: tuple[str, ...] = geometry.FRONT_ARC) -> tuple[Space, ...]:
        """The spaces of an arc (``directions``, the front arc unless told: shots, the
        Cow Catcher; the Big Rig's rear arc is ``core.geometry.REAR_ARC``)."""
        ...

    def line(self, space: Space, relative: str, facing: str) -> Iterator[Space]:
        """The spaces in a straight line from ``space`` (not including it), without end:
        the caller stops where the board ends (Shrapnel, the Laser Kebab)."""
        ...

    def reach(self, space: Space, direction: str, n: int) -> Space:
        """Where ``n`` steps in a straight line in the absolute ``direction`` land
        (Blast Off's stunt die, a jump), ignoring the spaces between."""
        ...

    def progress(self, space: Space) -> int:
        """How far along the board ``space`` lies, in half-spaces (the road: toward the
        Finish Line): the bots' frontmost and rearmost vehicles."""
        ...

    def extent(self, state: State) -> tuple[int, int]:
        """The :meth:`progress` of the board's rear edge and of its first space beyond
        the front (the bots' place of a vehicle between the two)."""
        ...

    def at_side(self, state: State, space: Space) -> bool:
        """Whether ``space`` lies beside a side edge of the board (one step sideways
        leaves it: the bots keep clear)."""
        ...


class Board(Geometry, Protocol):
    """What Vendetta's rules ask of the board a game is played on."""

    #: how a picture draws it: the name of a drawing (``core/drawing.py``) its view's
    #: ``board`` entry gives; the road's is ``road`` (the pictures' road of tiles)
    drawing: str

    # ------------------------------------------------------------ the spaces
    def terrain(self, state: State, space: Space) -> str:
        """The terrain a vehicle meets there: ``road``, ``mud``, ``impassable``,
        ``start``, ``offboard``, ``beyond`` (past the lead tile), or a board's own."""
        ...

    def on_board(self, state: State, space: Space) -> bool: ...

    def printed_terrain(self, state: State, space: Space) -> str:
        """The terrain a picture of the board shows on a road space (``trv show``)."""
        ...

    def is_start(self, state: State, space: Space) -> bool:
        """Whether a vehicle there is in a starting area (not yet on the board)."""
        ...

    def off_cause(self, state: State, space: Space) -> str:
        """Why a vehicle entering ``space`` (off the board) is eliminated."""
        ...

    def piece(self, state: State, space: Space) -> int:
        """The index of the road piece ``space`` lies on (behind piece 0: below 0): what
        goes with the rear piece when the road scrolls (rules-facts.md, scrolling)."""
        ...

    def piece_space(self, state: State, index: int, lane: int, row: int) -> Space:
        """The space of ``lane`` and ``row`` (0: its rearmost) of road piece ``index``
        (a tile's hazard spaces as ``tiles.txt`` prints them)."""
        ...

    def fatal_exit(self, state: State, space: Space) -> str:
        """``trv legal``'s note for a step off the board onto ``space``."""
        ...

    # ---------------------------------------------------------------- moving
    def direction_die(self, facing: str, face: str) -> str:
        """The absolute direction of a direction-die face for a vehicle facing ``facing``."""
        ...

    def steps(self, state: State, car: Vehicle) -> tuple[Any, ...]:
        """The active car's ``Step`` options."""
        ...

    def entered(self, ctx: Ctx, vid: str, frm: Space | None, to: Space, how: str, direction: str) -> None:
        """A car has entered ``to`` (after its ``vehicle-moved``): a board may turn it."""
        ...

    def forced_facing(self, state: State, facing: str, to: Space) -> str:
        """The facing of a vehicle forced (a slam, a damage effect) onto ``to``."""
        ...

    def slammed(self, ctx: Ctx, top: str, bottom: str) -> None:
        """A slam has started, before its dice."""
        ...

    def passes_through(self, ctx: Ctx, vid: str, other: str) -> bool:
        """Whether the active ``vid`` steps through ``other`` without a slam."""
        ...

    def slam_distance(self, state: State) -> int:
        """How many spaces a slam pushes the vehicle it moves."""
        ...

    def disabled_facing(self, state: State, vid: str) -> str:
        """The facing of a car made inoperable."""
        ...

    def repaired_facing(self, state: State, car: Vehicle) -> str:
        """The facing of an inoperable car repaired."""
        ...

    # ---------------------------------------------------- shooting, choppers
    def may_shoot_from(self, state: State, space: Space | None) -> bool: ...

    def chopper_spaces(self, state: State) -> Iterable[tuple[Space, str]]:
        """Every space (and its name) a chopper may be placed on, busy or not."""
        ...

    def chopper_facing(self, state: State, owner: str) -> str: ...

    # ---------------------------------------------- the board's own game
    def decision(self, state: State, decision: Decision | None) -> Decision | None:
        """The pending decision with the board's own options or decisions added."""
        ...

    def may_assign(self, state: State, name: str, options: Iterable[Any]) -> tuple[Any, ...]:
        """Which of a player's die assignments the board allows now."""
        ...

    def assign_prompt(self, prompt: str) -> str:
        """The assign decision's prompt (the crew's ``prompt``, or the board's own)."""
        ...

    def resolve(self, ctx: Ctx, decision: Decision, action: Any) -> None:
        """An action of the board's own (none on the road)."""
        ...

    def set_die(self, state: State, die: str) -> str | None:
        """A die's face set instead of rolled, or None to roll it."""
        ...

    def slam_reroll_allowed(self, state: State) -> bool: ...

    def slam_rolled(self, ctx: Ctx) -> None: ...

    def pause(self, ctx: Ctx, effect: str, vehicle: str = "", to: Space | None = None, how: str = "",
              direction: str = "", left: int = 0) -> None:
        """Where an effect may wait for a decision (raises ``Suspend`` then)."""
        ...

    def emitted(self, ctx: Ctx, event: Any) -> None:
        """What an event earns or uses up on this board (after it is folded)."""
        ...

    def settle(self, ctx: Ctx) -> None:
        """After each automatic step: what the board does once effects settle."""
        ...

    #: whether the round is played out when one player is left (else the game ends at once)
    plays_round_out: bool

    def round_over(self, ctx: Ctx) -> bool:
        """The board's steps at the end of a round; True when the game ended."""
        ...


_STEP: Any = None


def _steps() -> tuple[Any, ...]:
    global _STEP
    if _STEP is None:  # the actions are imported on first use (looking at a game decides nothing)
        from .actions import Step

        _STEP = (Step("FL"), Step("F"), Step("FR"))
    return _STEP


# (``2 * rows`` is ``Components.half``, written out: these run for nearly every event)
def rear_y(state: State) -> int:
    return 2 * state.components.rows * state.road[0].index  # type: ignore[union-attr]


def front_y(state: State) -> int:
    """The first half-space beyond the lead tile."""
    return 2 * state.components.rows * (state.road[-1].index + 1)  # type: ignore[union-attr]


def token_at(state: State, space: Space) -> Any:
    for t in state.tokens:
        if t.at == space:
            return t
    return None


def tile_terrain(state: State, space: Space) -> str:
    """Terrain printed on the tile (or the position's fill/overrides)."""
    for at, kind in state.terrain:
        if at == space:
            return kind
    if state.fill == "road":
        return "road"
    lane, y = space
    c = state.components
    half = 2 * c.rows  # type: ignore[union-attr]
    index = y // half
    tile = state.road[index - state.road[0].index]
    row = (y - half * index - lane % 2) // 2
    return c.sides[tile.side].terrain[row][lane]  # type: ignore[union-attr]


@lru_cache(maxsize=64)
def road_spaces(lo: int, hi: int, lanes: int) -> tuple[tuple[Space, str], ...]:
    """Every space of the road between half-spaces ``lo`` and ``hi``, with its name."""
    return tuple(((lane, y), geometry.name((lane, y))) for y in range(lo, hi) for lane in range(lanes)
                 if (lane + y) % 2 == 0)


class Road:
    """The road of tiles (base Vendetta): every hook of :class:`Board` as the base game plays it."""

    plays_round_out = False
    drawing = "road"

    # ------------------------------------------------------------ the spaces
    def terrain(self, state: State, space: Space) -> str:
        lane, y = space
        if not 0 <= lane < state.components.lanes:  # type: ignore[union-attr]
            return "offboard"
        if state.road and y < rear_y(state):
            if state.road[0].index == 0 and y >= rear_y(state) - 2:
                return "start"
            return "offboard"
        if state.road and y >= front_y(state):
            return "beyond"
        tok = token_at(state, space)
        if tok is not None and tok.face_up and tok.kind in ("road", "mud"):
            return tok.kind
        return tile_terrain(state, space)

    def printed_terrain(self, state: State, space: Space) -> str:
        return tile_terrain(state, space)

    def on_board(self, state: State, space: Space) -> bool:
        lane, y = space
        return 0 <= lane < state.components.lanes and rear_y(state) <= y < front_y(state)  # type: ignore[union-attr]

    def is_start(self, state: State, space: Space) -> bool:
        return space[1] < 0  # the starting area is the row behind piece 0

    def piece(self, state: State, space: Space) -> int:
        return space[1] // (2 * state.components.rows)  # type: ignore[union-attr]

    def piece_space(self, state: State, index: int, lane: int, row: int) -> Space:
        return (lane, 2 * state.components.rows * index + 2 * row + lane % 2)  # type: ignore[union-attr]

    def off_cause(self, state: State, space: Space) -> str:
        return f"left the road {'at the side' if not 0 <= space[0] < state.components.lanes else 'at the rear'}"  # type: ignore[union-attr]

    def fatal_exit(self, state: State, space: Space) -> str:
        return f"leaves the road at {geometry.name(space)} (eliminated)"

    # -------------------------------------------------------------- geometry
    #: the plain grid's step (``core.geometry.neighbour``, called without a method's frame:
    #: the rules ask it in their hottest loops)
    neighbour = staticmethod(geometry.neighbour)

    def arc(self, space: Space, facing: str, directions: tuple[str, ...] = geometry.FRONT_ARC) -> tuple[Space, ...]:
        step = self.neighbour
        return tuple([step(space, d, facing) for d in directions])

    def line(self, space: Space, relative: str, facing: str) -> Iterator[Space]:
        step = self.neighbour
        while True:
            space = step(space, relative, facing)
            yield space

    def reach(self, space: Space, direction: str, n: int) -> Space:
        step = self.neighbour
        for _ in range(n):
            space = step(space, direction, "F")
        return space

    def progress(self, space: Space) -> int:
        return space[1]

    def extent(self, state: State) -> tuple[int, int]:
        return rear_y(state), front_y(state)

    def at_side(self, state: State, space: Space) -> bool:
        return space[0] in (0, state.components.lanes - 1)  # type: ignore[union-attr]

    # ---------------------------------------------------------------- moving
    def direction_die(self, facing: str, face: str) -> str:
        return geometry.turn(facing, face)

    def steps(self, state: State, car: Vehicle) -> tuple[Any, ...]:
        return _steps()

    def entered(self, ctx: Ctx, vid: str, frm: Space | None, to: Space, how: str, direction: str) -> None:
        return None

    def forced_facing(self, state: State, facing: str, to: Space) -> str:
        return facing

    def slammed(self, ctx: Ctx, top: str, bottom: str) -> None:
        return None

    def passes_through(self, ctx: Ctx, vid: str, other: str) -> bool:
        return False

    def slam_distance(self, state: State) -> int:
        return 1

    def disabled_facing(self, state: State, vid: str) -> str:
        return "B"  # an inoperable car is turned backward

    def repaired_facing(self, state: State, car: Vehicle) -> str:
        return "F"

    # ---------------------------------------------------- shooting, choppers
    def may_shoot_from(self, state: State, space: Space | None) -> bool:
        return True

    def chopper_spaces(self, state: State) -> Iterable[tuple[Space, str]]:
        return road_spaces(rear_y(state), front_y(state), state.components.lanes)  # type: ignore[union-attr]

    def chopper_facing(self, state: State, owner: str) -> str:
        return "F"

    # ---------------------------------------------- the board's own game
    def decision(self, state: State, decision: Decision | None) -> Decision | None:
        return decision

    def may_assign(self, state: State, name: str, options: Iterable[Any]) -> tuple[Any, ...]:
        return tuple(options)

    def assign_prompt(self, prompt: str) -> str:
        return prompt

    def resolve(self, ctx: Ctx, decision: Decision, action: Any) -> None:
        raise TypeError(f"not a Vendetta action: {action!r}")

    def set_die(self, state: State, die: str) -> str | None:
        return None

    def slam_reroll_allowed(self, state: State) -> bool:
        return True

    def slam_rolled(self, ctx: Ctx) -> None:
        return None

    def pause(self, ctx: Ctx, effect: str, vehicle: str = "", to: Space | None = None, how: str = "",
              direction: str = "", left: int = 0) -> None:
        return None

    def emitted(self, ctx: Ctx, event: Any) -> None:
        return None

    def settle(self, ctx: Ctx) -> None:
        return None

    def round_over(self, ctx: Ctx) -> bool:
        return False


#: the base game's board, ``State.board``
ROAD: Board = Road()
