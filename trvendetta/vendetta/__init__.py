"""Thunder Road: Vendetta, base game (rules: shared/seeds/000_*.txt).

Exports ``RULESET``, the one object the rest of the system uses.
"""

from __future__ import annotations

from ..core.errors import PositionError
from ..core.protocol import Decision, Ruleset
from ..core.rng import Rng
from . import actions, events, rules, view
from .evolve import evolve
from .model import State
from .notation import TurnDriver
from .position import PlayerSetup, Position, from_dict, validate


class Vendetta(Ruleset):
    name = "vendetta"
    title = "Thunder Road: Vendetta"
    rules_version = rules.RULES_VERSION
    min_players = 2
    max_players = 4
    max_events = 50_000
    action_type = actions.Action
    event_type = events.Event
    state_type = State
    position_type = Position

    def initial_state(self) -> State:
        return State()

    def start(self, position: Position) -> list:
        return rules.start(validate(position))

    def pending(self, state: State) -> Decision | None:
        return rules.pending(state)

    def decide(self, state: State, action, rng) -> list:
        return rules.decide(state, action, rng, self.check_legal)

    def apply(self, state: State, action):
        """As Ruleset.apply, without folding the events a second time."""
        if state.phase == "over":
            return super().apply(state, action)  # raises the game-over RuleViolation
        return rules.resolve(state, action, Rng.for_action(state.seed, state.version), self.check_legal)

    def evolve(self, state: State, event) -> State:
        return evolve(state, event)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def winner(self, state: State) -> str | None:
        return state.winner

    #: set-up step 1, "Choose the rear road piece": `trv new --start-tile` -> the starting piece's side
    START_TILES = {"parking-lot": "the-parking-lot", "perdition": "the-road-to-perdition"}
    setup_choices = {"start_tile": tuple(START_TILES)}

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
        seats = tuple(PlayerSetup(n, c, crew or "cars") for n, c, crew in players)
        return validate(Position(players=seats, seed=seed, road=road))

    def position_from_dict(self, data: dict) -> Position:
        return from_dict(data)

    def describe(self, event) -> str:
        return events.describe(event)

    def describe_action(self, action) -> str:
        return actions.describe_action(action)

    def view(self, state: State) -> dict:
        return view.view(state)

    def render(self, state: State, color: bool = False) -> str:
        return view.render(state, color)

    def turn_driver(self, flags: dict) -> TurnDriver:
        return TurnDriver(flags)

    #: events that show something new beyond rolls and draws: random set-up and new road tiles
    REVEALING_KINDS = frozenset({"road-laid", "hazards-placed", "first-player", "tile-added", "final-piece"})

    def reveals(self, event) -> bool:
        return self.event_kind(event) in self.REVEALING_KINDS or super().reveals(event)


RULESET = Vendetta()
