"""A player's crew: the :class:`Crew` protocol and the registry of crews by name.

A player's crew is data (``Player.crew``, one of the components' ``[crews.*]``:
its vehicles, dice, die and coasts); what the crew *does* is a :class:`Crew`
found here by that name (a crew of the data with no implementation of its
own plays the cars' turn).  Vendetta's rules (``rules.py``, ``effects.py``) ask
the crew instead of testing which one it is: the cars (``cars.Cars``, the
base every crew builds on), the Final Five and the Big Rig (``crews/<crew>/rules.py``)
each register themselves, and a crew kept
anywhere else plugs in by calling :func:`register` from its own module (an
installed one is imported on first use of its name, through the
``trvendetta.crews`` entry points: :mod:`trvendetta.plugins`).

The protocol's parts: the decisions of the crew's turn (what it assigns, its
command, its steps, its shot) and the ``trv turn`` flags that answer them (its
part of the turn driver), what waits for its player outside the turn, whether
and how it enters Carnival's arena, its own actions, how its vehicles move
(starting a move, the next vehicle of the turn, a move's end), how they take
damage and how they are targeted, and what happens to them under a chopper.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import board as b

if TYPE_CHECKING:  # for the type checker only
    from ..core.protocol import Decision
    from ..core.turnflags import TurnFlag
    from .context import Ctx
    from .model import Player, State, Turn, Vehicle


class Crew(Protocol):
    """What Vendetta's rules ask of a player's crew."""

    #: a slam with one of its vehicles rolls only the direction die (motorcycles, the Big Rig)
    direction_only_slams: bool
    #: whether :meth:`waiting` can ever return a decision (the rules skip asking otherwise)
    waits: bool
    #: its active vehicle drifts through road vehicles while it moves (motorcycles), slamming only where it stops
    drifts_through_vehicles: bool
    #: in a slam rolled with the direction die only, the vehicle of the lower rank moves (a motorcycle 0, a car
    #: or a wreck 1, the Big Rig 2: "the OTHER vehicle always moves"); of one rank, their owner chooses
    slam_rank: int
    #: its player going out fixes the final piece at once, whatever the number of players (the Big Rig)
    out_sets_final_piece: bool
    #: what the rules' words call one of its vehicles, and a moved vehicle's second die (refusals)
    vehicle_noun: str
    coast_word: str
    #: its own ``trv turn`` flags (``TurnFlag``; the Big Rig's ``--steering``...,
    #: the Final Five's ``--bike``): a ruleset's ``turn_flags`` add them for each
    #: crew it takes, tagged with the crew's name (``notation.crew_flags``)
    turn_flags: tuple[TurnFlag, ...]

    # ------------------------------------------------------------- in Carnival of Chaos's arena
    #: why the crew may not play in the arena, in the rulebook's words, or None: it plays there
    #: (002 "Using Other Expansions": the Big Rig is "not allowed in the arena"); Carnival seats
    #: only the crews with none, and a position seating another is refused with these words
    arena_refusal: str | None
    #: once its vehicles have entered the arena on every road tile, the next ones may enter on
    #: tiles used before, again each on a different one (002: the Final Five's "final two
    #: motorcycles can enter on any two different road boards"); without it, a crew's first
    #: entries of round 1 each take a tile none of its vehicles has entered on yet
    enters_tiles_again: bool

    # ------------------------------------------------------------- deciding
    def waiting(self, state: State, player: Player) -> Decision | None:
        """A decision for ``player`` that comes before any turn's (the Big Rig's
        damage to place, its Cow Catcher), or None."""
        ...

    def decision(self, state: State, name: str, turn: Turn) -> Decision | None:
        """The pending decision of ``name``'s turn (None: the next step is automatic)."""
        ...

    def target_options(self, state: State, vid: str) -> list[Any]:
        """The shot options at one of the crew's vehicles."""
        ...

    def flag_action(self, state: State, decision: Decision, flags: dict) -> tuple[Any, tuple[str, ...]] | None:
        """``trv turn``: the action the crew's own flags (``flags``: every flag given, by key)
        answer ``decision`` of its player's turn with, and the keys of the flags it used;
        None: Vendetta's driver answers it from the flags it knows (``notation.TurnDriver``,
        with the crews' parts, :meth:`flag_part`).  The driver checks the action against the
        decision's options, as it checks its own."""
        ...

    def fatal_step(self, state: State, car: Vehicle, to: Any) -> str | None:
        """What makes a step of ``car`` onto ``to`` certain elimination, or None."""
        ...

    # ------------------------------------------------------------- its part of trv turn
    def flag_part(self, driver: Any) -> Any:
        """Its part of Vendetta's ``trv turn`` driver ``driver``: a ``notation.FlagPart`` that
        maps its own flags onto its decisions (and onto those it brings to other players'
        turns: a shot at a Big Rig section), asked at fixed points of each decision; None
        when it has none (its flags, if any, answered by :meth:`flag_action` alone).  Built
        once per ``trv turn``, so it may keep what the turn used of its flags."""
        ...

    # ------------------------------------------------------------- resolving
    def step(self, ctx: Ctx, direction: str) -> None:
        """The turn's vehicle takes one step."""
        ...

    def assigned(self, ctx: Ctx, car: str, die: int, momentum: bool) -> None:
        """A die assigned to one of the crew's vehicles."""
        ...

    def resolve(self, ctx: Ctx, decision: Decision, action: Any) -> bool:
        """An action of the crew's own; False when it is not one."""
        ...

    def start_move(self, ctx: Ctx) -> None:
        """The turn's vehicle starts its move (``move-started``)."""
        ...

    def move_ends(self, ctx: Ctx, car: Vehicle) -> bool:
        """Before a move finishes: True when something happened instead (a drift's slam)."""
        ...

    def fires_itself(self, ctx: Ctx) -> bool:
        """In the shoot step with nothing to decide: True when the crew fired on its own."""
        ...

    def next_vehicle(self, ctx: Ctx) -> bool:
        """The turn's vehicle is done: True when another of the crew's vehicles goes next."""
        ...

    def damage(self, ctx: Ctx, vehicle: Vehicle, cause: str) -> None:
        """One damage to one of the crew's vehicles (on the board)."""
        ...

    def minor_damage(self, ctx: Ctx, vid: str, cause: str) -> None:
        """One minor damage (the Missile Launcher's) to one of the crew's vehicles."""
        ...

    def left_behind(self, ctx: Ctx, vehicle: Vehicle) -> None:
        """One of its vehicles is on the rear piece as that piece is removed."""
        ...

    def under_chopper(self, ctx: Ctx, vehicle: Vehicle, chopper_owner: str) -> bool:
        """One of its vehicles ends a turn under a chopper; True when that settles the chopper."""
        ...

    # ------------------------------------------------------------- the bots
    def score_option(self, h: Any, option: Any) -> float | None:
        """The greedy bot's score of one option of a decision of the crew's player, or None:
        the ruleset's heuristics score it.  ``h`` is those heuristics for the decision
        (``vendetta/bot.py``'s ``Heuristics``, or a ruleset's built on them, as the
        Carnival's): its ``state``, ``decision``, ``me`` and helpers (``_assign``,
        ``_space_score``...), so a crew's scores build on the ruleset's wherever it plays.
        A decision kind only the crew has (the Big Rig's ``steering``) is scored by it alone."""
        ...


