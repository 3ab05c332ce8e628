"""The one API every ruleset exposes (OpenSpiel style), and the pure game loop.

A ruleset is a small object of pure functions (the decider pattern):

* ``start(position) -> events``: the first events of a game (``GameStarted``
  carrying the validated position, then every set-up roll and draw);
* ``legal_actions(state)``: the options of the one pending decision;
* ``decide(state, action, rng) -> events``: the rules; raises
  :class:`RuleViolation` and produces nothing for an illegal action;
* ``evolve(state, event) -> state``: a tiny handler per event type, never
  validating, so that old games always fold.

State is always the fold of ``evolve`` over the events from ``initial_state()``.
Everything else (the store, the CLI, replays, bots) talks to a ruleset only
through this class, so a new game plugs in by subclassing it and registering
it in :mod:`trvendetta.rulesets`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import msgspec

from .errors import RuleViolation
from .rng import Rng


class Decision(msgspec.Struct, frozen=True):
    """The one thing a game is waiting for: who chooses, what kind, the options."""

    player: str | None
    kind: str
    options: tuple[Any, ...]
    prompt: str = ""


class Ruleset:
    """Base class of every ruleset; subclasses fill in the class attributes."""

    #: registry name (``vendetta``, ``classic``) and the rules version games record
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: set-up choices `trv new` offers besides the seats: keyword of
    #: ``default_position`` -> its legal values (Vendetta: ``start_tile``)
    setup_choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: an upper bound on the number of events in a game (checked by simulation)
    max_events: ClassVar[int] = 100_000
    #: msgspec tagged unions (``typing.Union[...]``) and the state / position types
    action_type: ClassVar[Any] = None
    event_type: ClassVar[Any] = None
    state_type: ClassVar[Any] = None
    position_type: ClassVar[Any] = None

    def __init__(self) -> None:
        self._enc = msgspec.json.Encoder()
        self._event_dec = msgspec.json.Decoder(self.event_type)
        self._action_dec = msgspec.json.Decoder(self.action_type)
        self._state_dec = msgspec.json.Decoder(self.state_type)

    # ------------------------------------------------------------------ rules
    def initial_state(self) -> Any:
        raise NotImplementedError

    def start(self, position: Any) -> list[Any]:
        raise NotImplementedError

    def restart(self, first_event: Any) -> list[Any]:
        """The set-up events of a recorded game again, from its first event
        (re-execution): by default ``start`` of the position it carries; a
        ruleset whose first event also records its components uses those."""
        return self.start(first_event.position)

    def pending(self, state: Any) -> Decision | None:
        raise NotImplementedError

    def legal_actions(self, state: Any) -> list[Any]:
        decision = self.pending(state)
        return [] if decision is None else list(decision.options)

    def decide(self, state: Any, action: Any, rng: Rng) -> list[Any]:
        raise NotImplementedError

    def evolve(self, state: Any, event: Any) -> Any:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def winner(self, state: Any) -> str | None:
        raise NotImplementedError

    def seed(self, state: Any) -> int:
        return state.seed

    def version(self, state: Any) -> int:
        """Number of events folded into ``state``."""
        return state.version

    # ------------------------------------------------------------ positions
    def default_position(self, players: Sequence[tuple[str, str, str]], seed: int) -> Any:
        """A new game's position from ``(name, color, crew)`` triples."""
        raise NotImplementedError

    def position_from_dict(self, data: dict) -> Any:
        """Validate a position (as read from TOML); raises PositionError."""
        raise NotImplementedError

    # --------------------------------------------------------- presentation
    def describe(self, event: Any) -> str:
        """One short human sentence for an event."""
        raise NotImplementedError

    def describe_action(self, action: Any) -> str:
        """The short printed name of an action (``trv decide`` matches it)."""
        raise NotImplementedError

    def view(self, state: Any) -> dict:
        """The ``trv show --json`` document (without game/version/head)."""
        raise NotImplementedError

    def render(self, state: Any, color: bool = False) -> str:
        """The board and dashboards as text."""
        raise NotImplementedError

    def turn_driver(self, flags: dict) -> Any:
        """An object whose ``next(state)`` maps ``trv turn`` flags onto the
        successive actions of one turn (None: the flags do not answer)."""
        raise NotImplementedError

    # -------------------------------------------------------------- codecs
    def encode(self, obj: Any) -> bytes:
        """Canonical JSON of an action, event or state (field order is fixed)."""
        return self._enc.encode(obj)

    def decode_event(self, data: bytes | str) -> Any:
        return self._event_dec.decode(data)

    def decode_action(self, data: bytes | str) -> Any:
        return self._action_dec.decode(data)

    def decode_state(self, data: bytes | str) -> Any:
        return self._state_dec.decode(data)

    def event_kind(self, event: Any) -> str:
        return type(event).__struct_config__.tag

    #: words in an event's tag that mean it shows the players something new
    REVEALING_WORDS: ClassVar[tuple[str, ...]] = ("roll", "drawn", "reveal", "shot")

    def reveals(self, event: Any) -> bool:
        """Whether ``event`` reveals new information (a die roll, a drawn or
        turned token, a scripted outcome): ``trv undo`` will not take back an
        action past it without ``--agreed``.  Rulesets extend this."""
        tag = self.event_kind(event)
        if any(word in tag for word in self.REVEALING_WORDS):
            return True
        return bool(getattr(event, "scripted", False))

    # ------------------------------------------------------------ the loop
    def fold(self, events: Iterable[Any], state: Any = None) -> Any:
        """Fold ``events`` into ``state`` (the initial state when omitted)."""
        evolve = self.evolve
        state = self.initial_state() if state is None else state
        for event in events:
            state = evolve(state, event)
        return state

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]:
        """Decide ``action`` with the derived RNG and fold the result.

        Returns the new state and the new events.  Raises RuleViolation (and
        returns nothing) for an illegal action.
        """
        if self.is_over(state):
            raise RuleViolation("game over", "the game is over; no action is legal")
        rng = Rng.for_action(self.seed(state), self.version(state))
        events = self.decide(state, action, rng)
        return self.fold(events, state), events

    def new_game(self, position: Any) -> tuple[Any, list[Any]]:
        events = self.start(position)
        return self.fold(events), events

    def check_legal(self, state: Any, action: Any) -> Decision:
        """Raise RuleViolation unless ``action`` answers the pending decision."""
        decision = self.pending(state)
        if decision is None:
            raise RuleViolation("game over", "the game is over; no action is legal")
        if action not in decision.options:
            raise RuleViolation(
                f"pending decision: {decision.kind}",
                f"{self.describe_action(action)} does not answer the pending decision "
                f"({decision.kind} for {decision.player})",
                [self.describe_action(o) for o in decision.options],
            )
        return decision
