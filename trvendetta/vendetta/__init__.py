"""Thunder Road: Vendetta, base game (rules: shared/seeds/000_*.txt).

Exports ``RULESET``, the one object the rest of the system uses.  A
``Vendetta`` is given its components (tiles, dice, tokens, vehicles, crews;
by default the shipped data files, read when the first game is set up); a
new game records them in its first event, and its fold takes them from
there, so old games never depend on today's data files.
"""

from __future__ import annotations

import msgspec

import typing
from typing import Any, ClassVar, TypeVar

from ..core.errors import PositionError
from ..core.protocol import Decision, Later, PlayedRuleset
from ..core.rng import Rng
from ..rulesets import register
from . import events, parts, stored, view
from . import components as comp
from .components_v1 import v1
from .evolve import evolve
from .model import State
from .position import PlayerSetup, Position, from_dict, validate


_decide: Any = None


def _rules() -> Any:
    """``rules.py`` (set-up, the pending decision, ``decide``), imported on first use with
    the actions and the Big Rig's and Final Five's rules: looking at a finished game
    (`trv show`: decode, fold, draw) runs none of them (tests/cli/test_show_startup.py)."""
    global _decide
    if _decide is None:
        from . import rules

        _decide = rules
    return _decide


class TurnFlags:
    """``Vendetta.turn_flags``: the ruleset's ``base_flags`` (every crew's turn) and each
    crew's own (``Crew.turn_flags``) for the crews it takes (``crews()``, a plug-in's
    included), read when the CLI builds ``trv turn``; looking at a game never reads them."""

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return getattr(owner, "base_flags", ())
        from .notation import crew_flags

        names = obj.crews()
        return tuple(_vehicle_choices(f, obj.components, names, obj.name) for f in obj.base_flags) + crew_flags(names)


class Registered:
    """``Vendetta.event_type`` and ``action_type``: the tagged union of every event (or action)
    type registered with :mod:`.parts` (base Vendetta's and each crew's), assembled on first use
    (the actions' only by deciding code) and again once a crew registers another.  A ruleset
    built on Vendetta's adds its ``own`` types and leaves out those it replaces (``without``:
    the Carnival's set-up event replaces Vendetta's)."""

    def __init__(self, kind: str, own: tuple[type, ...] = (), without: tuple[type, ...] = ()) -> None:
        self.kind, self.own, self.without = kind, own, without
        self._built: tuple[Any, Any] = (None, None)  # (the registry's union, this one built from it)

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if self.kind == "events":
            base = parts.events()
        else:
            from . import actions  # noqa: F401  (base Vendetta's actions register themselves on import)

            base = parts.actions()
        if not self.own and not self.without:
            return base
        if self._built[0] is not base:
            kept = tuple(t for t in typing.get_args(base) if t not in self.without)
            self._built = (base, typing.Union[self.own + kept])
        return self._built[1]


def _vehicle_choices(flag: Any, components: comp.Components, names: tuple[str, ...], ruleset: str) -> Any:
    """The ``--car`` flag (a vehicle named by its name, as the cars' ``small``) with the names of
    the vehicles of every crew of ``names`` whose vehicles are named so (``kind`` None), in order:
    the choices come from the crews, a registered one's included, not from a fixed list."""
    if flag.name != "car" or not flag.choices:
        return flag
    c = comp.with_crews(components, names, ruleset)
    choices = tuple(dict.fromkeys(v for n in names if n in c.crews and c.crews[n].kind is None
                                  for v in c.crews[n].vehicles))
    if choices == flag.choices:
        return flag
    return msgspec.structs.replace(flag, choices=choices, metavar="|".join(choices))


P = TypeVar("P", bound=Position)  # Vendetta's position or an extension's (Carnival's)