class Looks:
    """How a crew is shown (``trv show`` and its ``--json``, the pictures), apart from its
    rules: the views import no deciding code (tests/cli/test_show_startup.py), so a crew's
    looks are registered on their own (:func:`register_looks`).  This base is the cars':
    a vehicle is its owner's colour initial and its size (``RM``), and nothing is added."""

    #: a vehicle body's width in the pictures, as a share of a space
    width = 0.56

    def player(self, p: Player) -> dict:
        """Fields the crew adds to its player's entry of ``show --json``."""
        return {}

    def vehicle(self, v: Vehicle) -> dict:
        """Fields the crew adds to (or shows its own way in) one of its vehicles' entries."""
        return {}

    def sign(self, v: Vehicle) -> str:
        """The one character after the owner's colour initial on the text board and the pictures."""
        return v.size

    def dashboard(self, p: Player) -> str:
        """What its player's dashboard line shows after the dice."""
        return f"  command: {'used' if p.command_used else 'ready'}"

    def vehicle_line(self, v: Vehicle, where: str) -> str:
        """One of its vehicles on the dashboard."""
        flags = (["moved"] if v.moved else []) + ([f"momentum {v.momentum}"] if v.momentum else [])
        dmg = ", ".join(v.damage) or "no damage"
        return f"    {v.id:<16} {where:<6} {v.status:<12} {dmg}" + (f"  ({', '.join(flags)})" if flags else "")


def _plugin(name: str) -> None:
    """Import the installed plug-in that declares the crew ``name`` (the ``trvendetta.crews``
    entry points, :mod:`trvendetta.plugins`): its import registers its rules and looks."""
    from .. import plugins

    plugins.load(plugins.CREWS, name)


class _LooksRegistry(dict):
    def __missing__(self, name: str) -> Looks:
        _plugin(name)
        return self.setdefault(name, CARS_LOOK)  # asked once per name: none registered looks like the cars


CARS_LOOK = Looks()
#: every registered crew's looks by name (a crew with none looks like the cars)
LOOKS: dict[str, Looks] = _LooksRegistry(cars=CARS_LOOK)


def register_looks(name: str, looks: Looks) -> Looks:
    """Show the crew called ``name`` as ``looks`` says."""
    LOOKS[name] = looks
    return looks


class _Registry(dict):
    """Crews by name; a name with none registered is the cars (``named``)."""

    def __missing__(self, name: str) -> Crew:
        if name != "cars":
            _plugin(name)
            if name in self:
                return self[name]
        return self["cars"]


#: every registered crew by name (``CREWS[name]`` is :func:`named`, as one lookup)
CREWS: dict[str, Crew] = _Registry()
_CREWS = CREWS


def register(name: str, crew: Crew) -> Crew:
    """Make the crew called ``name`` (a ``[crews.NAME]`` of the components) play as ``crew``."""
    _CREWS[name] = crew
    return crew


def named(name: str) -> Crew:
    """The crew registered as ``name``; a crew of the data with none registered
    (a components file's own ``[crews.NAME]``) plays the cars' turn."""
    return _CREWS[name]


def of(state: State, name: str) -> Crew:
    """Player ``name``'s crew."""
    return named(b.player(state, name).crew)


def of_vehicle(state: State, vid: str) -> Crew:
    """The crew of vehicle ``vid``'s owner."""
    return named(b.player(state, b.vehicle(state, vid).owner).crew)