class Vendetta(PlayedRuleset[State, Any, Any]):
    name = "vendetta"
    title = "Thunder Road: Vendetta"
    rules_version = events.RULES_VERSION
    rules_versions: ClassVar[tuple[str, ...]] = ("1", "2")
    min_players = 2
    max_players = 4
    max_events = 50_000
    action_type: ClassVar[Any] = Registered("actions")
    event_type: ClassVar[Any] = Registered("events")
    state_type = State
    position_type: ClassVar[type[Position]] = Position  # a ruleset built on Vendetta's may extend it
    #: the flags of every crew's turn; ``turn_flags`` adds each crew's own for the crews it takes
    base_flags: Any = Later("trvendetta.vendetta.notation:TURN_FLAGS")
    turn_flags = TurnFlags()
    default_crew = "cars"
    shared_state = ("components",)  # about 7 kB of the state's 11 kB; one game's never change

    def __init__(self, components: comp.Components | None = None):
        super().__init__()
        self._components = components
        #: (state, its pending decision) of the last state this ruleset produced
        #: or was asked about: states are immutable, so this only saves work
        #: (re-execution asks for the decision of the state ``apply`` just made)
        self._last: tuple = (None, None)
        parts.on_change(self._forget_decoders)
        #: a state's crews' own structs decode as the registered types their tags name
        self._state_dec = msgspec.json.Decoder(self.state_type, dec_hook=parts.decode_crew_state)

    def _forget_decoders(self) -> None:
        """A crew registered another event or action type: the decoders built from the old unions go."""
        self._union = self._kinds = self._action_dec = None

    @property
    def components(self) -> comp.Components:
        """The components new games are set up with (the data files unless injected)."""
        if self._components is None:
            self._components = comp.default()
        return self._components

    def initial_state(self) -> State:
        return State()

    def start(self, position: Position, rng=None) -> list:
        c = comp.with_crews(self.components, (p.crew for p in position.players), self.name)
        return _rules().start(validate(position, c, self.name, self.state_type.board), c, rng, self.initial_state())

    def setup_event(self, position: Position, rng=None):
        """``start``'s first event, without importing the rules (``verify`` of a host game before
        its reveal re-executes nothing else)."""
        c = comp.with_crews(self.components, (p.crew for p in position.players), self.name)
        return events.GameStarted(validate(position, c, self.name, self.state_type.board), str(self.rules_version), c)

    def restart(self, first_event, rng=None) -> list:
        """The set-up events again, with the components and the rules version the game
        recorded (``components_v1.v1()`` for a game recorded before components were); ``rng``:
        an exchange game's set-up draw (docs/fair-play.md)."""
        c = first_event.components
        pos = validate(first_event.position, c or v1(), self.name, self.state_type.board)
        return _rules().start(pos, c, rng, self.initial_state(), first_event.rules_version)

    def pending(self, state: State) -> Decision | None:
        last = self._last
        if last[0] is state:
            return last[1]
        decision = _rules().pending(state)
        self._last = (state, decision)
        return decision

    def decide(self, state: State, action, rng) -> list:
        return _rules().decide(state, action, rng, self.check_legal)

    def apply(self, state: State, action, rng=None):
        """As Ruleset.apply, without folding the events a second time."""
        if state.phase == "over":
            return super().apply(state, action)  # raises the game-over RuleViolation
        last = self._last
        known = last[1] if last[0] is state else None
        if rng is None:
            rng = Rng.for_action(state.seed, state.version)
        after, events, decision = _rules().resolve(state, action, rng, self.check_legal, known)
        self._last = (after, decision)
        return after, events

    def evolve(self, state: State, event) -> State:
        return evolve(state, event)

    def evaluate(self, state: State) -> dict[str, float] | None:
        """The search's value of a running game (``bot.evaluate``)."""
        from . import bot

        return bot.evaluate(state)

    def determinize(self, state: State, seat: str | None, rng: Rng) -> State:
        """The hidden road pieces and the seed drawn again (``hidden.py``)."""
        from .hidden import determinize

        return determinize(state, rng)

    def pieces(self, state: State) -> tuple[str, ...]:
        return tuple(v.id for v in state.vehicles)

    def running(self, state: State, player: str) -> int:
        return sum(1 for v in state.vehicles if v.owner == player and v.status == "operational")

    def elimination(self, event) -> str | None:
        return event.cause if isinstance(event, events.VehicleEliminated) else None

    def score_options(self, state: State, decision: Decision) -> list[float] | None:
        """The greedy bot's heuristics: ``vendetta/bot.py``."""
        from . import bot

        return bot.score_options(state, decision)

    #: set-up step 1, "Choose the rear road piece": `trv new --start-tile` -> the starting piece's side
    START_TILES = {"parking-lot": "the-parking-lot", "perdition": "the-road-to-perdition"}
    setup_choices = {"start_tile": tuple(START_TILES)}
    setup_help = {"start_tile": "Vendetta set-up step 1: the rear road piece (default: drawn by the seed and recorded)."}

    def default_position(self, players, seed: int, start_tile: str | None = None) -> Position:
        if not 2 <= len(players) <= 4:
            raise PositionError("players", f"{len(players)} player{'' if len(players) == 1 else 's'}; "
                                "Vendetta is for 2 to 4")
        road: tuple[str, ...] = ()
        if start_tile is not None:
            if start_tile not in self.START_TILES:
                raise PositionError("start_tile", f"{start_tile!r}; the starting piece is "
                                    f"{' or '.join(self.START_TILES)}")
            road = (self.START_TILES[start_tile],)
        seats = tuple(PlayerSetup(n, c, crew or self.default_crew) for n, c, crew in players)
        c = comp.with_crews(self.components, (p.crew for p in seats), self.name)
        return self._check_colors(validate(Position(players=seats, ruleset=self.name, seed=seed, road=road),
                                           c, self.name, self.state_type.board))

    def position_from_dict(self, data: dict) -> Position:
        c = comp.with_crews(self.components, comp.extra_crews(self.name), self.name)
        return self._check_colors(from_dict(data, c, self.name, self.state_type.board))

    def colors(self) -> tuple[str, ...]:
        return tuple(view.ANSI)

    def crews(self) -> tuple[str, ...]:
        """The crews of its components, and every crew registered to join its games (``comp.register_crew``)."""
        return tuple(dict.fromkeys([*self.components.crews, *comp.extra_crews(self.name)]))

    def _check_colors(self, position: P) -> P:
        """A new game's colours are ones the board can draw (games already
        stored are not re-checked: their positions fold as they are)."""
        for i, p in enumerate(position.players):
            if p.color not in view.ANSI:
                raise PositionError(f"players[{i}].color", f"unknown colour {p.color!r}; colours: "
                                    f"{', '.join(view.ANSI)}", tuple(view.ANSI))
        return position

    def decode_state(self, data: bytes | str) -> State:
        """A stored state; one saved while the crews' state was flat fields of players and
        turns has them lifted into the crews' structs (``stored.decode``), and one saved before
        states carried their components (an old snapshot) is upcast with ``components_v1.v1()``."""
        state = stored.decode(data, self.state_type, self._state_dec)
        if state.components is None and state.phase != "new":
            state = msgspec.structs.replace(state, components=v1())
        return state

    def sentence(self, event) -> str:
        return events.describe(event)

    def describe_action(self, action) -> str:
        from .actions import describe_action

        return describe_action(action)

    def view(self, state: State) -> dict:
        doc = view.view(state)
        doc["ruleset"] = self.name  # a ruleset built on Vendetta's rules names itself
        return doc

    def render(self, state: State, color: bool = False) -> str:
        return view.render(state, color)

    def turn_driver(self, flags: dict) -> Any:
        from .notation import TurnDriver

        return TurnDriver(flags, self.turn_flags)

    def warning(self, state: State, action) -> str:
        return _rules().warning(state, action)

    def legend(self) -> str:
        return view.legend()


RULESET = register(Vendetta())
